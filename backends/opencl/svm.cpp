// The OpenCL 2.x calls of svm.hpp: this file alone sees the 2.1 headers.
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 210

#include "svm.hpp"

#include "device.hpp"
#include "error.hpp"

#include <plinth/errors.hpp>

#include <cstdio>

namespace plinth::opencl {

namespace {

/// "OpenCL 2.1 ..." -> 201; 0 for text that is not a version.
int version_of(const std::string& text) {
  int major = 0;
  int minor = 0;
  if (std::sscanf(text.c_str(), "OpenCL %d.%d", &major, &minor) != 2) return 0;
  return major * 100 + minor;
}

/// What the destructor callback frees. The cl_mem holds a reference to its context, so the
/// context is alive when the callback runs.
struct SvmAllocation {
  cl_context context;
  void* pointer;
};

void CL_CALLBACK free_svm(cl_mem, void* user_data) {
  const auto* allocation = static_cast<SvmAllocation*>(user_data);
  clSVMFree(allocation->context, allocation->pointer);
  delete allocation;
}

}  // namespace

std::string fine_grained_svm_problem(cl_device_id device) {
  const auto version = device_string(device, CL_DEVICE_VERSION);
  if (version_of(version) < 200) {
    return "the device is " + version + ", and shared virtual memory needs OpenCL 2.0";
  }
  cl_device_svm_capabilities capabilities = 0;
  const cl_int code = clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(capabilities),
                                      &capabilities, nullptr);
  if (code != CL_SUCCESS || capabilities == 0) return "the device has no shared virtual memory";
  if ((capabilities & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) == 0) {
    return "the device has only coarse-grained shared virtual memory, which needs map and "
           "unmap around every host access; plinth's managed memory needs fine-grained "
           "buffer SVM";
  }
  return {};
}

cl_mem allocate_fine_grained_svm(cl_context context, std::size_t size, void** host) {
  void* pointer = clSVMAlloc(context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, size, 0);
  if (pointer == nullptr) {
    throw OutOfMemoryError("OpenCL", "clSVMAlloc", CL_MEM_OBJECT_ALLOCATION_FAILURE,
                           code_name(CL_MEM_OBJECT_ALLOCATION_FAILURE),
                           std::to_string(size) + " bytes of fine-grained SVM");
  }
  cl_int code = CL_SUCCESS;
  cl_mem memory =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, pointer, &code);
  if (code != CL_SUCCESS) {
    clSVMFree(context, pointer);
    check_alloc(code, "clCreateBuffer");
  }
  SvmAllocation* allocation = nullptr;
  try {
    allocation = new SvmAllocation{context, pointer};
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory));
    clSVMFree(context, pointer);
    throw;
  }
  code = clSetMemObjectDestructorCallback(memory, &free_svm, allocation);
  if (code != CL_SUCCESS) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory));
    clSVMFree(context, pointer);
    delete allocation;
    plinth::backend::check(code, "clSetMemObjectDestructorCallback");
  }
  *host = pointer;
  return memory;
}

bool migrate_svm(cl_command_queue queue, const void* pointer, std::size_t size, bool to_host) {
  cl_device_id device = nullptr;
  PLINTH_CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(device), &device, nullptr));
  if (version_of(device_string(device, CL_DEVICE_VERSION)) < 201) return false;
  const void* pointers[] = {pointer};
  const std::size_t sizes[] = {size};
  PLINTH_CHECK(clEnqueueSVMMigrateMem(
      queue, 1, pointers, sizes, to_host ? CL_MIGRATE_MEM_OBJECT_HOST : 0, 0, nullptr, nullptr));
  return true;
}

}  // namespace plinth::opencl
