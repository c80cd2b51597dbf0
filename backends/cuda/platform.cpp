#include "platform.hpp"

#include "device.hpp"
#include "error.hpp"

namespace plinth::cuda {

std::unique_ptr<backend::DeviceAdapter> Platform::device(std::size_t index) const {
  CUdevice device = 0;
  check(cuDeviceGet(&device, static_cast<int>(index)), "cuDeviceGet");
  return std::make_unique<Device>(device, version_);
}

}  // namespace plinth::cuda
