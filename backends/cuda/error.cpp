#include "error.hpp"

#include "driver.hpp"

namespace plinth::backend {

VendorError VendorResult<CUresult>::describe(CUresult result) noexcept {
  // Through the driver's table (driver.hpp), whose members are null where no driver loaded.
  const auto& driver = cuda::driver();
  const char* name = nullptr;
  const char* text = nullptr;
  VendorError error;
  error.name = driver.cuGetErrorName && driver.cuGetErrorName(result, &name) == CUDA_SUCCESS && name
                   ? name
                   : "CUDA_ERROR_UNKNOWN";
  error.description =
      driver.cuGetErrorString && driver.cuGetErrorString(result, &text) == CUDA_SUCCESS && text
          ? text
          : "unknown error";
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
