#pragma once

#include <plinth/backend/types.hpp>
#include <plinth/device_features.hpp>
#include <plinth/device_parameters.hpp>

#include <string>

namespace plinth::backend {

/// One device of a platform.
///
/// Made by PlatformAdapter::device() at loading; it lives until the ApiAdapter goes, after
/// every context that uses it (contexts keep pointers to it). All its methods may be called
/// from any thread.
class DeviceAdapter {
 public:
  virtual ~DeviceAdapter() = default;
  /// The device's name as the vendor reports it.
  ///
  /// Called once, at loading; the core keeps it, made printable(). Since SDK 1.0; required.
  virtual std::string name() const = 0;
  /// The device's properties, in plinth's units.
  ///
  /// Called once, at loading; the core keeps the copy (Device::params()) and makes its
  /// strings (`compute_capability`, `driver_version`) printable(). The core uses
  /// `max_local_sizes`, `max_num_groups` (skipping that check when it is empty),
  /// `max_total_local_size` and `local_mem_size` to check and choose launch shapes, and
  /// `max_total_local_size` in device selection. DeviceParameters is returned by value, so
  /// its layout is fixed for major version 1. Throws BackendError (the plugin is then `init
  /// failed`). Since SDK 1.0; required.
  virtual DeviceParameters parameters() const = 0;
  /// cl_device_id, CUdevice, hipDevice_t, ze_device_handle_t.
  ///
  /// Called by Device::native_handle(), and by Context::from_backend_devices() for every
  /// device of the API, on the user's thread. Since SDK 1.0; required.
  virtual NativeHandle native_handle() const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// Everything besides the source and the options that decides the binary a build makes
  /// for this device: the compiler and its version, the target architecture, and the driver
  /// where it compiles (such as "NVRTC 13.0; sm_90").
  ///
  /// Devices with equal identities can share binaries. Called once, at loading; the core
  /// reports it as Device::compiler_identity(), made printable(). The compiled-program cache
  /// (PLINTH_CACHE_DIR) keys on it, with the source, the options, the device's name and
  /// driver version and plinth's version: a device whose identity is empty is never cached.
  /// It should change whenever a build could produce a different binary. Since SDK 1.1;
  /// optional: the default, "", means binaries are not to be reused.
  virtual std::string compiler_identity() const { return {}; }

  // ---- SDK 1.5: called only on plugins of ABI 1.5 or later --------------------------------

  /// What the device's kernels may use of the dialect's atomics, fences and sub-groups
  /// (docs/kernel-dialect.md, "What a device has").
  ///
  /// Called once, at loading, with `features` default-constructed (promising nothing); the
  /// backend sets what the device and its prelude support. The core keeps the result
  /// (Device::features(), and the render global `device_params`). The answer must agree with
  /// the prelude: what it reports supported must compile and work, and an operation the
  /// prelude cannot give this device must fail to build (the `plinth_unsupported__` marker),
  /// never compute something else. Since SDK 1.5; optional: the default leaves every field
  /// as it came (`atomics` false), which is right for a backend whose prelude lacks them;
  /// devices of older plugins report the defaults too.
  virtual void features(DeviceFeatures& features) const { (void)features; }
};

}  // namespace plinth::backend
