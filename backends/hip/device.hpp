#pragma once

#include <plinth/backend/device.hpp>

#include <string>

namespace plinth::hip {

/// A HIP device ordinal (hipDevice_t); its parameters come from hipGetDeviceProperties
/// (parameters_from(), device_parameters.hpp).
class Device final : public backend::DeviceAdapter {
 public:
  Device(int device, std::string driver_version)
      : device_(device), driver_version_(std::move(driver_version)) {}

  std::string name() const override;
  DeviceParameters parameters() const override;
  backend::NativeHandle native_handle() const override {
    return static_cast<backend::NativeHandle>(device_);
  }

  /// "hiprtc 9.0 (HIP 5.2.21153); gfx90a:sramecc+:xnack-": the compiler, the HIP release it
  /// comes with, and the exact target ID it compiles for.
  std::string compiler_identity() const override;

  // SDK 1.5.
  /// features_for_wavefront() (device_parameters.hpp) of the device's warpSize: the
  /// wavefront hiprtc compiles for on it (64 on gfx9, 32 from gfx10).
  void features(DeviceFeatures& features) const override;

  int device() const { return device_; }

 private:
  int device_;
  std::string driver_version_;
};

}  // namespace plinth::hip
