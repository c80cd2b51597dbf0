#pragma once

// SDK 1.7's BLAS adapter over CLBlast (clblast.hpp), on one command queue. CLBlast compiles
// its kernels for a device on first use and keeps them for the process; it has no handle, so
// the adapter holds the queue and whether its device launches one kernel at a time
// (launch_order.hpp: CLBlast's kernels then take their turn as plinth's do).

#include "clblast.hpp"

#include <plinth/backend/blas_library.hpp>

#include <CL/cl.h>

#include <memory>

namespace plinth::opencl {

/// CLBlast on one queue. Made by Queue::create_blas(); the core destroys it before the queue
/// and calls it from one thread at a time.
class Blas final : public backend::BlasAdapter {
 public:
  /// CLBlast on `queue` (not retained: the queue outlives the adapter), of `device`. Throws
  /// LogicError where CLBlast is not available, BackendError.
  static std::unique_ptr<Blas> create(cl_command_queue queue, cl_device_id device);

  /// CLBlast<t>gemm for one product, CLBlast<t>gemmStridedBatched for more, column-major.
  /// tensor_float32 is ignored (CLBlast has no such mode). Throws BackendError with CLBlast's
  /// status.
  void gemm(const backend::BlasGemm& call) override;
  /// CLBlast<t>gemv. Throws as gemm().
  void gemv(const backend::BlasGemv& call) override;

 private:
  Blas(cl_command_queue queue, bool in_launch_order) noexcept
      : queue_(queue), in_launch_order_(in_launch_order) {}
  /// Runs `routine(queue, event)` (a CLBlast call) on the queue, in launch order where the
  /// device needs it.
  template <class Routine>
  void run(const char* name, Routine&& routine);

  cl_command_queue queue_;
  bool in_launch_order_;
};

}  // namespace plinth::opencl
