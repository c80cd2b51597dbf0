#pragma once

#include <plinth/device_features.hpp>
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

/// What the HIP prelude gives a device whose wavefronts have `wavefront_size` work-items
/// (docs/kernel-dialect.md, "What a device has"): every atomic, fence and ordered access
/// (__hip_atomic_* with agent and workgroup scope), sub-groups of the wavefront size, no
/// float or double add in one instruction (hiprtc makes compare-and-swap loops of them unless
/// built with -munsafe-fp-atomics, which the prelude does not ask for), and no forward
/// progress among a wavefront's work-items. Throws only std::bad_alloc.
DeviceFeatures features_for_wavefront(std::size_t wavefront_size);

}  // namespace plinth::hip
