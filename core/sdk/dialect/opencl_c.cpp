// The kernel dialect in OpenCL C (include/plinth/backend/dialect.hpp).

#include "opencl_c_parts.hpp"

#include <plinth/backend/dialect.hpp>

namespace plinth::backend {

namespace {

constexpr std::string_view opencl_c_basics = R"(
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define KERNEL __kernel
#define GLOBAL_MEM __global
#define LOCAL_MEM __local
#define LOCAL_MEM_DECL __local
#define LOCAL_MEM_DYNAMIC __local
#define LOCAL_MEM_ARG __local
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

#define LOCAL_GLOBAL_BARRIER barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

// vload2/vload4/vstore2/vstore4 are OpenCL's own, for every type of the dialect.

)";

// What the device's compiler offers, as the PLINTH_CL_* macros the rest of the prelude tests.
// The backends' DeviceAdapter::features() answer from the same conditions on the device's
// queries (backends/opencl/device_features.cpp, backends/level_zero/device_features.cpp).
constexpr std::string_view features = R"(
// The dialect's functions: file scope, so that the ones a kernel does not call are not emitted.
#define PLINTH_CL_FN static inline

// The long and ulong atomics (OpenCL 1.2's atom_*): both extensions.
#if defined(cl_khr_int64_base_atomics) && defined(cl_khr_int64_extended_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define PLINTH_CL_INT64_ATOMICS 1
#if defined(cl_khr_fp64)
#define PLINTH_CL_DOUBLE_ATOMICS 1
#endif
#endif

// OpenCL C 2.0's atomics with orders and scopes: always in 2.0, optional in 3.0.
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200 &&                       \
    (__OPENCL_C_VERSION__ < 300 ||                                                          \
     (defined(__opencl_c_atomic_order_acq_rel) && defined(__opencl_c_atomic_scope_device)))
#define PLINTH_CL_ORDERED_ATOMICS 1
#endif

// Sub-groups of the hardware: cl_khr_subgroups (or OpenCL C 3.0's feature) with shuffles,
// Intel's (which SPIR-V 1.2 has, as SPV_INTEL_subgroups) or Khronos' (SPIR-V 1.3), unless the
// backend turned them off (PLINTH_NO_NATIVE_SUB_GROUPS: sub-groups wider than 64).
#if !defined(PLINTH_NO_NATIVE_SUB_GROUPS) &&                                                \
    (defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)) &&                         \
    (defined(cl_intel_subgroups) ||                                                         \
     (defined(cl_khr_subgroup_shuffle) && defined(cl_khr_subgroup_shuffle_relative)))
#if defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
#define PLINTH_CL_SUB_GROUPS 1
#endif
)";

// The float16 conversions: OpenCL C's vload_half and vstore_half_rte (core functions, which
// need no cl_khr_fp16) through a private variable; the double one with cl_khr_fp64.
constexpr std::string_view half = R"(
PLINTH_CL_FN float plinth_half_to_float(unsigned short h) {
  return vload_half(0, (const __private half *)&h);
}
PLINTH_CL_FN unsigned short plinth_float_to_half_rte(float f) {
  unsigned short h;
  vstore_half_rte(f, 0, (__private half *)&h);
  return h;
}
#if defined(cl_khr_fp64)
PLINTH_CL_FN unsigned short plinth_double_to_half_rte(double d) {
  unsigned short h;
  vstore_half_rte(d, 0, (__private half *)&h);
  return h;
}
#endif
)";

// Images: OpenCL C's own image types, samplers and read_image*/write_image*/get_image_*; the
// dialect names the parameter types (CUDA's are structs) and the vector constructors CUDA has.
constexpr std::string_view images = R"(
#if defined(cl_khr_3d_image_writes)
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
#endif
#define READ_IMAGE1D read_only image1d_t
#define READ_IMAGE2D read_only image2d_t
#define READ_IMAGE3D read_only image3d_t
#define READ_IMAGE1D_ARRAY read_only image1d_array_t
#define READ_IMAGE2D_ARRAY read_only image2d_array_t
#define WRITE_IMAGE1D write_only image1d_t
#define WRITE_IMAGE2D write_only image2d_t
#define WRITE_IMAGE3D write_only image3d_t
#define WRITE_IMAGE1D_ARRAY write_only image1d_array_t
#define WRITE_IMAGE2D_ARRAY write_only image2d_array_t
#define SAMPLER sampler_t
#define make_int2(x, y) ((int2)((x), (y)))
#define make_int4(x, y, z, w) ((int4)((x), (y), (z), (w)))
#define make_uint2(x, y) ((uint2)((x), (y)))
#define make_uint4(x, y, z, w) ((uint4)((x), (y), (z), (w)))
#define make_float2(x, y) ((float2)((x), (y)))
#define make_float4(x, y, z, w) ((float4)((x), (y), (z), (w)))
)";

}  // namespace

std::string opencl_c_dialect(std::string_view api_macro, bool fast_math) {
  std::string text(fast_math ? "#define PLINTH_FAST_MATH\n" : "");
  text += "#define ";
  text += api_macro;
  text += '\n';
  text += opencl_c_basics;
  text += features;
  text += dialect::opencl_c_atomics();
  text += dialect::opencl_c_sub_groups();
  text += half;
  text += images;
  return text;
}

}  // namespace plinth::backend
