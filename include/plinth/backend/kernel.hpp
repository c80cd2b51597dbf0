#pragma once

#include <plinth/backend/types.hpp>

#include <cstddef>
#include <span>

namespace plinth::backend {

class QueueAdapter;

/// One kernel of a program on one device (ProgramAdapter::create_kernel()).
///
/// A kernel adapter is used by one thread at a time: the core makes a new set of kernel
/// adapters for every Kernel and PreparedKernel, so adapters of the same kernel may launch at
/// once from different threads. The core destroys kernels before their program.
class KernelAdapter {
 public:
  virtual ~KernelAdapter() = default;
  /// The kernel's parameters, introspected once when the adapter is made, as a view of
  /// storage the adapter owns (docs/plugin-interface.md, "Kernel arguments").
  ///
  /// Called right after create_kernel() (and, for 1.0 plugins, once more to infer the
  /// dynamic local memory); the core keeps the view for the adapter's whole life, and checks
  /// every prepare's and every launch's arguments against it, so it must stay valid and
  /// unchanged. No heap allocation or lock (LDP_6). Since SDK 1.0; required.
  virtual std::span<const ParamInfo> parameters() const = 0;
  /// The largest number of work items per group this kernel can be launched with.
  ///
  /// Called at every prepare (with the device's limit, it bounds the automatic local size
  /// and checks a given one), for every new shape of a Kernel call, when a StaticKernel is
  /// made, and by Kernel::max_total_local_sizes(). Throws BackendError. Since SDK 1.0;
  /// required.
  virtual std::size_t max_total_local_size() const = 0;
  /// Enqueues the kernel on `queue`, which is on this kernel's device.
  ///
  /// The hot path: no heap allocation, no lookup, no lock of the backend's own (LDP_6).
  /// Before the call, `shape` was fixed and checked at prepare (`global[d]` a multiple of
  /// `local[d]`, within the device's and the kernel's limits, `local_mem` at most the
  /// device's `local_mem_size`), and `args` holds as many arguments as prepare decided, each
  /// checked against parameters(); see DynamicLocalMemory for how `shape.local_mem` is
  /// passed. `args` and the data it points to are valid for the call only. Throws
  /// BackendError. Since SDK 1.0; required.
  virtual void launch(QueueAdapter& queue, const LaunchShape& shape,
                      std::span<const ArgValue> args) = 0;
  /// cl_kernel, CUfunction, hipFunction_t, ze_kernel_handle_t.
  ///
  /// The core does not call it at present. Since SDK 1.0; required.
  virtual NativeHandle native_handle() const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// How this kernel takes dynamic local memory (see DynamicLocalMemory), as the kernel
  /// really takes it (LDP_9).
  ///
  /// Called once per adapter, right after create_kernel(). The core refuses at prepare what
  /// the kernel cannot take, and fixes the argument count. For 1.0 plugins the core assumes
  /// `last_parameter` when the last parameter is a `local_ptr`, and `launch_parameter`
  /// otherwise, as 1.0 did. Since SDK 1.1; required (pure virtual).
  virtual DynamicLocalMemory dynamic_local_memory() const = 0;
};

}  // namespace plinth::backend
