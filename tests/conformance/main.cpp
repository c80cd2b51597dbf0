// The conformance runner: selects devices with pytest-grunnur's options, then runs every
// test on each of them.

#include "fixture.hpp"

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string_view>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace po = boost::program_options;

int main(int argc, char** argv) {
  using namespace plinth;
  // The collectives tests may start NCCL: NVLink multicast stays off, before anything loads it
  // (on the shared GPU hosts it can take the GPUs out of service; not optional).
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  std::optional<std::string> api_shortcut;
  PlatformFilter platform_filter;
  DeviceFilter device_filter;
  bool include_duplicates = false;
  bool include_pure_parallel = false;
  std::size_t min_devices = 0;
  po::options_description description("Device selection");
  description.add_options()("api", po::value<std::string>(),
                            "run on this API only (a shortcut); default: every available API")(
      "platform-include-mask", po::value(&platform_filter.include_masks)->composing(), "regex")(
      "platform-exclude-mask", po::value(&platform_filter.exclude_masks)->composing(), "regex")(
      "device-include-mask", po::value(&device_filter.include_masks)->composing(), "regex")(
      "device-exclude-mask", po::value(&device_filter.exclude_masks)->composing(), "regex")(
      "include-duplicate-devices", po::bool_switch(&include_duplicates),
      "run on every device, also those with the same name as another")(
      "include-pure-parallel-devices", po::bool_switch(&include_pure_parallel),
      "include devices whose max total local size is 1")(
      "min-devices", po::value(&min_devices),
      "fail before any test unless the multi-device tests get at least this many devices on "
      "every selected platform (e.g. 4 on a machine of four GPUs)");
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(description).allow_unregistered().run(),
              vm);
    po::notify(vm);
    if (vm.count("api") != 0) api_shortcut = vm["api"].as<std::string>();
    device_filter.exclude_pure_parallel = !include_pure_parallel;
    auto& chosen = conformance::selection();
    for (const auto& api : API::all_by_shortcut(api_shortcut)) {
      DeviceFilter all = device_filter;
      all.unique_only = false;
      DeviceFilter unique = device_filter;
      unique.unique_only = !include_duplicates;
      for (const auto& [platform, devices] :
           platforms_and_devices_by_mask(api, std::nullopt, all, platform_filter)) {
        conformance::selection().platforms.push_back(devices);
        for (const auto& device : Device::all_filtered(platform, unique))
          chosen.devices.push_back(device);
      }
    }
    if (chosen.devices.empty()) {
      std::cerr << "plinth-conformance: no device matches the options\nplugins:\n"
                << describe_plugins(plugins());
      return 1;
    }
    for (const auto& devices : chosen.platforms) {
      if (!devices.empty() && devices.size() < min_devices) {
        std::cerr << "plinth-conformance: --min-devices " << min_devices << ": platform '"
                  << devices.front().platform().name() << "' has " << devices.size()
                  << " selected device(s) for the multi-device tests\n";
        return 1;
      }
    }
    // Not when listing: ctest reads the list of tests from stdout.
    const bool listing = std::any_of(argv, argv + argc, [](const char* arg) {
      return std::string_view(arg) == "--gtest_list_tests";
    });
    if (!listing) {
      std::cout << "plinth-conformance: running on\n";
      for (const auto& device : chosen.devices) std::cout << "  " << device.full_name() << "\n";
      for (const auto& devices : chosen.platforms) {
        if (devices.empty()) continue;
        std::cout << "multi-device tests on " << devices.size() << " device(s) of '"
                  << devices.front().platform().name() << "'\n";
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "plinth-conformance: " << e.what() << "\n" << description << "\n";
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
#if defined(__SANITIZE_ADDRESS__)
  // Check for leaks now, while the vendor runtime's worker threads are idle: LeakSanitizer's
  // own check at exit races with PoCL's threads shutting down and sometimes crashes.
  __lsan_do_leak_check();  // exits with an error on a leak; skips the check at exit
#endif
  return status;
}
