#include "platform.hpp"

#include "device.hpp"
#include "error.hpp"

#include <plinth/errors.hpp>

namespace plinth::opencl {

Platform::Platform(cl_platform_id platform) : platform_(platform) {
  cl_uint count = 0;
  const cl_int code = clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (code == CL_DEVICE_NOT_FOUND) return;  // a platform without devices
  plinth::backend::check(code, "clGetDeviceIDs");
  devices_.resize(count);
  PLINTH_CHECK(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, count, devices_.data(), nullptr));
}

std::string platform_string(cl_platform_id platform, cl_platform_info param) {
  return info_string(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetPlatformInfo(platform, param, size, value, size_ret);
      },
      "clGetPlatformInfo");
}

std::string Platform::name() const { return platform_string(platform_, CL_PLATFORM_NAME); }

std::string Platform::vendor() const { return platform_string(platform_, CL_PLATFORM_VENDOR); }

std::string Platform::version() const { return platform_string(platform_, CL_PLATFORM_VERSION); }

std::size_t Platform::device_count() const { return devices_.size(); }

std::unique_ptr<backend::DeviceAdapter> Platform::device(std::size_t index) const {
  if (index >= devices_.size())
    throw LogicError("OpenCL platform has " + std::to_string(devices_.size()) +
                     " devices, no device " + std::to_string(index));
  return std::make_unique<Device>(devices_[index]);
}

backend::NativeHandle Platform::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(platform_);
}

}  // namespace plinth::opencl
