#pragma once

// Plugin discovery and loading (DESIGN.md, "Plugins"). The registry runs this once per
// process with settings from the environment; tests run it with their own settings.

#include "runtime/impl.hpp"

#include <plinth/export.hpp>
#include <plinth/plugins.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plinth::detail {

/// Where to look and what to admit.
struct LoaderSettings {
  std::vector<std::filesystem::path> plugin_path;    ///< PLINTH_PLUGIN_PATH, searched first
  std::vector<std::filesystem::path> manifest_dirs;  ///< plugins.d directories, in order
  std::filesystem::path default_dir;                 ///< next to libplinth; empty: none
  /// PLINTH_API's shortcuts; unset: every shortcut is admitted.
  std::optional<std::vector<std::string>> api_filter;
  /// Values that were ignored: printed as warnings (the user asked for something plinth
  /// will not do) and as PLINTH_DEBUG=loader lines (quietly ignored by rule), respectively.
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
};

/// One candidate and, if it ended ready or with no devices, its loaded API.
struct LoadedPlugin {
  PluginInfo info;
  std::shared_ptr<LoadedApi> api;
};

/// The settings the environment gives (PLINTH_PLUGIN_PATH, XDG_CONFIG_HOME, HOME,
/// PLINTH_API), read with secure_getenv. Relative PLINTH_PLUGIN_PATH entries, XDG_CONFIG_HOME
/// and HOME are ignored (never the current directory), and recorded in warnings/notes.
PLINTH_EXPORT LoaderSettings settings_from_env();

/// As settings_from_env, reading variables through `getenv` (for tests).
PLINTH_EXPORT LoaderSettings settings_from(const std::function<const char*(const char*)>& getenv);

/// Finds, checks and loads every candidate. Never throws for a bad plugin.
PLINTH_EXPORT std::vector<LoadedPlugin> load_plugins(const LoaderSettings& settings);

/// The parts of a plugin's exported metadata name plinth_<kind>__<shortcut>__abi_<M>_<m>.
struct PluginSymbol {
  std::string name;
  std::string kind;
  std::string shortcut;
  int abi_major = 0;
  int abi_minor = 0;
};

/// Parses an exported metadata name; nullopt if it is not one.
PLINTH_EXPORT std::optional<PluginSymbol> parse_plugin_symbol(const std::string& name);

/// Splits "a,b, c" into {"a","b","c"} (also used for PLINTH_API).
std::vector<std::string> split_list(const std::string& text, char separator);

}  // namespace plinth::detail
