#pragma once

// What the Level Zero backend compiles for with no device: "spirv64", SPIR-V for any Level
// Zero device (plinth-compile --api level_zero). No Level Zero call; any thread.

#include <plinth/backend/types.hpp>
#include <plinth/device_features.hpp>

#include <vector>

namespace plinth::level_zero {

/// compile_targets(): one target, "spirv64", extension "spv", with the nominal parameters of
/// an Intel GPU (subgroup 16...) for rendering templates without a device.
std::vector<backend::CompileTarget> compile_targets();

/// What "spirv64" promises templates rendered for it: what features_from()
/// (device_parameters.hpp) gives an Intel GPU with 64-bit atomics and fp64, with IGC's
/// sub-group sizes 8, 16 and 32.
DeviceFeatures spirv64_features();

}  // namespace plinth::level_zero
