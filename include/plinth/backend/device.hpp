#pragma once

#include <plinth/backend/types.hpp>
#include <plinth/device_features.hpp>
#include <plinth/device_parameters.hpp>

#include <string>

namespace plinth::backend {

/// One device of a platform. Created by PlatformAdapter::device(); lives as long as the core
/// holds it. All methods may be called from any thread.
class DeviceAdapter {
 public:
  virtual ~DeviceAdapter() = default;
  /// The device's name as the vendor reports it.
  virtual std::string name() const = 0;
  /// The device's parameters, in plinth's units. Called once per device.
  virtual DeviceParameters parameters() const = 0;
  /// cl_device_id, CUdevice, hipDevice_t, ze_device_handle_t.
  virtual NativeHandle native_handle() const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// Everything besides the source and the options that decides the binary a build makes
  /// for this device: the compiler and its version, the target architecture, and the driver
  /// where it compiles (e.g. "NVRTC 13.0; sm_90"). Devices with equal identities can share
  /// binaries (Device::compiler_identity(); what a program cache keys on). Optional: the
  /// default, "", means binaries are not to be reused. Called once per device, at loading;
  /// the core makes it printable().
  virtual std::string compiler_identity() const { return {}; }

  // ---- SDK 1.5: called only on plugins of ABI 1.5 or later --------------------------------

  /// What the device's kernels may use of the dialect's atomics, fences and sub-groups
  /// (docs/kernel-dialect.md). `features` arrives default-constructed (promising nothing);
  /// set what the device and the backend's prelude support. The answer must agree with the
  /// prelude: an operation the prelude cannot give this device makes the build fail rather
  /// than compute something else. Called once per device, at loading. Optional: the default
  /// leaves every field as it came (`atomics` false), which is right for a backend whose
  /// prelude lacks them.
  virtual void features(DeviceFeatures& features) const { (void)features; }
};

}  // namespace plinth::backend
