#pragma once

#include <string>

namespace plinth::hip {

/// The kernel dialect (DESIGN.md) in HIP C++, for hiprtc.
std::string prelude(bool fast_math);

}  // namespace plinth::hip
