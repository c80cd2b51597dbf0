#pragma once

#include <plinth/backend/context.hpp>

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace plinth::backend {
class HostCopier;
}  // namespace plinth::backend

namespace plinth::hip {

// HIP's current-device model. HIP has no context objects that plinth could own: each host
// thread has a current device (hipSetDevice), and the calls that create something (hipMalloc,
// hipStreamCreate, hipEventCreate, hipModuleLoadData, hipHostMalloc) create it on that device,
// while calls on a stream, an event, a module or a pointer act where that object lives. So a
// plinth context is its list of devices, and every call of this backend that depends on the
// current device, or takes a stream that might be a device's null stream, runs inside a
// ScopedDevice for the device it is about: the device is made current only if it is not
// already, and the one that was current is made current again afterwards. Plinth thereby
// never changes which device the calling thread's other HIP code (the user's, rocBLAS...) sees,
// and it saves and restores nothing else: streams, modules and memory from other HIP code work
// with plinth's (wrap_queue, wrap_buffer) and plinth's with theirs (native handles).
// Context::activate() makes the context's first device current for the caller's own HIP code
// (hipSetDevice); deactivate() does nothing, since HIP has no stack of contexts to pop and the
// device that was current before is the thread's, not plinth's.

/// A device of a context.
struct DeviceEntry {
  int device = 0;    ///< the HIP device ordinal (hipDevice_t)
  std::string name;  ///< for messages
  std::string arch;  ///< hipDeviceProp_t::gcnArchName, what hiprtc compiles for
  /// The largest row pitch an image copy takes: hipDeviceProp_t::memPitch, at most 32 bits
  /// (HIP 5 keeps a copy's pitches in 32 bits).
  std::size_t max_pitch = 0;
};

/// What a context's buffers, queues, events and programs share and keep alive: its devices and
/// the host copier of staged transfers.
class ContextState {
 public:
  ContextState();
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  /// Adds device `device`, reading its name, architecture and copy limit (and, the first
  /// time, the runtime's version). Throws BackendError.
  void add(int device);
  std::size_t size() const { return devices_.size(); }
  /// hipRuntimeGetVersion: major * 10000000 + minor * 100000 + patch.
  int runtime_version() const { return runtime_version_; }
  const DeviceEntry& operator[](std::size_t index) const { return devices_[index]; }
  /// The copier of staged transfers, created on first use (its threads start then).
  backend::HostCopier& copier();

 private:
  std::vector<DeviceEntry> devices_;
  int runtime_version_ = 0;
  std::once_flag copier_once_;
  std::unique_ptr<backend::HostCopier> copier_;
};

/// Makes `device` current on this thread for a scope and the previous one current again after
/// (see the top of this file). Costs one hipGetDevice when the device already is current, the
/// common case (one device, or after Context::activate()); two hipSetDevice more otherwise.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device);
  /// For destructors: failures are reported, not thrown.
  ScopedDevice(int device, std::nothrow_t) noexcept;
  ~ScopedDevice();
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

 private:
  int previous_ = 0;
  bool switched_ = false;
};

class Context final : public backend::ContextAdapter {
 public:
  explicit Context(std::shared_ptr<ContextState> state) : state_(std::move(state)) {}

  std::size_t device_count() const override { return state_->size(); }
  std::unique_ptr<backend::BufferAdapter> allocate(std::size_t device, std::size_t size) override;
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
  /// hipSetDevice(the first device): see the top of this file.
  void activate() override;
  /// Nothing: see the top of this file.
  void deactivate() override {}
  /// HIP has no context objects: a device's "context" is its ordinal (hipDevice_t), which
  /// Api::wrap_context takes back.
  backend::NativeHandle native_handle(std::size_t device) const override;
  // SDK 1.2: page-locked host memory, portable to every device.
  void* allocate_host(std::size_t size) override;
  void free_host(void* memory) noexcept override;
  void register_host(void* memory, std::size_t size) override;
  void unregister_host(void* memory) noexcept override;
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
  // SDK 1.6: managed memory (hipMallocManaged), where the device has it.
  std::unique_ptr<backend::BufferAdapter> allocate_managed(std::size_t device, std::size_t size,
                                                           ManagedAttach attach) override;
  // SDK 1.6: memory info (hipMemGetInfo with the device current).
  bool memory_info(std::size_t device, MemoryInfo& info) override;
  // SDK 1.8: images are HIP arrays, samplers a setting that picks a texture object of the
  // image (image.hpp).
  ImageSupport image_support(std::size_t device) override;
  std::unique_ptr<backend::ImageAdapter> create_image(std::size_t device,
                                                      const backend::ImageDesc& desc) override;
  std::unique_ptr<backend::SamplerAdapter> create_sampler(const SamplerDesc& desc) override;
  // SDK 1.9: OpenGL interop (gl_interop.hpp; built, never run).
  /// Available on every device where the runtime has the GL interop functions (HIP needs no
  /// special context); otherwise says which it lacks. Never throws beyond std::bad_alloc.
  GlSharing gl_sharing(std::size_t device) override;
  /// hipGraphicsGLRegisterBuffer with the device current, with gl_register_flags(). Throws
  /// LogicError where the runtime lacks a GL interop function, BackendError.
  std::unique_ptr<backend::GlResourceAdapter> register_gl_buffer(std::size_t device, unsigned name,
                                                                 GlAccess access) override;
  /// hipGraphicsGLRegisterImage with the device current, with gl_register_flags() (and
  /// SurfaceLoadStore unless read-only); a mapping is an Image of `texture`'s level that does
  /// not own its array. Throws LogicError where the runtime lacks a GL interop function (of
  /// textures: hipGraphicsGLRegisterImage, hipGraphicsSubResourceGetMappedArray),
  /// BackendError.
  std::unique_ptr<backend::GlResourceAdapter> register_gl_texture(std::size_t device,
                                                                  const GlTextureDesc& texture,
                                                                  GlAccess access) override;

 private:
  std::shared_ptr<ContextState> state_;
};

}  // namespace plinth::hip
