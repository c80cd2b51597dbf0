// The kernel dialect in CUDA and HIP C++ (include/plinth/backend/dialect.hpp). NVRTC and
// hiprtc have no standard headers, so the size type is built in; threadIdx and friends are
// the compilers' own (hiprtc also brings HIP's vector types).

#include <plinth/backend/dialect.hpp>

namespace plinth::backend {

namespace {

constexpr std::string_view basics = R"(#define KERNEL extern "C" __global__
#define GLOBAL_MEM
#define LOCAL_MEM __shared__
#define LOCAL_MEM_DECL __shared__
#define LOCAL_MEM_DYNAMIC extern __shared__
#define CONSTANT_MEM __constant__
#define CONSTANT_MEM_DECL __constant__
#define FUNCTION __device__
#define INLINE __forceinline__
#define LOCAL_BARRIER __syncthreads()
#define ALIGN(n) __attribute__((aligned(n)))

typedef unsigned long long plinth_size_t;
#define SIZE_T plinth_size_t
#define VSIZE_T plinth_size_t

__device__ __forceinline__ SIZE_T get_local_id(unsigned int dim) {
  return dim == 0 ? threadIdx.x : dim == 1 ? threadIdx.y : threadIdx.z;
}
__device__ __forceinline__ SIZE_T get_group_id(unsigned int dim) {
  return dim == 0 ? blockIdx.x : dim == 1 ? blockIdx.y : blockIdx.z;
}
__device__ __forceinline__ SIZE_T get_local_size(unsigned int dim) {
  return dim == 0 ? blockDim.x : dim == 1 ? blockDim.y : blockDim.z;
}
__device__ __forceinline__ SIZE_T get_num_groups(unsigned int dim) {
  return dim == 0 ? gridDim.x : dim == 1 ? gridDim.y : gridDim.z;
}
__device__ __forceinline__ SIZE_T get_global_id(unsigned int dim) {
  return get_local_id(dim) + get_group_id(dim) * get_local_size(dim);
}
__device__ __forceinline__ SIZE_T get_global_size(unsigned int dim) {
  return get_num_groups(dim) * get_local_size(dim);
}

typedef float2 plinth_complex64;
typedef double2 plinth_complex128;
// grunnur's complex constructor: COMPLEX_CTR(float2)(re, im) is make_float2(re, im); the
// plinth_complex names work too.
#define COMPLEX_CTR(T) make_##T
#define make_plinth_complex64 make_float2
#define make_plinth_complex128 make_double2

)";

}  // namespace

std::string gpu_cxx_dialect(GpuCxx language, bool fast_math) {
  std::string text(fast_math ? "#define PLINTH_FAST_MATH\n" : "");
  text += language == GpuCxx::cuda ? "#define PLINTH_CUDA_API\n" : "#define PLINTH_HIP_API\n";
  text += basics;
  return text;
}

}  // namespace plinth::backend
