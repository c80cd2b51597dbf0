#include <plinth/static_kernel.hpp>

#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"
#include "runtime/program_build.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <numeric>

namespace plinth {

namespace detail {

struct StaticKernelData {
  Program program;
  PreparedKernel prepared;
  std::vector<VirtualSizes> sizes;  // per program slot
};

namespace {

/// The render global a static kernel's source finds its VsizeModules under.
constexpr const char* static_global = "static";

/// How often the sizes are chosen again for a kernel whose limit turned out lower than the
/// local size chosen (each time the limit falls, so this is never reached in practice).
constexpr int max_attempts = 8;

std::size_t product(const std::vector<std::size_t>& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), std::size_t{1}, std::multiplies<>());
}

/// `device`'s limits, lowered to `wanted`'s where those are smaller.
VirtualSizeLimits limits_for(const BoundDevice& device,
                             const std::optional<VirtualSizeLimits>& wanted) {
  auto limits = VirtualSizeLimits::for_device(device.params());
  if (!wanted) return limits;
  limits.max_total_local_size = std::min(limits.max_total_local_size, wanted->max_total_local_size);
  for (std::size_t d = 0; d < 3; ++d) {
    limits.max_local_sizes[d] = std::min(limits.max_local_sizes[d], wanted->max_local_sizes[d]);
    limits.max_num_groups[d] = std::min(limits.max_num_groups[d], wanted->max_num_groups[d]);
  }
  limits.local_size_multiple = wanted->local_size_multiple;
  return limits;
}

std::shared_ptr<const StaticKernelData> make(
    const BoundMultiDevice& devices, const ProgramSource& source, const std::string& name,
    const std::vector<std::vector<std::size_t>>& global_sizes,
    const std::vector<std::size_t>& local_size, const ProgramOptions& options,
    const std::optional<VirtualSizeLimits>& wanted_limits) {
  if (options.render_globals.contains(static_global)) {
    throw LogicError(
        fmt::format("The global name '{}' is reserved in static kernels", static_global));
  }
  std::vector<VirtualSizeLimits> limits;
  for (const auto& device : devices) limits.push_back(limits_for(device, wanted_limits));

  for (int attempt = 0;; ++attempt) {
    std::vector<VirtualSizes> sizes;
    std::vector<RenderGlobals> extra;
    for (std::size_t slot = 0; slot < devices.size(); ++slot) {
      sizes.emplace_back(limits[slot], global_sizes[slot], local_size);
      extra.push_back({{static_global, sizes.back().modules()}});
    }
    auto program = detail::Access::make<Program>(build_program(devices, source, options, extra));
    auto kernel = make_kernel(program, name);

    // The kernel's own limit (registers, local memory) may be below the device's: choose the
    // sizes again within it and rebuild.
    bool again = false;
    for (std::size_t slot = 0; slot < devices.size(); ++slot) {
      const std::size_t kernel_max = kernel->slots[slot].adapter->max_total_local_size();
      const std::size_t wanted = product(sizes[slot].real_local_size());
      if (wanted <= kernel_max) continue;
      const auto& device = devices[slot];
      if (kernel_max == 0) {
        throw LogicError(fmt::format(
            "static kernel '{}' cannot run on device {} ('{}'): its resources allow no work "
            "items per group",
            name, device.index(), device.name()));
      }
      if (!local_size.empty()) {
        throw LogicError(fmt::format(
            "static kernel '{}': the local size [{}] takes {} work items per group on device "
            "{} ('{}'), but the kernel can run at most {}",
            name, fmt::join(local_size, ", "), wanted, device.index(), device.name(), kernel_max));
      }
      if (attempt + 1 == max_attempts) {
        throw LogicError(fmt::format(
            "static kernel '{}': no local size fits the kernel's limit on device {} ('{}') "
            "after {} attempts",
            name, device.index(), device.name(), max_attempts));
      }
      debug(DebugTopic::compile,
            "static kernel '{}' runs at most {} work items per group on device {}, not {}: "
            "choosing its sizes again",
            name, kernel_max, device.index(), wanted);
      limits[slot].max_total_local_size = kernel_max;
      again = true;
    }
    if (again) continue;

    for (std::size_t slot = 0; slot < devices.size(); ++slot) {
      prepare_slot(*kernel, slot, sizes[slot].real_global_size(), sizes[slot].real_local_size(), 0);
    }
    return std::make_shared<const StaticKernelData>(StaticKernelData{
        program, detail::Access::make<PreparedKernel>(std::move(kernel)), std::move(sizes)});
  }
}

std::size_t slot_of(const StaticKernelData& data, const BoundDevice& device, const char* what) {
  const auto& devices = data.program.devices();
  for (std::size_t slot = 0; slot < devices.size(); ++slot) {
    if (devices[slot] == device) return slot;
  }
  throw LogicError(
      fmt::format("StaticKernel::{}: device {} ('{}') is not one the kernel was "
                  "built for",
                  what, device.index(), device.name()));
}

}  // namespace

}  // namespace detail

StaticKernel::StaticKernel(std::shared_ptr<const detail::StaticKernelData> impl)
    : impl_(std::move(impl)), prepared_(impl_->prepared) {}

StaticKernel::StaticKernel(const BoundMultiDevice& devices, const ProgramSource& source,
                           const std::string& name, const std::vector<std::size_t>& global_size,
                           const std::vector<std::size_t>& local_size,
                           const ProgramOptions& options,
                           const std::optional<VirtualSizeLimits>& limits)
    : StaticKernel(detail::make(devices, source, name,
                                std::vector<std::vector<std::size_t>>(devices.size(), global_size),
                                local_size, options, limits)) {}

namespace {

std::vector<std::vector<std::size_t>> sizes_of_each(
    const BoundMultiDevice& devices, const PerDevice<std::vector<std::size_t>>& global_sizes) {
  std::vector<std::vector<std::size_t>> sizes;
  for (const auto& device : devices) {
    const auto* size = global_sizes.find(device);
    if (size == nullptr) {
      throw LogicError(fmt::format("StaticKernel: no global size for device {} ('{}')",
                                   device.index(), device.name()));
    }
    sizes.push_back(*size);
  }
  for (const auto& [device, size] : global_sizes) {
    if (std::find(devices.begin(), devices.end(), device) == devices.end()) {
      throw LogicError(
          fmt::format("StaticKernel: a global size for device {} ('{}'), which is not one of "
                      "the kernel's devices",
                      device.index(), device.name()));
    }
  }
  return sizes;
}

}  // namespace

StaticKernel::StaticKernel(const BoundMultiDevice& devices, const ProgramSource& source,
                           const std::string& name,
                           const PerDevice<std::vector<std::size_t>>& global_sizes,
                           const std::vector<std::size_t>& local_size,
                           const ProgramOptions& options,
                           const std::optional<VirtualSizeLimits>& limits)
    : StaticKernel(detail::make(devices, source, name, sizes_of_each(devices, global_sizes),
                                local_size, options, limits)) {}

const BoundMultiDevice& StaticKernel::devices() const { return impl_->program.devices(); }
PerDevice<std::string> StaticKernel::sources() const { return impl_->program.sources(); }
const Program& StaticKernel::program() const { return impl_->program; }

void StaticKernel::set_constant_array(const Queue& queue, const std::string& name,
                                      const Buffer& src) const {
  impl_->program.set_constant_array(queue, name, src);
}

const VirtualSizes& StaticKernel::virtual_sizes(const BoundDevice& device) const {
  return impl_->sizes[detail::slot_of(*impl_, device, "virtual_sizes")];
}

std::vector<std::size_t> StaticKernel::real_global_size(const BoundDevice& device) const {
  return virtual_sizes(device).real_global_size();
}

std::vector<std::size_t> StaticKernel::real_local_size(const BoundDevice& device) const {
  return virtual_sizes(device).real_local_size();
}

}  // namespace plinth
