#include "context.hpp"

#include "buffer.hpp"
#include "device_parameters.hpp"
#include "error.hpp"
#include "gl_interop.hpp"
#include "image.hpp"
#include "program.hpp"
#include "queue.hpp"

#include <plinth/backend/host_copier.hpp>
#include <plinth/errors.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace plinth::hip {

ContextState::ContextState() = default;

ContextState::~ContextState() {
  copier_.reset();  // joins its threads
}

void ContextState::add(int device) {
  if (runtime_version_ == 0) PLINTH_CHECK(hipRuntimeGetVersion(&runtime_version_));
  hipDeviceProp_t properties{};
  PLINTH_CHECK(hipGetDeviceProperties(&properties, device));
  const std::size_t max_pitch =
      std::min<std::size_t>(properties.memPitch, std::numeric_limits<std::uint32_t>::max());
  devices_.push_back(
      {device, bounded_text(properties.name), bounded_text(properties.gcnArchName), max_pitch});
}

backend::HostCopier& ContextState::copier() {
  std::call_once(copier_once_, [this] { copier_ = std::make_unique<backend::HostCopier>(); });
  return *copier_;
}

ScopedDevice::ScopedDevice(int device) {
  PLINTH_CHECK(hipGetDevice(&previous_));
  if (previous_ != device) {
    PLINTH_CHECK(hipSetDevice(device));
    switched_ = true;
  }
}

ScopedDevice::ScopedDevice(int device, std::nothrow_t) noexcept {
  if (hipGetDevice(&previous_) != hipSuccess || previous_ == device) return;
  switched_ = PLINTH_CHECK_IN_DESTRUCTOR(hipSetDevice(device));
}

ScopedDevice::~ScopedDevice() {
  if (switched_) PLINTH_CHECK_IN_DESTRUCTOR(hipSetDevice(previous_));
}

std::unique_ptr<backend::BufferAdapter> Context::allocate(std::size_t device, std::size_t size) {
  ScopedDevice current((*state_)[device].device);
  void* pointer = nullptr;
  PLINTH_CHECK(hipMalloc(&pointer, size));
  return std::make_unique<Buffer>(state_, device, pointer, size, true);
}

std::unique_ptr<backend::BufferAdapter> Context::wrap_buffer(std::size_t device,
                                                             backend::NativeHandle memory,
                                                             std::size_t size,
                                                             bool take_ownership) {
  return std::make_unique<Buffer>(state_, device, reinterpret_cast<hipDeviceptr_t>(memory), size,
                                  take_ownership);
}

std::unique_ptr<backend::QueueAdapter> Context::create_queue(std::size_t device) {
  ScopedDevice current((*state_)[device].device);
  hipStream_t stream = nullptr;
  // Non-blocking: plinth's queues never wait for the null stream.
  PLINTH_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
  return std::make_unique<Queue>(state_, device, stream, true);
}

std::unique_ptr<backend::QueueAdapter> Context::wrap_queue(std::size_t device,
                                                           backend::NativeHandle queue,
                                                           bool take_ownership) {
  return std::make_unique<Queue>(state_, device, reinterpret_cast<hipStream_t>(queue),
                                 take_ownership);
}

std::unique_ptr<backend::ProgramAdapter> Context::create_program(
    std::span<const std::size_t> devices, const backend::ProgramInput& input,
    const backend::BuildOptions& options) {
  return std::make_unique<Program>(state_, devices, input, options);
}

void Context::activate() { PLINTH_CHECK(hipSetDevice((*state_)[0].device)); }

backend::NativeHandle Context::native_handle(std::size_t device) const {
  return static_cast<backend::NativeHandle>((*state_)[device].device);
}

// Portable: page-locked for every device, so the first device's being current will do.

void* Context::allocate_host(std::size_t size) {
  ScopedDevice current((*state_)[0].device);
  void* memory = nullptr;
  PLINTH_CHECK(hipHostMalloc(&memory, size, hipHostMallocPortable));
  return memory;
}

void Context::free_host(void* memory) noexcept {
  ScopedDevice current((*state_)[0].device, std::nothrow);
  PLINTH_CHECK_IN_DESTRUCTOR(hipHostFree(memory));
}

void Context::register_host(void* memory, std::size_t size) {
  ScopedDevice current((*state_)[0].device);
  PLINTH_CHECK(hipHostRegister(memory, size, hipHostRegisterPortable));
}

void Context::unregister_host(void* memory) noexcept {
  ScopedDevice current((*state_)[0].device, std::nothrow);
  PLINTH_CHECK_IN_DESTRUCTOR(hipHostUnregister(memory));
}

std::unique_ptr<backend::BufferAdapter> Context::allocate_managed(std::size_t device,
                                                                  std::size_t size,
                                                                  ManagedAttach attach) {
  const auto& entry = (*state_)[device];
  int managed = 0;
  PLINTH_CHECK(hipDeviceGetAttribute(&managed, hipDeviceAttributeManagedMemory, entry.device));
  if (managed == 0) {
    throw LogicError("HIP device " + std::to_string(entry.device) + " ('" + entry.name +
                     "') has no managed memory (hipDeviceAttributeManagedMemory is 0)");
  }
  ScopedDevice current(entry.device);
  void* pointer = nullptr;
  PLINTH_CHECK(hipMallocManaged(
      &pointer, size, attach == ManagedAttach::host ? hipMemAttachHost : hipMemAttachGlobal));
  return std::make_unique<Buffer>(state_, device, pointer, size, true, true);
}

bool Context::memory_info(std::size_t device, MemoryInfo& info) {
  ScopedDevice current((*state_)[device].device);
  std::size_t free = 0;
  std::size_t total = 0;
  PLINTH_CHECK(hipMemGetInfo(&free, &total));
  info.total = total;
  info.free = free;
  return true;
}

ImageSupport Context::image_support(std::size_t device) {
  return query_image_support(*state_, device);
}

std::unique_ptr<backend::ImageAdapter> Context::create_image(std::size_t device,
                                                             const backend::ImageDesc& desc) {
  return hip::create_image(state_, device, desc);
}

std::unique_ptr<backend::SamplerAdapter> Context::create_sampler(const SamplerDesc& desc) {
  return std::make_unique<Sampler>(desc);
}

GlSharing Context::gl_sharing(std::size_t /*device*/) { return query_gl_sharing(); }

std::unique_ptr<backend::GlResourceAdapter> Context::register_gl_buffer(std::size_t device,
                                                                        unsigned name,
                                                                        GlAccess access) {
  return hip::register_gl_buffer(state_, device, name, access);
}

std::unique_ptr<backend::GlResourceAdapter> Context::register_gl_texture(
    std::size_t device, const GlTextureDesc& texture, GlAccess access) {
  return hip::register_gl_texture(state_, device, texture, access);
}

}  // namespace plinth::hip
