#include <plinth/api.hpp>

#include "plugins/registry.hpp"

#include <plinth/errors.hpp>
#include <plinth/platform.hpp>
#include <plinth/plugins.hpp>
#include <plinth/printable.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace plinth {

namespace detail {

const LoadedApi& loaded(const API& api) { return *detail::Access::impl(api); }

namespace {

bool has_devices(const LoadedApi& api) {
  return std::any_of(api.platforms.begin(), api.platforms.end(),
                     [](const auto& p) { return !p.devices.empty(); });
}

std::string candidates_text() {
  return "plugin candidates:\n" + describe_plugins(registry().infos);
}

/// The ready API `shortcut`, or a PluginError that says why there is none.
API find_ready(const std::string& shortcut) {
  const auto& reg = registry();
  for (const auto& api : reg.apis) {
    if (api->id.shortcut == shortcut && has_devices(*api)) return detail::Access::make<API>(api);
  }
  const auto known = std::find_if(reg.infos.begin(), reg.infos.end(), [&](const PluginInfo& i) {
    return i.shortcut == shortcut && i.state != PluginState::shadowed;
  });
  if (known == reg.infos.end()) {
    throw PluginError(
        fmt::format("unknown API '{}': no plugin provides it; {}", shortcut, candidates_text()));
  }
  throw PluginError(fmt::format("API '{}' is not available ({}{}{}); {}", shortcut,
                                to_string(known->state), known->reason.empty() ? "" : ": ",
                                printable(known->reason), candidates_text()));
}

}  // namespace

std::shared_ptr<LoadedApi> find_loaded(const std::string& shortcut) {
  const auto& reg = registry();
  for (const auto& api : reg.apis) {
    if (api->id.shortcut == shortcut) return api;
  }
  const auto known = std::find_if(reg.infos.begin(), reg.infos.end(), [&](const PluginInfo& i) {
    return i.shortcut == shortcut && i.state != PluginState::shadowed;
  });
  if (known == reg.infos.end()) {
    throw PluginError(
        fmt::format("unknown API '{}': no plugin provides it; {}", shortcut, candidates_text()));
  }
  throw PluginError(fmt::format("API '{}' is not loaded ({}{}{}); {}", shortcut,
                                to_string(known->state), known->reason.empty() ? "" : ": ",
                                printable(known->reason), candidates_text()));
}

}  // namespace detail

std::vector<APIID> all_api_ids() {
  std::vector<APIID> ids;
  for (const auto& info : detail::registry().infos) {
    if (info.kind != "backend" || info.shortcut.empty()) continue;
    if (std::find(ids.begin(), ids.end(), APIID{info.shortcut}) == ids.end()) {
      ids.push_back(APIID{info.shortcut});
    }
  }
  std::stable_sort(ids.begin(), ids.end(), [](const APIID& a, const APIID& b) {
    const int ra = detail::preference_rank(a.shortcut), rb = detail::preference_rank(b.shortcut);
    return ra != rb ? ra < rb : a.shortcut < b.shortcut;
  });
  return ids;
}

std::vector<API> API::all_available() {
  std::vector<API> apis;
  for (const auto& api : detail::registry().apis) {
    if (detail::has_devices(*api)) apis.push_back(detail::Access::make<API>(api));
  }
  return apis;
}

std::vector<API> API::all_by_shortcut(const std::optional<std::string>& shortcut) {
  if (!shortcut) return all_available();
  return {detail::find_ready(*shortcut)};
}

API API::from_api_id(const APIID& id) { return detail::find_ready(id.shortcut); }

API API::from_env() {
  const auto& reg = detail::registry();
  if (reg.api_filter) {
    if (reg.api_filter->empty()) throw PluginError("PLINTH_API is set but names no API");
    std::string why;
    for (const auto& shortcut : *reg.api_filter) {
      try {
        return detail::find_ready(shortcut);
      } catch (const PluginError&) {
        const auto info = std::find_if(reg.infos.begin(), reg.infos.end(), [&](const auto& i) {
          return i.shortcut == shortcut && i.state != PluginState::shadowed;
        });
        why += fmt::format("\n  '{}': {}", shortcut,
                           info == reg.infos.end() ? std::string("unknown: no plugin provides it")
                                                   : fmt::format("{}{}{}", to_string(info->state),
                                                                 info->reason.empty() ? "" : ": ",
                                                                 printable(info->reason)));
      }
    }
    throw PluginError(
        fmt::format("no API of PLINTH_API is available:{}\n{}", why, detail::candidates_text()));
  }
  const auto apis = all_available();
  if (apis.empty()) {
    throw PluginError("no API with devices is available; " + detail::candidates_text());
  }
  return apis.front();
}

const APIID& API::id() const { return impl_->id; }
const std::string& API::shortcut() const { return impl_->id.shortcut; }
const std::string& API::name() const { return impl_->name; }
int API::abi_minor() const { return impl_->abi_minor; }

std::vector<Platform> API::platforms() const { return Platform::all(*this); }

}  // namespace plinth
