#include "context.hpp"

#include "buffer.hpp"
#include "communicator.hpp"
#include "driver.hpp"
#include "gl_interop.hpp"
#include "image.hpp"
#include "program.hpp"
#include "queue.hpp"

#include <plinth/backend/host_copier.hpp>
#include <plinth/errors.hpp>

#include <algorithm>
#include <array>
#include <string>

namespace plinth::cuda {

ContextState::ContextState(Ownership ownership) : ownership_(ownership) {}

ContextState::~ContextState() {
  copier_.reset();  // joins its threads before the contexts go
  for (const auto& entry : devices_) {
    if (ownership_ == Ownership::primary)
      CU_CHECK_IN_DESTRUCTOR(cuDevicePrimaryCtxRelease(entry.device));
    else if (ownership_ == Ownership::owned)
      CU_CHECK_IN_DESTRUCTOR(cuCtxDestroy(entry.context));
  }
}

void ContextState::add(CUdevice device, CUcontext context) {
  DeviceContext entry{device, context, {}, 0, 0, 0};
  devices_.push_back(entry);  // owned from here on, even if a query below throws
  std::array<char, 256> name{};
  CU_CHECK(cuDeviceGetName(name.data(), static_cast<int>(name.size()), device));
  auto& added = devices_.back();
  added.name = name.data();
  CU_CHECK(
      cuDeviceGetAttribute(&added.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(
      cuDeviceGetAttribute(&added.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  int max_pitch = 0;
  CU_CHECK(cuDeviceGetAttribute(&max_pitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH, device));
  added.max_pitch = static_cast<std::size_t>(std::max(max_pitch, 0));
}

backend::HostCopier& ContextState::copier() {
  std::call_once(copier_once_, [this] { copier_ = std::make_unique<backend::HostCopier>(); });
  return *copier_;
}

namespace {

// Lets `from`'s context access `to`'s memory where the hardware allows it.
void enable_access(const DeviceContext& from, const DeviceContext& to) {
  int can_access = 0;
  CU_CHECK(cuDeviceCanAccessPeer(&can_access, from.device, to.device));
  if (can_access == 0) return;  // cuMemcpyPeerAsync stages through the host itself
  ScopedContext current(from.context);
  const CUresult result = driver().cuCtxEnablePeerAccess(to.context, 0);
  if (result != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
    backend::check(result, "cuCtxEnablePeerAccess");
}

}  // namespace

void ContextState::enable_peer_access(std::size_t a, std::size_t b) {
  const std::size_t n = devices_.size();
  std::call_once(peer_flags_once_,
                 [this, n] { peer_flags_ = std::make_unique<std::once_flag[]>(n * n); });
  const std::size_t low = std::min(a, b);
  const std::size_t high = std::max(a, b);
  std::call_once(peer_flags_[low * n + high], [this, low, high] {
    enable_access(devices_[low], devices_[high]);
    enable_access(devices_[high], devices_[low]);
  });
}

ScopedContext::ScopedContext(CUcontext context) {
  CU_CHECK(cuCtxGetCurrent(&previous_));
  if (previous_ != context) {
    CU_CHECK(cuCtxSetCurrent(context));
    switched_ = true;
  }
}

ScopedContext::ScopedContext(CUcontext context, std::nothrow_t) noexcept {
  if (driver().cuCtxGetCurrent(&previous_) != CUDA_SUCCESS || previous_ == context) return;
  switched_ = CU_CHECK_IN_DESTRUCTOR(cuCtxSetCurrent(context));
}

ScopedContext::~ScopedContext() {
  if (switched_) CU_CHECK_IN_DESTRUCTOR(cuCtxSetCurrent(previous_));
}

std::unique_ptr<backend::BufferAdapter> Context::allocate(std::size_t device, std::size_t size) {
  ScopedContext current((*state_)[device].context);
  CUdeviceptr pointer = 0;
  CU_CHECK(cuMemAlloc(&pointer, size));
  return std::make_unique<Buffer>(state_, device, pointer, size, true);
}

std::unique_ptr<backend::BufferAdapter> Context::allocate_pitched(std::size_t device,
                                                                  std::size_t width,
                                                                  std::size_t rows,
                                                                  std::size_t& pitch) {
  // cuMemAllocPitch refuses widths beyond the device's largest pitch: the core's default then.
  if (width > (*state_)[device].max_pitch) return nullptr;
  ScopedContext current((*state_)[device].context);
  CUdeviceptr pointer = 0;
  std::size_t row_pitch = 0;
  // 16: the widest accesses kernels make (float4, double2), which the pitch keeps aligned.
  CU_CHECK(cuMemAllocPitch(&pointer, &row_pitch, width, rows, 16));
  pitch = row_pitch;
  return std::make_unique<Buffer>(state_, device, pointer, row_pitch * rows, true);
}

std::unique_ptr<backend::BufferAdapter> Context::wrap_buffer(std::size_t device,
                                                             backend::NativeHandle memory,
                                                             std::size_t size,
                                                             bool take_ownership) {
  return std::make_unique<Buffer>(state_, device, static_cast<CUdeviceptr>(memory), size,
                                  take_ownership);
}

std::unique_ptr<backend::QueueAdapter> Context::create_queue(std::size_t device) {
  ScopedContext current((*state_)[device].context);
  CUstream stream = nullptr;
  // Non-blocking: plinth's queues never wait for the legacy default stream.
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return std::make_unique<Queue>(state_, device, stream, true);
}

std::unique_ptr<backend::QueueAdapter> Context::wrap_queue(std::size_t device,
                                                           backend::NativeHandle queue,
                                                           bool take_ownership) {
  return std::make_unique<Queue>(state_, device, reinterpret_cast<CUstream>(queue), take_ownership);
}

std::unique_ptr<backend::ProgramAdapter> Context::create_program(
    std::span<const std::size_t> devices, const backend::ProgramInput& input,
    const backend::BuildOptions& options) {
  return std::make_unique<Program>(state_, devices, input, options);
}

void Context::activate() { CU_CHECK(cuCtxPushCurrent((*state_)[0].context)); }

void Context::deactivate() {
  CUcontext popped = nullptr;
  CU_CHECK(cuCtxPopCurrent(&popped));
}

backend::NativeHandle Context::native_handle(std::size_t device) const {
  return reinterpret_cast<backend::NativeHandle>((*state_)[device].context);
}

// cuMemHostAlloc/cuMemHostRegister need a current context; PORTABLE makes the memory
// page-locked for every context, so the first device's will do.

void* Context::allocate_host(std::size_t size) {
  ScopedContext current((*state_)[0].context);
  void* memory = nullptr;
  CU_CHECK(cuMemHostAlloc(&memory, size, CU_MEMHOSTALLOC_PORTABLE));
  return memory;
}

void Context::free_host(void* memory) noexcept {
  ScopedContext current((*state_)[0].context, std::nothrow);
  CU_CHECK_IN_DESTRUCTOR(cuMemFreeHost(memory));
}

void Context::register_host(void* memory, std::size_t size) {
  ScopedContext current((*state_)[0].context);
  CU_CHECK(cuMemHostRegister(memory, size, CU_MEMHOSTREGISTER_PORTABLE));
}

void Context::unregister_host(void* memory) noexcept {
  ScopedContext current((*state_)[0].context, std::nothrow);
  CU_CHECK_IN_DESTRUCTOR(cuMemHostUnregister(memory));
}

std::unique_ptr<backend::BufferAdapter> Context::allocate_managed(std::size_t device,
                                                                  std::size_t size,
                                                                  ManagedAttach attach) {
  const auto& entry = (*state_)[device];
  int managed = 0;
  CU_CHECK(cuDeviceGetAttribute(&managed, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, entry.device));
  if (managed == 0) {
    throw LogicError("CUDA device " + std::to_string(entry.device) + " ('" + entry.name +
                     "') has no managed memory (CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY is 0)");
  }
  ScopedContext current(entry.context);
  CUdeviceptr pointer = 0;
  CU_CHECK(cuMemAllocManaged(
      &pointer, size, attach == ManagedAttach::host ? CU_MEM_ATTACH_HOST : CU_MEM_ATTACH_GLOBAL));
  return std::make_unique<Buffer>(state_, device, pointer, size, true, true);
}

bool Context::memory_info(std::size_t device, MemoryInfo& info) {
  ScopedContext current((*state_)[device].context);
  std::size_t free = 0;
  std::size_t total = 0;
  CU_CHECK(cuMemGetInfo(&free, &total));
  info.total = total;
  info.free = free;
  return true;
}

ImageSupport Context::image_support(std::size_t device) {
  return query_image_support(*state_, device);
}

std::unique_ptr<backend::ImageAdapter> Context::create_image(std::size_t device,
                                                             const backend::ImageDesc& desc) {
  return cuda::create_image(state_, device, desc);
}

std::unique_ptr<backend::SamplerAdapter> Context::create_sampler(const SamplerDesc& desc) {
  return std::make_unique<Sampler>(desc);
}

GlSharing Context::gl_sharing(std::size_t /*device*/) { return query_gl_sharing(); }

std::unique_ptr<backend::GlResourceAdapter> Context::register_gl_buffer(std::size_t device,
                                                                        unsigned name,
                                                                        GlAccess access) {
  return cuda::register_gl_buffer(state_, device, name, access);
}

std::unique_ptr<backend::GlResourceAdapter> Context::register_gl_texture(
    std::size_t device, const GlTextureDesc& texture, GlAccess access) {
  return cuda::register_gl_texture(state_, device, texture, access);
}

std::unique_ptr<backend::CommunicatorAdapter> Context::create_communicator(
    std::span<const std::size_t> devices) {
  return Communicator::create(state_, devices);
}

std::unique_ptr<backend::CommunicatorAdapter> Context::join_communicator(
    std::size_t device, std::span<const std::byte> id, std::size_t rank_count, std::size_t rank) {
  return Communicator::join(state_, device, id, rank_count, rank);
}

}  // namespace plinth::cuda
