#pragma once

#include <string>

namespace plinth::level_zero {

/// The kernel dialect (DESIGN.md) in OpenCL C, as clang compiles it to SPIR-V for spir64.
std::string prelude(bool fast_math);

}  // namespace plinth::level_zero
