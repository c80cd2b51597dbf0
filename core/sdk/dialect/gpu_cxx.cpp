// The kernel dialect in CUDA and HIP C++ (include/plinth/backend/dialect.hpp). NVRTC and
// hiprtc have no standard headers, so the size type is built in; threadIdx and friends are
// the compilers' own (hiprtc also brings HIP's vector types).

#include "dialect_tables.hpp"
#include "gpu_cxx_parts.hpp"

#include <plinth/backend/dialect.hpp>

namespace plinth::backend {

namespace {

constexpr std::string_view gpu_cxx_basics = R"(#define KERNEL extern "C" __global__
#define GLOBAL_MEM
#define LOCAL_MEM __shared__
#define LOCAL_MEM_DECL __shared__
#define LOCAL_MEM_DYNAMIC extern __shared__
#define LOCAL_MEM_ARG
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

// What the typed functions of the dialect share: bit casts (a union: NVRTC and hiprtc have no
// std::bit_cast) and, per scalar, plinth_num<T>.
constexpr std::string_view scalar_traits_head =
    R"(template <class To, class From> __device__ __forceinline__ To plinth_bit_cast(From f) {
  union { From f; To t; } u; u.f = f; return u.t;
}
template <class T> struct plinth_num;
)";

}  // namespace

namespace dialect {

std::string gpu_cxx_scalar_traits() {
  std::string text(scalar_traits_head);
  for (const auto& scalar : scalars) {
    const bool wide = scalar.bits == 64;
    const std::string_view highest = scalar.is_float
                                         ? (wide ? "plinth_bit_cast<double>(0x7ff0000000000000ull)"
                                                 : "plinth_bit_cast<float>(0x7f800000u)")
                                     : scalar.is_signed ? "(~u(0)) >> 1"
                                                        : "~u(0)";
    const std::string_view lowest = scalar.is_float    ? "-highest()"
                                    : scalar.is_signed ? "-highest() - 1"
                                                       : "0";
    text += expand(
        "template <> struct plinth_num<$T> {\n"
        "  enum { is_float = $F, is_signed = $G };\n"
        "  typedef $U u; typedef $I s;\n"
        "  __device__ static $T highest() { return $H; }\n"
        "  __device__ static $T lowest() { return $L; }\n"
        "};\n",
        {{"T", scalar.ctype},
         {"F", scalar.is_float ? "1" : "0"},
         {"G", scalar.is_signed ? "1" : "0"},
         {"U", wide ? "unsigned long long" : "unsigned int"},
         {"I", wide ? "long long" : "int"},
         {"H", highest},
         {"L", lowest}});
  }
  return text;
}

}  // namespace dialect

std::string gpu_cxx_dialect(GpuCxx language, bool fast_math) {
  std::string text(fast_math ? "#define PLINTH_FAST_MATH\n" : "");
  text += language == GpuCxx::cuda ? "#define PLINTH_CUDA_API\n" : "#define PLINTH_HIP_API\n";
  text += gpu_cxx_basics;
  text += dialect::gpu_cxx_scalar_traits();
  text += dialect::gpu_cxx_atomics(language);
  text += dialect::gpu_cxx_sub_groups(language);
  text += dialect::gpu_cxx_vectors(language);
  text += dialect::gpu_cxx_half(language);
  text += dialect::gpu_cxx_images(language);
  return text;
}

}  // namespace plinth::backend
