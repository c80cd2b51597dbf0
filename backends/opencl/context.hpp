#pragma once

#include <plinth/backend/context.hpp>
#include <plinth/backend/host_ranges.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace plinth::backend {
class HostCopier;
}  // namespace plinth::backend

namespace plinth::opencl {

/// What a context's adapter and its queues share (a queue may hold it through a shared_ptr:
/// Context::state()): the page-locked host memory of the context (allocate_host()), so that
/// transfers from and to it skip staging, and the host copier of staged transfers. It holds a
/// reference to the cl_context, so it may outlive the context's adapter. Any thread may call
/// its members.
class ContextState {
 public:
  /// Retains `context`; page-locked memory is mapped on a queue of `device` (made when first
  /// needed).
  ContextState(cl_context context, cl_device_id device);
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  /// Whether [pointer, pointer + size) lies inside one allocation of allocate_host(): such
  /// memory is a mapped CL_MEM_ALLOC_HOST_PTR buffer, which the driver transfers from and to
  /// directly. No lock while the context has none; otherwise a mutex and a map look-up.
  bool page_locked(const void* pointer, std::size_t size) const noexcept {
    return host_memory_.contains(pointer, size);
  }
  /// The copier of staged transfers, created on first use (its threads start then).
  backend::HostCopier& copier();

  /// `size` (> 0) bytes of page-locked host memory: a CL_MEM_ALLOC_HOST_PTR buffer, mapped
  /// (blocking) for reading and writing, and kept mapped until free_host(). Throws
  /// OutOfMemoryError or BackendError.
  void* allocate_host(std::size_t size);
  /// Unmaps and releases memory from allocate_host(); reports failures on stderr.
  void free_host(void* memory) noexcept;

 private:
  /// The queue that maps and unmaps page-locked memory, created on first use.
  cl_command_queue map_queue();

  cl_context context_;
  cl_device_id device_;
  std::mutex map_queue_mutex_;
  cl_command_queue map_queue_ = nullptr;
  backend::HostRanges<cl_mem> host_memory_;
  std::once_flag copier_once_;
  std::unique_ptr<backend::HostCopier> copier_;
};

/// A cl_context (one reference owned) over the devices it was created with.
class Context final : public backend::ContextAdapter {
 public:
  /// A new context over `devices` (of one platform). Throws OutOfMemoryError, BackendError.
  static std::unique_ptr<Context> create(std::vector<cl_device_id> devices);
  /// Wraps `context`, which must contain `devices`; without `take_ownership` it is retained.
  /// It shares with GL if it was made with CL_GL_CONTEXT_KHR. Throws LogicError for a device
  /// it lacks, BackendError.
  static std::unique_ptr<Context> wrap(cl_context context, std::vector<cl_device_id> devices,
                                       bool take_ownership);
  /// Adopts the reference of `context`, just made over `devices`; `gl_context`: it was made
  /// with a GL context (gl_interop.hpp's create_gl_context()). Releases `context` if it
  /// throws (OutOfMemoryError, BackendError).
  static std::unique_ptr<Context> adopt(cl_context context, std::vector<cl_device_id> devices,
                                        bool gl_context);

  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context() override;

  std::size_t device_count() const override;
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
  void activate() override;
  void deactivate() override;
  backend::NativeHandle native_handle(std::size_t device) const override;
  // SDK 1.2: page-locked host memory (ContextState); OpenCL cannot page-lock existing memory.
  void* allocate_host(std::size_t size) override;
  void free_host(void* memory) noexcept override;
  void register_host(void* memory, std::size_t size) override;
  void unregister_host(void* memory) noexcept override;
  // SDK 1.6: no interprocess memory or events; the other IPC methods keep the SDK's defaults.
  backend::IpcAvailability ipc_availability(std::size_t) override {
    return {false, false,
            "OpenCL has no interprocess sharing: no OpenCL call exports a cl_mem or a cl_event "
            "to another process"};
  }
  // SDK 1.6: managed memory, where the device has fine-grained buffer SVM (svm.hpp).
  std::unique_ptr<backend::BufferAdapter> allocate_managed(std::size_t device, std::size_t size,
                                                           ManagedAttach attach) override;
  // SDK 1.6: memory info: CL_DEVICE_GLOBAL_MEM_SIZE, and the free memory where
  // cl_amd_device_attribute_query says it (CL_DEVICE_GLOBAL_FREE_MEMORY_AMD).
  bool memory_info(std::size_t device, MemoryInfo& info) override;
  // SDK 1.8: images and samplers (image.hpp).
  ImageSupport image_support(std::size_t device) override;
  std::unique_ptr<backend::ImageAdapter> create_image(std::size_t device,
                                                      const backend::ImageDesc& desc) override;
  std::unique_ptr<backend::SamplerAdapter> create_sampler(const SamplerDesc& desc) override;
  // SDK 1.9: OpenGL interop through cl_khr_gl_sharing (gl_interop.hpp), where the context was
  // made with a GL context; register_gl_* throw LogicError saying why not elsewhere.
  GlSharing gl_sharing(std::size_t device) override;
  std::unique_ptr<backend::GlResourceAdapter> register_gl_buffer(std::size_t device, unsigned name,
                                                                 GlAccess access) override;
  std::unique_ptr<backend::GlResourceAdapter> register_gl_texture(std::size_t device,
                                                                  const GlTextureDesc& texture,
                                                                  GlAccess access) override;

  /// What the context's queues share with it.
  const std::shared_ptr<ContextState>& state() const noexcept { return state_; }

 private:
  struct Limits {
    std::size_t alignment;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes
    cl_ulong global_mem;    // CL_DEVICE_GLOBAL_MEM_SIZE
  };
  static std::vector<Limits> query_limits(const std::vector<cl_device_id>& devices);

  // Adopts `context`'s reference; `gl_context`: made with a GL context.
  Context(cl_context context, std::vector<cl_device_id> devices, std::vector<Limits> limits,
          std::shared_ptr<ContextState> state, bool gl_context) noexcept;

  cl_context context_;
  std::vector<cl_device_id> devices_;
  std::vector<Limits> limits_;
  std::shared_ptr<ContextState> state_;
  bool gl_context_;  // made with CL_GL_CONTEXT_KHR: GL objects can be registered
};

}  // namespace plinth::opencl
