#include "plugins/loader.hpp"

#include "diagnostics/debug.hpp"
#include "plugins/elf_symbols.hpp"
#include "plugins/file_safety.hpp"
#include "plugins/manifest.hpp"

#include <plinth/backend/abi_version.hpp>
#include <plinth/errors.hpp>
#include <plinth/printable.hpp>
#include <plinth/version.hpp>

#include <fmt/format.h>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <regex>
#include <set>

namespace plinth::detail {

namespace fs = std::filesystem;

namespace {

struct Candidate {
  fs::path path;
  std::string found_by;
  std::string error;    // a manifest that could not be read
  std::string warning;  // a manifest that other users can change
};

bool is_plugin_file_name(const std::string& name) {
  return (name.starts_with("libplinth-backend-") || name.starts_with("libplinth-layer-")) &&
         name.ends_with(".so");
}

/// The entries of `dir` whose names pass `wanted`, sorted; empty (with a debug line) if the
/// directory cannot be listed.
template <class Predicate>
std::vector<fs::path> list_directory(const fs::path& dir, const std::string& found_by,
                                     Predicate wanted) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    debug(DebugTopic::loader, "{}: {}, skipped ({})", dir.string(),
          ec ? ec.message() : std::string("not a directory"), found_by);
    return files;
  }
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (wanted(it->path())) files.push_back(it->path());
  }
  if (ec) {
    debug(DebugTopic::loader, "{}: cannot list it ({}), skipped ({})", dir.string(), ec.message(),
          found_by);
  }
  std::sort(files.begin(), files.end());
  return files;
}

void scan_directory(const fs::path& dir, const std::string& found_by, std::vector<Candidate>& out) {
  const auto files = list_directory(dir, found_by, [](const fs::path& file) {
    return is_plugin_file_name(file.filename().string());
  });
  for (const auto& file : files) out.push_back({file, found_by, {}, {}});
}

/// The text of a manifest, at most max_manifest_size bytes (+1, so that parse_manifest sees
/// a larger one is too large). Throws Error.
std::string read_manifest(const fs::path& manifest) {
  std::error_code ec;
  const auto status = fs::status(manifest, ec);
  if (ec) throw Error(fmt::format("unreadable manifest: {}", ec.message()));
  if (!fs::is_regular_file(status)) throw Error("unreadable manifest: not a regular file");
  std::ifstream in(manifest, std::ios::binary);
  if (!in) throw Error("unreadable manifest: cannot open it");
  std::string text(max_manifest_size + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

void scan_manifests(const fs::path& dir, std::vector<Candidate>& out) {
  const auto manifests = list_directory(
      dir, "manifest directory", [](const fs::path& file) { return file.extension() == ".json"; });
  for (const auto& manifest : manifests) {
    Candidate candidate{manifest, "manifest " + manifest.string(), {}, {}};
    if (auto unsafe = writable_by_others(manifest)) candidate.warning = "manifest: " + *unsafe;
    try {
      candidate.path = parse_manifest(read_manifest(manifest), manifest);
    } catch (const Error& e) {
      candidate.error = e.what();
    }
    out.push_back(std::move(candidate));
  }
}

std::vector<Candidate> find_candidates(const LoaderSettings& settings) {
  std::vector<Candidate> out;
  for (const auto& dir : settings.plugin_path) scan_directory(dir, "PLINTH_PLUGIN_PATH", out);
  for (const auto& dir : settings.manifest_dirs) scan_manifests(dir, out);
  if (!settings.default_dir.empty()) scan_directory(settings.default_dir, "default directory", out);
  return out;
}

/// Reads the metadata names without loading the file.
std::vector<PluginSymbol> read_metadata(const fs::path& path) {
  std::vector<PluginSymbol> symbols;
  for (const auto& name : elf_section_symbols(path, "plinth")) {
    if (auto symbol = parse_plugin_symbol(name)) symbols.push_back(*symbol);
  }
  return symbols;
}

std::size_t device_total(const LoadedApi& api) {
  std::size_t total = 0;
  for (const auto& platform : api.platforms) total += platform.devices.size();
  return total;
}

/// Loads the file, runs the factory and initialize(), enumerates platforms and devices.
/// Fills in `info.state` and `info.reason`.
std::shared_ptr<LoadedApi> load(const PluginSymbol& symbol, PluginInfo& info) {
  // dlopen first for the loader's own words (Boost wraps them in its own text).
  void* probe = ::dlopen(info.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (probe == nullptr) {
    info.state = PluginState::failed_to_load;
    const char* error = ::dlerror();
    info.reason = error != nullptr ? error : "dlopen failed";
    return nullptr;
  }
  std::shared_ptr<boost::dll::shared_library> library;
  try {
    library = std::make_shared<boost::dll::shared_library>(
        boost::dll::fs::path(info.path),
        boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    ::dlclose(probe);
    info.state = PluginState::failed_to_load;
    info.reason = e.what();
    return nullptr;
  }
  ::dlclose(probe);  // Boost's handle keeps the library loaded
  auto api = std::make_shared<LoadedApi>();
  api->id = APIID{symbol.shortcut};
  api->abi_minor = std::min(symbol.abi_minor, PLINTH_ABI_MINOR);
  api->plugin = library;
  try {
    // The exported name holds the factory's address; a plugin may export it as null.
    backend::PluginFactory* const factory = library->get<backend::PluginFactory*>(symbol.name);
    if (factory == nullptr) {
      info.state = PluginState::failed_to_load;
      info.reason = fmt::format("its factory symbol {} is null", symbol.name);
      return nullptr;
    }
    api->adapter = api->adopt(factory());
    if (!api->adapter) throw Error("the plugin's factory returned no adapter");
    // Names come from the plugin: made printable once, here, for every later message.
    api->name = printable(api->adapter->name());
    api->adapter->initialize();
    const std::size_t platform_count = api->adapter->platform_count();
    for (std::size_t p = 0; p < platform_count; ++p) {
      PlatformData platform;
      platform.adapter = api->adopt(api->adapter->platform(p));
      if (!platform.adapter) throw Error(fmt::format("the plugin returned no platform {}", p));
      platform.name = printable(platform.adapter->name());
      platform.vendor = printable(platform.adapter->vendor());
      platform.version = printable(platform.adapter->version());
      const std::size_t device_count = platform.adapter->device_count();
      for (std::size_t d = 0; d < device_count; ++d) {
        DeviceData device;
        device.adapter = api->adopt(platform.adapter->device(d));
        if (!device.adapter) {
          throw Error(fmt::format("the plugin returned no device {} of platform {}", d, p));
        }
        device.name = printable(device.adapter->name());
        device.params = device.adapter->parameters();
        device.params.compute_capability = printable(device.params.compute_capability);
        device.params.driver_version = printable(device.params.driver_version);
        if (api->abi_minor >= 1) {
          device.compiler_identity = printable(device.adapter->compiler_identity());
        }
        if (api->abi_minor >= 5) device.adapter->features(device.features);
        platform.devices.push_back(std::move(device));
      }
      api->platforms.push_back(std::move(platform));
    }
  } catch (const std::exception& e) {
    info.state = PluginState::init_failed;
    info.reason = e.what();
    return nullptr;
  } catch (...) {
    info.state = PluginState::init_failed;
    info.reason = "the plugin threw something that is not a std::exception";
    return nullptr;
  }
  if (device_total(*api) == 0) {
    info.state = PluginState::no_devices;
    // SDK 1.3: the backend's own words (the vendor's error name, a missing driver library).
    std::string why;
    try {
      if (api->abi_minor >= 3) why = printable(api->adapter->no_devices_reason());
    } catch (...) {
      why = "(the plugin's no_devices_reason() threw)";
    }
    info.reason = why.empty() ? fmt::format("{} found no devices ({} platform(s))", api->name,
                                            api->platforms.size())
                              : fmt::format("{} found no devices: {}", api->name, why);
  } else {
    info.state = PluginState::ready;
  }
  return api;
}

}  // namespace

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(separator, start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    const auto first = item.find_first_not_of(" \t");
    const auto last = item.find_last_not_of(" \t");
    if (first != std::string::npos) items.push_back(item.substr(first, last - first + 1));
    start = end + 1;
  }
  return items;
}

std::optional<PluginSymbol> parse_plugin_symbol(const std::string& name) {
  static const std::regex pattern(
      "plinth_(backend|layer)__([A-Za-z0-9_]+?)__abi_([0-9]+)_([0-9]+)");
  std::smatch match;
  if (!std::regex_match(name, match, pattern)) return std::nullopt;
  const auto version = [](const std::string& digits) {
    int value = -1;  // no ABI version has 7 digits: those are refused, not parsed
    if (digits.size() <= 6) std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return value;
  };
  const int major = version(match[3]), minor = version(match[4]);
  if (major < 0 || minor < 0) return std::nullopt;
  return PluginSymbol{name, match[1], match[2], major, minor};
}

LoaderSettings settings_from(const std::function<const char*(const char*)>& getenv) {
  LoaderSettings settings;
  const auto variable = [&](const char* name) -> std::string {
    const char* value = getenv(name);
    return value != nullptr ? value : "";
  };
  // Never the current directory (DESIGN.md): relative values are ignored, and said so.
  for (const auto& dir : split_list(variable("PLINTH_PLUGIN_PATH"), ':')) {
    if (fs::path(dir).is_absolute()) {
      settings.plugin_path.emplace_back(dir);
    } else {
      settings.warnings.push_back(fmt::format(
          "PLINTH_PLUGIN_PATH entry '{}' is not an absolute path: ignored (plugins are never "
          "looked for relative to the current directory)",
          dir));
    }
  }
  // The XDG base-directory rule: a relative XDG_CONFIG_HOME or HOME is invalid and ignored.
  const std::string config = variable("XDG_CONFIG_HOME"), home = variable("HOME");
  if (!config.empty() && fs::path(config).is_absolute()) {
    settings.manifest_dirs.push_back(fs::path(config) / "plinth" / "plugins.d");
  } else {
    if (!config.empty()) {
      settings.notes.push_back(
          fmt::format("XDG_CONFIG_HOME='{}' is not an absolute path: ignored", config));
    }
    if (!home.empty() && fs::path(home).is_absolute()) {
      settings.manifest_dirs.push_back(fs::path(home) / ".config" / "plinth" / "plugins.d");
    } else if (!home.empty()) {
      settings.notes.push_back(fmt::format("HOME='{}' is not an absolute path: ignored", home));
    }
  }
  settings.manifest_dirs.emplace_back("/etc/plinth/plugins.d");
  const auto self = boost::dll::this_line_location();
  settings.default_dir = fs::path(self.parent_path().string()) / PLINTH_PLUGIN_SUBDIR;
  if (const auto api = variable("PLINTH_API"); !api.empty()) {
    settings.api_filter = split_list(api, ',');
  }
  return settings;
}

LoaderSettings settings_from_env() {
  // secure_getenv: a setuid or setgid program never takes its search paths from the caller.
  return settings_from([](const char* name) { return ::secure_getenv(name); });
}

std::vector<LoadedPlugin> load_plugins(const LoaderSettings& settings) {
  std::vector<LoadedPlugin> plugins;
  std::set<std::string> claimed;  // shortcuts taken by an earlier candidate
  for (const auto& warning : settings.warnings) warn(warning);
  for (const auto& note : settings.notes) debug(DebugTopic::loader, "{}", note);
  for (const auto& candidate : find_candidates(settings)) {
    LoadedPlugin plugin;
    PluginInfo& info = plugin.info;
    info.path = candidate.path.string();
    info.found_by = candidate.found_by;
    info.warning = candidate.warning;
    if (candidate.error.empty()) {
      if (auto unsafe = writable_by_others(candidate.path)) {
        info.warning += (info.warning.empty() ? "" : "; ") + *unsafe;
      }
    }
    const auto finish = [&](const char* action) {
      debug(DebugTopic::loader, "{} (found by {}): {}{}{}; {}{}{}", info.path, info.found_by,
            to_string(info.state), info.reason.empty() ? "" : ": ", info.reason, action,
            info.warning.empty() ? "" : "; WARNING, other users can change it: ", info.warning);
      plugins.push_back(std::move(plugin));
    };
    if (!candidate.error.empty()) {
      info.reason = candidate.error;
      finish("skipped");
      continue;
    }
    std::vector<PluginSymbol> symbols;
    try {
      symbols = read_metadata(candidate.path);
    } catch (const std::exception& e) {
      info.reason = e.what();
      finish("skipped");
      continue;
    }
    if (symbols.size() != 1) {
      info.reason = symbols.empty()
                        ? "no plinth plugin metadata (plinth_backend__<shortcut>__abi_<M>_<m>) "
                          "in its 'plinth' section"
                        : "more than one plinth plugin metadata symbol";
      finish("skipped");
      continue;
    }
    const PluginSymbol& symbol = symbols.front();
    info.kind = symbol.kind;
    info.shortcut = symbol.shortcut;
    info.abi_major = symbol.abi_major;
    info.abi_minor = symbol.abi_minor;
    if (symbol.abi_major != PLINTH_ABI_MAJOR) {
      info.state = PluginState::refused;
      info.reason =
          fmt::format("{} was built for plugin ABI {}.{}, this core has ABI {}.{}", info.path,
                      symbol.abi_major, symbol.abi_minor, PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR);
      finish("not opened");
      continue;
    }
    if (symbol.kind != "backend") {
      info.state = PluginState::refused;
      info.reason = fmt::format("plugin kind '{}' is not supported by this core", symbol.kind);
      finish("not opened");
      continue;
    }
    if (claimed.count(symbol.shortcut) != 0) {
      info.state = PluginState::shadowed;
      const auto winner = std::find_if(plugins.begin(), plugins.end(), [&](const LoadedPlugin& p) {
        return p.info.shortcut == symbol.shortcut && p.info.state != PluginState::refused &&
               p.info.state != PluginState::shadowed;
      });
      info.reason = fmt::format("'{}' is provided by {}, found earlier", symbol.shortcut,
                                winner != plugins.end() ? winner->info.path : "another plugin");
      finish("not opened");
      continue;
    }
    claimed.insert(symbol.shortcut);
    if (settings.api_filter && std::find(settings.api_filter->begin(), settings.api_filter->end(),
                                         symbol.shortcut) == settings.api_filter->end()) {
      info.state = PluginState::excluded;
      info.reason = "not named in PLINTH_API";
      finish("not opened");
      continue;
    }
    plugin.api = load(symbol, info);
    finish(plugin.api ? "loaded" : "unloaded");
  }
  return plugins;
}

}  // namespace plinth::detail
