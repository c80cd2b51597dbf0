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

  // SDK 1.5.
  /// nominal_features() of the device's compute capability.
  void features(DeviceFeatures& features) const override;

  CUdevice device() const { return device_; }

 private:
  CUdevice device_;
  std::string driver_version_;
};

/// What the CUDA prelude gives a device of compute capability `arch` / 10 . `arch` % 10
/// (docs/kernel-dialect.md, "What a device has"): every atomic, fence and ordered access
/// (ld.acquire/st.release/fence.acq_rel from sm_70, volatile accesses and membar before),
/// float atomicAdd in hardware, double atomicAdd from sm_60, warps of 32, and independent
/// thread scheduling from Volta (sm_70). Throws only std::bad_alloc.
DeviceFeatures nominal_features(int arch);

}  // namespace plinth::cuda
