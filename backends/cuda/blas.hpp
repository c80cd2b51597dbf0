#pragma once

// SDK 1.7's BLAS adapter over cuBLAS (cublas.hpp): one handle per queue, bound to the queue's
// stream, with a workspace of its own, so that products on different queues run side by side
// and in order with the rest of each queue's work.

#include "cublas.hpp"

#include <plinth/backend/blas_library.hpp>

#include <cuda.h>

#include <cstddef>
#include <memory>

namespace plinth::cuda {

/// A cuBLAS handle on one stream. Made by Queue::create_blas(); the core destroys it before
/// the queue and calls it from one thread at a time.
class Blas final : public backend::BlasAdapter {
 public:
  /// A handle in `context` (made current for the calls) on `stream`, with a workspace of
  /// `workspace_bytes` of device memory, in strict FP32 math. Throws LogicError where cuBLAS is
  /// not available, BackendError, OutOfMemoryError.
  static std::unique_ptr<Blas> create(CUcontext context, CUstream stream,
                                      std::size_t workspace_bytes);
  ~Blas() override;
  Blas(const Blas&) = delete;
  Blas& operator=(const Blas&) = delete;

  /// cublas<t>gemm_v2 for one product, cublas<t>gemmStridedBatched for more; the math mode
  /// switched to TF32 tensor cores only for a call that allows it. Throws LogicError for a
  /// size beyond cuBLAS's int, BackendError.
  void gemm(const backend::BlasGemm& call) override;
  /// cublas<t>gemv_v2. Throws as gemm().
  void gemv(const backend::BlasGemv& call) override;

  /// cuBLAS's recommended workspace for a device of compute capability `major`: 32 MiB on
  /// Hopper and later, 4 MiB before.
  static std::size_t workspace_for(int cc_major) noexcept;

 private:
  Blas(CUcontext context, cublas::Context* handle, CUdeviceptr workspace) noexcept
      : context_(context), handle_(handle), workspace_(workspace) {}

  CUcontext context_;
  cublas::Context* handle_;
  CUdeviceptr workspace_;
  cublas::Math math_ = cublas::Math::default_math;
};

}  // namespace plinth::cuda
