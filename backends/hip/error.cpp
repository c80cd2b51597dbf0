#include "error.hpp"

#include "comgr.hpp"

namespace plinth::backend {

VendorError VendorResult<hipError_t>::describe(hipError_t result) noexcept {
  VendorError error;
  const char* name = hipGetErrorName(result);
  const char* text = hipGetErrorString(result);
  error.name = name != nullptr ? name : "hipErrorUnknown";
  error.description = text != nullptr ? text : "unknown error";
  error.out_of_memory = result == hipErrorOutOfMemory;
  return error;
}

VendorError VendorResult<hiprtcResult>::describe(hiprtcResult result) noexcept {
  VendorError error;
  const char* name = hiprtcGetErrorString(result);
  error.name = name != nullptr ? name : "HIPRTC_ERROR_UNKNOWN";
  error.description = "hiprtc";
  error.out_of_memory = result == HIPRTC_ERROR_OUT_OF_MEMORY;
  return error;
}

VendorError VendorResult<amd_comgr_status_t>::describe(amd_comgr_status_t result) noexcept {
  VendorError error;
  const char* text = nullptr;
  const hip::Comgr* library = hip::comgr_if_open();  // a comgr status means it is open
  if (library == nullptr || library->status_string(result, &text) != AMD_COMGR_STATUS_SUCCESS ||
      text == nullptr)
    text = "unknown status";
  error.name = result == AMD_COMGR_STATUS_ERROR_INVALID_ARGUMENT
                   ? "AMD_COMGR_STATUS_ERROR_INVALID_ARGUMENT"
               : result == AMD_COMGR_STATUS_ERROR_OUT_OF_RESOURCES
                   ? "AMD_COMGR_STATUS_ERROR_OUT_OF_RESOURCES"
                   : "AMD_COMGR_STATUS_ERROR";
  error.description = text;
  error.out_of_memory = result == AMD_COMGR_STATUS_ERROR_OUT_OF_RESOURCES;
  return error;
}

}  // namespace plinth::backend

namespace plinth::hip {

std::string error_text(hipError_t result) {
  const auto error = backend::VendorResult<hipError_t>::describe(result);
  return std::string(error.name) + " (" + error.description + ")";
}

}  // namespace plinth::hip
