#pragma once

#include <string>

namespace plinth::opencl {

/// The kernel dialect (DESIGN.md) in OpenCL C.
std::string prelude(bool fast_math);

}  // namespace plinth::opencl
