// PLINTH_DEVICE: "[!]api:dev[,dev...]" terms separated by ';' (DESIGN.md, "Environment").

#include "templates/identifiers.hpp"

#include "runtime/device_spec.hpp"

#include <plinth/api.hpp>
#include <plinth/errors.hpp>
#include <plinth/platform.hpp>
#include <plinth/selection.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <optional>

namespace plinth {

namespace detail {

namespace {

constexpr const char* grammar =
    "expected [!]api:dev[,dev...] with api a shortcut or '*' and dev one of *, cpu, gpu, N, "
    "P.N, ~text";

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> items;
  for (;;) {
    const auto end = text.find(separator);
    items.push_back(trim(text.substr(0, end)));
    if (end == std::string_view::npos) return items;
    text.remove_prefix(end + 1);
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool is_shortcut(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), detail::is_ident_char);
}

/// Parses all of `digits` as a std::size_t; throws LogicError if it is not a number or too big.
std::optional<std::size_t> number(std::string_view digits, std::string_view term) {
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    throw LogicError(
        fmt::format("PLINTH_DEVICE term '{}': the number {} is too large", term, digits));
  }
  return value;
}

DeviceSelector selector(std::string_view sel, std::string_view term) {
  using Kind = DeviceSelector::Kind;
  if (sel == "*") return {Kind::any, 0, 0, {}};
  if (sel == "cpu") return {Kind::cpu, 0, 0, {}};
  if (sel == "gpu") return {Kind::gpu, 0, 0, {}};
  if (sel.size() > 1 && sel.front() == '~') return {Kind::name, 0, 0, lower(sel.substr(1))};
  if (const auto device = number(sel, term)) return {Kind::index, 0, *device, {}};
  if (const auto dot = sel.find('.'); dot != std::string_view::npos) {
    const auto platform = number(sel.substr(0, dot), term);
    const auto device = number(sel.substr(dot + 1), term);
    if (platform && device) return {Kind::platform_index, *platform, *device, {}};
  }
  throw LogicError(fmt::format(
      "PLINTH_DEVICE term '{}': '{}' is not a device selector (*, cpu, gpu, N, P.N, ~text)", term,
      sel));
}

}  // namespace

std::vector<DeviceSpecTerm> parse_device_spec(std::string_view spec) {
  std::vector<DeviceSpecTerm> terms;
  for (auto text : split(spec, ';')) {
    DeviceSpecTerm term;
    term.text = std::string(text);
    if (text.empty()) {
      throw LogicError(
          fmt::format("PLINTH_DEVICE='{}' has an empty term (two ';' in a row, or "
                      "one at an end); {}",
                      spec, grammar));
    }
    if (text.front() == '!') {
      term.discard = true;
      text = trim(text.substr(1));
    }
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) {
      throw LogicError(fmt::format("PLINTH_DEVICE term '{}' has no ':'; {}", term.text, grammar));
    }
    const auto api = trim(text.substr(0, colon));
    if (api != "*" && !is_shortcut(api)) {
      throw LogicError(
          fmt::format("PLINTH_DEVICE term '{}': '{}' is not an API shortcut or '*'; {}", term.text,
                      api, grammar));
    }
    term.api = std::string(api);
    for (const auto sel : split(text.substr(colon + 1), ',')) {
      if (sel.empty()) {
        throw LogicError(fmt::format("PLINTH_DEVICE term '{}' has an empty device selector; {}",
                                     term.text, grammar));
      }
      term.selectors.push_back(selector(sel, term.text));
    }
    terms.push_back(std::move(term));
  }
  return terms;
}

}  // namespace detail

namespace {

bool selects(const detail::DeviceSelector& sel, const Device& device) {
  using Kind = detail::DeviceSelector::Kind;
  switch (sel.kind) {
    case Kind::any: return true;
    case Kind::cpu: return device.params().type == DeviceType::cpu;
    case Kind::gpu: return device.params().type == DeviceType::gpu;
    case Kind::name: return detail::lower(device.name()).find(sel.text) != std::string::npos;
    case Kind::index:
    case Kind::platform_index:
      return device.platform().index() == sel.platform && device.index() == sel.device;
  }
  return false;
}

/// The shortcuts a term may name: DESIGN.md's four and every plugin found, whatever its state.
bool is_known_api(const std::string& shortcut) {
  static constexpr std::array<const char*, 4> standard{"cuda", "hip", "level_zero", "opencl"};
  if (std::find(standard.begin(), standard.end(), shortcut) != standard.end()) return true;
  const auto ids = all_api_ids();
  return std::find(ids.begin(), ids.end(), APIID{shortcut}) != ids.end();
}

}  // namespace

std::optional<std::vector<Device>> devices_from_spec(const API& api, const std::string& spec) {
  std::vector<detail::DeviceSpecTerm> terms;
  for (auto& term : detail::parse_device_spec(spec)) {
    if (term.api != "*" && !is_known_api(term.api)) {
      std::string known;
      for (const auto& id : all_api_ids()) known += " " + id.shortcut;
      throw LogicError(fmt::format(
          "PLINTH_DEVICE term '{}': no API is called '{}' (the standard ones are cuda, hip, "
          "level_zero, opencl; the plugins found here provide:{})",
          term.text, term.api, known.empty() ? " none" : known));
    }
    if (term.api == "*" || term.api == api.shortcut()) terms.push_back(std::move(term));
  }
  if (terms.empty()) return std::nullopt;
  const bool only_discards =
      std::all_of(terms.begin(), terms.end(), [](const auto& t) { return t.discard; });
  std::vector<Device> chosen;
  for (const auto& platform : api.platforms()) {
    for (const auto& device : platform.devices()) {
      const auto matches = [&](const detail::DeviceSpecTerm& t) {
        return std::any_of(t.selectors.begin(), t.selectors.end(),
                           [&](const auto& s) { return selects(s, device); });
      };
      bool keep = only_discards;
      for (const auto& term : terms) {
        if (!term.discard && matches(term)) keep = true;
      }
      for (const auto& term : terms) {
        if (term.discard && matches(term)) keep = false;
      }
      if (keep) chosen.push_back(device);
    }
  }
  if (chosen.empty()) {
    std::string available;
    for (const auto& platform : api.platforms()) {
      for (const auto& device : platform.devices()) available += "\n  " + device.full_name();
    }
    throw LogicError(fmt::format("PLINTH_DEVICE='{}' selects no device of {}; its devices are:{}",
                                 spec, api.name(), available));
  }
  return chosen;
}

std::optional<std::vector<Device>> devices_from_env(const API& api) {
  const char* spec = std::getenv("PLINTH_DEVICE");
  if (spec == nullptr || *spec == 0) return std::nullopt;  // empty: unset
  return devices_from_spec(api, spec);
}

}  // namespace plinth
