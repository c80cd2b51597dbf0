// Fuzzes the PLINTH_DEVICE grammar: plinth::detail::parse_device_spec (core/detail/
// device_spec.hpp). Input: the variable's value. A malformed value is a LogicError; a value
// that parses must parse into well-formed terms, and the terms written back as text must
// parse into the same terms.

#include "fuzz_common.hpp"

#include <plinth/errors.hpp>

#include "runtime/device_spec.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace {

using plinth::detail::DeviceSelector;
using plinth::detail::DeviceSpecTerm;

bool is_shortcut(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

std::string to_text(const DeviceSelector& sel) {
  using Kind = DeviceSelector::Kind;
  switch (sel.kind) {
    case Kind::any: return "*";
    case Kind::cpu: return "cpu";
    case Kind::gpu: return "gpu";
    case Kind::index: return std::to_string(sel.device);
    case Kind::platform_index:
      return std::to_string(sel.platform) + "." + std::to_string(sel.device);
    case Kind::name: return "~" + sel.text;
  }
  __builtin_trap();
}

std::string to_text(const std::vector<DeviceSpecTerm>& terms) {
  std::string spec;
  for (const auto& term : terms) {
    if (!spec.empty()) spec += ';';
    if (term.discard) spec += '!';
    spec += term.api + ':';
    for (std::size_t i = 0; i < term.selectors.size(); ++i) {
      if (i > 0) spec += ',';
      spec += to_text(term.selectors[i]);
    }
  }
  return spec;
}

bool same(const std::vector<DeviceSpecTerm>& a, const std::vector<DeviceSpecTerm>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].discard != b[i].discard || a[i].api != b[i].api ||
        a[i].selectors.size() != b[i].selectors.size())
      return false;
    for (std::size_t j = 0; j < a[i].selectors.size(); ++j) {
      const auto& x = a[i].selectors[j];
      const auto& y = b[i].selectors[j];
      if (x.kind != y.kind || x.platform != y.platform || x.device != y.device || x.text != y.text)
        return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  std::vector<DeviceSpecTerm> terms;
  try {
    terms = plinth::detail::parse_device_spec(spec);
  } catch (const plinth::Error&) {
    return 0;
  }
  // Every ';' separates two terms, and no term may be empty.
  PLINTH_FUZZ_CHECK(terms.size() ==
                    static_cast<std::size_t>(std::count(spec.begin(), spec.end(), ';')) + 1);
  for (const auto& term : terms) {
    PLINTH_FUZZ_CHECK(term.api == "*" || is_shortcut(term.api));
    PLINTH_FUZZ_CHECK(!term.selectors.empty());
    for (const auto& sel : term.selectors) {
      if (sel.kind == DeviceSelector::Kind::name) {
        PLINTH_FUZZ_CHECK(!sel.text.empty());
        PLINTH_FUZZ_CHECK(std::none_of(sel.text.begin(), sel.text.end(),
                                       [](char c) { return c >= 'A' && c <= 'Z'; }));
      }
      if (sel.kind == DeviceSelector::Kind::index) PLINTH_FUZZ_CHECK(sel.platform == 0);
    }
  }
  // Written back as text, the terms parse into themselves.
  std::vector<DeviceSpecTerm> again;
  try {
    again = plinth::detail::parse_device_spec(to_text(terms));
  } catch (const plinth::Error&) {
    PLINTH_FUZZ_CHECK(false);  // the terms written back do not parse
  }
  PLINTH_FUZZ_CHECK(same(terms, again));
  return 0;
}
