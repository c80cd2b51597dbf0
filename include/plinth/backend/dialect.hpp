#pragma once

// The kernel dialect (docs/kernel-dialect.md) written out in each language a backend compiles:
// the text of ApiAdapter::prelude(). Helpers of the SDK: a backend whose compiler takes CUDA
// C++, HIP C++ or OpenCL C returns one of these, and need write none of it itself.

#include <plinth/export.hpp>

#include <string>
#include <string_view>

namespace plinth::backend {

/// The C++ GPU languages the dialect is written in.
enum class GpuCxx {
  cuda,  ///< CUDA C++ for NVRTC: warps of 32, the *_sync intrinsics, PTX memory orders
  hip,   ///< HIP C++ for hiprtc: wavefronts of 32 or 64, __hip_atomic_* with scopes
};

/// The prelude in CUDA or HIP C++: `#define PLINTH_CUDA_API` (PLINTH_HIP_API), then
/// PLINTH_FAST_MATH when `fast_math`, then every macro, type and function of the dialect.
/// Throws only std::bad_alloc; any thread may call it.
PLINTH_EXPORT std::string gpu_cxx_dialect(GpuCxx language, bool fast_math);

/// The prelude in OpenCL C, for every backend whose compiler takes OpenCL C (OpenCL, and
/// Level Zero through clang to SPIR-V): `#define <api_macro>` (PLINTH_OPENCL_API, say), then
/// PLINTH_FAST_MATH when `fast_math`, then the dialect. What depends on the device (fp64,
/// 64-bit atomics, sub-groups, the OpenCL C version) is chosen by the preprocessor from the
/// macros the device's compiler defines (cl_khr_fp64, __OPENCL_C_VERSION__, ...), so one text
/// serves every device. Throws only std::bad_alloc; any thread may call it.
PLINTH_EXPORT std::string opencl_c_dialect(std::string_view api_macro, bool fast_math);

}  // namespace plinth::backend
