#pragma once

#include <cstddef>
#include <optional>

namespace plinth {

/// A device's global memory in bytes (PyCUDA's mem_get_info, BoundDevice::memory_info()).
///
/// SDK note: a backend fills this in ContextAdapter::memory_info() (SDK 1.6). Fields are only
/// ever appended.
struct MemoryInfo {
  /// All of the device's global memory.
  std::size_t total = 0;
  /// What is free now, for any process; absent where the backend cannot tell (OpenCL without
  /// an extension that says it, Level Zero without Sysman, plugins before SDK 1.6).
  std::optional<std::size_t> free;
};

}  // namespace plinth
