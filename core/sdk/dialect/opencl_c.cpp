// The kernel dialect in OpenCL C (include/plinth/backend/dialect.hpp).

#include <plinth/backend/dialect.hpp>

namespace plinth::backend {

namespace {

constexpr std::string_view basics = R"(
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

}  // namespace

std::string opencl_c_dialect(std::string_view api_macro, bool fast_math) {
  std::string text(fast_math ? "#define PLINTH_FAST_MATH\n" : "");
  text += "#define ";
  text += api_macro;
  text += '\n';
  text += basics;
  return text;
}

}  // namespace plinth::backend
