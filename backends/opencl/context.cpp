#include "context.hpp"

#include "buffer.hpp"
#include "device.hpp"
#include "error.hpp"
#include "gl_interop.hpp"
#include "image.hpp"
#include "launch_order.hpp"
#include "program.hpp"
#include "queue.hpp"
#include "svm.hpp"

#include <plinth/backend/host_copier.hpp>
#include <plinth/errors.hpp>

#include <CL/cl_gl.h>

#include <algorithm>
#include <array>
#include <cstdio>

namespace plinth::opencl {

namespace {

// CL_DEVICE_GLOBAL_FREE_MEMORY_AMD (cl_ext.h), by number: the 1.2 headers the backend builds
// with may lack it.
constexpr cl_device_info amd_global_free_memory = 0x4039;

}  // namespace

ContextState::ContextState(cl_context context, cl_device_id device)
    : context_(context), device_(device) {
  PLINTH_CHECK(clRetainContext(context_));
}

ContextState::~ContextState() {
  copier_.reset();  // joins its threads
  // The core frees all page-locked memory before the context goes.
  if (map_queue_) PLINTH_CHECK_IN_DESTRUCTOR(clReleaseCommandQueue(map_queue_));
  forget_launches_of(context_);
  PLINTH_CHECK_IN_DESTRUCTOR(clReleaseContext(context_));
}

backend::HostCopier& ContextState::copier() {
  std::call_once(copier_once_, [this] { copier_ = std::make_unique<backend::HostCopier>(); });
  return *copier_;
}

cl_command_queue ContextState::map_queue() {
  const std::lock_guard lock(map_queue_mutex_);
  if (!map_queue_) {
    cl_int code = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueue(context_, device_, 0, &code);
    check_alloc(code, "clCreateCommandQueue");
    map_queue_ = queue;
  }
  return map_queue_;
}

// A buffer the driver allocates in host memory it can DMA from (NVIDIA: pinned memory), mapped
// once: the mapped pointer is ordinary host memory for as long as the mapping lasts, and
// clEnqueueRead/WriteBuffer of other buffers to and from it run at the DMA rate.
void* ContextState::allocate_host(std::size_t size) {
  cl_int code = CL_SUCCESS;
  cl_mem memory =
      clCreateBuffer(context_, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, size, nullptr, &code);
  if (code == CL_INVALID_BUFFER_SIZE) {
    const auto limit = device_value<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    throw OutOfMemoryError("OpenCL", "clCreateBuffer", code, code_name(code),
                           std::to_string(size) +
                               " bytes of page-locked host memory requested, the device allows " +
                               std::to_string(limit) + " per allocation");
  }
  check_alloc(code, "clCreateBuffer");
  void* pointer = nullptr;
  try {
    const cl_command_queue queue = map_queue();
    pointer = clEnqueueMapBuffer(queue, memory, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size, 0,
                                 nullptr, nullptr, &code);
    check_alloc(code, "clEnqueueMapBuffer");
    try {
      host_memory_.insert(pointer, size, memory);
    } catch (...) {
      if (PLINTH_CHECK_IN_DESTRUCTOR(
              clEnqueueUnmapMemObject(queue, memory, pointer, 0, nullptr, nullptr)))
        PLINTH_CHECK_IN_DESTRUCTOR(clFinish(queue));
      throw;
    }
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(memory));
    throw;
  }
  return pointer;
}

void ContextState::free_host(void* memory) noexcept {
  const auto buffer = host_memory_.erase(memory);
  if (!buffer) {
    std::fprintf(stderr, "plinth: OpenCL: free_host of memory that allocate_host did not return\n");
    return;
  }
  // The map queue exists: allocate_host() mapped the buffer on it.
  cl_command_queue queue = nullptr;
  {
    const std::lock_guard lock(map_queue_mutex_);
    queue = map_queue_;
  }
  if (PLINTH_CHECK_IN_DESTRUCTOR(
          clEnqueueUnmapMemObject(queue, *buffer, memory, 0, nullptr, nullptr)))
    PLINTH_CHECK_IN_DESTRUCTOR(clFinish(queue));
  PLINTH_CHECK_IN_DESTRUCTOR(clReleaseMemObject(*buffer));
}

std::vector<Context::Limits> Context::query_limits(const std::vector<cl_device_id>& devices) {
  std::vector<Limits> limits;
  for (auto device : devices)
    limits.push_back({device_value<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8,
                      device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE)});
  return limits;
}

std::unique_ptr<Context> Context::create(std::vector<cl_device_id> devices) {
  const auto platform = device_value<cl_platform_id>(devices.at(0), CL_DEVICE_PLATFORM);
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int code = CL_SUCCESS;
  cl_context context = clCreateContext(properties, static_cast<cl_uint>(devices.size()),
                                       devices.data(), nullptr, nullptr, &code);
  check_alloc(code, "clCreateContext");
  return adopt(context, std::move(devices), false);
}

std::unique_ptr<Context> Context::adopt(cl_context context, std::vector<cl_device_id> devices,
                                        bool gl_context) {
  std::vector<Limits> limits;
  std::shared_ptr<ContextState> state;
  try {
    limits = query_limits(devices);
    state = std::make_shared<ContextState>(context, devices.at(0));
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(clReleaseContext(context));
    throw;
  }
  return std::unique_ptr<Context>(
      new Context(context, std::move(devices), std::move(limits), std::move(state), gl_context));
}

std::unique_ptr<Context> Context::wrap(cl_context context, std::vector<cl_device_id> devices,
                                       bool take_ownership) {
  const auto own = info_array<cl_device_id>(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetContextInfo(context, CL_CONTEXT_DEVICES, size, value, size_ret);
      },
      "clGetContextInfo");
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (std::find(own.begin(), own.end(), devices[i]) == own.end())
      throw LogicError("the OpenCL context to wrap does not contain device " + std::to_string(i) +
                       " (" + device_string(devices[i], CL_DEVICE_NAME) + ")");
  // A context made with a GL context (by the application, or by create_gl_context()) names
  // it among its properties.
  const auto properties = info_array<cl_context_properties>(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetContextInfo(context, CL_CONTEXT_PROPERTIES, size, value, size_ret);
      },
      "clGetContextInfo");
  bool gl_context = false;
  for (std::size_t i = 0; i + 1 < properties.size() && properties[i] != 0; i += 2)
    gl_context = gl_context || (properties[i] == CL_GL_CONTEXT_KHR && properties[i + 1] != 0);
  auto limits = query_limits(devices);
  auto state = std::make_shared<ContextState>(context, devices.at(0));  // its own reference
  if (!take_ownership) PLINTH_CHECK(clRetainContext(context));
  return std::unique_ptr<Context>(
      new Context(context, std::move(devices), std::move(limits), std::move(state), gl_context));
}

Context::Context(cl_context context, std::vector<cl_device_id> devices, std::vector<Limits> limits,
                 std::shared_ptr<ContextState> state, bool gl_context) noexcept
    : context_(context),
      devices_(std::move(devices)),
      limits_(std::move(limits)),
      state_(std::move(state)),
      gl_context_(gl_context) {}

Context::~Context() { PLINTH_CHECK_IN_DESTRUCTOR(clReleaseContext(context_)); }

std::size_t Context::device_count() const { return devices_.size(); }

std::unique_ptr<backend::BufferAdapter> Context::allocate(std::size_t device, std::size_t size) {
  // Drivers allocate lazily (NVIDIA accepts any size here and fails at first use), so
  // refuse what can never fit at once.
  if (size > limits_[device].global_mem)
    throw OutOfMemoryError("OpenCL", "clCreateBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE,
                           code_name(CL_MEM_OBJECT_ALLOCATION_FAILURE),
                           std::to_string(size) + " bytes requested, the device has " +
                               std::to_string(limits_[device].global_mem));
  cl_int code = CL_SUCCESS;
  cl_mem memory = clCreateBuffer(context_, CL_MEM_READ_WRITE, size, nullptr, &code);
  if (code == CL_INVALID_BUFFER_SIZE) {
    const auto limit = device_value<cl_ulong>(devices_[device], CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    throw OutOfMemoryError("OpenCL", "clCreateBuffer", code, code_name(code),
                           std::to_string(size) + " bytes requested, the device allows " +
                               std::to_string(limit) + " per allocation");
  }
  check_alloc(code, "clCreateBuffer");
  return std::make_unique<Buffer>(memory, memory, 0, size, limits_[device].alignment);
}

std::unique_ptr<backend::BufferAdapter> Context::allocate_managed(std::size_t device,
                                                                  std::size_t size,
                                                                  ManagedAttach attach) {
  const auto name = [&] {
    return "OpenCL device '" + device_string(devices_[device], CL_DEVICE_NAME) + "'";
  };
  if (const auto problem = fine_grained_svm_problem(devices_[device]); !problem.empty())
    throw LogicError(name() + " has no managed memory: " + problem);
  if (attach != ManagedAttach::global)
    throw LogicError(name() + " cannot attach managed memory as '" + to_string(attach) +
                     "': fine-grained SVM is always reachable by every queue and the host");
  void* host = nullptr;
  cl_mem memory = allocate_fine_grained_svm(context_, size, &host);
  return std::make_unique<Buffer>(memory, memory, 0, size, limits_[device].alignment,
                                  static_cast<std::byte*>(host));
}

bool Context::memory_info(std::size_t device, MemoryInfo& info) {
  info.total = limits_[device].global_mem;
  const auto extensions = device_string(devices_[device], CL_DEVICE_EXTENSIONS);
  if (has_extension(extensions, "cl_amd_device_attribute_query")) {
    // Kibibytes: the free memory in all, then the largest free block.
    std::array<std::size_t, 2> free_kib{};
    if (clGetDeviceInfo(devices_[device], amd_global_free_memory, sizeof(free_kib), free_kib.data(),
                        nullptr) == CL_SUCCESS)
      info.free = free_kib[0] * 1024;
  }
  return true;
}

std::unique_ptr<backend::BufferAdapter> Context::wrap_buffer(std::size_t device,
                                                             backend::NativeHandle memory,
                                                             std::size_t size,
                                                             bool take_ownership) {
  auto mem = reinterpret_cast<cl_mem>(memory);
  cl_context owner = nullptr;
  PLINTH_CHECK(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(owner), &owner, nullptr));
  if (owner != context_) throw LogicError("the cl_mem to wrap belongs to another OpenCL context");
  return Buffer::wrap(mem, size, limits_[device].alignment, take_ownership);
}

std::unique_ptr<backend::QueueAdapter> Context::create_queue(std::size_t device) {
  cl_int code = CL_SUCCESS;
  cl_command_queue queue =
      clCreateCommandQueue(context_, devices_[device], CL_QUEUE_PROFILING_ENABLE, &code);
  check_alloc(code, "clCreateCommandQueue");
  return std::make_unique<Queue>(queue, state_);
}

std::unique_ptr<backend::QueueAdapter> Context::wrap_queue(std::size_t device,
                                                           backend::NativeHandle queue,
                                                           bool take_ownership) {
  auto handle = reinterpret_cast<cl_command_queue>(queue);
  cl_device_id owner = nullptr;
  PLINTH_CHECK(clGetCommandQueueInfo(handle, CL_QUEUE_DEVICE, sizeof(owner), &owner, nullptr));
  cl_context context = nullptr;
  PLINTH_CHECK(clGetCommandQueueInfo(handle, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr));
  if (owner != devices_[device] || context != context_)
    throw LogicError("the cl_command_queue to wrap belongs to another device or context");
  if (!take_ownership) PLINTH_CHECK(clRetainCommandQueue(handle));
  return std::make_unique<Queue>(handle, state_);
}

std::unique_ptr<backend::ProgramAdapter> Context::create_program(
    std::span<const std::size_t> devices, const backend::ProgramInput& input,
    const backend::BuildOptions& options) {
  std::vector<cl_device_id> ids;
  for (auto device : devices) ids.push_back(devices_[device]);
  return Program::create(context_, std::move(ids), input, options);
}

void Context::activate() {}

void Context::deactivate() {}

backend::NativeHandle Context::native_handle(std::size_t) const {
  return reinterpret_cast<backend::NativeHandle>(context_);
}

void* Context::allocate_host(std::size_t size) { return state_->allocate_host(size); }

void Context::free_host(void* memory) noexcept { state_->free_host(memory); }

void Context::register_host(void*, std::size_t) {
  throw LogicError(
      "OpenCL cannot page-lock existing host memory (it has no call like CUDA's "
      "cuMemHostRegister): allocate page-locked memory with HostArray::page_locked() instead");
}

void Context::unregister_host(void*) noexcept {}

}  // namespace plinth::opencl

namespace plinth::opencl {

ImageSupport Context::image_support(std::size_t device) {
  return query_image_support(context_, devices_[device]);
}

std::unique_ptr<backend::ImageAdapter> Context::create_image(std::size_t /*device*/,
                                                             const backend::ImageDesc& desc) {
  return opencl::create_image(context_, desc);
}

std::unique_ptr<backend::SamplerAdapter> Context::create_sampler(const SamplerDesc& desc) {
  return opencl::create_sampler(context_, desc);
}

// Available where the platform has cl_khr_gl_sharing and the context was made with a GL
// context; otherwise why not. Never throws beyond std::bad_alloc.
GlSharing Context::gl_sharing(std::size_t device) {
  return query_gl_sharing(devices_[device], gl_context_);
}

// clCreateFromGLBuffer (gl_interop.hpp). Throws LogicError with gl_sharing()'s reason where it
// is not available (the core asks first), OutOfMemoryError, BackendError.
std::unique_ptr<backend::GlResourceAdapter> Context::register_gl_buffer(std::size_t device,
                                                                        unsigned name,
                                                                        GlAccess access) {
  if (auto sharing = gl_sharing(device); !sharing.available) throw LogicError(sharing.reason);
  return opencl::register_gl_buffer(context_, devices_[device], name, access,
                                    limits_[device].alignment);
}

// clCreateFromGLTexture (gl_interop.hpp); throws as register_gl_buffer().
std::unique_ptr<backend::GlResourceAdapter> Context::register_gl_texture(
    std::size_t device, const GlTextureDesc& texture, GlAccess access) {
  if (auto sharing = gl_sharing(device); !sharing.available) throw LogicError(sharing.reason);
  return opencl::register_gl_texture(context_, devices_[device], texture, access);
}

}  // namespace plinth::opencl
