#include <plinth/plugins.hpp>

#include "plugins/registry.hpp"

#include <plinth/printable.hpp>

#include <fmt/format.h>

namespace plinth {

const char* to_string(PluginState state) noexcept {
  switch (state) {
    case PluginState::excluded: return "excluded";
    case PluginState::failed_to_load: return "failed to load";
    case PluginState::refused: return "refused";
    case PluginState::shadowed: return "shadowed";
    case PluginState::init_failed: return "init failed";
    case PluginState::no_devices: return "no devices";
    case PluginState::ready: return "ready";
  }
  return "unknown";
}

const std::vector<PluginInfo>& plugins() { return detail::registry().infos; }

std::string describe_plugins(const std::vector<PluginInfo>& candidates) {
  if (candidates.empty()) {
    return "  no plugin files were found (searched PLINTH_PLUGIN_PATH, plugins.d manifests "
           "and the plugin directory next to libplinth)\n";
  }
  std::string out;
  for (const auto& info : candidates) {
    out +=
        fmt::format("  {:<14} {:<10} {}", to_string(info.state),
                    info.shortcut.empty() ? "?" : printable(info.shortcut), printable(info.path));
    if (!info.reason.empty()) out += fmt::format("\n  {:<14} {}", "", printable(info.reason));
    if (!info.warning.empty()) {
      out += fmt::format("\n  {:<14} WARNING: other users can change it: {}", "",
                         printable(info.warning));
    }
    out += '\n';
  }
  return out;
}

}  // namespace plinth
