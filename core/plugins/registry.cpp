#include "plugins/registry.hpp"

#include <algorithm>
#include <array>

namespace plinth::detail {

int preference_rank(const std::string& shortcut) {
  static constexpr std::array<const char*, 4> order{"cuda", "hip", "level_zero", "opencl"};
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (shortcut == order[i]) return static_cast<int>(i);
  }
  return static_cast<int>(order.size());
}

namespace {

Registry load_registry() {
  Registry registry;
  const LoaderSettings settings = settings_from_env();
  registry.api_filter = settings.api_filter;
  for (auto& plugin : load_plugins(settings)) {
    if (plugin.api) registry.apis.push_back(std::move(plugin.api));
    registry.infos.push_back(std::move(plugin.info));
  }
  std::stable_sort(registry.apis.begin(), registry.apis.end(), [](const auto& a, const auto& b) {
    const int ra = preference_rank(a->id.shortcut), rb = preference_rank(b->id.shortcut);
    return ra != rb ? ra < rb : a->id.shortcut < b->id.shortcut;
  });
  return registry;
}

}  // namespace

const Registry& registry() {
  static const Registry instance = load_registry();  // thread-safe initialisation
  return instance;
}

}  // namespace plinth::detail
