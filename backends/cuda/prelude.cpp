// The kernel dialect (docs/kernel-dialect.md) in CUDA C++, for NVRTC: the SDK writes it.

#include "prelude.hpp"

#include <plinth/backend/dialect.hpp>

namespace plinth::cuda {

std::string prelude(bool fast_math) {
  return backend::gpu_cxx_dialect(backend::GpuCxx::cuda, fast_math);
}

}  // namespace plinth::cuda
