#pragma once

#include <plinth/backend/types.hpp>
#include <plinth/device_parameters.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace plinth::detail {

/// The launch shape for `global` work items and `local` per group (empty: chosen here as the
/// largest sizes that divide the global size, within the device's and the kernel's limits,
/// filling dimension 0 first). Throws LogicError naming `kernel` for a bad shape.
PLINTH_EXPORT backend::LaunchShape make_launch_shape(const std::string& kernel,
                                                     const std::vector<std::size_t>& global,
                                                     const std::vector<std::size_t>& local,
                                                     std::size_t local_mem,
                                                     const DeviceParameters& device,
                                                     std::size_t kernel_max_total_local_size);

}  // namespace plinth::detail
