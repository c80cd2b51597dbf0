// plinth-info: what plinth found on this machine — every plugin candidate with its state,
// and each API's platforms and devices with their parameters.

#include <plinth/plinth.hpp>

#include <fmt/format.h>
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace {

struct Options {
  std::optional<std::string> api;
  plinth::PlatformFilter platform_filter;
  plinth::DeviceFilter device_filter;
  bool json = false;
};

nlohmann::json to_json(const plinth::DeviceParameters& p) {
  return {{"type", plinth::to_string(p.type)},
          {"compute_units", p.compute_units},
          {"local_mem_banks", p.local_mem_banks},
          {"local_mem_size", p.local_mem_size},
          {"max_local_sizes", p.max_local_sizes},
          {"max_num_groups", p.max_num_groups},
          {"max_total_local_size", p.max_total_local_size},
          {"warp_size", p.warp_size},
          {"global_mem_size", p.global_mem_size},
          {"address_alignment", p.address_alignment},
          {"supports_double", p.supports_double},
          {"compute_capability", p.compute_capability},
          {"driver_version", p.driver_version}};
}

nlohmann::json to_json(const plinth::DeviceFeatures& f) {
  return {{"atomics", f.atomics},
          {"int64_atomics", f.int64_atomics},
          {"double_atomics", f.double_atomics},
          {"native_float_atomic_add", f.native_float_atomic_add},
          {"native_double_atomic_add", f.native_double_atomic_add},
          {"device_scope_acquire_release", f.device_scope_acquire_release},
          {"native_sub_groups", f.native_sub_groups},
          {"sub_group_sizes", f.sub_group_sizes},
          {"sub_group_independent_forward_progress", f.sub_group_independent_forward_progress}};
}

/// One line on the dialect's atomics and sub-groups, e.g. "atomics: 64-bit, double, native
/// float add; device-scope acquire/release; sub-groups 32".
std::string features_line(const nlohmann::json& f) {
  if (!f["atomics"].get<bool>()) return "atomics and sub-groups: none reported by the backend";
  std::vector<std::string> atomics;
  if (f["int64_atomics"].get<bool>()) atomics.emplace_back("64-bit");
  if (f["double_atomics"].get<bool>()) atomics.emplace_back("double");
  if (f["native_float_atomic_add"].get<bool>()) atomics.emplace_back("native float add");
  std::string line = "atomics: 32-bit";
  if (!atomics.empty()) line += fmt::format(", {}", fmt::join(atomics, ", "));
  line += f["device_scope_acquire_release"].get<bool>() ? "; device-scope acquire/release"
                                                        : "; work-group-scope ordering only";
  const auto sizes = f["sub_group_sizes"].get<std::vector<std::size_t>>();
  line += f["native_sub_groups"].get<bool>() ? fmt::format("; sub-groups {}", fmt::join(sizes, "/"))
                                             : std::string("; sub-groups emulated (size 1)");
  return line;
}

/// The device's memory now (BoundDevice::memory_info(), through a context of its own): total
/// and free bytes, free null where the backend cannot tell; or why it could not be asked.
nlohmann::json memory_json(const plinth::Device& device) {
  try {
    const auto context = plinth::Context::from_devices({device});
    const auto info = context.devices()[0].memory_info();
    return {{"total", info.total},
            {"free", info.free ? nlohmann::json(*info.free) : nlohmann::json(nullptr)}};
  } catch (const plinth::Error& e) {
    return {{"error", e.what()}};
  }
}

/// "80.0 GiB total, 79.3 GiB free" (or "free not reported"), or the error.
std::string memory_line(const nlohmann::json& memory);

nlohmann::json plugins_json() {
  auto list = nlohmann::json::array();
  for (const auto& info : plinth::plugins()) {
    list.push_back(
        {{"path", info.path},
         {"found_by", info.found_by},
         {"kind", info.kind},
         {"shortcut", info.shortcut},
         {"abi", info.abi_major < 0 ? "" : fmt::format("{}.{}", info.abi_major, info.abi_minor)},
         {"state", plinth::to_string(info.state)},
         {"reason", info.reason},
         {"warning", info.warning}});
  }
  return list;
}

/// The compiled-program cache: where it is, its state, size and entry count.
nlohmann::json cache_json() {
  const auto info = plinth::program_cache_info();
  return {{"state", info.state},
          {"directory", info.directory},
          {"size", info.size},
          {"entries", info.entries},
          {"size_limit", info.size_limit}};
}

/// The APIs, platforms and devices that pass the options; throws plinth::Error.
nlohmann::json apis_json(const Options& options) {
  auto list = nlohmann::json::array();
  for (const auto& api : plinth::API::all_by_shortcut(options.api)) {
    auto platforms = nlohmann::json::array();
    for (const auto& [platform, devices] : plinth::platforms_and_devices_by_mask(
             api, std::nullopt, options.device_filter, options.platform_filter)) {
      auto device_list = nlohmann::json::array();
      for (const auto& device : devices) {
        device_list.push_back({{"index", device.index()},
                               {"name", device.name()},
                               {"compiler_identity", device.compiler_identity()},
                               {"parameters", to_json(device.params())},
                               {"features", to_json(device.features())},
                               {"memory", memory_json(device)}});
      }
      platforms.push_back({{"index", platform.index()},
                           {"name", platform.name()},
                           {"vendor", platform.vendor()},
                           {"version", platform.version()},
                           {"devices", device_list}});
    }
    const auto collectives = plinth::collectives_support(api);
    list.push_back({{"shortcut", api.shortcut()},
                    {"name", api.name()},
                    {"collectives",
                     {{"library", collectives.library}, {"description", collectives.description}}},
                    {"platforms", platforms}});
  }
  return list;
}

std::string human_size(std::size_t bytes) {
  if (bytes >= (1ULL << 30))
    return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1ULL << 30));
  if (bytes >= (1ULL << 20))
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1ULL << 20));
  if (bytes >= (1ULL << 10))
    return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / (1ULL << 10));
  return fmt::format("{} B", bytes);
}

std::string memory_line(const nlohmann::json& memory) {
  if (memory.contains("error")) {
    return "memory: unknown (" + plinth::printable(memory["error"].get<std::string>()) + ")";
  }
  return fmt::format("memory: {} total, {}", human_size(memory["total"].get<std::size_t>()),
                     memory["free"].is_null()
                         ? std::string("free not reported by the backend")
                         : human_size(memory["free"].get<std::size_t>()) + " free");
}

void print_text(const nlohmann::json& apis) {
  fmt::print("Plugins:\n{}", plinth::describe_plugins(plinth::plugins()));
  const auto cache = cache_json();
  fmt::print("\nProgram cache: {}\n", plinth::printable(cache["state"].get<std::string>()));
  if (!cache["directory"].get<std::string>().empty()) {
    fmt::print("  directory {}\n", plinth::printable(cache["directory"].get<std::string>()));
  }
  if (cache["state"] == "on disk") {
    const auto entries = cache["entries"].get<std::size_t>();
    fmt::print("  {} in {} {}, limit {}\n", human_size(cache["size"].get<std::size_t>()), entries,
               entries == 1 ? "entry" : "entries",
               human_size(cache["size_limit"].get<std::size_t>()));
  }
  for (const auto& api : apis) {
    fmt::print("\nAPI {} ({})\n", api["shortcut"].get<std::string>(),
               api["name"].get<std::string>());
    const auto& collectives = api["collectives"];
    fmt::print("  Collectives: {}\n",
               plinth::printable(collectives["library"].get<bool>()
                                     ? collectives["description"].get<std::string>()
                                     : "plinth copies and kernels, in one process (" +
                                           collectives["description"].get<std::string>() + ")"));
    for (const auto& platform : api["platforms"]) {
      fmt::print("  Platform {}: {} ({}, {})\n", platform["index"].get<std::size_t>(),
                 platform["name"].get<std::string>(), platform["vendor"].get<std::string>(),
                 platform["version"].get<std::string>());
      for (const auto& device : platform["devices"]) {
        const auto& p = device["parameters"];
        fmt::print("    Device {}: {}\n", device["index"].get<std::size_t>(),
                   device["name"].get<std::string>());
        fmt::print("      type {}, {} compute units, {} global memory{}\n",
                   p["type"].get<std::string>(), p["compute_units"].get<std::size_t>(),
                   human_size(p["global_mem_size"].get<std::size_t>()),
                   p["compute_capability"].get<std::string>().empty()
                       ? ""
                       : ", compute capability " + p["compute_capability"].get<std::string>());
        fmt::print("      local memory {} in {} bank(s), warp size {}, doubles {}\n",
                   human_size(p["local_mem_size"].get<std::size_t>()),
                   p["local_mem_banks"].get<std::size_t>(), p["warp_size"].get<std::size_t>(),
                   p["supports_double"].get<bool>() ? "yes" : "no");
        fmt::print("      max local sizes {}, max total local size {}, max groups {}\n",
                   fmt::join(p["max_local_sizes"].get<std::vector<std::size_t>>(), "x"),
                   p["max_total_local_size"].get<std::size_t>(),
                   fmt::join(p["max_num_groups"].get<std::vector<std::size_t>>(), "x"));
        fmt::print("      sub-buffer alignment {} B, driver {}\n",
                   p["address_alignment"].get<std::size_t>(),
                   p["driver_version"].get<std::string>());
        if (const auto compiler = device["compiler_identity"].get<std::string>(); !compiler.empty())
          fmt::print("      compiler {}\n", compiler);
        fmt::print("      {}\n", features_line(device["features"]));
        fmt::print("      {}\n", memory_line(device["memory"]));
      }
    }
  }
}

std::optional<Options> parse(int argc, char** argv) {
  Options options;
  bool include_duplicates = false;
  bool include_pure_parallel = false;
  po::options_description description("Usage: plinth-info [options]\nOptions");
  description.add_options()("help,h", "show this help")(
      "api", po::value<std::string>(), "only this API (a shortcut: cuda, opencl, ...)")(
      "platform-include-mask", po::value(&options.platform_filter.include_masks)->composing(),
      "keep platforms whose name matches this regex (repeatable)")(
      "platform-exclude-mask", po::value(&options.platform_filter.exclude_masks)->composing(),
      "drop platforms whose name matches this regex (repeatable)")(
      "device-include-mask", po::value(&options.device_filter.include_masks)->composing(),
      "keep devices whose name matches this regex (repeatable)")(
      "device-exclude-mask", po::value(&options.device_filter.exclude_masks)->composing(),
      "drop devices whose name matches this regex (repeatable)")(
      "include-duplicate-devices", po::bool_switch(&include_duplicates),
      "list devices with the same name on a platform more than once")(
      "include-pure-parallel-devices", po::bool_switch(&include_pure_parallel),
      "list devices whose max total local size is 1")("json", po::bool_switch(&options.json),
                                                      "print JSON for scripts");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, description), vm);
  po::notify(vm);
  if (vm.count("help") != 0) {
    std::cout << description << "\n";
    return std::nullopt;
  }
  if (vm.count("api") != 0) options.api = vm["api"].as<std::string>();
  options.device_filter.unique_only = !include_duplicates;
  options.device_filter.exclude_pure_parallel = !include_pure_parallel;
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Options> options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "plinth-info: " << e.what() << "\n";
    return 2;
  }
  if (!options) return 0;
  nlohmann::json apis;
  std::string error;
  try {
    apis = apis_json(*options);
    std::size_t devices = 0;
    for (const auto& api : apis) {
      for (const auto& platform : api["platforms"]) devices += platform["devices"].size();
    }
    if (devices == 0) {
      error =
          apis.empty() ? "no API with devices is available" : "no device matches the given options";
    }
  } catch (const plinth::Error& e) {
    error = e.what();
  }
  if (options->json) {
    nlohmann::json out{{"plugins", plugins_json()},
                       {"apis", apis.is_null() ? nlohmann::json::array() : apis},
                       {"program_cache", cache_json()}};
    if (!error.empty()) out["error"] = error;
    // A path from a hostile manifest need not be UTF-8: replace what JSON cannot carry.
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    print_text(apis.is_null() ? nlohmann::json::array() : apis);
    if (!error.empty()) std::cerr << "\nplinth-info: " << error << "\n";
  }
  return error.empty() ? 0 : 1;
}
