#pragma once

#include <plinth/backend/platform.hpp>

#include <level_zero/ze_api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace plinth::level_zero {

/// A Level Zero driver (ze_driver_handle_t, zeDriverGet) and its GPU devices. Sub-devices
/// (the tiles of a Data Center GPU Max) are not platforms' devices of their own: see api.hpp.
class Platform final : public backend::PlatformAdapter {
 public:
  /// Lists the driver's GPU devices. Throws BackendError.
  explicit Platform(ze_driver_handle_t driver);

  /// "Intel(R) Level-Zero" for Intel's driver (vendor id 0x8086 of its devices), "Level
  /// Zero" otherwise: Level Zero 1.4 reports no driver name.
  std::string name() const override;
  std::string vendor() const override { return vendor_; }
  /// "1.3 (driver 1.3.26241)": the API version the driver implements and its own version.
  std::string version() const override;
  std::size_t device_count() const override { return devices_.size(); }
  std::unique_ptr<backend::DeviceAdapter> device(std::size_t index) const override;
  /// The ze_driver_handle_t.
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(driver_);
  }

  /// The GPU devices of a driver (zeDeviceGet, devices of type ZE_DEVICE_TYPE_GPU).
  static std::vector<ze_device_handle_t> gpu_devices(ze_driver_handle_t driver);

 private:
  ze_driver_handle_t driver_;
  std::vector<ze_device_handle_t> devices_;
  std::string vendor_;
  std::string driver_version_;
  std::string api_version_;
  bool intel_ = false;
};

}  // namespace plinth::level_zero
