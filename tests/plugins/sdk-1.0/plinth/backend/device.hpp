#pragma once

#include <plinth/backend/types.hpp>
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
};

}  // namespace plinth::backend
