#pragma once

#include <plinth/backend/types.hpp>

#include <cstddef>
#include <span>

namespace plinth::backend {

class QueueAdapter;

/// One kernel of a program on one device. A kernel adapter is used by one thread at a time
/// (the core gives every PreparedKernel its own); launch() is the hot path: no heap
/// allocation, no lookup, no lock of plinth's own.
class KernelAdapter {
 public:
  virtual ~KernelAdapter() = default;
  /// The kernel's parameters, introspected once. The core checks arguments against them.
  virtual std::span<const ParamInfo> parameters() const = 0;
  /// The largest number of work items per group this kernel can be launched with.
  virtual std::size_t max_total_local_size() const = 0;
  /// Enqueues the kernel on `queue` (of the same device). `args` were checked by the core.
  /// Throws BackendError.
  virtual void launch(QueueAdapter& queue, const LaunchShape& shape,
                      std::span<const ArgValue> args) = 0;
  /// cl_kernel, CUfunction, hipFunction_t, ze_kernel_handle_t.
  virtual NativeHandle native_handle() const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// How this kernel takes dynamic local memory (see DynamicLocalMemory). Required. Called
  /// once, when the kernel is created; for 1.0 plugins the core assumes last_parameter when
  /// the last parameter is a local_ptr and launch_parameter otherwise, as 1.0 did.
  virtual DynamicLocalMemory dynamic_local_memory() const = 0;
};

}  // namespace plinth::backend
