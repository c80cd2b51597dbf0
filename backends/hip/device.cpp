#include "device.hpp"

#include "compiler.hpp"
#include "device_parameters.hpp"
#include "error.hpp"

#include <array>

namespace plinth::hip {

namespace {

hipDeviceProp_t properties_of(int device) {
  hipDeviceProp_t properties{};
  PLINTH_CHECK(hipGetDeviceProperties(&properties, device));
  return properties;
}

}  // namespace

std::string Device::name() const {
  std::array<char, 256> name{};
  PLINTH_CHECK(hipDeviceGetName(name.data(), static_cast<int>(name.size()), device_));
  name.back() = '\0';
  return name.data();
}

std::string Device::compiler_identity() const {
  return compiler_version() + "; " + bounded_text(properties_of(device_).gcnArchName);
}

DeviceParameters Device::parameters() const {
  return parameters_from(properties_of(device_), driver_version_);
}

void Device::features(DeviceFeatures& features) const {
  const int wavefront = properties_of(device_).warpSize;
  features = features_for_wavefront(wavefront > 0 ? static_cast<std::size_t>(wavefront) : 64);
}

}  // namespace plinth::hip
