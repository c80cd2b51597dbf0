#pragma once

#include <plinth/backend/device.hpp>

#include <level_zero/ze_api.h>

#include <string>

namespace plinth::level_zero {

/// A Level Zero GPU device (ze_device_handle_t, a root device: see api.hpp); its parameters
/// come from the driver's property structs (parameters_from(), device_parameters.hpp).
class Device final : public backend::DeviceAdapter {
 public:
  Device(ze_driver_handle_t driver, ze_device_handle_t device, std::string driver_version)
      : driver_(driver), device_(device), driver_version_(std::move(driver_version)) {}

  std::string name() const override;
  DeviceParameters parameters() const override;
  /// The ze_device_handle_t.
  backend::NativeHandle native_handle() const override {
    return reinterpret_cast<backend::NativeHandle>(device_);
  }
  /// compiler_version() + "; SPIR-V" (spirv_compiler.hpp): programs are SPIR-V, which every
  /// Level Zero device loads, so every device shares it; then "; no 64-bit atomics" for a
  /// device without them, whose programs are compiled with their macros off. Empty where this
  /// machine cannot compile to SPIR-V (compiler_problem()).
  std::string compiler_identity() const override;
  /// features_from() the device's properties (device_parameters.hpp).
  void features(DeviceFeatures& features) const override;

  ze_driver_handle_t driver() const { return driver_; }
  ze_device_handle_t device() const { return device_; }

 private:
  ze_driver_handle_t driver_;
  ze_device_handle_t device_;
  std::string driver_version_;
};

}  // namespace plinth::level_zero
