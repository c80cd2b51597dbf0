#include <plinth/selection.hpp>

#include <plinth/errors.hpp>

#include "runtime/masks.hpp"
#include "runtime/selection_answer.hpp"

#include <fmt/format.h>

#include <iostream>
#include <regex>

namespace plinth {

namespace detail {

namespace {

/// `masks` compiled, or a LogicError naming the bad one.
std::vector<std::regex> compile_masks(const std::vector<std::string>& masks, const char* what,
                                      const char* list) {
  std::vector<std::regex> compiled;
  compiled.reserve(masks.size());
  for (const auto& mask : masks) {
    try {
      compiled.emplace_back(mask, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw LogicError(fmt::format("invalid {} {} mask '{}': not a regular expression ({})", what,
                                   list, mask, e.what()));
    }
  }
  return compiled;
}

bool any_matches(const std::string& name, const std::vector<std::regex>& compiled,
                 const std::vector<std::string>& masks, const char* what, const char* list) {
  for (std::size_t i = 0; i < compiled.size(); ++i) {
    try {
      if (std::regex_search(name, compiled[i])) return true;
    } catch (const std::regex_error& e) {  // error_complexity, error_stack
      throw LogicError(fmt::format("{} {} mask '{}' could not be matched against '{}': {}", what,
                                   list, masks[i], name, e.what()));
    }
  }
  return false;
}

}  // namespace

bool passes_masks(const std::string& name, const std::vector<std::string>& include_masks,
                  const std::vector<std::string>& exclude_masks, const char* what) {
  // Case-sensitive, as Python's re.search in grunnur (only PLINTH_DEVICE's ~text ignores case).
  const auto include = compile_masks(include_masks, what, "include");
  const auto exclude = compile_masks(exclude_masks, what, "exclude");
  if (!include.empty() && !any_matches(name, include, include_masks, what, "include")) return false;
  return !any_matches(name, exclude, exclude_masks, what, "exclude");
}

}  // namespace detail

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

/// Asks until the answer is one parse_selection() accepts (an empty line takes `defaults`).
std::vector<std::size_t> ask(const std::string& question, std::size_t count,
                             std::optional<std::size_t> wanted,
                             const std::vector<std::size_t>& defaults, std::string_view what) {
  while (true) {
    std::cout << question << " " << detail::bracketed(defaults) << ": " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) throw LogicError("no answer on standard input");
    auto answer = detail::parse_selection(line, count, wanted, defaults, what);
    if (answer.problem.empty()) return answer.chosen;
    std::cout << answer.problem << "\n";
  }
}

}  // namespace

std::vector<std::pair<Platform, std::vector<Device>>> platforms_and_devices_by_mask(
    const API& api, std::optional<std::size_t> quantity, const DeviceFilter& device_filter,
    const PlatformFilter& platform_filter) {
  // A bad mask is an error even when no platform or device gets to be matched against it.
  detail::passes_masks({}, platform_filter.include_masks, platform_filter.exclude_masks,
                       "platform");
  detail::passes_masks({}, device_filter.include_masks, device_filter.exclude_masks, "device");
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
    platform_choice = ask("Choose the platform", candidates.size(), 1, {0}, "platform").front();
  }
  auto& devices = candidates[platform_choice].second;
  const std::size_t wanted = quantity.value_or(devices.size());
  if (!interactive || devices.size() == wanted) {
    devices.erase(devices.begin() + static_cast<std::ptrdiff_t>(wanted), devices.end());
    return devices;
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    std::cout << "[" << i << "]: " << devices[i].name() << "\n";
  }
  std::vector<std::size_t> defaults(wanted);
  for (std::size_t i = 0; i < wanted; ++i) defaults[i] = i;
  const auto choices = ask(fmt::format("Choose {} device(s), separated by commas", wanted),
                           devices.size(), wanted, defaults, "device");
  std::vector<Device> chosen;
  for (const auto choice : choices) chosen.push_back(devices[choice]);
  return chosen;
}

}  // namespace plinth
