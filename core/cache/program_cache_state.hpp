#pragma once

// The process's compiled-program cache: its settings, its directory (when one is configured)
// or the in-memory cache, and its counters (ProgramCacheInfo).

#include "cache/cache_settings.hpp"
#include "cache/disk_cache.hpp"
#include "cache/memory_cache.hpp"

#include <atomic>
#include <cstddef>
#include <optional>

namespace plinth::detail {

/// Set up once per process; the members may be used from any thread.
struct ProgramCacheState {
  CacheSettings settings;
  /// The directory, when configured and usable; otherwise (unless off) `memory` is used.
  std::optional<DiskCache> disk;
  /// Why the directory is not used (empty when `disk` is set or the cache is off).
  std::string disk_problem;
  MemoryCache memory{std::size_t{64} << 20};
  std::atomic<std::size_t> compiled{0}, loaded{0}, stored{0}, rejected{0};
};

/// The process's cache, set up (settings read, directory created) at the first call, which
/// says on PLINTH_DEBUG=cache where the cache is or why it is disabled. Any thread; throws
/// nothing but std::bad_alloc.
ProgramCacheState& program_cache_state();

}  // namespace plinth::detail
