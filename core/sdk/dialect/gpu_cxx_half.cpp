// The float16 conversions of the kernel dialect in CUDA and HIP C++ (docs/kernel-dialect.md,
// "float16 conversions"): PTX's cvt instructions on CUDA (what cuda_fp16.h's __half2float,
// __float2half_rn and __double2half use, without the header NVRTC cannot include), clang's
// _Float16 on HIP (hiprtc's native half type, converted by the hardware's instructions).

#include "gpu_cxx_parts.hpp"

namespace plinth::backend::dialect {

namespace {

constexpr std::string_view cuda_half =
    R"(__device__ __forceinline__ float plinth_half_to_float(unsigned short h) {
  float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f;
}
__device__ __forceinline__ unsigned short plinth_float_to_half_rte(float f) {
  unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h;
}
__device__ __forceinline__ unsigned short plinth_double_to_half_rte(double d) {
  unsigned short h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d)); return h;
}
)";

constexpr std::string_view hip_half =
    R"(__device__ __forceinline__ float plinth_half_to_float(unsigned short h) {
  return (float)plinth_bit_cast<_Float16>(h);
}
__device__ __forceinline__ unsigned short plinth_float_to_half_rte(float f) {
  return plinth_bit_cast<unsigned short>((_Float16)f);
}
__device__ __forceinline__ unsigned short plinth_double_to_half_rte(double d) {
  return plinth_bit_cast<unsigned short>((_Float16)d);
}
)";

}  // namespace

std::string gpu_cxx_half(GpuCxx language) {
  return std::string(language == GpuCxx::cuda ? cuda_half : hip_half);
}

}  // namespace plinth::backend::dialect
