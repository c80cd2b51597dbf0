#pragma once

// Shared virtual memory (OpenCL 2.0) for managed memory (SDK 1.6): the backend builds
// against OpenCL 1.2's headers (CL_TARGET_OPENCL_VERSION 120), so the 2.0 and 2.1 calls are
// made here, in the one file that sees them.

#include <CL/cl.h>

#include <cstddef>
#include <string>

namespace plinth::opencl {

/// Why `device` cannot have fine-grained buffer SVM (an OpenCL 1.x device, no SVM, or only
/// coarse-grained SVM, which needs map/unmap around every host access), or "" if it can.
std::string fine_grained_svm_problem(cl_device_id device);

/// A cl_mem over `size` bytes of fine-grained buffer SVM of `context` (clSVMAlloc, then
/// clCreateBuffer with CL_MEM_USE_HOST_PTR over the pointer, so that transfers and kernel
/// arguments treat it as any buffer). The SVM is freed when the cl_mem is destroyed (a
/// destructor callback), i.e. after the last command using it. Sets `*host` to the pointer.
/// Throws OutOfMemoryError or BackendError.
cl_mem allocate_fine_grained_svm(cl_context context, std::size_t size, void** host);

/// Enqueues clEnqueueSVMMigrateMem of [pointer, pointer + size) to the queue's device or
/// (`to_host`) the host. Returns false, having done nothing, where the device is before
/// OpenCL 2.1 (no such call). Throws BackendError.
bool migrate_svm(cl_command_queue queue, const void* pointer, std::size_t size, bool to_host);

}  // namespace plinth::opencl
