#include "cache/cache_settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace plinth::detail {

namespace {

/// PLINTH_CACHE_SIZE: a decimal byte count, optionally with a K, M or G suffix (binary).
bool parse_size(std::string_view text, std::uint64_t& out) {
  if (text.empty()) return false;
  std::uint64_t multiplier = 1;
  switch (text.back()) {
    case 'k':
    case 'K': multiplier = std::uint64_t{1} << 10; break;
    case 'm':
    case 'M': multiplier = std::uint64_t{1} << 20; break;
    case 'g':
    case 'G': multiplier = std::uint64_t{1} << 30; break;
    default: break;
  }
  if (multiplier != 1) text.remove_suffix(1);
  if (text.empty()) return false;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  if (value > std::numeric_limits<std::uint64_t>::max() / multiplier) return false;
  out = value * multiplier;
  return true;
}

/// PLINTH_CACHE_DIR words for "no cache": off, 0, false, none, in any case.
bool means_off(std::string_view value) {
  for (const std::string_view word : {"off", "0", "false", "none"}) {
    if (value.size() == word.size() &&
        std::equal(value.begin(), value.end(), word.begin(), [](char a, char b) {
          return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b;
        })) {
      return true;
    }
  }
  return false;
}

}  // namespace

CacheSettings cache_settings_from(const std::function<const char*(const char*)>& getenv) {
  CacheSettings settings;
  if (const char* size = getenv("PLINTH_CACHE_SIZE"); size != nullptr && *size != '\0') {
    if (!parse_size(size, settings.size_limit)) {
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
