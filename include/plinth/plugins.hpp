#pragma once

#include <plinth/export.hpp>

#include <string>
#include <vector>

namespace plinth {

/// How a plugin candidate ended (DESIGN.md, "Plugins").
enum class PluginState {
  excluded,        ///< not named by PLINTH_API; never opened
  failed_to_load,  ///< the file could not be read or loaded; `reason` has the loader's text
  refused,         ///< wrong SDK ABI major version; `reason` names both versions
  shadowed,        ///< another plugin with the same shortcut was found first
  init_failed,     ///< the backend's initialisation threw; `reason` has its error
  no_devices,      ///< loaded and initialised, but it has no devices
  ready,           ///< usable
};

/// "excluded", "failed to load", "refused", "shadowed", "init failed", "no devices", "ready".
PLINTH_EXPORT const char* to_string(PluginState state) noexcept;

/// One plugin file the loader considered. The strings are as found (a path may hold any
/// byte but NUL): print them through plinth::printable().
struct PluginInfo {
  std::string path;      ///< the plugin file
  std::string found_by;  ///< "PLINTH_PLUGIN_PATH", "manifest <file>" or "default directory"
  std::string kind;      ///< "backend" or "layer"; empty if the file carried no metadata
  std::string shortcut;  ///< e.g. "opencl"; empty if unknown
  int abi_major = -1;    ///< the plugin's SDK ABI version; -1 if unknown
  int abi_minor = -1;    ///< the minor part of it; -1 if unknown
  PluginState state = PluginState::failed_to_load;  ///< how far loading it got
  std::string reason;                               ///< why it ended in `state` (empty for ready)
  /// Set when users other than the current one (or root) can change the plugin file, the
  /// manifest that named it, or a directory above either: which one, and how. The plugin is
  /// still loaded; plinth-info marks it and PLINTH_DEBUG=loader says so.
  std::string warning;
};

/// Every plugin candidate of this process, in search order, with its state. The first call
/// discovers and loads the plugins (once per process, thread-safe). Never throws for a bad
/// plugin: that is a candidate's state.
PLINTH_EXPORT const std::vector<PluginInfo>& plugins();

/// A table of `candidates` (one per line: state, shortcut, path, then the reason and any
/// warning on lines of their own) for messages, every string made printable().
PLINTH_EXPORT std::string describe_plugins(const std::vector<PluginInfo>& candidates);

}  // namespace plinth
