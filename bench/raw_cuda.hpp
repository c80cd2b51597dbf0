#pragma once

// The raw CUDA side of the benchmarks that compare a plinth kernel with the same kernel
// written in CUDA (bench/dialect.cpp, bench/images.cpp): libcuda opened at run time, as
// plinth's backend opens it, and the raw source compiled by NVRTC for the device.

#include "common.hpp"

#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <algorithm>
#include <string>
#include <vector>

namespace plinth_bench {

/// The driver API calls of the raw side, from libcuda opened at run time (plinth's CUDA
/// backend opened it already where there is a CUDA device).
struct CudaDriver {
  void* library = nullptr;
  decltype(&cuModuleLoadData) module_load_data = nullptr;
  decltype(&cuModuleGetFunction) module_get_function = nullptr;
  decltype(&cuModuleUnload) module_unload = nullptr;
  decltype(&cuLaunchKernel) launch_kernel = nullptr;
  decltype(&cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&cuGetErrorName) get_error_name = nullptr;

  CudaDriver() {
    library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    require(library != nullptr, "dlopen(libcuda.so.1)", dlerror() ? dlerror() : "not found");
    load_symbol(library, module_load_data, "cuModuleLoadData");
    load_symbol(library, module_get_function, "cuModuleGetFunction");
    load_symbol(library, module_unload, "cuModuleUnload");
    load_symbol(library, launch_kernel, "cuLaunchKernel");
    load_symbol(library, ctx_set_current, "cuCtxSetCurrent");
    load_symbol(library, device_get_attribute, "cuDeviceGetAttribute");
    load_symbol(library, get_error_name, "cuGetErrorName");
  }
  ~CudaDriver() {
    if (library) dlclose(library);
  }
  CudaDriver(const CudaDriver&) = delete;
  CudaDriver& operator=(const CudaDriver&) = delete;

  void check(CUresult result, const char* call) const {
    if (result == CUDA_SUCCESS) return;
    const char* name = nullptr;
    if (get_error_name(result, &name) != CUDA_SUCCESS || name == nullptr) name = "unknown error";
    require(false, call, name);
  }
};

inline void nvrtc_check(nvrtcResult result, const char* call) {
  if (result != NVRTC_SUCCESS) require(false, call, nvrtcGetErrorString(result));
}

/// `source` (raw CUDA C++) compiled by NVRTC for `device` (a CUBIN for its exact architecture where
/// NVRTC knows it, else PTX for the newest older one, as plinth's backend chooses) and loaded.
inline CUmodule load_raw_module(const CudaDriver& driver, CUdevice device, const char* source) {
  int major = 0, minor = 0;
  driver.check(
      driver.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
      "cuDeviceGetAttribute");
  driver.check(
      driver.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
      "cuDeviceGetAttribute");
  const int arch = major * 10 + minor;
  int count = 0;
  nvrtc_check(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
  std::vector<int> archs(static_cast<std::size_t>(count));
  nvrtc_check(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
  const bool exact = std::find(archs.begin(), archs.end(), arch) != archs.end();
  int best = 0;
  for (const int known : archs)
    if (known <= arch) best = std::max(best, known);
  const std::string target = exact ? "--gpu-architecture=sm_" + std::to_string(arch)
                                   : "--gpu-architecture=compute_" + std::to_string(best);
  const char* options[] = {"--std=c++17", target.c_str()};
  nvrtcProgram program = nullptr;
  nvrtc_check(nvrtcCreateProgram(&program, source, "raw.cu", 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  const nvrtcResult compiled = nvrtcCompileProgram(program, 2, options);
  std::vector<char> image;
  if (compiled == NVRTC_SUCCESS) {
    std::size_t size = 0;
    if (exact) {
      nvrtc_check(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
      image.resize(size);
      nvrtc_check(nvrtcGetCUBIN(program, image.data()), "nvrtcGetCUBIN");
    } else {
      nvrtc_check(nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
      image.resize(size);
      nvrtc_check(nvrtcGetPTX(program, image.data()), "nvrtcGetPTX");
    }
  } else {
    std::size_t size = 0;
    nvrtcGetProgramLogSize(program, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    nvrtcDestroyProgram(&program);
    require(false, "nvrtcCompileProgram", log);
  }
  nvrtcDestroyProgram(&program);
  CUmodule module = nullptr;
  driver.check(driver.module_load_data(&module, image.data()), "cuModuleLoadData");
  return module;
}

}  // namespace plinth_bench
