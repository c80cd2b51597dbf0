#pragma once

// What CUDA driver and NVRTC results mean to the SDK's checks (<plinth/backend/check.hpp>):
// PLINTH_CHECK(cuFoo(...)), PLINTH_CHECK_IN_DESTRUCTOR(cuFoo(...)).

#include <plinth/backend/check.hpp>

#include <cuda.h>
#include <nvrtc.h>

namespace plinth::backend {

/// Driver results: OutOfMemoryError for CUDA_ERROR_OUT_OF_MEMORY; CUDA_ERROR_DEINITIALIZED in
/// a destructor is ignored (the driver shuts down before static objects are destroyed at exit).
template <>
struct VendorResult<CUresult> {
  static constexpr const char* api = "CUDA";
  static bool ok(CUresult result) noexcept { return result == CUDA_SUCCESS; }
  static bool shut_down(CUresult result) noexcept { return result == CUDA_ERROR_DEINITIALIZED; }
  static VendorError describe(CUresult result) noexcept;
};

/// NVRTC results: named by nvrtcGetErrorString, described as "NVRTC".
template <>
struct VendorResult<nvrtcResult> {
  static constexpr const char* api = "CUDA";
  static bool ok(nvrtcResult result) noexcept { return result == NVRTC_SUCCESS; }
  static bool shut_down(nvrtcResult /*result*/) noexcept { return false; }
  static VendorError describe(nvrtcResult result) noexcept;
};

}  // namespace plinth::backend
