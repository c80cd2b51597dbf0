#pragma once

#include <plinth/backend/context.hpp>

#include <cuda.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace plinth::backend {
class HostCopier;
}  // namespace plinth::backend

namespace plinth::cuda {

/// A device of a context and the CUDA context plinth uses on it.
struct DeviceContext {
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  /// CU_DEVICE_ATTRIBUTE_MAX_PITCH: the largest pitch cuMemcpy2D/3D and cuMemAllocPitch take.
  std::size_t max_pitch = 0;
};

/// What a context's buffers, queues, events and programs share and keep alive: the CUDA
/// contexts (released with the last of them, whatever order the core destroys adapters in)
/// and the host copier of staged transfers.
class ContextState {
 public:
  /// primary: retained primary contexts (released); owned: destroyed; borrowed: left alone.
  enum class Ownership { primary, owned, borrowed };

  explicit ContextState(Ownership ownership);
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  /// Adds a device whose context is already retained/created; from then on it is released
  /// with the state.
  void add(CUdevice device, CUcontext context);
  std::size_t size() const { return devices_.size(); }
  const DeviceContext& operator[](std::size_t index) const { return devices_[index]; }
  Ownership ownership() const { return ownership_; }
  /// The copier of staged transfers, created on first use (its threads start then).
  backend::HostCopier& copier();
  /// Enables peer access between devices `a` and `b` (indices of the state, distinct) in
  /// each direction where cuDeviceCanAccessPeer allows it, once per pair: later calls cost
  /// one std::call_once. Access already enabled (by NCCL or the CUDA runtime, on the same
  /// primary contexts) counts as success. Throws BackendError (and tries again next time).
  /// Any thread may call it, once every device has been added.
  void enable_peer_access(std::size_t a, std::size_t b);

 private:
  Ownership ownership_;
  std::vector<DeviceContext> devices_;
  std::once_flag copier_once_;
  std::unique_ptr<backend::HostCopier> copier_;
  // One flag per unordered pair (index min * size + max), allocated on first use.
  std::once_flag peer_flags_once_;
  std::unique_ptr<std::once_flag[]> peer_flags_;
};

/// Makes `context` current on this thread for a scope and restores the previous one after.
/// Costs one cuCtxGetCurrent (~40 ns) when the context already is current, the common case
/// (one device, or after Context::activate()); two cuCtxSetCurrent more otherwise. Restoring
/// means plinth never changes which context the CUDA runtime or the user's code sees.
class ScopedContext {
 public:
  explicit ScopedContext(CUcontext context);
  /// For destructors: failures are reported, not thrown.
  ScopedContext(CUcontext context, std::nothrow_t) noexcept;
  ~ScopedContext();
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;

 private:
  CUcontext previous_ = nullptr;
  bool switched_ = false;
};

class Context final : public backend::ContextAdapter {
 public:
  explicit Context(std::shared_ptr<ContextState> state) : state_(std::move(state)) {}

  std::size_t device_count() const override { return state_->size(); }
  std::unique_ptr<backend::BufferAdapter> allocate(std::size_t device, std::size_t size) override;
  // SDK 1.6: cuMemAllocPitch (see context.cpp).
  std::unique_ptr<backend::BufferAdapter> allocate_pitched(std::size_t device, std::size_t width,
                                                           std::size_t rows,
                                                           std::size_t& pitch) override;
  std::unique_ptr<backend::BufferAdapter> wrap_buffer(std::size_t device,
                                                      backend::NativeHandle memory,
                                                      std::size_t size,
                                                      bool take_ownership) override;
  std::unique_ptr<backend::QueueAdapter> create_queue(std::size_t device) override;
  std::unique_ptr<backend::QueueAdapter> wrap_queue(std::size_t device, backend::NativeHandle queue,
                                                    bool take_ownership) override;
  std::unique_ptr<backend::ProgramAdapter> create_program(
      std::span<const std::size_t> devices, const backend::ProgramInput& input,
      const backend::BuildOptions& options) override;
  void activate() override;
  void deactivate() override;
  backend::NativeHandle native_handle(std::size_t device) const override;
  // SDK 1.2: page-locked host memory, portable to every context (and so every device).
  void* allocate_host(std::size_t size) override;
  void free_host(void* memory) noexcept override;
  void register_host(void* memory, std::size_t size) override;
  void unregister_host(void* memory) noexcept override;
  // SDK 1.4: NCCL communicators (communicator.hpp).
  std::unique_ptr<backend::CommunicatorAdapter> create_communicator(
      std::span<const std::size_t> devices) override;
  std::unique_ptr<backend::CommunicatorAdapter> join_communicator(std::size_t device,
                                                                  std::span<const std::byte> id,
                                                                  std::size_t rank_count,
                                                                  std::size_t rank) override;
  // SDK 1.6: interprocess memory and events (ipc.cpp).
  backend::IpcAvailability ipc_availability(std::size_t device) override;
  backend::IpcMemoryExport export_memory(std::size_t device,
                                         backend::BufferAdapter& buffer) override;
  std::unique_ptr<backend::BufferAdapter> import_memory(std::size_t device,
                                                        std::span<const std::byte> handle,
                                                        std::size_t size) override;
  std::unique_ptr<backend::EventAdapter> create_ipc_event(std::size_t device) override;
  std::vector<std::byte> export_event(backend::EventAdapter& event) override;
  std::unique_ptr<backend::EventAdapter> import_event(std::size_t device,
                                                      std::span<const std::byte> handle) override;
  // SDK 1.6: managed memory (cuMemAllocManaged), where the device has it.
  std::unique_ptr<backend::BufferAdapter> allocate_managed(std::size_t device, std::size_t size,
                                                           ManagedAttach attach) override;
  // SDK 1.6: memory info (cuMemGetInfo in the device's context).
  bool memory_info(std::size_t device, MemoryInfo& info) override;
  // SDK 1.8: images are CUDA arrays, samplers a setting that picks a texture object of the
  // image (image.hpp).
  ImageSupport image_support(std::size_t device) override;
  std::unique_ptr<backend::ImageAdapter> create_image(std::size_t device,
                                                      const backend::ImageDesc& desc) override;
  std::unique_ptr<backend::SamplerAdapter> create_sampler(const SamplerDesc& desc) override;
  // SDK 1.9: OpenGL interop (gl_interop.hpp).
  /// Available on every device where the driver has the graphics interop functions (CUDA
  /// needs no special context); otherwise says which it lacks. Never throws beyond
  /// std::bad_alloc.
  GlSharing gl_sharing(std::size_t device) override;
  /// cuGraphicsGLRegisterBuffer in the device's context (made current for the call), with
  /// gl_register_flags(). Throws LogicError where the driver has no GL interop, BackendError.
  std::unique_ptr<backend::GlResourceAdapter> register_gl_buffer(std::size_t device, unsigned name,
                                                                 GlAccess access) override;
  /// cuGraphicsGLRegisterImage in the device's context, with gl_register_flags() (and
  /// SURFACE_LDST unless read-only); a mapping is an Image of `texture`'s level that does not
  /// own its CUarray. Throws LogicError where the driver has no GL interop or the texture is
  /// 1-D (CUDA registers no GL_TEXTURE_1D or GL_TEXTURE_1D_ARRAY), BackendError.
  std::unique_ptr<backend::GlResourceAdapter> register_gl_texture(std::size_t device,
                                                                  const GlTextureDesc& texture,
                                                                  GlAccess access) override;

 private:
  std::shared_ptr<ContextState> state_;
};

}  // namespace plinth::cuda
