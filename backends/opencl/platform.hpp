#pragma once

#include <plinth/backend/platform.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace plinth::opencl {

/// A string-valued platform info parameter (CL_PLATFORM_NAME...). Throws BackendError naming
/// clGetPlatformInfo. Any thread may call it.
std::string platform_string(cl_platform_id platform, cl_platform_info param);

/// A cl_platform_id and its devices, listed once at creation.
class Platform final : public backend::PlatformAdapter {
 public:
  explicit Platform(cl_platform_id platform);

  std::string name() const override;
  std::string vendor() const override;
  std::string version() const override;
  std::size_t device_count() const override;
  std::unique_ptr<backend::DeviceAdapter> device(std::size_t index) const override;
  backend::NativeHandle native_handle() const override;

 private:
  cl_platform_id platform_;
  std::vector<cl_device_id> devices_;
};

}  // namespace plinth::opencl
