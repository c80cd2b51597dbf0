#include "api.hpp"

#include "context.hpp"
#include "device.hpp"
#include "error.hpp"
#include "platform.hpp"
#include "prelude.hpp"

#include <plinth/errors.hpp>

namespace plinth::cuda {

namespace {

// "13.0" from cuDriverGetVersion's 13000.
std::string version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

std::unique_ptr<backend::ApiAdapter> create_api() { return std::make_unique<Api>(); }

void Api::initialize() {
  PLINTH_CHECK(cuDriverGetVersion(&driver_version_));  // needs no cuInit
  const CUresult result = cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE) return;  // a driver without devices: zero of them
  plinth::backend::check(result, "cuInit");
  int count = 0;
  PLINTH_CHECK(cuDeviceGetCount(&count));
  device_count_ = static_cast<std::size_t>(count);
}

std::unique_ptr<backend::PlatformAdapter> Api::platform(std::size_t /*index*/) const {
  return std::make_unique<Platform>(device_count_, version_string(driver_version_));
}

std::unique_ptr<backend::ContextAdapter> Api::create_context(
    std::span<const backend::DeviceAdapter* const> devices) {
  // Primary contexts: the ones the CUDA runtime and vendor libraries use too.
  auto state = std::make_shared<ContextState>(ContextState::Ownership::primary);
  for (const auto* adapter : devices) {
    const CUdevice device = static_cast<const Device&>(*adapter).device();
    CUcontext context = nullptr;
    PLINTH_CHECK(cuDevicePrimaryCtxRetain(&context, device));
    state->add(device, context);
  }
  return std::make_unique<Context>(std::move(state));
}

std::unique_ptr<backend::ContextAdapter> Api::wrap_context(
    backend::NativeHandle context, std::span<const backend::DeviceAdapter* const> devices,
    bool take_ownership) {
  if (devices.size() != 1)
    throw LogicError("a CUDA context covers exactly one device; got " +
                     std::to_string(devices.size()));
  const auto native = reinterpret_cast<CUcontext>(context);
  const CUdevice device = static_cast<const Device&>(*devices[0]).device();
  CUdevice actual = 0;
  PLINTH_CHECK(cuCtxGetDevice_v2(&actual, native));
  if (actual != device)
    throw LogicError("the CUDA context belongs to device " + std::to_string(actual) +
                     ", not device " + std::to_string(device));
  auto state = std::make_shared<ContextState>(take_ownership ? ContextState::Ownership::owned
                                                             : ContextState::Ownership::borrowed);
  state->add(device, native);
  return std::make_unique<Context>(std::move(state));
}

std::string Api::prelude(bool fast_math) const { return cuda::prelude(fast_math); }

}  // namespace plinth::cuda
