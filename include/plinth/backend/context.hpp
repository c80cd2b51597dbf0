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
///
/// Made by ApiAdapter::create_context(), wrap_context() or create_gl_context(). Devices are
/// referred to by their index in the list the context was made with; the core has checked
/// every index, size and offset it passes. Its methods may be called from any thread, several
/// at once (LDP_11). The core destroys the context after everything made from it: buffers,
/// queues, programs, images, samplers, GL resources, communicators, events, page-locked host
/// memory and registrations (docs/plugin-interface.md, "Ownership and lifetimes").
class ContextAdapter {
 public:
  virtual ~ContextAdapter() = default;
  /// How many devices the context has.
  ///
  /// The core does not call it at present: it knows the list it passed. Since SDK 1.0;
  /// required.
  virtual std::size_t device_count() const = 0;
  /// A new root buffer of `size` bytes on `device`.
  ///
  /// Called by Buffer::allocate() and everything built on it (Array::empty(), memory
  /// pools...), from any thread; `device` is below the context's device count and `size` > 0
  /// (the core checks both). Throws OutOfMemoryError, BackendError. Where the API allocates
  /// lazily (OpenCL), running out of memory may show only at first use; the OpenCL backend
  /// refuses sizes above the device's memory. Since SDK 1.0; required.
  virtual std::unique_ptr<BufferAdapter> allocate(std::size_t device, std::size_t size) = 0;
  /// Wraps existing device memory `memory` of `size` bytes on `device`.
  ///
  /// Called by Buffer::from_backend_buffer(). The core checks `size` > 0 but not the memory.
  /// With `take_ownership`, the adapter frees the memory in its destructor; without, never. A
  /// backend that cannot wrap memory throws LogicError. Since SDK 1.0; required.
  virtual std::unique_ptr<BufferAdapter> wrap_buffer(std::size_t device, NativeHandle memory,
                                                     std::size_t size, bool take_ownership) = 0;
  /// A new in-order queue on `device`.
  ///
  /// Called by Queue(device) and MultiQueue::on_devices(), from any thread. Throws
  /// BackendError. Since SDK 1.0; required.
  virtual std::unique_ptr<QueueAdapter> create_queue(std::size_t device) = 0;
  /// Wraps an existing queue or stream `queue` of `device`.
  ///
  /// Called by Queue::from_backend_queue(). With `take_ownership`, the adapter releases the
  /// queue in its destructor; without, never. Since SDK 1.0; required.
  virtual std::unique_ptr<QueueAdapter> wrap_queue(std::size_t device, NativeHandle queue,
                                                   bool take_ownership) = 0;
  /// SDK 1.0's way to build a program: builds `source` for `devices`.
  ///
  /// A core of 1.1 or later calls it only on 1.0 plugins, on the building thread; on a later
  /// plugin only the default create_program() reaches it. `devices` are indices into the
  /// context's device list, at least one, in the program's order. `source` is the prelude, a
  /// newline and the rendered source (just the source with ProgramOptions::no_prelude).
  /// `options` has `fast_math`, `compiler_options` and `constant_arrays`; with
  /// ProgramOptions::keep, `options.keep_dir` names a new, private directory (mode 0700) that
  /// the core made, and the plugin writes its files there itself. Throws
  /// CompileError(log, options, source, device). Since SDK 1.0; optional since 1.1: the
  /// default throws LogicError.
  virtual std::unique_ptr<ProgramAdapter> build_program(std::span<const std::size_t> devices,
                                                        const std::string& source,
                                                        const BuildOptions& options);
  /// Makes the context current on the calling thread (CUDA: cuCtxPushCurrent).
  ///
  /// Called only when the user calls Context::activate(), on the user's thread; a no-op
  /// where the API has no such notion. The core never calls it itself, so no other method
  /// may rely on it: the CUDA backend makes its context current around each call. Since SDK
  /// 1.0; required.
  virtual void activate() = 0;
  /// Undoes activate() on the calling thread; a no-op where the API has no such notion.
  ///
  /// Called only when the user calls Context::deactivate(), on the user's thread. Since SDK
  /// 1.0; required.
  virtual void deactivate() = 0;
  /// cl_context, the CUcontext of device `device`, ze_context_handle_t.
  ///
  /// Called by Context::native_handle(index); the core checks the index. Since SDK 1.0;
  /// required.
  virtual NativeHandle native_handle(std::size_t device) const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// A new program for `devices` from `input`: compiles the dialect, or loads SPIR-V or
  /// binaries.
  ///
  /// Called by Program(...) (source), Program::from_spirv() and Program::from_binaries(), and
  /// by the compiled-program cache, from any thread. `devices` are as for build_program().
  /// One Program may make several calls for disjoint sets of its devices: the core renders
  /// the source for each device (the `device_params` render global, a StaticKernel's
  /// per-device sizes) and builds each distinct source once, for the devices that share it.
  /// Before the call the core has checked that `input.kind` is in
  /// ApiAdapter::program_inputs(), that a SPIR-V module or each binary is not empty, and that
  /// there is one binary per device, in the same order.
  ///
  /// For ProgramInputKind::source the backend compiles `input.prelude` (empty with
  /// `no_prelude`), then its own declarations of `options.constant_arrays`, then
  /// `input.source`; `fast_math` and `compiler_options` apply to compilation
  /// (Program::from_binaries() documents compiler options as unused). With
  /// ProgramOptions::keep, `options.keep` points to the KeptFiles to leave the source as
  /// compiled, the log and intermediate files in (the directory stays when the build fails;
  /// with several calls for one Program each one's files get `part<n>-` before their names);
  /// it is null otherwise, and `keep_dir` is always empty. `input`, and everything it and
  /// `options` refer to, is valid for the call only.
  ///
  /// A binary comes from the user or from the program cache, and may be truncated or
  /// corrupted: check its container (sizes, counts, offsets, terminator) before a vendor
  /// loader that trusts it reads it (binary_image_problem() for ELF images; the OpenCL
  /// backend checks PoCL's container and NVIDIA's PTX, the Level Zero backend SPIR-V), so
  /// that a damaged binary is a CompileError naming the device, never a crash.
  ///
  /// Throws CompileError with the compiler's log, the options and the source as compiled, or
  /// saying why a binary or SPIR-V module cannot be loaded on a device (not the backend's
  /// own, or built for another architecture); the cache then removes its entry and compiles.
  /// Since SDK 1.1; optional, but the default only joins the prelude and the source as 1.0
  /// did and calls build_program(), so a 1.1 backend overrides it.
  virtual std::unique_ptr<ProgramAdapter> create_program(std::span<const std::size_t> devices,
                                                         const ProgramInput& input,
                                                         const BuildOptions& options);

  // ---- SDK 1.2: called only on plugins of ABI 1.2 or later --------------------------------
  // Page-locked host memory for users (HostArray::page_locked(), HostRegistration). All four
  // are optional: the defaults say the backend has none. The core refuses both on 1.0 and
  // 1.1 plugins with a LogicError naming the plugin's SDK version, without calling them.

  /// `size` bytes of page-locked host memory that every device of the context transfers to
  /// and from at the DMA rate.
  ///
  /// Called by HostArray::page_locked(), from any thread; `size` > 0 (the core asks for at
  /// least one byte, even for an array of no elements). The backend's queues send this
  /// memory straight to DMA without staging, asynchronous transfers without waiting (CUDA:
  /// cuMemHostAlloc with CU_MEMHOSTALLOC_PORTABLE, which the queue recognises with
  /// cuPointerGetAttributes; OpenCL: a CL_MEM_ALLOC_HOST_PTR buffer, mapped and kept mapped,
  /// recorded in a HostRanges that the context's queues ask). Its contents are unspecified
  /// (the core zero-fills it). The core owns the memory from then on and hands it back with
  /// free_host() before the context goes. Throws OutOfMemoryError when the vendor says so,
  /// BackendError. Since SDK 1.2; optional: the default throws LogicError (the backend has
  /// no page-locked memory).
  virtual void* allocate_host(std::size_t size);
  /// Frees `memory`, which allocate_host() of this context returned.
  ///
  /// Called once per allocation, when the last HostArray over it goes, on whichever thread
  /// drops it. No transfer uses the memory then (the core keeps the arrays of pending
  /// asynchronous transfers alive), and the context adapter is still alive (the arrays keep
  /// it). Reports failures on stderr (PLINTH_CHECK_IN_DESTRUCTOR). Since SDK 1.2; optional:
  /// the default does nothing (its allocate_host() never returns).
  virtual void free_host(void* memory) noexcept;
  /// Page-locks the user's existing memory [memory, memory + size) for every device of the
  /// context, until unregister_host(memory).
  ///
  /// Called by the HostRegistration constructor, from any thread; `size` > 0 (the core
  /// checks). The user keeps owning the memory; the backend only locks it (CUDA:
  /// cuMemHostRegister with CU_MEMHOSTREGISTER_PORTABLE). A backend whose API has no such
  /// call (OpenCL) throws LogicError saying so. Throws BackendError when the vendor refuses
  /// (such as a range that overlaps one registered already), OutOfMemoryError. Since SDK 1.2;
  /// optional: the default throws LogicError (the backend cannot page-lock existing memory).
  virtual void register_host(void* memory, std::size_t size);
  /// Undoes register_host(memory), with the same pointer.
  ///
  /// Called once per successful register_host(), when the registration and every HostArray
  /// made from it are gone, on whichever thread drops the last of them, with no transfer
  /// using the memory and before the context adapter goes. Reports failures on stderr. Since
  /// SDK 1.2; optional: the default does nothing (its register_host() never returns).
  virtual void unregister_host(void* memory) noexcept;

  // ---- SDK 1.4: called only on plugins of ABI 1.4 or later --------------------------------
  // Collectives through the backend's library (communicator.hpp). Both are called only when
  // ApiAdapter::collectives() says it is available; the defaults throw LogicError.

  /// A communicator with one rank per device of `devices`, rank `i` on `devices[i]`
  /// (ncclCommInitAll).
  ///
  /// Called by Communicator(MultiQueue), on the user's thread. `devices` are distinct indices
  /// of this context, at least one (the core checks). The core destroys the communicator
  /// before the context, once the queues it ran on are synchronized. Throws BackendError.
  /// Since SDK 1.4; optional: the default throws LogicError.
  virtual std::unique_ptr<CommunicatorAdapter> create_communicator(
      std::span<const std::size_t> devices);
  /// Joins the communicator `id` as rank `rank` of `rank_count`, on `device`.
  ///
  /// Called by Communicator::join(). `id` is what ApiAdapter::create_communicator_id()
  /// returned, possibly in another process; its size is not checked (the backend refuses a
  /// wrong one with LogicError). `rank` < `rank_count` (the core checks). Blocks until every
  /// rank has joined (NCCL: ncclCommInitRank, with the device's context current). Throws
  /// BackendError with the library's text (a bad id, an unreachable peer). Since SDK 1.4;
  /// optional: the default throws LogicError.
  virtual std::unique_ptr<CommunicatorAdapter> join_communicator(std::size_t device,
                                                                 std::span<const std::byte> id,
                                                                 std::size_t rank_count,
                                                                 std::size_t rank);

  // ---- SDK 1.6: pitched allocations -------------------------------------------------------

  /// Allocates `rows` rows of at least `width` bytes each on `device`, spaced as the device
  /// prefers for 2-D and 3-D copies and accesses, and sets `pitch` to that spacing (>=
  /// `width`).
  ///
  /// Called by Buffer::allocate_pitched() (whose `height * depth` is `rows`), from any
  /// thread; `width` and `rows` > 0 and their product checked by the core. The buffer holds
  /// `pitch * rows` bytes and is freed as allocate()'s are (CUDA: cuMemAllocPitch with
  /// 16-byte elements, null for widths beyond CU_DEVICE_ATTRIBUTE_MAX_PITCH). Returning null,
  /// having allocated nothing, where the backend has no preference or cannot for these
  /// sizes, gives the core's default: the width rounded up to
  /// DeviceParameters::address_alignment, through allocate() (as on plugins before 1.6).
  /// Throws OutOfMemoryError, BackendError. Since SDK 1.6; optional: the default returns
  /// null.
  virtual std::unique_ptr<BufferAdapter> allocate_pitched(std::size_t device, std::size_t width,
                                                          std::size_t rows, std::size_t& pitch);

  // ---- SDK 1.6: interprocess memory and events ----
  // Sharing device memory and events with other processes of the same API on the same
  // machine (include/plinth/ipc.hpp). All optional: the defaults say the backend has none.
  // The core wraps the vendor's bytes in its own handles (API shortcut, size, offset) and
  // checks the API before a backend sees a handle; it refuses all of it on plugins before
  // 1.6, naming their version.

  /// Whether `device`'s memory (`memory`) and interprocess events (`events`) can be shared
  /// with other processes, and why not where either is false.
  ///
  /// Called by ipc_support() and before every other interprocess call (whose refusal quotes
  /// `reason`), from any thread (CUDA: CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED and unified
  /// addressing; OpenCL: the API has no such thing). Never throws. Since SDK 1.6; optional:
  /// the default says neither, "this backend has no interprocess memory or events".
  virtual IpcAvailability ipc_availability(std::size_t device);
  /// The vendor's handle of the whole allocation that `buffer` lies in, and the buffer's
  /// offset inside it.
  ///
  /// Called by Buffer::ipc_handle() when `memory` is available, from any thread, with an
  /// allocation, a sub-region or a region of a MemoryPool segment on `device` (never a
  /// virtual buffer: the core refuses those). The handle has 1 to 4096 bytes (the core
  /// checks). CUDA: cuMemGetAddressRange, then cuIpcGetMemHandle of the base; Level Zero:
  /// zeMemGetAddressRange, zeMemGetIpcHandle. Throws BackendError when the vendor refuses
  /// (memory wrapped from elsewhere, memory itself imported). Since SDK 1.6; optional: the
  /// default throws LogicError.
  virtual IpcMemoryExport export_memory(std::size_t device, BufferAdapter& buffer);
  /// Maps on `device` the allocation that `handle` (another process's export_memory()) names:
  /// a new buffer of `size` bytes from the allocation's start, which unmaps it when
  /// destroyed.
  ///
  /// Called by Buffer::from_ipc_handle(), from any thread, with the vendor's bytes (the core
  /// checked that the handle is of this API; its length is the backend's to check, with a
  /// LogicError naming it) and `size` = the region's offset plus its size. The core calls it
  /// once per allocation, context and device while an earlier mapping lives (CUDA refuses a
  /// second mapping), cutting every region it imports from that buffer with sub_region()
  /// (CUDA: cuIpcOpenMemHandle with CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS, cuIpcCloseMemHandle;
  /// Level Zero: zeMemOpenIpcHandle, zeMemCloseIpcHandle). Throws BackendError for a handle
  /// the vendor refuses (CUDA: one of this very process). Since SDK 1.6; optional: the
  /// default throws LogicError.
  virtual std::unique_ptr<BufferAdapter> import_memory(std::size_t device,
                                                       std::span<const std::byte> handle,
                                                       std::size_t size);
  /// A new event on `device`, not yet recorded, that other processes can open.
  ///
  /// Called by Event::create_interprocess() when `events` is available, from any thread
  /// (CUDA: cuEventCreate with CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING). Waiting
  /// for it returns at once until it is recorded; QueueAdapter::record_ipc_event() records
  /// it. The core never calls elapsed_ms_since() on it, nor hands it to
  /// QueueAdapter::record_event_again(). Throws BackendError. Since SDK 1.6; optional: the
  /// default throws LogicError.
  virtual std::unique_ptr<EventAdapter> create_ipc_event(std::size_t device);
  /// The vendor's handle (1 to 4096 bytes) of `event`.
  ///
  /// Called by Event::ipc_handle() with an event of this context's create_ipc_event() (never
  /// an imported one: the core refuses those), from any thread (CUDA: cuIpcGetEventHandle).
  /// Throws BackendError. Since SDK 1.6; optional: the default throws LogicError.
  virtual std::vector<std::byte> export_event(EventAdapter& event);
  /// Opens on `device` the event that `handle` (another process's export_event()) names.
  ///
  /// Called by Event::from_ipc_handle(), from any thread, with the vendor's bytes, checked
  /// as for import_memory() (CUDA: cuIpcOpenEventHandle). The core hands the event to
  /// QueueAdapter::wait_for() and calls its EventAdapter::wait(), never elapsed_ms_since()
  /// and never a record. Throws BackendError. Since SDK 1.6; optional: the default throws
  /// LogicError.
  virtual std::unique_ptr<EventAdapter> import_event(std::size_t device,
                                                     std::span<const std::byte> handle);
  // ---- SDK 1.6: managed memory ----------------------------------------------------------

  /// A new buffer of `size` bytes of managed memory for `device`, attached as `attach`: one
  /// address for the device's kernels and the host.
  ///
  /// Called by Buffer::allocate_managed(), from any thread; `size` > 0 and `attach` global
  /// or host (the core refuses single, which CUDA attaches only to a stream). The buffer's
  /// BufferAdapter::host_pointer() is not null (the core checks), nor are its sub-regions'.
  /// Transfers, copies and kernel arguments take it as any buffer. The core refuses managed
  /// memory on plugins before 1.6 with a LogicError naming their SDK version. Throws
  /// LogicError naming the device and the reason where the device has no managed memory or
  /// not the attach kind asked for (CUDA: CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY is 0; OpenCL:
  /// no fine-grained buffer SVM), OutOfMemoryError, BackendError. Since SDK 1.6; optional:
  /// the default throws LogicError (the backend has no managed memory).
  virtual std::unique_ptr<BufferAdapter> allocate_managed(std::size_t device, std::size_t size,
                                                          ManagedAttach attach);

  // ---- SDK 1.6: memory info -------------------------------------------------------------

  /// Fills `info` with `device`'s global memory: `total` and, where the backend can tell,
  /// `free` (bytes, for every process).
  ///
  /// Called by BoundDevice::memory_info() (and plinth-info), from any thread (CUDA
  /// cuMemGetInfo). Returns false, leaving `info` alone, where the backend cannot say; the
  /// core then reports DeviceParameters::global_mem_size and no free memory, as on plugins
  /// before 1.6. A vendor call that fails for want of an optional component (Level Zero's
  /// Sysman) leaves `free` empty rather than throwing. Throws BackendError. Since SDK 1.6;
  /// optional: the default returns false.
  virtual bool memory_info(std::size_t device, MemoryInfo& info);

  // ---- SDK 1.8: images and samplers (backend/image.hpp) ------------------------------------
  // Called only on plugins of ABI 1.8 or later. Optional: the defaults say the backend has
  // no images. Any thread may call them.

  /// Whether `device` makes images and samplers, and if not why; in which formats and up to
  /// which sizes.
  ///
  /// Called whenever the core needs it (plinth::image_support(), Image::allocate(),
  /// Sampler::create(), GL texture registration), from any thread; the backend may cache.
  /// The answer gives the limits (ImageLimits: the widths, heights, depths and layers of each
  /// type, 0 for a type the device cannot make), per image type a bit mask of the formats it
  /// makes (bit ImageFormat::index()) for reading, writing and copying alike, and whether
  /// kernels can write 3-D images. OpenCL: CL_DEVICE_IMAGE_SUPPORT (OpenCL 1.2 devices only:
  /// 1.1 has no clCreateImage), the CL_DEVICE_IMAGE* limits, clGetSupportedImageFormats for
  /// read-write images of each type, cl_khr_3d_image_writes. Never throws beyond
  /// std::bad_alloc (the core turns any other exception into "not available" with its text).
  /// Since SDK 1.8; optional: the default says none, "this backend has no images".
  virtual ImageSupport image_support(std::size_t device);
  /// A new image on `device` as `desc` says, its contents unspecified.
  ///
  /// Called by Image::allocate() after checking `desc` against image_support() (see
  /// ImageDesc). Throws OutOfMemoryError, BackendError. Since SDK 1.8; optional: the default
  /// throws LogicError.
  virtual std::unique_ptr<ImageAdapter> create_image(std::size_t device, const ImageDesc& desc);
  /// A new sampler, valid for every device of the context.
  ///
  /// Called by Sampler::create() where some device of the context has images; the core has
  /// refused repeat and mirrored repeat without normalised coordinates, and values outside
  /// the enums. Throws BackendError. Since SDK 1.8; optional: the default throws LogicError.
  virtual std::unique_ptr<SamplerAdapter> create_sampler(const SamplerDesc& desc);

  // ---- SDK 1.9: OpenGL interop (backend/gl_interop.hpp) ----------------------------------
  // Called only on plugins of ABI 1.9 or later. Optional: the defaults say the backend does
  // not share with OpenGL.

  /// Whether `device` of this context can register and map GL objects, or why not.
  ///
  /// Called by plinth::gl_sharing() and before every registration, from any thread. OpenCL:
  /// available only in a context that ApiAdapter::create_gl_context() made, on a platform
  /// with cl_khr_gl_sharing; CUDA: where the driver has the graphics functions. Never throws
  /// beyond std::bad_alloc (the core turns any other exception into "not available" with its
  /// text). Since SDK 1.9; optional: the default says no, "this backend does not share with
  /// OpenGL".
  virtual GlSharing gl_sharing(std::size_t device);
  /// Registers the GL buffer object `name` for `device`, to be accessed as `access` says.
  ///
  /// Called by GlBuffer's constructor with the GL context current on the calling thread, once
  /// gl_sharing(device) is available, `name` is non-zero and GL says it is a buffer
  /// (glIsBuffer). CUDA: cuGraphicsGLRegisterBuffer with the flags of `access` (read-only,
  /// write-discard, none); OpenCL: clCreateFromGLBuffer with CL_MEM_READ_ONLY, WRITE_ONLY or
  /// READ_WRITE. The core owns the result and destroys it (unregistering) once no GlBuffer or
  /// mapping refers to it, always unmapped by then. Throws BackendError. Since SDK 1.9;
  /// optional: the default throws LogicError.
  virtual std::unique_ptr<GlResourceAdapter> register_gl_buffer(std::size_t device, unsigned name,
                                                                GlAccess access);
  /// Registers a GL texture level for `device`, as register_gl_buffer() does.
  ///
  /// `texture` holds its target, internal format, ImageType, ImageFormat and extent, which
  /// the core read from GL itself and checked against image_support(device), so every
  /// backend receives a complete GlTextureDesc. CUDA: cuGraphicsGLRegisterImage, with
  /// surface load/store unless read-only; OpenCL: clCreateFromGLTexture. Throws BackendError.
  /// Since SDK 1.9; optional: the default throws LogicError.
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
