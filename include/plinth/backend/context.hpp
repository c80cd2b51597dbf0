#pragma once

#include <plinth/backend/buffer.hpp>
#include <plinth/backend/communicator.hpp>
#include <plinth/backend/gl_interop.hpp>
#include <plinth/backend/image.hpp>
#include <plinth/backend/program.hpp>
#include <plinth/backend/queue.hpp>
#include <plinth/errors.hpp>
#include <plinth/managed_memory.hpp>
#include <plinth/memory_info.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::backend {

// ---- SDK 1.6: interprocess memory and events ----

/// What ContextAdapter::ipc_availability() answers for a device.
struct IpcAvailability {
  bool memory = false;  ///< export_memory() and import_memory() work
  bool events = false;  ///< create_ipc_event(), export_event() and import_event() work
  std::string reason;   ///< why not, where either is false
};

/// What ContextAdapter::export_memory() returns.
struct IpcMemoryExport {
  std::vector<std::byte> handle;  ///< the vendor's handle of the whole allocation (1 to 4096 bytes)
  std::size_t offset = 0;         ///< where the exported buffer starts inside that allocation
};

/// A context over one or more devices of one platform (CUDA: their primary contexts).
/// Devices are referred to by their index in the list the context was created with.
class ContextAdapter {
 public:
  virtual ~ContextAdapter() = default;
  virtual std::size_t device_count() const = 0;
  /// Allocates `size` (> 0) bytes on `device`. Throws OutOfMemoryError or BackendError.
  virtual std::unique_ptr<BufferAdapter> allocate(std::size_t device, std::size_t size) = 0;
  /// Wraps existing device memory; with `take_ownership` it is freed with the adapter.
  virtual std::unique_ptr<BufferAdapter> wrap_buffer(std::size_t device, NativeHandle memory,
                                                     std::size_t size, bool take_ownership) = 0;
  /// A new in-order queue on `device`.
  virtual std::unique_ptr<QueueAdapter> create_queue(std::size_t device) = 0;
  /// Wraps an existing queue/stream of `device`; with `take_ownership` it is released with
  /// the adapter.
  virtual std::unique_ptr<QueueAdapter> wrap_queue(std::size_t device, NativeHandle queue,
                                                   bool take_ownership) = 0;
  /// SDK 1.0's way to build a program, called only on 1.0 plugins (1.1 plugins get
  /// create_program()): builds `source` (the core prepended the prelude) for `devices`.
  /// Throws CompileError with the compiler's log, the options and the source. Optional since
  /// 1.1: the default throws LogicError, and the default create_program() calls it.
  virtual std::unique_ptr<ProgramAdapter> build_program(std::span<const std::size_t> devices,
                                                        const std::string& source,
                                                        const BuildOptions& options);
  /// Makes the context current on the calling thread where the API has such a notion
  /// (CUDA); a no-op elsewhere.
  virtual void activate() = 0;
  /// Undoes activate(); a no-op elsewhere.
  virtual void deactivate() = 0;
  /// cl_context, CUcontext (of device `device`), ze_context_handle_t.
  virtual NativeHandle native_handle(std::size_t device) const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// Creates a program for `devices` from `input`, of a kind that ApiAdapter::program_inputs()
  /// lists (the core checks): compiles the dialect (prelude, the backend's own declarations
  /// of options.constant_arrays, then the source), or loads SPIR-V or binaries. Leaves what
  /// ProgramOptions::keep asks for in `*options.keep` when it is set. Throws CompileError with
  /// the compiler's log, the options and the source as compiled, or saying why a binary or
  /// SPIR-V module cannot be loaded on a device (e.g. built for another architecture).
  /// The default joins prelude and source as 1.0 did and calls build_program().
  virtual std::unique_ptr<ProgramAdapter> create_program(std::span<const std::size_t> devices,
                                                         const ProgramInput& input,
                                                         const BuildOptions& options);

  // ---- SDK 1.2: called only on plugins of ABI 1.2 or later --------------------------------
  // Page-locked host memory for users (HostArray::page_locked(), HostRegistration). All four
  // are optional: the defaults say the backend has none. Any thread may call them.

  /// Returns `size` (> 0, the core checks) bytes of page-locked host memory that every device
  /// of the context transfers to and from at the DMA rate (CUDA: cuMemHostAlloc with
  /// CU_MEMHOSTALLOC_PORTABLE). Its contents are unspecified; the core owns it and frees it
  /// with free_host() before the context goes. Throws OutOfMemoryError when the vendor says
  /// so, BackendError for other failures, and (the default) LogicError when the backend has no
  /// page-locked memory.
  virtual void* allocate_host(std::size_t size);
  /// Frees memory from allocate_host() of this context, once no transfer uses it any more.
  /// The default does nothing (its allocate_host() never returns).
  virtual void free_host(void* memory) noexcept;
  /// Page-locks the caller's existing memory [memory, memory + size) (size > 0, the core
  /// checks) for every device of the context (CUDA: cuMemHostRegister with
  /// CU_MEMHOSTREGISTER_PORTABLE), until unregister_host(memory). The user keeps owning the
  /// memory. Throws BackendError (e.g. the range is registered already), OutOfMemoryError, or
  /// (the default) LogicError when the backend cannot page-lock existing memory.
  virtual void register_host(void* memory, std::size_t size);
  /// Undoes register_host(memory) (the same pointer), once no transfer uses it any more. The
  /// default does nothing (its register_host() never returns).
  virtual void unregister_host(void* memory) noexcept;

  // ---- SDK 1.4: called only on plugins of ABI 1.4 or later --------------------------------
  // Collectives through the backend's library. Both are called only when
  // ApiAdapter::collectives() says it is available; the defaults throw LogicError.

  /// A communicator with one rank per device of `devices` (distinct indices of this context,
  /// at least one; the core checks), ranks numbered in that order (ncclCommInitAll). Throws
  /// BackendError.
  virtual std::unique_ptr<CommunicatorAdapter> create_communicator(
      std::span<const std::size_t> devices);
  /// Joins the communicator `id` (ApiAdapter::create_communicator_id(), possibly of another
  /// process) as rank `rank` of `rank_count` (rank < rank_count, the core checks) on
  /// `device`; blocks until every rank has joined (ncclCommInitRank). Throws BackendError,
  /// with the library's text for a bad id or an unreachable peer.
  virtual std::unique_ptr<CommunicatorAdapter> join_communicator(std::size_t device,
                                                                 std::span<const std::byte> id,
                                                                 std::size_t rank_count,
                                                                 std::size_t rank);

  // ---- SDK 1.6: pitched allocations -------------------------------------------------------

  /// Allocates `rows` rows of at least `width` bytes each on `device` (width, rows > 0; the
  /// core checks that the product fits), spaced as the device prefers for 2-D and 3-D
  /// copies and accesses (CUDA: cuMemAllocPitch), and sets `pitch` to that spacing (>=
  /// width). Called by Buffer::allocate_pitched() only on plugins of ABI 1.6 or later. Returns
  /// null, having allocated nothing, where the backend has no preference (the default) or
  /// cannot for these sizes: the core then rounds the width up to the device's
  /// DeviceParameters::address_alignment and calls allocate(). Throws OutOfMemoryError,
  /// BackendError.
  virtual std::unique_ptr<BufferAdapter> allocate_pitched(std::size_t device, std::size_t width,
                                                          std::size_t rows, std::size_t& pitch);

  // ---- SDK 1.6: interprocess memory and events ----
  // Sharing device memory and events with other processes of the same API on the same
  // machine (include/plinth/ipc.hpp). All optional: the defaults say the backend has none.

  /// Whether `device`'s memory and interprocess events can be shared, or why not. Never
  /// throws. The default: neither, "this backend has no interprocess memory or events".
  virtual IpcAvailability ipc_availability(std::size_t device);
  /// The vendor's handle of the allocation that `buffer` (of `device`: an allocation, a
  /// sub-region, or a region of a MemoryPool segment) lies in, and the buffer's offset inside
  /// it (CUDA: cuMemGetAddressRange, cuIpcGetMemHandle). Throws BackendError (e.g. wrapped
  /// memory the vendor cannot export), LogicError (the default).
  virtual IpcMemoryExport export_memory(std::size_t device, BufferAdapter& buffer);
  /// Maps the allocation that `handle` (export_memory() of another process, 1 to 4096 bytes,
  /// the core checks) names on `device`: a buffer of `size` bytes from the allocation's start,
  /// which unmaps it when destroyed (cuIpcOpenMemHandle, cuIpcCloseMemHandle). The core maps
  /// one allocation once per context and device (CUDA refuses a second mapping) and cuts
  /// regions from this buffer with sub_region(). Throws BackendError (a handle the vendor
  /// refuses, e.g. one of this process), LogicError (the default).
  virtual std::unique_ptr<BufferAdapter> import_memory(std::size_t device,
                                                       std::span<const std::byte> handle,
                                                       std::size_t size);
  /// A new event on `device` that other processes can open (CUDA: CU_EVENT_INTERPROCESS |
  /// CU_EVENT_DISABLE_TIMING), not yet recorded; QueueAdapter::record_ipc_event() records
  /// it. The core never asks it to time. Throws BackendError, LogicError (the default).
  virtual std::unique_ptr<EventAdapter> create_ipc_event(std::size_t device);
  /// The vendor's handle (1 to 4096 bytes) of an event from create_ipc_event() of this
  /// context. Throws BackendError, LogicError (the default).
  virtual std::vector<std::byte> export_event(EventAdapter& event);
  /// Opens on `device` the event that `handle` (export_event() of another process) names;
  /// queues wait for it (QueueAdapter::wait_for()) and the host too (EventAdapter::wait()).
  /// Throws BackendError, LogicError (the default).
  virtual std::unique_ptr<EventAdapter> import_event(std::size_t device,
                                                     std::span<const std::byte> handle);
  // ---- SDK 1.6: managed memory ----------------------------------------------------------

  /// Allocates `size` (> 0) bytes of managed memory for `device`, attached as `attach`
  /// (global or host; the core never passes single): one address for the device's kernels
  /// and the host, whose BufferAdapter::host_pointer() says it. Throws LogicError naming the
  /// reason where the device has no managed memory or no such attach kind (the default: the
  /// backend has none), OutOfMemoryError, BackendError. Any thread.
  virtual std::unique_ptr<BufferAdapter> allocate_managed(std::size_t device, std::size_t size,
                                                          ManagedAttach attach);

  // ---- SDK 1.6: memory info -------------------------------------------------------------

  /// Fills `info` with `device`'s global memory, total and (where the backend can tell) free
  /// (cuMemGetInfo). Returns false, leaving `info` alone, where the backend cannot say (the
  /// default): the core then reports DeviceParameters::global_mem_size with no free memory.
  /// Throws BackendError. Any thread.
  virtual bool memory_info(std::size_t device, MemoryInfo& info);

  // ---- SDK 1.8: images and samplers (backend/image.hpp) ------------------------------------
  // Called only on plugins of ABI 1.8 or later. Optional: the defaults say the backend has
  // no images. Any thread may call them.

  /// Whether `device` makes images, in which formats and up to which sizes, or why not.
  /// Called once per device, when the core first needs it. Never throws beyond
  /// std::bad_alloc. The default: none, "this backend has no images".
  virtual ImageSupport image_support(std::size_t device);
  /// A new image on `device` as `desc` says (checked by the core against image_support()),
  /// its contents unspecified. Throws OutOfMemoryError, BackendError, LogicError (the
  /// default).
  virtual std::unique_ptr<ImageAdapter> create_image(std::size_t device, const ImageDesc& desc);
  /// A sampler for every device of the context. The core has refused repeat and mirrored
  /// repeat without normalised coordinates, and calls it only where some device of the
  /// context has images. Throws BackendError, LogicError (the default).
  virtual std::unique_ptr<SamplerAdapter> create_sampler(const SamplerDesc& desc);

  // ---- SDK 1.9: OpenGL interop (backend/gl_interop.hpp) ----------------------------------
  // Called only on plugins of ABI 1.9 or later. Optional: the defaults say the backend does
  // not share with OpenGL.

  /// Whether `device` of this context can register and map GL objects, or why not (a
  /// platform without cl_khr_gl_sharing; an OpenCL context not made by
  /// ApiAdapter::create_gl_context()). Never throws beyond std::bad_alloc. The default: no,
  /// "this backend does not share with OpenGL".
  virtual GlSharing gl_sharing(std::size_t device);
  /// Registers the GL buffer object `name` (non-zero, the core checks) for `device`, to be
  /// accessed as `access` says (CUDA: cuGraphicsGLRegisterBuffer; OpenCL:
  /// clCreateFromGLBuffer). Called with the GL context current on the calling thread, and
  /// only where gl_sharing(device) is available. Throws BackendError (e.g. `name` is not a
  /// buffer of that GL context), LogicError (the default).
  virtual std::unique_ptr<GlResourceAdapter> register_gl_buffer(std::size_t device, unsigned name,
                                                                GlAccess access);
  /// Registers a GL texture level (`texture`: the core read its type, format and size from
  /// GL and checked that plinth has images of them) for `device`, as register_gl_buffer()
  /// does (CUDA: cuGraphicsGLRegisterImage, with SURFACE_LDST unless read-only; OpenCL:
  /// clCreateFromGLTexture). Throws BackendError, LogicError (the default).
  virtual std::unique_ptr<GlResourceAdapter> register_gl_texture(std::size_t device,
                                                                 const GlTextureDesc& texture,
                                                                 GlAccess access);
};

inline std::unique_ptr<ProgramAdapter> ContextAdapter::build_program(std::span<const std::size_t>,
                                                                     const std::string&,
                                                                     const BuildOptions&) {
  throw LogicError("this backend builds programs through ContextAdapter::create_program()");
}

inline std::unique_ptr<ProgramAdapter> ContextAdapter::create_program(
    std::span<const std::size_t> devices, const ProgramInput& input, const BuildOptions& options) {
  if (input.kind != ProgramInputKind::source) {
    throw LogicError("this backend builds programs from source only");
  }
  std::string source(input.prelude);
  if (!source.empty()) source += '\n';
  source += input.source;
  return build_program(devices, source, options);
}

inline void* ContextAdapter::allocate_host(std::size_t) {
  throw LogicError("this backend has no page-locked host memory");
}

inline void ContextAdapter::free_host(void*) noexcept {}

inline void ContextAdapter::register_host(void*, std::size_t) {
  throw LogicError("this backend cannot page-lock existing host memory");
}

inline void ContextAdapter::unregister_host(void*) noexcept {}

inline std::unique_ptr<CommunicatorAdapter> ContextAdapter::create_communicator(
    std::span<const std::size_t>) {
  throw LogicError("this backend has no collectives library");
}

inline std::unique_ptr<CommunicatorAdapter> ContextAdapter::join_communicator(
    std::size_t, std::span<const std::byte>, std::size_t, std::size_t) {
  throw LogicError("this backend has no collectives library");
}

inline std::unique_ptr<BufferAdapter> ContextAdapter::allocate_pitched(std::size_t, std::size_t,
                                                                       std::size_t, std::size_t&) {
  return nullptr;
}

inline IpcAvailability ContextAdapter::ipc_availability(std::size_t) {
  return {false, false, "this backend has no interprocess memory or events"};
}

inline IpcMemoryExport ContextAdapter::export_memory(std::size_t, BufferAdapter&) {
  throw LogicError("this backend has no interprocess memory");
}

inline std::unique_ptr<BufferAdapter> ContextAdapter::import_memory(std::size_t,
                                                                    std::span<const std::byte>,
                                                                    std::size_t) {
  throw LogicError("this backend has no interprocess memory");
}

inline std::unique_ptr<EventAdapter> ContextAdapter::create_ipc_event(std::size_t) {
  throw LogicError("this backend has no interprocess events");
}

inline std::vector<std::byte> ContextAdapter::export_event(EventAdapter&) {
  throw LogicError("this backend has no interprocess events");
}

inline std::unique_ptr<EventAdapter> ContextAdapter::import_event(std::size_t,
                                                                  std::span<const std::byte>) {
  throw LogicError("this backend has no interprocess events");
}
inline ImageSupport ContextAdapter::image_support(std::size_t) {
  ImageSupport none;
  none.reason = "this backend has no images";
  return none;
}

inline std::unique_ptr<ImageAdapter> ContextAdapter::create_image(std::size_t, const ImageDesc&) {
  throw LogicError("this backend has no images");
}

inline std::unique_ptr<SamplerAdapter> ContextAdapter::create_sampler(const SamplerDesc&) {
  throw LogicError("this backend has no samplers");
}

inline std::unique_ptr<BufferAdapter> ContextAdapter::allocate_managed(std::size_t, std::size_t,
                                                                       ManagedAttach) {
  throw LogicError("this backend has no managed memory");
}

inline bool ContextAdapter::memory_info(std::size_t, MemoryInfo&) { return false; }

inline GlSharing ContextAdapter::gl_sharing(std::size_t) {
  return {false, "this backend does not share with OpenGL"};
}

inline std::unique_ptr<GlResourceAdapter> ContextAdapter::register_gl_buffer(std::size_t, unsigned,
                                                                             GlAccess) {
  throw LogicError("this backend does not share with OpenGL");
}

inline std::unique_ptr<GlResourceAdapter> ContextAdapter::register_gl_texture(std::size_t,
                                                                              const GlTextureDesc&,
                                                                              GlAccess) {
  throw LogicError("this backend does not share with OpenGL");
}

}  // namespace plinth::backend
