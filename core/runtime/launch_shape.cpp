#include "runtime/launch_shape.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace plinth::detail {

namespace {

std::size_t limit(const std::vector<std::size_t>& limits, std::size_t d) {
  return d < limits.size() && limits[d] > 0 ? limits[d] : 1;
}

/// The largest divisor of `n` that is at most `bound`.
std::size_t largest_divisor(std::size_t n, std::size_t bound) {
  for (std::size_t candidate = std::min(n, bound); candidate > 1; --candidate) {
    if (n % candidate == 0) return candidate;
  }
  return 1;
}

}  // namespace

backend::LaunchShape make_launch_shape(const std::string& kernel,
                                       const std::vector<std::size_t>& global,
                                       const std::vector<std::size_t>& local, std::size_t local_mem,
                                       const DeviceParameters& device,
                                       std::size_t kernel_max_total_local_size) {
  if (global.empty() || global.size() > 3) {
    throw LogicError(fmt::format("kernel '{}': the global size must have 1 to 3 dimensions, not {}",
                                 kernel, global.size()));
  }
  if (!local.empty() && local.size() != global.size()) {
    throw LogicError(fmt::format("kernel '{}': the local size has {} dimension(s), the global {}",
                                 kernel, local.size(), global.size()));
  }
  const std::size_t max_total =
      std::max<std::size_t>(1, std::min(device.max_total_local_size, kernel_max_total_local_size));
  backend::LaunchShape shape;
  shape.dims = static_cast<unsigned>(global.size());
  shape.local_mem = local_mem;
  std::size_t total = 1;
  for (std::size_t d = 0; d < global.size(); ++d) {
    if (global[d] == 0) {
      throw LogicError(fmt::format("kernel '{}': global size {} is 0 in dimension {}", kernel,
                                   fmt::join(global, "x"), d));
    }
    shape.global[d] = global[d];
    if (local.empty()) {
      shape.local[d] =
          largest_divisor(global[d], std::min(limit(device.max_local_sizes, d), max_total / total));
    } else {
      shape.local[d] = local[d];
      if (local[d] == 0 || global[d] % local[d] != 0) {
        throw LogicError(
            fmt::format("kernel '{}': local size {} does not divide global size {} "
                        "in dimension {}",
                        kernel, fmt::join(local, "x"), fmt::join(global, "x"), d));
      }
      if (local[d] > limit(device.max_local_sizes, d)) {
        throw LogicError(
            fmt::format("kernel '{}': local size {} exceeds the device's limit {} in "
                        "dimension {}",
                        kernel, local[d], limit(device.max_local_sizes, d), d));
      }
    }
    // Saturating: huge per-dimension limits must not let the product wrap below max_total.
    if (__builtin_mul_overflow(total, shape.local[d], &total)) {
      total = std::numeric_limits<std::size_t>::max();
    }
    const std::size_t groups = global[d] / shape.local[d];
    if (!device.max_num_groups.empty() && groups > limit(device.max_num_groups, d)) {
      throw LogicError(
          fmt::format("kernel '{}': {} groups in dimension {} exceed the device's "
                      "limit of {}",
                      kernel, groups, d, limit(device.max_num_groups, d)));
    }
  }
  if (total > max_total) {
    throw LogicError(
        fmt::format("kernel '{}': local size {} has {} work items, more than the {} "
                    "this kernel can have on this device",
                    kernel, fmt::join(local, "x"),
                    total == std::numeric_limits<std::size_t>::max() ? std::string("too many")
                                                                     : std::to_string(total),
                    max_total));
  }
  if (local_mem > device.local_mem_size) {
    throw LogicError(
        fmt::format("kernel '{}': {} bytes of dynamic local memory exceed the "
                    "device's {}",
                    kernel, local_mem, device.local_mem_size));
  }
  return shape;
}

}  // namespace plinth::detail
