#pragma once

// How many work items a generated kernel's groups have, and how many groups it launches at
// most (its loops cover the rest): one rule for every kernel family.

#include <plinth/device.hpp>

#include <cstddef>

namespace plinth::detail {

/// Static local memory a kernel may declare on every backend (CUDA's limit).
inline constexpr std::size_t max_static_local_bytes = 48 * 1024;

/// Work items per group for a 1-D launch: `preferred`, at most `kernel_limit` (the kernel's
/// own maximum) and the device's limits, rounded down to a multiple of the warp size where it
/// is larger than one; at least 1. Throws nothing.
std::size_t local_size_for(const DeviceParameters& params, std::size_t kernel_limit,
                           std::size_t preferred) noexcept;

/// Groups to launch at most: `per_compute_unit` per compute unit, within the device's limit
/// on the first dimension; at least 1. Throws nothing.
std::size_t group_limit(const DeviceParameters& params, std::size_t per_compute_unit) noexcept;

/// The largest power of two not above `value` (1 for 0). Throws nothing.
std::size_t power_of_two_floor(std::size_t value) noexcept;

/// Groups of `local` work items that cover `count` items, at most `max_groups`. Throws
/// nothing.
std::size_t groups_for(std::size_t count, std::size_t local, std::size_t max_groups) noexcept;

}  // namespace plinth::detail
