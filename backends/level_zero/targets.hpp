#pragma once

// What the Level Zero backend compiles for with no device: "spirv64", SPIR-V for any Level
// Zero device (plinth-compile --api level_zero). No Level Zero call; any thread.

#include <plinth/backend/types.hpp>

#include <vector>

namespace plinth::level_zero {

/// compile_targets(): one target, "spirv64", extension "spv", with the nominal parameters of
/// an Intel GPU (subgroup 16...) for rendering templates without a device.
std::vector<backend::CompileTarget> compile_targets();

}  // namespace plinth::level_zero
