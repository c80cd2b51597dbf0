#pragma once

#include "dialect_support.hpp"
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

/// The device's answers to the queries that decide the kernel dialect (dialect_support.hpp).
DialectQueries query_dialect(cl_device_id device);

/// How programs for a device are built, from one query_dialect(): the OpenCL C version
/// (build_language()) and whether with -DPLINTH_NO_NATIVE_SUB_GROUPS (sub_groups_too_wide()).
struct DialectBuild {
  int language = 0;
  bool no_native_sub_groups = false;
};
DialectBuild device_dialect_build(cl_device_id device);

/// A cl_device_id of a platform (root devices need no reference counting).
class Device final : public backend::DeviceAdapter {
 public:
  explicit Device(cl_device_id device) : device_(device) {}

  std::string name() const override;
  DeviceParameters parameters() const override;
  backend::NativeHandle native_handle() const override;
  /// "<platform name> <platform version>; <device name>; <device version>; driver <version>",
  /// then "; OpenCL C 3.0" or "; OpenCL C 2.0" where programs are built as that version.
  std::string compiler_identity() const override;
  /// What the OpenCL C prelude gives the device (dialect_features()).
  void features(DeviceFeatures& features) const override;

 private:
  /// compiler_identity()'s last part: the OpenCL C version programs are built as, or "".
  std::string language_identity() const;

  cl_device_id device_;
};

}  // namespace plinth::opencl
