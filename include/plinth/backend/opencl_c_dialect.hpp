#pragma once

// The kernel dialect (docs/plugin-interface.md, "The kernel dialect") written in OpenCL C, for
// every backend whose compiler takes OpenCL C: the OpenCL backend, and Level Zero (through
// clang to SPIR-V). A helper of the SDK: no ABI, nothing exported.

#include <string>
#include <string_view>

namespace plinth::backend {

/// The prelude of an OpenCL C backend: `#define <api_macro>` (e.g. PLINTH_OPENCL_API), then
/// PLINTH_FAST_MATH when `fast_math`, then the dialect's macros and types as OpenCL C (fp64
/// enabled where the compiler defines cl_khr_fp64). Throws only std::bad_alloc.
inline std::string opencl_c_dialect(std::string_view api_macro, bool fast_math) {
  static constexpr std::string_view dialect = R"(
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define KERNEL __kernel
#define GLOBAL_MEM __global
#define LOCAL_MEM __local
#define LOCAL_MEM_DECL __local
#define LOCAL_MEM_DYNAMIC __local
#define CONSTANT_MEM __constant
#define CONSTANT_MEM_DECL __constant
#define FUNCTION
#define INLINE inline
#define LOCAL_BARRIER barrier(CLK_LOCAL_MEM_FENCE)
#define SIZE_T size_t
#define VSIZE_T size_t
#define ALIGN(bytes) __attribute__((aligned(bytes)))

// get_local_id(), get_group_id(), get_global_id(), get_local_size(), get_num_groups() and
// get_global_size() are OpenCL's own.

typedef float2 plinth_complex64;
#if defined(cl_khr_fp64)
typedef double2 plinth_complex128;
#endif
// grunnur's complex constructor: COMPLEX_CTR(float2)(re, im) is the vector literal
// (float2)(re, im); the plinth_complex names work too.
#define COMPLEX_CTR(T) (T)

)";
  std::string text(fast_math ? "#define PLINTH_FAST_MATH\n" : "");
  text += "#define ";
  text += api_macro;
  text += '\n';
  text += dialect;
  return text;
}

}  // namespace plinth::backend
