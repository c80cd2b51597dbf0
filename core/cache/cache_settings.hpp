#pragma once

// Where the compiled-program cache lives and how large it may grow: PLINTH_CACHE_DIR
// (default $XDG_CACHE_HOME/plinth, else ~/.cache/plinth; "off" disables the cache) and
// PLINTH_CACHE_SIZE (bytes), as DESIGN.md's environment table says.

#include <plinth/export.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace plinth::detail {

/// The cache's default size limit: 1 GiB.
inline constexpr std::uint64_t default_cache_size_limit = std::uint64_t{1} << 30;

/// The cache's settings. Plain value.
struct CacheSettings {
  bool enabled = false;             ///< false: "off", or no usable default location
  bool off = false;                 ///< PLINTH_CACHE_DIR=off: no caching at all
  std::filesystem::path directory;  ///< absolute; empty when !enabled
  std::uint64_t size_limit = default_cache_size_limit;
  std::string reason;  ///< why !enabled
  std::string note;    ///< a PLINTH_CACHE_SIZE that is ignored, and why
};

/// The settings from the variables `getenv` returns (null: unset). A relative
/// XDG_CACHE_HOME or HOME is ignored; a relative PLINTH_CACHE_DIR is made absolute against the
/// current directory, since the user named it. Never throws (besides std::bad_alloc).
PLINTH_EXPORT CacheSettings
cache_settings_from(const std::function<const char*(const char*)>& getenv);

/// This process's settings, read once (secure_getenv) at the first call. Any thread.
const CacheSettings& cache_settings();

}  // namespace plinth::detail
