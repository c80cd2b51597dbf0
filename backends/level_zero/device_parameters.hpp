#pragma once

// A Level Zero device's parameters in plinth's units, from the property structs the driver
// fills (zeDeviceGetProperties and friends): a pure function, so that it is tested with
// filled structs on machines without an Intel GPU (device_parameters_test.cpp). Any thread.

#include <plinth/device_features.hpp>
#include <plinth/device_parameters.hpp>

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace plinth::level_zero {

/// What the driver says about one device, as the device adapter reads it.
struct DeviceProperties {
  ze_device_properties_t device{};           ///< zeDeviceGetProperties (stype DEVICE_PROPERTIES)
  ze_device_compute_properties_t compute{};  ///< zeDeviceGetComputeProperties
  std::vector<ze_device_memory_properties_t> memory;  ///< zeDeviceGetMemoryProperties
  ze_device_module_properties_t module{};             ///< zeDeviceGetModuleProperties
};

/// The text in a fixed-size char array of a Level Zero struct, up to its first NUL or its end.
template <std::size_t N>
std::string bounded_text(const char (&text)[N]) {  // NOLINT(*-avoid-c-arrays): Level Zero's
  std::size_t length = 0;
  while (length < N && text[length] != '\0') ++length;
  return std::string(text, length);
}

/// "1.3.26241" from ze_driver_properties_t::driverVersion (major << 24 | minor << 16 | build,
/// as Intel's driver encodes it).
std::string driver_version_string(std::uint32_t version);

/// The device's parameters: type from ze_device_type_t; compute units = EUs (slices x
/// sub-slices x EUs per sub-slice, as Intel's OpenCL counts them); local memory, group sizes
/// and counts from the compute properties; warp size = the smallest sub-group size the
/// device supports (the compiler picks one of them per kernel, so only the smallest is a
/// size every kernel's sub-groups have at least); global memory = the sum of the memory
/// ordinals; double support from the module's fp64 flags; compute_capability = the PCI device
/// id ("0x0bd5"). `driver_version` is passed through.
DeviceParameters parameters_from(const DeviceProperties& properties, std::string driver_version);

/// What the dialect's OpenCL C prelude, compiled by clang as OpenCL C 2.0 for spir64, gives the
/// device: every atomic, with device-scope acquire/release (OpenCL C 2.0's); the long, ulong
/// and double ones where the module flags have ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS (else
/// Program turns their macros off: device_dialect_flags()), double ones also needing fp64;
/// compare-and-swap loops for float and double add; sub-groups of the sizes in
/// compute.subGroupSizes (ascending), without a promise of independent forward progress.
DeviceFeatures features_from(const DeviceProperties& properties);

}  // namespace plinth::level_zero
