// The kernel dialect (docs/plugin-interface.md, "The kernel dialect") for Level Zero: OpenCL C,
// which clang compiles to SPIR-V for spir64 (spirv_compiler.cpp), with the OpenCL prelude's
// semantics (backends/opencl/prelude.cpp).
//
// The language is OpenCL C 2.0 (clang -cl-std=CL2.0), chosen over the other two:
// - 1.2 has no generic address space: an unqualified pointer is __private, so a FUNCTION that
//   takes `float *` cannot be handed a GLOBAL_MEM or LOCAL_MEM pointer, which kernels written
//   once for CUDA and HIP (where every pointer is generic) do;
// - 3.0 makes the generic address space, program-scope globals and fp64 optional features
//   (__opencl_c_* macros); clang 15 turns them all on for spir64, so the SPIR-V would be the
//   same, but what a kernel may rely on would then hang on those macros;
// - 2.0 has both unconditionally, accepts every OpenCL C 1.2 kernel (what PoCL and the OpenCL
//   backend compile, so the same sources work), and Intel's Level Zero compiler (IGC) takes
//   its SPIR-V on every Level Zero GPU.

#include "prelude.hpp"

#include <plinth/backend/dialect.hpp>

namespace plinth::level_zero {

// The dialect's macros are the OpenCL backend's; get_global_id() and its kind are SPIR-V
// built-in variables here.
std::string prelude(bool fast_math) {
  return backend::opencl_c_dialect("PLINTH_LEVEL_ZERO_API", fast_math);
}

}  // namespace plinth::level_zero
