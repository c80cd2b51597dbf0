#pragma once

// The process's plugins: loaded once, on first use, from the environment's settings.

#include "plugins/loader.hpp"

#include <string>
#include <vector>

namespace plinth::detail {

struct Registry {
  std::vector<PluginInfo> infos;
  /// Loaded APIs (ready or without devices), in default preference order.
  std::vector<std::shared_ptr<LoadedApi>> apis;
  std::optional<std::vector<std::string>> api_filter;
};

/// The process's registry; the first call loads the plugins (thread-safe).
const Registry& registry();

/// Default preference: cuda, hip, level_zero, opencl, then the rest alphabetically.
int preference_rank(const std::string& shortcut);

}  // namespace plinth::detail
