#include <plinth/context.hpp>

#include "algorithms/kit/kernel_store.hpp"
#include "arrays/page_locked_pool_state.hpp"
#include "memory/context_pools.hpp"
#include "runtime/impl.hpp"

#include <plinth/errors.hpp>
#include <plinth/gl_interop.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace plinth {

namespace {

/// Checks that `devices` are non-empty, of one platform, without repeats.
void check_devices(const std::vector<Device>& devices) {
  if (devices.empty()) throw LogicError("a context needs at least one device");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (!(devices[i].platform() == devices[0].platform())) {
      throw LogicError(
          fmt::format("a context's devices must be of one platform: '{}' is not of '{}'",
                      devices[i].full_name(), devices[0].platform().name()));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (devices[i] == devices[j]) {
        throw LogicError(fmt::format("device '{}' is given twice", devices[i].full_name()));
      }
    }
  }
}

std::vector<const backend::DeviceAdapter*> adapters_of(const std::vector<Device>& devices) {
  std::vector<const backend::DeviceAdapter*> adapters;
  for (const auto& device : devices) adapters.push_back(detail::device_data(device).adapter.get());
  return adapters;
}

Context make_context(const std::vector<Device>& devices,
                     std::shared_ptr<backend::ContextAdapter> adapter) {
  std::vector<std::size_t> alignments;
  for (const auto& device : devices) alignments.push_back(device.params().address_alignment);
  auto pools =
      detail::make_context_pools(adapter, alignments, detail::loaded(devices.front().api()).plugin);
  // PLINTH_MEMORY_POOL turns the page-locked pool off with the device pools.
  auto page_locked_pool = detail::make_page_locked_pool(adapter, pools->settings.enabled);
  auto impl = std::make_shared<detail::ContextImpl>(
      detail::ContextImpl{devices.front().api(), devices.front().platform().index(), devices,
                          std::move(adapter), std::move(pools), std::move(page_locked_pool)});
  detail::register_kernel_store(impl);
  return detail::Access::make<Context>(std::move(impl));
}

}  // namespace

Context Context::from_devices(const std::vector<Device>& devices) {
  check_devices(devices);
  const auto& api = detail::loaded(devices.front().api());
  const auto adapters = adapters_of(devices);
  return make_context(devices, api.adopt(api.adapter->create_context(adapters)));
}

Context Context::from_criteria(const API& api, bool interactive,
                               std::optional<std::size_t> devices_num,
                               const DeviceFilter& device_filter,
                               const PlatformFilter& platform_filter) {
  const bool no_filters =
      device_filter.include_masks.empty() && device_filter.exclude_masks.empty() &&
      platform_filter.include_masks.empty() && platform_filter.exclude_masks.empty();
  if (no_filters && !interactive) {
    if (auto from_env = devices_from_env(api)) {
      // Devices of the first platform that has enough of the selected ones.
      for (const auto& platform : api.platforms()) {
        std::vector<Device> on_platform;
        for (const auto& device : *from_env) {
          if (device.platform() == platform) on_platform.push_back(device);
        }
        if (!on_platform.empty() && (!devices_num || on_platform.size() >= *devices_num)) {
          on_platform.erase(on_platform.begin() + static_cast<std::ptrdiff_t>(
                                                      devices_num.value_or(on_platform.size())),
                            on_platform.end());
          return from_devices(on_platform);
        }
      }
      throw LogicError(
          fmt::format("PLINTH_DEVICE selects fewer than {} device(s) of one platform "
                      "of {}",
                      devices_num.value_or(1), api.name()));
    }
  }
  return from_devices(
      select_devices(api, interactive, devices_num, device_filter, platform_filter));
}

Context Context::from_backend_devices(const API& api,
                                      const std::vector<std::uintptr_t>& native_devices) {
  std::vector<Device> devices;
  for (const auto native : native_devices) {
    std::optional<Device> found;
    for (const auto& platform : api.platforms()) {
      for (const auto& device : platform.devices()) {
        if (device.native_handle() == native) found = device;
      }
    }
    if (!found) {
      throw LogicError(
          fmt::format("native device {:#x} is not a device of {}", native, api.name()));
    }
    devices.push_back(*found);
  }
  return from_devices(devices);
}

Context Context::from_backend_context(std::uintptr_t native_context,
                                      const std::vector<Device>& devices, bool take_ownership) {
  check_devices(devices);
  const auto& api = detail::loaded(devices.front().api());
  const auto adapters = adapters_of(devices);
  return make_context(
      devices, api.adopt(api.adapter->wrap_context(native_context, adapters, take_ownership)));
}

Context make_gl_context(const std::vector<Device>& devices, const GlContext& gl) {
  check_devices(devices);
  if (gl.system != GlWindowSystem::egl && gl.system != GlWindowSystem::glx) {
    throw LogicError(fmt::format("make_gl_context: GlWindowSystem {} is not one of its values",
                                 static_cast<int>(gl.system)));
  }
  if (gl.display == nullptr || gl.context == nullptr) {
    throw LogicError(fmt::format("make_gl_context: the GL context's {} is null",
                                 gl.display == nullptr ? "display" : "context"));
  }
  const auto& api = detail::loaded(devices.front().api());
  if (api.abi_minor < 9) {
    throw LogicError(fmt::format(
        "make_gl_context: {}'s plugin implements SDK 1.{}, and GL interop needs SDK 1.9", api.name,
        api.abi_minor));
  }
  const auto adapters = adapters_of(devices);
  return make_context(devices, api.adopt(api.adapter->create_gl_context(adapters, gl)));
}

API Context::api() const { return impl_->api; }
Platform Context::platform() const { return impl_->devices.front().platform(); }
const std::vector<Device>& Context::unbound_devices() const { return impl_->devices; }

BoundMultiDevice Context::devices() const {
  std::vector<BoundDevice> bound;
  for (std::size_t i = 0; i < impl_->devices.size(); ++i)
    bound.push_back(detail::Access::make<BoundDevice>(*this, i));
  return detail::Access::make<BoundMultiDevice>(std::move(bound));
}

void Context::activate() const { impl_->adapter->activate(); }
void Context::deactivate() const { impl_->adapter->deactivate(); }

std::uintptr_t Context::native_handle(std::size_t index) const {
  if (index >= impl_->devices.size()) {
    throw LogicError(fmt::format("device index {} is out of range: the context has {} device(s)",
                                 index, impl_->devices.size()));
  }
  return impl_->adapter->native_handle(index);
}

const Device& BoundDevice::device() const { return context_.unbound_devices()[index_]; }

BoundMultiDevice::BoundMultiDevice(std::vector<BoundDevice> devices)
    : devices_(std::move(devices)) {
  if (devices_.empty()) throw LogicError("a BoundMultiDevice needs at least one device");
  for (const auto& device : devices_) {
    if (!(device.context() == devices_.front().context())) {
      throw LogicError("a BoundMultiDevice's devices must be of one context");
    }
  }
}

bool BoundMultiDevice::is_subset_of(const BoundMultiDevice& other) const {
  return std::all_of(devices_.begin(), devices_.end(), [&](const BoundDevice& device) {
    return std::find(other.devices_.begin(), other.devices_.end(), device) != other.devices_.end();
  });
}

BoundDevice BoundMultiDevice::operator[](std::size_t i) const {
  if (i >= devices_.size()) {
    throw LogicError(
        fmt::format("device {} is out of range: the set has {} device(s)", i, devices_.size()));
  }
  return devices_[i];
}

BoundMultiDevice BoundMultiDevice::operator[](std::span<const std::size_t> indices) const {
  std::vector<BoundDevice> chosen;
  for (const auto i : indices) {
    const auto& device = (*this)[i];
    if (std::find(chosen.begin(), chosen.end(), device) != chosen.end()) {
      throw LogicError(fmt::format("device {} is selected twice", i));
    }
    chosen.push_back(device);
  }
  return BoundMultiDevice(std::move(chosen));
}

namespace detail {

std::string describe_mismatch(const char* first, const BoundDevice& a, const char* second,
                              const BoundDevice& b) {
  if (!(a.context() == b.context())) {
    return fmt::format(
        "the {0} and the {2} belong to different contexts (the {0}'s device {1} "
        "('{4}'), the {2}'s device {3} ('{5}')); objects of one context cannot "
        "be used with another's",
        first, a.index(), second, b.index(), a.name(), b.name());
  }
  return fmt::format("the {} is on device {} ('{}') but the {} on device {} ('{}')", first,
                     a.index(), a.name(), second, b.index(), b.name());
}

}  // namespace detail

}  // namespace plinth
