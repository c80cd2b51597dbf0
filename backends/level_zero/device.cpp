#include "device.hpp"

#include "device_parameters.hpp"
#include "error.hpp"
#include "spirv_compiler.hpp"

namespace plinth::level_zero {

std::string Device::name() const {
  ze_device_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  PLINTH_CHECK(zeDeviceGetProperties(device_, &properties));
  return bounded_text(properties.name);
}

namespace {

DeviceProperties read_properties(ze_device_handle_t device) {
  DeviceProperties properties;
  properties.device.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  PLINTH_CHECK(zeDeviceGetProperties(device, &properties.device));
  properties.compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  PLINTH_CHECK(zeDeviceGetComputeProperties(device, &properties.compute));
  std::uint32_t count = 0;
  PLINTH_CHECK(zeDeviceGetMemoryProperties(device, &count, nullptr));
  properties.memory.resize(count);
  for (auto& memory : properties.memory) memory.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  if (count > 0)
    PLINTH_CHECK(zeDeviceGetMemoryProperties(device, &count, properties.memory.data()));
  properties.memory.resize(count);
  properties.module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  PLINTH_CHECK(zeDeviceGetModuleProperties(device, &properties.module));
  return properties;
}

}  // namespace

DeviceParameters Device::parameters() const {
  return parameters_from(read_properties(device_), driver_version_);
}

void Device::features(DeviceFeatures& features) const {
  features = features_from(read_properties(device_));
}

std::string Device::compiler_identity() const {
  if (compiler_problem()) return {};
  // Programs for a device without 64-bit atomics are compiled with their macros off
  // (device_dialect_flags()): a module that uses them must not be reused for it.
  const bool int64_atomics = features_from(read_properties(device_)).int64_atomics;
  return compiler_version() + "; SPIR-V" + (int64_atomics ? "" : "; no 64-bit atomics");
}

}  // namespace plinth::level_zero
