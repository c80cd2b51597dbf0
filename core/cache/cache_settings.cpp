#include "cache/cache_settings.hpp"

#include "runtime/env_values.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <string_view>

namespace plinth::detail {

CacheSettings cache_settings_from(const std::function<const char*(const char*)>& getenv) {
  CacheSettings settings;
  if (const char* size = getenv("PLINTH_CACHE_SIZE"); size != nullptr && *size != '\0') {
    if (!parse_byte_size(size, settings.size_limit)) {
      // Quoted as given: warn() escapes it (printable() here too escaped it twice).
      settings.warnings.push_back(fmt::format(
          "PLINTH_CACHE_SIZE='{}' is not a byte count: using {}", size, default_cache_size_limit));
      settings.size_limit = default_cache_size_limit;
    }
  }
  const char* dir = getenv("PLINTH_CACHE_DIR");
  if (dir != nullptr && *dir != '\0') {
    if (means_off(dir)) {
      settings.reason = fmt::format("PLINTH_CACHE_DIR={}", dir);
      settings.off = true;
      return settings;
    }
    if (!std::filesystem::path(dir).is_absolute()) {
      settings.reason = fmt::format("PLINTH_CACHE_DIR='{}' is not an absolute path", dir);
      settings.warnings.push_back(fmt::format(
          "{}: ignored (the cache is never put relative to the current directory); compiled "
          "programs are reused within this process only",
          settings.reason));
      return settings;
    }
    settings.directory = std::filesystem::path(dir).lexically_normal();
    settings.explicit_directory = true;
    settings.enabled = true;
    return settings;
  }
  const char* xdg = getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg == '/') {
    settings.directory = std::filesystem::path(xdg).lexically_normal() / "plinth";
    settings.enabled = true;
    return settings;
  }
  const char* home = getenv("HOME");
  if (home != nullptr && *home == '/') {
    settings.directory = std::filesystem::path(home).lexically_normal() / ".cache" / "plinth";
    settings.enabled = true;
    return settings;
  }
  settings.reason =
      "no cache directory: PLINTH_CACHE_DIR is unset and neither XDG_CACHE_HOME nor HOME is an "
      "absolute path";
  return settings;
}

const CacheSettings& cache_settings() {
  static const CacheSettings settings =
      cache_settings_from([](const char* name) { return ::secure_getenv(name); });
  return settings;
}

}  // namespace plinth::detail
