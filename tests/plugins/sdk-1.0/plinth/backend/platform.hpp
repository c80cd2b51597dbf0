#pragma once

#include <plinth/backend/device.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace plinth::backend {

/// A platform: a driver's view of a group of devices (CUDA and HIP have exactly one).
class PlatformAdapter {
 public:
  virtual ~PlatformAdapter() = default;
  virtual std::string name() const = 0;
  virtual std::string vendor() const = 0;
  virtual std::string version() const = 0;
  virtual std::size_t device_count() const = 0;
  /// Device `index` < device_count(). Throws BackendError.
  virtual std::unique_ptr<DeviceAdapter> device(std::size_t index) const = 0;
  /// cl_platform_id, ze_driver_handle_t; 0 where the API has no platforms.
  virtual NativeHandle native_handle() const = 0;
};

}  // namespace plinth::backend
