#include "context.hpp"

#include "buffer.hpp"
#include "device.hpp"
#include "error.hpp"
#include "program.hpp"
#include "queue.hpp"

#include <plinth/errors.hpp>

#include <algorithm>

namespace plinth::opencl {

std::vector<Context::Limits> Context::query_limits(const std::vector<cl_device_id>& devices) {
  std::vector<Limits> limits;
  for (auto device : devices)
    limits.push_back({device_value<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8,
                      device_value<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE)});
  return limits;
}

std::unique_ptr<Context> Context::create(std::vector<cl_device_id> devices) {
  auto limits = query_limits(devices);
  const auto platform = device_value<cl_platform_id>(devices.at(0), CL_DEVICE_PLATFORM);
  const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                              reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int code = CL_SUCCESS;
  cl_context context = clCreateContext(properties, static_cast<cl_uint>(devices.size()),
                                       devices.data(), nullptr, nullptr, &code);
  check_alloc(code, "clCreateContext");
  return std::unique_ptr<Context>(new Context(context, std::move(devices), std::move(limits)));
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
  auto limits = query_limits(devices);
  if (!take_ownership) PLINTH_CHECK(clRetainContext(context));
  return std::unique_ptr<Context>(new Context(context, std::move(devices), std::move(limits)));
}

Context::Context(cl_context context, std::vector<cl_device_id> devices,
                 std::vector<Limits> limits) noexcept
    : context_(context), devices_(std::move(devices)), limits_(std::move(limits)) {}

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
  return std::make_unique<Queue>(queue);
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
  return std::make_unique<Queue>(handle);
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

}  // namespace plinth::opencl
