#include "api.hpp"

#include "clblast.hpp"
#include "context.hpp"
#include "error.hpp"
#include "gl_interop.hpp"
#include "platform.hpp"
#include "prelude.hpp"

#include <plinth/errors.hpp>

#include <CL/cl_ext.h>

namespace plinth::opencl {

namespace {

// The ICD loader's platforms; none (CL_PLATFORM_NOT_FOUND_KHR) is not an error.
std::vector<cl_platform_id> platform_ids() {
  cl_uint count = 0;
  const cl_int code = clGetPlatformIDs(0, nullptr, &count);
  if (code == CL_PLATFORM_NOT_FOUND_KHR) return {};
  plinth::backend::check(code, "clGetPlatformIDs");
  std::vector<cl_platform_id> ids(count);
  if (count > 0) PLINTH_CHECK(clGetPlatformIDs(count, ids.data(), nullptr));
  return ids;
}

std::vector<cl_device_id> device_ids(std::span<const backend::DeviceAdapter* const> devices) {
  std::vector<cl_device_id> ids;
  ids.reserve(devices.size());
  for (const auto* device : devices)
    ids.push_back(reinterpret_cast<cl_device_id>(device->native_handle()));
  return ids;
}

}  // namespace

std::string Api::name() const { return "OpenCL"; }

// The ICD loader needs no initialisation; platforms are listed on demand.
void Api::initialize() {}

std::size_t Api::platform_count() const { return platform_ids().size(); }

std::unique_ptr<backend::PlatformAdapter> Api::platform(std::size_t index) const {
  const auto ids = platform_ids();
  if (index >= ids.size())
    throw LogicError("OpenCL has " + std::to_string(ids.size()) + " platforms, no platform " +
                     std::to_string(index));
  return std::make_unique<Platform>(ids[index]);
}

std::unique_ptr<backend::ContextAdapter> Api::create_context(
    std::span<const backend::DeviceAdapter* const> devices) {
  return Context::create(device_ids(devices));
}

std::unique_ptr<backend::ContextAdapter> Api::wrap_context(
    backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
    bool take_ownership) {
  return Context::wrap(reinterpret_cast<cl_context>(context), device_ids(devices), take_ownership);
}

// gl_interop.hpp's create_gl_context() on the devices' cl_device_ids.
std::unique_ptr<backend::ContextAdapter> Api::create_gl_context(
    std::span<const backend::DeviceAdapter* const> devices, const GlContext& gl) {
  return opencl::create_gl_context(device_ids(devices), gl);
}

std::string Api::prelude(bool fast_math) const { return opencl::prelude(fast_math); }

backend::BlasLibrary Api::blas_library() const {
  try {
    const clblast::Library& library = clblast::library();
    return {library.available, library.description};
  } catch (...) {  // std::bad_alloc: must not throw
    return {false, "CLBlast could not be loaded (out of memory)"};
  }
}

std::unique_ptr<backend::ApiAdapter> create_api() { return std::make_unique<Api>(); }

}  // namespace plinth::opencl
