#pragma once

#include "error.hpp"

#include <plinth/backend/device.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <source_location>
#include <string>

namespace plinth::opencl {

/// A string-valued device info parameter (CL_DEVICE_NAME...); an error names the caller's
/// location.
std::string device_string(cl_device_id device, cl_device_info param,
                          std::source_location where = std::source_location::current());

/// A fixed-size device info parameter.
template <class T>
T device_value(cl_device_id device, cl_device_info param,
               std::source_location where = std::source_location::current()) {
  return info_value<T>(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetDeviceInfo(device, param, size, value, size_ret);
      },
      backend::VendorCall("clGetDeviceInfo", where));
}

/// A cl_device_id of a platform (root devices need no reference counting).
class Device final : public backend::DeviceAdapter {
 public:
  explicit Device(cl_device_id device) : device_(device) {}

  std::string name() const override;
  DeviceParameters parameters() const override;
  backend::NativeHandle native_handle() const override;
  /// "<platform name> <platform version>; <device name>; <device version>; driver <version>".
  std::string compiler_identity() const override;

 private:
  cl_device_id device_;
};

}  // namespace plinth::opencl
