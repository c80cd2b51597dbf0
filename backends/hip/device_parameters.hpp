#pragma once

#include <plinth/device_parameters.hpp>

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <string>

namespace plinth::hip {

/// The text in a fixed-size char array of hipDeviceProp_t, up to its first NUL or its end.
template <std::size_t N>
std::string bounded_text(const char (&text)[N]) {  // NOLINT(*-avoid-c-arrays): HIP's struct
  return std::string(text, strnlen(text, N));
}

/// A device's parameters in plinth's units from what hipGetDeviceProperties reports; a pure
/// function, so that it can be tested with a filled struct. `driver_version` is passed
/// through.
DeviceParameters parameters_from(const hipDeviceProp_t& properties, std::string driver_version);

}  // namespace plinth::hip
