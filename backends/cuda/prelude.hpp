#pragma once

#include <string>

namespace plinth::cuda {

/// The kernel dialect (DESIGN.md) in CUDA C++, for NVRTC.
std::string prelude(bool fast_math);

}  // namespace plinth::cuda
