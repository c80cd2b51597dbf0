#pragma once

// The CUDA driver API, loaded at run time. The plugin does not link libcuda.so.1, so that it
// loads where the driver is missing (a build machine with the toolkit alone) and still
// compiles for named targets with NVRTC. Api::initialize() calls load_driver(), which opens
// libcuda.so.1 and resolves every function the backend calls into a table; everything else
// calls through it:
//
//     CU_CHECK(cuMemAlloc(&pointer, size));                 // PLINTH_CHECK, through the table
//     CU_CHECK_IN_DESTRUCTOR(cuMemFree(pointer));           // PLINTH_CHECK_IN_DESTRUCTOR
//     const CUresult result = driver().cuInit(0);           // an unchecked call
//
// The plugin links with --no-undefined, so a cu* call that bypasses the table is a link error.

#include "error.hpp"

#include <cuda.h>

#include <string>

namespace plinth::cuda {

// Every driver function the backend calls, as cuda.h names it. cuda.h #defines many names to
// versioned symbols (cuMemAlloc to cuMemAlloc_v2); X sees the names after that expansion, so
// the table's members and the symbols looked up are the versioned ones, as a linked call's
// would be, and call sites keep writing cuda.h's names.
#define PLINTH_CUDA_DRIVER_FUNCTIONS(X) \
  X(cuArray3DCreate)                    \
  X(cuArrayDestroy)                     \
  X(cuCtxDestroy)                       \
  X(cuCtxEnablePeerAccess)              \
  X(cuCtxGetCurrent)                    \
  X(cuCtxGetDevice_v2)                  \
  X(cuCtxPopCurrent)                    \
  X(cuCtxPushCurrent)                   \
  X(cuCtxSetCurrent)                    \
  X(cuDeviceGet)                        \
  X(cuDeviceCanAccessPeer)              \
  X(cuDeviceGetAttribute)               \
  X(cuDeviceGetCount)                   \
  X(cuDeviceGetName)                    \
  X(cuDevicePrimaryCtxRelease)          \
  X(cuDevicePrimaryCtxRetain)           \
  X(cuDeviceTotalMem)                   \
  X(cuDriverGetVersion)                 \
  X(cuEventCreate)                      \
  X(cuEventDestroy)                     \
  X(cuEventElapsedTime)                 \
  X(cuEventRecord)                      \
  X(cuEventSynchronize)                 \
  X(cuFuncGetAttribute)                 \
  X(cuFuncGetParamInfo)                 \
  X(cuFuncSetAttribute)                 \
  X(cuGetErrorName)                     \
  X(cuGetErrorString)                   \
  X(cuInit)                             \
  X(cuIpcCloseMemHandle)                \
  X(cuIpcGetEventHandle)                \
  X(cuIpcGetMemHandle)                  \
  X(cuIpcOpenEventHandle)               \
  X(cuIpcOpenMemHandle)                 \
  X(cuLaunchHostFunc)                   \
  X(cuLaunchKernel)                     \
  X(cuMemAdvise)                        \
  X(cuMemAlloc)                         \
  X(cuMemAllocManaged)                  \
  X(cuMemAllocPitch)                    \
  X(cuMemFree)                          \
  X(cuMemFreeHost)                      \
  X(cuMemGetAddressRange)               \
  X(cuMemGetInfo)                       \
  X(cuMemHostAlloc)                     \
  X(cuMemHostRegister)                  \
  X(cuMemHostUnregister)                \
  X(cuMemcpy2DAsync)                    \
  X(cuMemcpy3DAsync)                    \
  X(cuMemcpy3DPeerAsync)                \
  X(cuMemcpyDtoDAsync)                  \
  X(cuMemcpyDtoHAsync)                  \
  X(cuMemcpyHtoDAsync)                  \
  X(cuMemcpyPeerAsync)                  \
  X(cuMemPrefetchAsync)                 \
  X(cuMemsetD16Async)                   \
  X(cuMemsetD32Async)                   \
  X(cuMemsetD8Async)                    \
  X(cuModuleGetFunction)                \
  X(cuModuleGetGlobal)                  \
  X(cuModuleLoadDataEx)                 \
  X(cuModuleUnload)                     \
  X(cuPointerGetAttributes)             \
  X(cuStreamAttachMemAsync)             \
  X(cuStreamCreate)                     \
  X(cuStreamDestroy)                    \
  X(cuStreamQuery)                      \
  X(cuStreamSynchronize)                \
  X(cuStreamWaitEvent)                  \
  X(cuSurfObjectCreate)                 \
  X(cuSurfObjectDestroy)                \
  X(cuTexObjectCreate)                  \
  X(cuTexObjectDestroy)

// SDK 1.9's graphics interop (gl_interop.hpp): optional functions. load_driver() leaves the
// ones libcuda.so.1 lacks null instead of refusing the driver, and missing_gl_functions()
// names them (Context::gl_sharing() says so). First cuda.h's, as the list above...
#define PLINTH_CUDA_GRAPHICS_FUNCTIONS(X)      \
  X(cuGraphicsMapResources)                    \
  X(cuGraphicsResourceGetMappedMipmappedArray) \
  X(cuGraphicsResourceGetMappedPointer)        \
  X(cuGraphicsSubResourceGetMappedArray)       \
  X(cuGraphicsUnmapResources)                  \
  X(cuGraphicsUnregisterResource)              \
  X(cuMipmappedArrayGetLevel)

/// ...then cudaGL.h's, which the plugin does not include (it includes <GL/gl.h>, which a
/// build machine need not have): plinth's own declarations of its types, with cudaGL.h's
/// values (GLuint and GLenum are unsigned int). tests/backends/cuda/gl_declarations_test.cpp
/// checks them against cudaGL.h.
namespace gl {
/// CUGLDeviceList: which devices cuGLGetDevices lists.
enum DeviceList : unsigned int {
  device_list_all = 1,            ///< every device the current GL context uses
  device_list_current_frame = 2,  ///< those it renders its current frame on
  device_list_next_frame = 3,     ///< those it renders its next frame on
};
/// cuGLGetDevices_v2 (what cudaGL.h calls cuGLGetDevices).
using GetDevices = CUresult CUDAAPI(unsigned int* count, CUdevice* devices, unsigned int capacity,
                                    DeviceList list);
/// cuGraphicsGLRegisterBuffer.
using RegisterBuffer = CUresult CUDAAPI(CUgraphicsResource* resource, unsigned int buffer,
                                        unsigned int flags);
/// cuGraphicsGLRegisterImage.
using RegisterImage = CUresult CUDAAPI(CUgraphicsResource* resource, unsigned int image,
                                       unsigned int target, unsigned int flags);
}  // namespace gl

// cudaGL.h's functions by symbol (the table member's name) and type.
#define PLINTH_CUDA_GL_FUNCTIONS(X)                 \
  X(cuGLGetDevices_v2, gl::GetDevices)              \
  X(cuGraphicsGLRegisterBuffer, gl::RegisterBuffer) \
  X(cuGraphicsGLRegisterImage, gl::RegisterImage)

/// The driver's functions, resolved from libcuda.so.1: one member per function, named and
/// typed as cuda.h declares it, so that `driver().cuMemAlloc(&pointer, size)` reads as the
/// direct call would; and the optional graphics functions, null where the driver lacks them.
struct Driver {
// (A declarator's name cannot be parenthesised.)
#define PLINTH_CUDA_DRIVER_MEMBER(function) \
  decltype(&::function) function = nullptr;  // NOLINT(bugprone-macro-parentheses)
  PLINTH_CUDA_DRIVER_FUNCTIONS(PLINTH_CUDA_DRIVER_MEMBER)
  PLINTH_CUDA_GRAPHICS_FUNCTIONS(PLINTH_CUDA_DRIVER_MEMBER)
#undef PLINTH_CUDA_DRIVER_MEMBER
#define PLINTH_CUDA_GL_MEMBER(function, type) \
  type* function = nullptr;  // NOLINT(bugprone-macro-parentheses)
  PLINTH_CUDA_GL_FUNCTIONS(PLINTH_CUDA_GL_MEMBER)
#undef PLINTH_CUDA_GL_MEMBER
};

/// The graphics interop functions (PLINTH_CUDA_GRAPHICS_FUNCTIONS, PLINTH_CUDA_GL_FUNCTIONS)
/// that `table` lacks, by symbol and comma-separated ("cuGLGetDevices_v2,
/// cuGraphicsGLRegisterImage"); "" where it has them all. Never throws but std::bad_alloc.
std::string missing_gl_functions(const Driver& table);

/// Opens libcuda.so.1 (RTLD_NOW | RTLD_LOCAL) and fills driver()'s table, once per process
/// (later calls return the first call's result). Returns "" when every function was found
/// (but the optional graphics ones, left null where missing: missing_gl_functions());
/// otherwise why not, in the dynamic loader's words and what that means ("libcuda.so.1: cannot
/// open shared object file: No such file or directory (the NVIDIA driver is not installed)"),
/// and driver()'s table stays empty. The library stays loaded for the rest of the process
/// (the driver does not support being unloaded). Never throws but std::bad_alloc; any thread
/// may call it.
const std::string& load_driver();

namespace detail {
extern Driver loaded_driver;  // written once, by load_driver()
}  // namespace detail

/// The driver's functions. Valid once load_driver() has returned ""; before that (and where
/// there is no driver) every member is null. Api::initialize() loads the driver before any
/// device exists, so every adapter but the ApiAdapter may call through it unchecked.
inline const Driver& driver() noexcept { return detail::loaded_driver; }

}  // namespace plinth::cuda

/// PLINTH_CHECK for a driver call through the table, written as the direct call would be:
/// CU_CHECK(cuStreamSynchronize(stream)). An error names the call as written ("cuMemAlloc").
#define CU_CHECK(call) \
  ::plinth::backend::check(::plinth::cuda::driver().call, ::plinth::backend::VendorCall(#call))

/// PLINTH_CHECK_IN_DESTRUCTOR for a driver call through the table: never throws.
#define CU_CHECK_IN_DESTRUCTOR(call)                                    \
  ::plinth::backend::check_in_destructor(::plinth::cuda::driver().call, \
                                         ::plinth::backend::VendorCall(#call))
