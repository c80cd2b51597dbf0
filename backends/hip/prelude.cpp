// The kernel dialect (docs/kernel-dialect.md) in HIP C++, for hiprtc: the SDK writes it, with
// the CUDA prelude's semantics.

#include "prelude.hpp"

#include <plinth/backend/dialect.hpp>

namespace plinth::hip {

std::string prelude(bool fast_math) {
  return backend::gpu_cxx_dialect(backend::GpuCxx::hip, fast_math);
}

}  // namespace plinth::hip
