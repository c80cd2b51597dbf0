#include <plinth/device.hpp>

#include "runtime/impl.hpp"
#include "runtime/masks.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace plinth {

const char* to_string(DeviceType type) noexcept {
  switch (type) {
    case DeviceType::cpu: return "cpu";
    case DeviceType::gpu: return "gpu";
    case DeviceType::accelerator: return "accelerator";
    case DeviceType::other: return "other";
  }
  return "other";
}

namespace {

RenderValue::Map params_map(const DeviceParameters& params) {
  const auto list = [](const std::vector<std::size_t>& sizes) {
    return RenderValue::List(sizes.begin(), sizes.end());
  };
  return RenderValue::Map{
      {"type", to_string(params.type)},
      {"compute_units", params.compute_units},
      {"local_mem_banks", params.local_mem_banks},
      {"local_mem_size", params.local_mem_size},
      {"max_local_sizes", list(params.max_local_sizes)},
      {"max_num_groups", list(params.max_num_groups)},
      {"max_total_local_size", params.max_total_local_size},
      {"warp_size", params.warp_size},
      {"global_mem_size", params.global_mem_size},
      {"address_alignment", params.address_alignment},
      {"supports_double", params.supports_double},
      {"compute_capability", params.compute_capability},
      {"driver_version", params.driver_version},
  };
}

}  // namespace

RenderValue to_render_value(const DeviceParameters& params) { return params_map(params); }

RenderValue to_render_value(const DeviceParameters& params, const DeviceFeatures& features) {
  auto map = params_map(params);
  map.insert({
      {"atomics", features.atomics},
      {"int64_atomics", features.int64_atomics},
      {"double_atomics", features.double_atomics},
      {"native_float_atomic_add", features.native_float_atomic_add},
      {"native_double_atomic_add", features.native_double_atomic_add},
      {"device_scope_acquire_release", features.device_scope_acquire_release},
      {"native_sub_groups", features.native_sub_groups},
      {"sub_group_sizes",
       RenderValue::List(features.sub_group_sizes.begin(), features.sub_group_sizes.end())},
      {"sub_group_independent_forward_progress", features.sub_group_independent_forward_progress},
  });
  return map;
}

namespace detail {

const DeviceData& device_data(const Device& device) {
  return platform_data(device.platform()).devices[device.index()];
}

}  // namespace detail

std::vector<Device> Device::all(const Platform& platform) {
  std::vector<Device> devices;
  const auto count = detail::platform_data(platform).devices.size();
  for (std::size_t i = 0; i < count; ++i)
    devices.push_back(detail::Access::make<Device>(platform, i));
  return devices;
}

std::vector<Device> Device::all_filtered(const Platform& platform, const DeviceFilter& filter) {
  std::vector<Device> devices;
  std::vector<std::string> seen_names;
  for (auto& device : all(platform)) {
    if (!detail::passes_masks(device.name(), filter.include_masks, filter.exclude_masks)) continue;
    if (filter.exclude_pure_parallel && device.params().max_total_local_size == 1) continue;
    if (filter.unique_only) {
      if (std::find(seen_names.begin(), seen_names.end(), device.name()) != seen_names.end()) {
        continue;
      }
      seen_names.push_back(device.name());
    }
    devices.push_back(std::move(device));
  }
  return devices;
}

Device Device::from_index(const Platform& platform, std::size_t index) {
  const auto count = detail::platform_data(platform).devices.size();
  if (index >= count) {
    throw LogicError(fmt::format("device index {} is out of range: platform '{}' has {} device(s)",
                                 index, platform.name(), count));
  }
  return Device(platform, index);
}

Device Device::from_backend_device(const API& api, std::uintptr_t native_device) {
  for (const auto& platform : Platform::all(api)) {
    for (auto& device : all(platform)) {
      if (device.native_handle() == native_device) return device;
    }
  }
  throw LogicError(
      fmt::format("no device of {} has the native handle {:#x}", api.name(), native_device));
}

const std::string& Device::name() const { return detail::device_data(*this).name; }
const DeviceParameters& Device::params() const { return detail::device_data(*this).params; }
const DeviceFeatures& Device::features() const { return detail::device_data(*this).features; }
const std::string& Device::compiler_identity() const {
  return detail::device_data(*this).compiler_identity;
}
std::uintptr_t Device::native_handle() const {
  return detail::device_data(*this).adapter->native_handle();
}

std::string Device::full_name() const {
  return fmt::format("{}:{}.{} {}", api().shortcut(), platform_.index(), index_, name());
}

}  // namespace plinth
