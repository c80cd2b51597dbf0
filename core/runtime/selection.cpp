#include <plinth/selection.hpp>

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <iostream>
#include <sstream>

namespace plinth {

namespace {

std::string describe_filters(const DeviceFilter& d, const PlatformFilter& p) {
  return fmt::format(
      "platform include {} exclude {}; device include {} exclude {}{}{}",
      p.include_masks.empty() ? "[]" : fmt::format("[{}]", fmt::join(p.include_masks, ", ")),
      p.exclude_masks.empty() ? "[]" : fmt::format("[{}]", fmt::join(p.exclude_masks, ", ")),
      d.include_masks.empty() ? "[]" : fmt::format("[{}]", fmt::join(d.include_masks, ", ")),
      d.exclude_masks.empty() ? "[]" : fmt::format("[{}]", fmt::join(d.exclude_masks, ", ")),
      d.unique_only ? ", unique only" : "", d.exclude_pure_parallel ? ", no pure-parallel" : "");
}

std::size_t ask(const std::string& question, std::size_t count) {
  while (true) {
    std::cout << question << " [0-" << count - 1 << "]: " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) throw LogicError("no answer on standard input");
    std::istringstream in(line);
    std::size_t choice = 0;
    if (in >> choice && choice < count) return choice;
    std::cout << "please enter a number from 0 to " << count - 1 << "\n";
  }
}

}  // namespace

std::vector<std::pair<Platform, std::vector<Device>>> platforms_and_devices_by_mask(
    const API& api, std::optional<std::size_t> quantity, const DeviceFilter& device_filter,
    const PlatformFilter& platform_filter) {
  std::vector<std::pair<Platform, std::vector<Device>>> result;
  for (auto& platform : Platform::all_filtered(api, platform_filter)) {
    auto devices = Device::all_filtered(platform, device_filter);
    if (devices.empty() || (quantity && devices.size() < *quantity)) continue;
    result.emplace_back(std::move(platform), std::move(devices));
  }
  return result;
}

std::vector<Device> select_devices(const API& api, bool interactive,
                                   std::optional<std::size_t> quantity,
                                   const DeviceFilter& device_filter,
                                   const PlatformFilter& platform_filter) {
  if (quantity && *quantity == 0) throw LogicError("select_devices: quantity must be at least 1");
  auto candidates = platforms_and_devices_by_mask(api, quantity, device_filter, platform_filter);
  if (candidates.empty()) {
    std::string available;
    for (const auto& platform : api.platforms()) {
      for (const auto& device : platform.devices()) available += "\n  " + device.full_name();
    }
    throw LogicError(
        fmt::format("no platform of {} has {} device(s) matching the filters ({}); "
                    "its devices are:{}",
                    api.name(), quantity ? std::to_string(*quantity) : "any",
                    describe_filters(device_filter, platform_filter), available));
  }
  std::size_t platform_choice = 0;
  if (interactive && candidates.size() > 1) {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      std::cout << "[" << i << "]: " << candidates[i].first.name() << "\n";
    }
    platform_choice = ask("Choose the platform", candidates.size());
  }
  auto& devices = candidates[platform_choice].second;
  const std::size_t wanted = quantity.value_or(devices.size());
  if (!interactive || devices.size() == wanted) {
    devices.erase(devices.begin() + static_cast<std::ptrdiff_t>(wanted), devices.end());
    return devices;
  }
  std::vector<Device> chosen;
  while (chosen.size() < wanted) {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      std::cout << "[" << i << "]: " << devices[i].name() << "\n";
    }
    const auto choice =
        ask(fmt::format("Choose device {} of {}", chosen.size() + 1, wanted), devices.size());
    chosen.push_back(devices[choice]);
    devices.erase(devices.begin() + static_cast<std::ptrdiff_t>(choice));
  }
  return chosen;
}

}  // namespace plinth
