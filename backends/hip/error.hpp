#pragma once

// What HIP runtime, hiprtc and comgr results mean to the SDK's checks
// (<plinth/backend/check.hpp>): PLINTH_CHECK(hipFoo(...)), PLINTH_CHECK_IN_DESTRUCTOR(hipFoo(...)).

#include <plinth/backend/check.hpp>

#include <amd_comgr.h>
#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>

#include <string>

namespace plinth::backend {

/// Runtime results: OutOfMemoryError for hipErrorOutOfMemory; hipErrorDeinitialized in a
/// destructor is ignored (the runtime may be torn down before static objects at exit).
template <>
struct VendorResult<hipError_t> {
  static constexpr const char* api = "HIP";
  static bool ok(hipError_t result) noexcept { return result == hipSuccess; }
  static bool shut_down(hipError_t result) noexcept { return result == hipErrorDeinitialized; }
  static VendorError describe(hipError_t result) noexcept;
};

/// hiprtc results: named by hiprtcGetErrorString, described as "hiprtc".
template <>
struct VendorResult<hiprtcResult> {
  static constexpr const char* api = "HIP";
  static bool ok(hiprtcResult result) noexcept { return result == HIPRTC_SUCCESS; }
  static bool shut_down(hiprtcResult /*result*/) noexcept { return false; }
  static VendorError describe(hiprtcResult result) noexcept;
};

/// The code object manager's results (the list of ISAs, code object metadata).
template <>
struct VendorResult<amd_comgr_status_t> {
  static constexpr const char* api = "HIP";
  static bool ok(amd_comgr_status_t result) noexcept { return result == AMD_COMGR_STATUS_SUCCESS; }
  static bool shut_down(amd_comgr_status_t /*result*/) noexcept { return false; }
  static VendorError describe(amd_comgr_status_t result) noexcept;
};

}  // namespace plinth::backend

namespace plinth::hip {

/// "hipErrorNoDevice (no device)": HIP's name for `result` and its description (HIP 5.2 gives
/// the name for both).
std::string error_text(hipError_t result);

}  // namespace plinth::hip
