#pragma once

// The one wrapper around CUDA driver and NVRTC calls: check(cuFoo(...), "cuFoo").

#include <cuda.h>
#include <nvrtc.h>

#include <source_location>

namespace plinth::cuda {

/// Throws the BackendError for a failed driver call (OutOfMemoryError for
/// CUDA_ERROR_OUT_OF_MEMORY), naming the call, the code and the driver's description.
[[noreturn]] void throw_error(CUresult result, const char* call, std::source_location where);
[[noreturn]] void throw_error(nvrtcResult result, const char* call, std::source_location where);

inline void check(CUresult result, const char* call,
                  std::source_location where = std::source_location::current()) {
  if (result != CUDA_SUCCESS) [[unlikely]]
    throw_error(result, call, where);
}

inline void check(nvrtcResult result, const char* call,
                  std::source_location where = std::source_location::current()) {
  if (result != NVRTC_SUCCESS) [[unlikely]]
    throw_error(result, call, where);
}

/// For destructors: never throws; reports a failure on stderr. CUDA_ERROR_DEINITIALIZED is
/// ignored (the driver shuts down before static objects are destroyed at exit).
void check_noexcept(CUresult result, const char* call,
                    std::source_location where = std::source_location::current()) noexcept;

}  // namespace plinth::cuda
