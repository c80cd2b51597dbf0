#include "error.hpp"

namespace plinth::backend {

VendorError VendorResult<CUresult>::describe(CUresult result) noexcept {
  const char* name = nullptr;
  const char* text = nullptr;
  VendorError error;
  error.name = cuGetErrorName(result, &name) == CUDA_SUCCESS && name ? name : "CUDA_ERROR_UNKNOWN";
  error.description =
      cuGetErrorString(result, &text) == CUDA_SUCCESS && text ? text : "unknown error";
  error.out_of_memory = result == CUDA_ERROR_OUT_OF_MEMORY;
  return error;
}

VendorError VendorResult<nvrtcResult>::describe(nvrtcResult result) noexcept {
  VendorError error;
  error.name = nvrtcGetErrorString(result);
  error.description = "NVRTC";
  error.out_of_memory = result == NVRTC_ERROR_OUT_OF_MEMORY;
  return error;
}

}  // namespace plinth::backend
