#pragma once

// The memory pools of a context: one DevicePool per device, and the settings they were made
// with (PLINTH_MEMORY_POOL, PLINTH_MEMORY_POOL_LIMIT). Internal to the core.

#include "memory/device_pool.hpp"

#include <plinth/backend/sdk.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace plinth::detail {

/// The settings from the environment, read when a context is made.
struct MemoryPoolSettings {
  bool enabled = true;
  std::optional<std::size_t> limit;
};

/// PLINTH_MEMORY_POOL (off, 0, false, none: disabled) and PLINTH_MEMORY_POOL_LIMIT (bytes,
/// with a K, M or G suffix), read through `getenv`; values it cannot read are warned about
/// and ignored.
PLINTH_EXPORT MemoryPoolSettings
memory_pool_settings_from(const std::function<const char*(const char*)>& getenv);

struct ContextPools {
  MemoryPoolSettings settings;
  /// One per device of the context, in context order; empty when the pool is off.
  std::vector<std::shared_ptr<DevicePool>> devices;
};

/// The pools of a context over `adapter`'s devices, set up as the environment says.
/// `alignments`: each device's address alignment in bytes.
std::shared_ptr<ContextPools> make_context_pools(
    const std::shared_ptr<backend::ContextAdapter>& adapter,
    const std::vector<std::size_t>& alignments, const std::shared_ptr<const void>& plugin);

}  // namespace plinth::detail
