#include "error.hpp"

#include <plinth/errors.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace plinth::cuda {

namespace {

const char* base_name(const char* path) {
  std::string_view file = path;
  auto slash = file.rfind('/');
  return slash == std::string_view::npos ? path : path + slash + 1;
}

// "text [queue.cpp:42]": the driver's description and where plinth made the call.
std::string detail(const char* text, std::source_location where) {
  return std::string(text) + " [" + base_name(where.file_name()) + ":" +
         std::to_string(where.line()) + "]";
}

const char* error_name(CUresult result) {
  const char* name = nullptr;
  return cuGetErrorName(result, &name) == CUDA_SUCCESS && name ? name : "CUDA_ERROR_UNKNOWN";
}

const char* error_string(CUresult result) {
  const char* text = nullptr;
  return cuGetErrorString(result, &text) == CUDA_SUCCESS && text ? text : "unknown error";
}

}  // namespace

void throw_error(CUresult result, const char* call, std::source_location where) {
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    throw OutOfMemoryError("CUDA", call, result, error_name(result),
                           detail(error_string(result), where));
  throw BackendError("CUDA", call, result, error_name(result), detail(error_string(result), where));
}

void throw_error(nvrtcResult result, const char* call, std::source_location where) {
  const char* name = nvrtcGetErrorString(result);
  if (result == NVRTC_ERROR_OUT_OF_MEMORY)
    throw OutOfMemoryError("CUDA", call, result, name, detail("NVRTC", where));
  throw BackendError("CUDA", call, result, name, detail("NVRTC", where));
}

void check_noexcept(CUresult result, const char* call, std::source_location where) noexcept {
  if (result == CUDA_SUCCESS || result == CUDA_ERROR_DEINITIALIZED) return;
  std::fprintf(stderr, "plinth: CUDA: %s failed in a destructor: %s (%d): %s [%s:%u]\n", call,
               error_name(result), static_cast<int>(result), error_string(result),
               base_name(where.file_name()), static_cast<unsigned>(where.line()));
}

}  // namespace plinth::cuda
