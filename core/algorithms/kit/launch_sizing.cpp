#include "algorithms/kit/launch_sizing.hpp"

#include <algorithm>

namespace plinth::detail {

std::size_t local_size_for(const DeviceParameters& params, std::size_t kernel_limit,
                           std::size_t preferred) noexcept {
  std::size_t local = std::max<std::size_t>(preferred, 1);
  local = std::min(local, std::max<std::size_t>(kernel_limit, 1));
  local = std::min(local, std::max<std::size_t>(params.max_total_local_size, 1));
  if (!params.max_local_sizes.empty()) {
    local = std::min(local, std::max<std::size_t>(params.max_local_sizes[0], 1));
  }
  if (params.warp_size > 1 && local > params.warp_size) local -= local % params.warp_size;
  return local;
}

std::size_t group_limit(const DeviceParameters& params, std::size_t per_compute_unit) noexcept {
  std::size_t groups = std::max<std::size_t>(params.compute_units, 1) * per_compute_unit;
  if (!params.max_num_groups.empty() && params.max_num_groups[0] > 0) {
    groups = std::min(groups, params.max_num_groups[0]);
  }
  return std::max<std::size_t>(groups, 1);
}

std::size_t power_of_two_floor(std::size_t value) noexcept {
  std::size_t result = 1;
  while (result <= value / 2) result *= 2;
  return result;
}

std::size_t groups_for(std::size_t count, std::size_t local, std::size_t max_groups) noexcept {
  return std::min(count / local + (count % local != 0 ? 1 : 0), max_groups);
}

}  // namespace plinth::detail
