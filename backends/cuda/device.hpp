#pragma once

#include <plinth/backend/device.hpp>

#include <cuda.h>

#include <string>

namespace plinth::cuda {

/// A CUdevice; its parameters come from cuDeviceGetAttribute (no context needed).
class Device final : public backend::DeviceAdapter {
 public:
  Device(CUdevice device, std::string driver_version)
      : device_(device), driver_version_(std::move(driver_version)) {}

  std::string name() const override;
  DeviceParameters parameters() const override;
  backend::NativeHandle native_handle() const override {
    return static_cast<backend::NativeHandle>(device_);
  }

  /// "NVRTC 13.0; sm_90", or for a device NVRTC does not know, the PTX it gets and the
  /// driver that compiles it: "NVRTC 12.0; compute_90 PTX; driver 13.0".
  std::string compiler_identity() const override;

  CUdevice device() const { return device_; }

 private:
  CUdevice device_;
  std::string driver_version_;
};

}  // namespace plinth::cuda
