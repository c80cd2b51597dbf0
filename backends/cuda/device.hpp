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

  CUdevice device() const { return device_; }

 private:
  CUdevice device_;
  std::string driver_version_;
};

}  // namespace plinth::cuda
