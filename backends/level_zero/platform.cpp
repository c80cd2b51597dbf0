#include "platform.hpp"

#include "device.hpp"
#include "device_parameters.hpp"
#include "error.hpp"

#include <plinth/errors.hpp>

namespace plinth::level_zero {

std::vector<ze_device_handle_t> Platform::gpu_devices(ze_driver_handle_t driver) {
  std::uint32_t count = 0;
  PLINTH_CHECK(zeDeviceGet(driver, &count, nullptr));
  std::vector<ze_device_handle_t> all(count);
  if (count > 0) PLINTH_CHECK(zeDeviceGet(driver, &count, all.data()));
  all.resize(count);
  std::vector<ze_device_handle_t> gpus;
  for (ze_device_handle_t device : all) {
    ze_device_properties_t properties{};
    properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    PLINTH_CHECK(zeDeviceGetProperties(device, &properties));
    if (properties.type == ZE_DEVICE_TYPE_GPU) gpus.push_back(device);
  }
  return gpus;
}

Platform::Platform(ze_driver_handle_t driver) : driver_(driver), devices_(gpu_devices(driver)) {
  ze_driver_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
  PLINTH_CHECK(zeDriverGetProperties(driver, &properties));
  driver_version_ = driver_version_string(properties.driverVersion);
  ze_api_version_t api = ZE_API_VERSION_1_0;
  PLINTH_CHECK(zeDriverGetApiVersion(driver, &api));
  api_version_ =
      std::to_string(ZE_MAJOR_VERSION(api)) + "." + std::to_string(ZE_MINOR_VERSION(api));
  // Level Zero 1.4 has no driver name or vendor: the devices' vendor id says whose it is.
  vendor_ = "unknown";
  if (!devices_.empty()) {
    ze_device_properties_t device{};
    device.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    PLINTH_CHECK(zeDeviceGetProperties(devices_.front(), &device));
    intel_ = device.vendorId == 0x8086;
    vendor_ = intel_ ? std::string("Intel(R) Corporation")
                     : "PCI vendor " + std::to_string(device.vendorId);
  }
}

std::string Platform::name() const {
  // As Intel's tools (sycl-ls) name Intel's driver.
  return intel_ ? "Intel(R) Level-Zero" : "Level Zero";
}

std::string Platform::version() const { return api_version_ + " (driver " + driver_version_ + ")"; }

std::unique_ptr<backend::DeviceAdapter> Platform::device(std::size_t index) const {
  if (index >= devices_.size())
    throw LogicError("the Level Zero driver has " + std::to_string(devices_.size()) +
                     " GPU devices, no device " + std::to_string(index));
  return std::make_unique<Device>(driver_, devices_[index], driver_version_);
}

}  // namespace plinth::level_zero
