#include <plinth/platform.hpp>

#include "runtime/impl.hpp"
#include "runtime/masks.hpp"

#include <plinth/device.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

namespace plinth {

namespace detail {

const PlatformData& platform_data(const Platform& platform) {
  return loaded(platform.api()).platforms[platform.index()];
}

}  // namespace detail

std::vector<Platform> Platform::all(const API& api) {
  std::vector<Platform> platforms;
  for (std::size_t i = 0; i < detail::loaded(api).platforms.size(); ++i)
    platforms.push_back(detail::Access::make<Platform>(api, i));
  return platforms;
}

std::vector<Platform> Platform::all_filtered(const API& api, const PlatformFilter& filter) {
  std::vector<Platform> platforms;
  for (auto& platform : all(api)) {
    if (detail::passes_masks(platform.name(), filter.include_masks, filter.exclude_masks,
                             "platform")) {
      platforms.push_back(std::move(platform));
    }
  }
  return platforms;
}

Platform Platform::from_index(const API& api, std::size_t index) {
  const auto count = detail::loaded(api).platforms.size();
  if (index >= count) {
    throw LogicError(fmt::format("platform index {} is out of range: {} has {} platform(s)", index,
                                 api.name(), count));
  }
  return Platform(api, index);
}

Platform Platform::from_backend_platform(const API& api, std::uintptr_t native_platform) {
  for (auto& platform : all(api)) {
    if (platform.native_handle() == native_platform) return platform;
  }
  throw LogicError(
      fmt::format("no platform of {} has the native handle {:#x}", api.name(), native_platform));
}

std::uintptr_t Platform::native_handle() const {
  return detail::platform_data(*this).adapter->native_handle();
}

const std::string& Platform::name() const { return detail::platform_data(*this).name; }
const std::string& Platform::vendor() const { return detail::platform_data(*this).vendor; }
const std::string& Platform::version() const { return detail::platform_data(*this).version; }
std::vector<Device> Platform::devices() const { return Device::all(*this); }

}  // namespace plinth
