#include "platform.hpp"

#include "device.hpp"
#include "error.hpp"

namespace plinth::hip {

std::unique_ptr<backend::DeviceAdapter> Platform::device(std::size_t index) const {
  hipDevice_t device = 0;
  PLINTH_CHECK(hipDeviceGet(&device, static_cast<int>(index)));
  return std::make_unique<Device>(device, version_);
}

}  // namespace plinth::hip
