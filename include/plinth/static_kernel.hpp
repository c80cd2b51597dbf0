#pragma once

/// \file
/// Static kernels (grunnur's StaticKernel): a kernel compiled for one launch shape given as
/// virtual sizes of any number of dimensions and any extents, which VirtualSizes maps onto
/// each device's real grid. The kernel finds its place with the `static` render global
/// instead of get_global_id() and friends:
///
///     StaticKernel multiply(context.devices(), R"(
///     KERNEL void multiply(GLOBAL_MEM float *dest, GLOBAL_MEM float *a, GLOBAL_MEM float *b)
///     {
///         if (${static.skip}()) return;
///         const VSIZE_T x = ${static.global_id}(0), y = ${static.global_id}(1);
///         dest[${static.global_flat_id}()] = a[x] * b[y];
///     })", "multiply", {15, 11});
///     multiply(queue, dest, a, b);
///
/// Dimension 0 varies fastest, as everywhere in plinth (see virtual_size.hpp).

#include <plinth/context.hpp>
#include <plinth/export.hpp>
#include <plinth/per_device.hpp>
#include <plinth/program.hpp>
#include <plinth/queue.hpp>
#include <plinth/virtual_size.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace plinth {

namespace detail {
struct StaticKernelData;
}  // namespace detail

/// A kernel of a program rendered and built for one virtual launch shape, prepared once:
/// calling it is a PreparedKernel launch. Cheap to copy (shared); calls on one StaticKernel
/// (and its copies) must not overlap in time, as for PreparedKernel.
class PLINTH_EXPORT StaticKernel {
 public:
  /// Renders `source` for each device of `devices` with options.render_globals plus
  /// `static` (the VsizeModules of that device's VirtualSizes) and `device_params`, builds
  /// it, and prepares kernel `name` with the real sizes. `global_size` is the virtual global
  /// size (any number of dimensions, dimension 0 fastest), `local_size` the virtual local
  /// size (the same rank; empty: chosen for each device). Where the compiled kernel can run
  /// fewer work items per group than the chosen local size has (registers, local memory),
  /// the sizes are chosen again within the kernel's limit and the source rebuilt.
  /// `limits`, when given, are fitted into instead of each device's own (each limit lowered
  /// to the device's where that is smaller): for tests, and kernels that want fewer
  /// resources. Throws LogicError if render_globals has a `static` ("The global name
  /// 'static' is reserved in static kernels") or `device_params`, or if the kernel can run
  /// no work item per group or fewer than an explicit local size needs; VirtualSizeError for
  /// sizes the device cannot hold (see VirtualSizes); RenderError; CompileError.
  StaticKernel(const BoundMultiDevice& devices, const ProgramSource& source,
               const std::string& name, const std::vector<std::size_t>& global_size,
               const std::vector<std::size_t>& local_size = {}, const ProgramOptions& options = {},
               const std::optional<VirtualSizeLimits>& limits = std::nullopt);
  /// As above, with a virtual global size per device; every device of `devices` needs one,
  /// and no other device may have one (LogicError).
  StaticKernel(const BoundMultiDevice& devices, const ProgramSource& source,
               const std::string& name, const PerDevice<std::vector<std::size_t>>& global_sizes,
               const std::vector<std::size_t>& local_size = {}, const ProgramOptions& options = {},
               const std::optional<VirtualSizeLimits>& limits = std::nullopt);

  /// Enqueues the kernel on `queue` with `args` (Buffers, Arrays and scalars, in parameter
  /// order). Throws LogicError naming the kernel and the argument if they do not match its
  /// parameters, or if the queue is not on one of devices(); BackendError.
  template <class... Args>
  void operator()(const Queue& queue, const Args&... args) const {
    prepared_(queue, args...);
  }
  /// Enqueues the kernel on every queue of `queues`, with MultiArray and PerDevice arguments
  /// taken per device (see PreparedKernel's MultiQueue call, which throws the same).
  template <class... Args>
  void operator()(const MultiQueue& queues, const Args&... args) const {
    prepared_(queues, args...);
  }
  /// As operator(), with the arguments already packed.
  void launch(const Queue& queue, std::span<const KernelArg> args) const {
    prepared_.launch(queue, args);
  }

  /// The devices the kernel was built for.
  const BoundMultiDevice& devices() const;
  /// Each device's source as compiled (rendered, prelude included).
  PerDevice<std::string> sources() const;
  /// The program the kernel belongs to.
  const Program& program() const;
  /// Copies `src` into constant array `name` on `queue`'s device (Program::set_constant_array,
  /// which throws the same).
  void set_constant_array(const Queue& queue, const std::string& name, const Buffer& src) const;
  /// The virtual sizes on `device`, as mapped onto its real grid. Throws LogicError for a
  /// device the kernel was not built for.
  const VirtualSizes& virtual_sizes(const BoundDevice& device) const;
  ///@{
  /// The real global and local sizes the kernel is launched with on `device`. Throw as
  /// virtual_sizes().
  std::vector<std::size_t> real_global_size(const BoundDevice& device) const;
  std::vector<std::size_t> real_local_size(const BoundDevice& device) const;
  ///@}

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from StaticKernel still refers to its object and every call on it is defined.
  StaticKernel(const StaticKernel&) = default;
  StaticKernel& operator=(const StaticKernel&) = default;
  ~StaticKernel() = default;
  ///@}

 private:
  explicit StaticKernel(std::shared_ptr<const detail::StaticKernelData> impl);

  std::shared_ptr<const detail::StaticKernelData> impl_;
  PreparedKernel prepared_;  // a copy of the one in impl_, for the inline calls
};

}  // namespace plinth
