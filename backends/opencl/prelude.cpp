#include "prelude.hpp"

#include <plinth/backend/dialect.hpp>

namespace plinth::opencl {

std::string prelude(bool fast_math) {
  return backend::opencl_c_dialect("PLINTH_OPENCL_API", fast_math);
}

}  // namespace plinth::opencl
