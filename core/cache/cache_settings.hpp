#pragma once

// Where the compiled-program cache lives and how large it may grow: PLINTH_CACHE_DIR
// (default $XDG_CACHE_HOME/plinth, else ~/.cache/plinth; "off" disables the cache) and
// PLINTH_CACHE_SIZE (bytes), as DESIGN.md's environment table says. What the user set and
// plinth cannot use is warned about once (program_cache_state.cpp), never silently replaced.

#include <plinth/export.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace plinth::detail {

/// The cache's default size limit: 1 GiB.
inline constexpr std::uint64_t default_cache_size_limit = std::uint64_t{1} << 30;

/// The cache's settings. Plain value.
struct CacheSettings {
  bool enabled = false;  ///< false: "off", a relative PLINTH_CACHE_DIR, or no default location
  bool off = false;      ///< PLINTH_CACHE_DIR=off (or OFF, 0, false, none): no caching at all
  bool explicit_directory = false;  ///< `directory` is PLINTH_CACHE_DIR, not the default
  std::filesystem::path directory;  ///< absolute; empty when !enabled
  std::uint64_t size_limit = default_cache_size_limit;
  std::string reason;  ///< why !enabled
  /// What the user set that is ignored, why, and what plinth does instead: to be said once on
  /// stderr (warn() makes them printable; they quote the values as given).
  std::vector<std::string> warnings;
};

/// The settings from the variables `getenv` returns (null: unset). PLINTH_CACHE_DIR `off`,
/// `0`, `false` or `none` (any case) turns the cache off; a relative PLINTH_CACHE_DIR is
/// refused with a warning (the cache is then kept in memory: never relative to the current
/// directory, and not silently elsewhere); a relative XDG_CACHE_HOME or HOME is ignored (the
/// XDG rule). Never throws (besides std::bad_alloc).
PLINTH_EXPORT CacheSettings
cache_settings_from(const std::function<const char*(const char*)>& getenv);

/// This process's settings, read once (secure_getenv) at the first call. Any thread.
const CacheSettings& cache_settings();

}  // namespace plinth::detail
