#pragma once

#include <plinth/backend/device.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace plinth::backend {

/// A platform: a driver's view of a group of devices (CUDA and HIP have exactly one).
///
/// Made by ApiAdapter::platform() at loading; the core keeps it until the ApiAdapter goes,
/// after every device and context. All its methods are called at loading only, on the loading
/// thread, except native_handle().
class PlatformAdapter {
 public:
  virtual ~PlatformAdapter() = default;
  /// The platform's name as the vendor reports it.
  ///
  /// Called once, at loading; the core keeps it, made printable(). Since SDK 1.0; required.
  virtual std::string name() const = 0;
  /// The platform's vendor as the driver reports it.
  ///
  /// Called once, at loading; the core keeps it, made printable(). Since SDK 1.0; required.
  virtual std::string vendor() const = 0;
  /// The platform's (driver's) version as the vendor reports it.
  ///
  /// Called once, at loading; the core keeps it, made printable(). Since SDK 1.0; required.
  virtual std::string version() const = 0;
  /// How many devices the platform has.
  ///
  /// Called once, at loading. Throws BackendError, which fails the whole plugin (`init
  /// failed`), so a backend that wants to skip a device it cannot describe leaves it out of
  /// the count. Since SDK 1.0; required.
  virtual std::size_t device_count() const = 0;
  /// Device `index` (< device_count()), a new adapter, never null.
  ///
  /// Called once per index, at loading, in order; the core keeps the device adapters until
  /// the ApiAdapter goes. Throws BackendError; an exception or a null result fails the whole
  /// plugin (`init failed`, naming which). Since SDK 1.0; required.
  virtual std::unique_ptr<DeviceAdapter> device(std::size_t index) const = 0;
  /// cl_platform_id, ze_driver_handle_t; 0 where the API has no platforms.
  ///
  /// The core does not call it at present (plinth::Platform has no native handle). Since SDK
  /// 1.0; required.
  virtual NativeHandle native_handle() const = 0;
};

}  // namespace plinth::backend
