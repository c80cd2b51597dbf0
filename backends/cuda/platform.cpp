#include "platform.hpp"

#include "device.hpp"
#include "driver.hpp"

namespace plinth::cuda {

std::unique_ptr<backend::DeviceAdapter> Platform::device(std::size_t index) const {
  CUdevice device = 0;
  CU_CHECK(cuDeviceGet(&device, static_cast<int>(index)));
  return std::make_unique<Device>(device, version_);
}

}  // namespace plinth::cuda
