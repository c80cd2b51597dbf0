#pragma once

// A fake environment for the settings readers that take a getenv-like function
// (cache_settings_from, memory_pool_settings_from, the loader's settings_from).

#include <functional>
#include <map>
#include <string>

namespace plinth::test {

/// getenv over `env`: a variable's value, or null when `env` has none. The function refers to
/// `env`, which must outlive it.
inline std::function<const char*(const char*)> fake_environment(
    const std::map<std::string, std::string>& env) {
  return [&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
}

}  // namespace plinth::test
