// PLINTH_DEVICE: "[!]api:dev[,dev...]" terms separated by ';' (DESIGN.md, "Environment").

#include <plinth/selection.hpp>

#include "detail/loader.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace plinth {

namespace {

struct Term {
  bool discard = false;
  std::string api;                  // shortcut or "*"
  std::vector<std::string> selectors;  // "*", "cpu", "gpu", "N", "P.N", "~text"
};

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<Term> parse(const std::string& spec) {
  std::vector<Term> terms;
  for (auto text : detail::split_list(spec, ';')) {
    Term term;
    if (text.starts_with('!')) {
      term.discard = true;
      text.erase(0, 1);
    }
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
      throw LogicError(fmt::format(
          "PLINTH_DEVICE term '{}' is malformed: expected [!]api:dev[,dev...] with api a "
          "shortcut or '*' and dev one of *, cpu, gpu, N, P.N, ~text",
          text));
    }
    term.api = text.substr(0, colon);
    term.selectors = detail::split_list(text.substr(colon + 1), ',');
    for (const auto& sel : term.selectors) {
      const auto dot = sel.find('.');
      const bool platform_device = dot != std::string::npos && all_digits(sel.substr(0, dot)) &&
                                   all_digits(sel.substr(dot + 1));
      if (sel != "*" && sel != "cpu" && sel != "gpu" && !all_digits(sel) && !platform_device &&
          !(sel.starts_with('~') && sel.size() > 1)) {
        throw LogicError(fmt::format(
            "PLINTH_DEVICE term '{}': '{}' is not a device selector (*, cpu, gpu, N, P.N, ~text)",
            text, sel));
      }
    }
    terms.push_back(std::move(term));
  }
  return terms;
}

bool selects(const std::string& sel, const Device& device) {
  if (sel == "*") return true;
  if (sel == "cpu") return device.params().type == DeviceType::cpu;
  if (sel == "gpu") return device.params().type == DeviceType::gpu;
  if (sel.starts_with('~')) return lower(device.name()).find(lower(sel.substr(1))) != std::string::npos;
  if (const auto dot = sel.find('.'); dot != std::string::npos) {
    return device.platform().index() == std::stoul(sel.substr(0, dot)) &&
           device.index() == std::stoul(sel.substr(dot + 1));
  }
  return device.platform().index() == 0 && device.index() == std::stoul(sel);
}

}  // namespace

std::optional<std::vector<Device>> devices_from_spec(const API& api, const std::string& spec) {
  std::vector<Term> terms;
  for (auto& term : parse(spec)) {
    if (term.api == "*" || term.api == api.shortcut()) terms.push_back(std::move(term));
  }
  if (terms.empty()) return std::nullopt;
  const bool only_discards =
      std::all_of(terms.begin(), terms.end(), [](const Term& t) { return t.discard; });
  std::vector<Device> chosen;
  for (const auto& platform : api.platforms()) {
    for (const auto& device : platform.devices()) {
      const auto matches = [&](const Term& t) {
        return std::any_of(t.selectors.begin(), t.selectors.end(),
                           [&](const std::string& s) { return selects(s, device); });
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
  if (spec == nullptr || *spec == 0) return std::nullopt;
  return devices_from_spec(api, spec);
}

}  // namespace plinth
