#pragma once

#include <plinth/backend/blas_library.hpp>
#include <plinth/backend/buffer.hpp>
#include <plinth/backend/event.hpp>
#include <plinth/backend/image.hpp>
#include <plinth/backend/rect_copy.hpp>
#include <plinth/errors.hpp>
#include <plinth/managed_memory.hpp>

#include <cstddef>
#include <memory>
#include <span>

namespace plinth::backend {

/// An in-order queue (stream, command queue, command list) on one device of a context.
///
/// Made by ContextAdapter::create_queue() or wrap_queue(). Its work methods (everything but
/// native_handle()) are called by one thread at a time, which the user promises and the core
/// does not enforce; that thread may change between calls. Transfers and copies take
/// buffers of the same context (sub-regions included), and the core has checked every
/// offset, size and range against them. The hot paths (write(), read(), copy() and the
/// other transfers) do no heap allocation and take no lock of the backend's own (LDP_6).
///
/// The core destroys the queue when the last handle goes, on whichever thread drops that
/// handle, and synchronizes it first only if asynchronous transfers from host arrays are
/// still pending or a memory-pool block was used on it (the core then swallows an exception
/// of synchronize() and leaks the arrays rather than risk a late write). Otherwise work may
/// still be in flight, and events recorded on the queue may outlive it.
class QueueAdapter {
 public:
  virtual ~QueueAdapter() = default;
  /// Host to device: `size` bytes from `src` to `dst` at `dst_offset`.
  ///
  /// Called by Buffer::set() (asynchronous unless `no_async`) and by Array transfers, on the
  /// thread using the queue; a hot path (LDP_6). `dst` is a root buffer or a sub-region on
  /// the queue's device, `[dst_offset, dst_offset + size)` lies inside it and `size` > 0
  /// (the core checks). `src` is host memory, usually pageable; memory from
  /// ContextAdapter::allocate_host() or register_host() should go straight to DMA.
  /// Non-contiguous Array transfers arrive as synchronous reads and writes of a covering
  /// range, to and from the core's own staging memory.
  ///
  /// With `async`, returns once the transfer is enqueued; `src` stays valid and unchanged
  /// until the queue is synchronized (the core keeps HostArrays alive, and the user promises
  /// it for spans). Without, returns once the data have been copied out of `src` (the
  /// vendors' own rule; staged writes return once the data are in the staging memory): not
  /// necessarily onto the device. Later work in this queue sees them, and other queues after
  /// an event recorded in this one or its synchronize(). A backend that needs page-locked
  /// memory for a transfer to be asynchronous or fast stages it, through StagingRing where
  /// the API has page-locked memory. Throws BackendError. Since SDK 1.0; required.
  virtual void write(BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
                     bool async) = 0;
  /// Device to host: `size` bytes from `src` at `src_offset` to `dst`.
  ///
  /// Called by Buffer::get() and by Array transfers, with the same checks as write(); a hot
  /// path (LDP_6). With `async`, returns once enqueued, and `dst` is valid only after the
  /// queue is synchronized (or an event recorded after it is waited for); without, returns
  /// with the data in `dst`. Throws BackendError. Since SDK 1.0; required.
  virtual void read(void* dst, BufferAdapter& src, std::size_t src_offset, std::size_t size,
                    bool async) = 0;
  /// Device to device: `size` bytes from `src` at `src_offset` to `dst` at `dst_offset`,
  /// ordered in this queue; never blocks the host.
  ///
  /// Called by Buffer::set(queue, Buffer) and Array::set(queue, Array), which follow it with
  /// synchronize() for `no_async`; a hot path (LDP_6). `dst` is on the queue's device; `src`
  /// is a buffer of the same context, on the same device for plugins of 1.4 and later
  /// (copies between devices go to copy_peer()), possibly on another device for older ones.
  /// Both ranges are checked. Array::set never passes overlapping ranges, but Buffer::set
  /// does not check for overlap (a region and its root may overlap). Throws BackendError.
  /// Since SDK 1.0; required.
  virtual void copy(BufferAdapter& dst, std::size_t dst_offset, BufferAdapter& src,
                    std::size_t src_offset, std::size_t size) = 0;
  /// Blocks until all work enqueued so far is done.
  ///
  /// Called by Queue::synchronize() and MultiQueue::synchronize(), after a `no_async` copy,
  /// and before the queue's destruction where transfers or pool blocks are pending (see the
  /// class). Throws BackendError. Since SDK 1.0; required.
  virtual void synchronize() = 0;
  /// A new event at the current end of the queue's work.
  ///
  /// Called by Queue::record_event(). The event must be able to time: another queue of the
  /// context may wait for it, and it may be timed against any other event of the same
  /// device. The core owns the event, which may outlive the queue (see EventAdapter). Throws
  /// BackendError. Since SDK 1.0; required.
  virtual std::unique_ptr<EventAdapter> record_event() = 0;
  /// Makes work enqueued later in this queue wait for `event`.
  ///
  /// Called by Queue::wait_for(). The event was recorded on a queue of the same context (the
  /// core checks): this queue, another queue of the same device, or a queue of another
  /// device; or it was imported from another process (ContextAdapter::import_event()).
  /// Throws BackendError. Since SDK 1.0; required.
  virtual void wait_for(EventAdapter& event) = 0;
  /// cl_command_queue, CUstream, hipStream_t, ze_command_list_handle_t.
  ///
  /// Called by Queue::native_handle(), from any thread. Since SDK 1.0; required.
  virtual NativeHandle native_handle() const = 0;

  // ---- SDK 1.2: called only on plugins of ABI 1.2 or later --------------------------------

  /// Records `event` again at the current end of the queue, as record_event() would a new
  /// one, so that recording allocates nothing.
  ///
  /// Called by Queue::record_event(), on the thread using the queue, with an event that this
  /// queue's record_event() made and that no Event handle holds any more (the core keeps up
  /// to 16 such events per queue). Work enqueued before (a wait_for() of another queue) may
  /// still wait for its previous recording and must keep doing so: CUDA re-records the
  /// CUevent (cuEventRecord), OpenCL enqueues a new marker and releases the old one. Returns
  /// false if the backend cannot; the core then stops asking this queue and calls
  /// record_event() from then on. Throws BackendError. Since SDK 1.2; optional: the default
  /// returns false.
  virtual bool record_event_again(EventAdapter& event);

  // ---- SDK 1.4: called only on plugins of ABI 1.4 or later --------------------------------

  /// Copies `size` bytes between buffers of two devices of the context by the vendor's
  /// device-to-device path, ordered in this queue and without blocking the host.
  ///
  /// Called by every copy between two devices of the context (Buffer::set(queue, Buffer),
  /// Array::set(queue, Array), MultiArray::resplay(), the core's own collectives, the rows of
  /// a rectangular peer copy), on the thread using the queue, which is on `dst_device`; a
  /// hot path. `dst` is on `dst_device`, `src` on `src_device` (indices of the context); the
  /// ranges are checked and `size` > 0, and the core has made this queue wait for the
  /// source's writes (CUDA: cuMemcpyPeerAsync, with peer access enabled on first use where
  /// the devices support it; OpenCL: clEnqueueCopyBuffer, the runtime migrating the memory).
  /// Returns false, having done nothing, where the backend has no such path: the core then
  /// reads the source through a queue of its device and writes it through this one
  /// (blocking), and says so under PLINTH_DEBUG=transfer. For a rectangle copied row by row
  /// the core takes the answer for the first row for all of them (a later false is a
  /// LogicError). Plugins before 1.4 get copy() for these copies, as 1.0 defined it. Throws
  /// BackendError. Since SDK 1.4; optional: the default returns false.
  virtual bool copy_peer(BufferAdapter& dst, std::size_t dst_device, std::size_t dst_offset,
                         BufferAdapter& src, std::size_t src_device, std::size_t src_offset,
                         std::size_t size);

  // ---- SDK 1.6: rectangular copies --------------------------------------------------------
  // 2-D and 3-D regions (rect_copy.hpp), called only on plugins of ABI 1.6 or later, on the
  // thread using the queue; hot paths. Sides and shapes are checked by the core (RectSide,
  // RectShape). Each returns false, having done nothing, where the backend cannot make this
  // copy in one call (the defaults; CUDA's and OpenCL's 3-D copies need slice pitches of
  // whole rows; CUDA refuses pitches beyond CU_DEVICE_ATTRIBUTE_MAX_PITCH; Level Zero's
  // numbers are 32-bit): the core then calls it again plane by plane (depth 1), and where
  // that is refused too copies row by row, and says which under PLINTH_DEBUG=transfer. CUDA
  // (cuMemcpy2DAsync, cuMemcpy3DAsync, cuMemcpy3DPeerAsync), OpenCL
  // (clEnqueue{Copy,Write,Read}BufferRect), HIP (hipMemcpy2DAsync, hipMemcpy3DAsync; no peer
  // form) and Level Zero (zeCommandListAppendMemoryCopyRegion) implement them.

  /// Copies a 2-D or 3-D region device to device on this queue's device, ordered in this
  /// queue, without blocking the host.
  ///
  /// Called by copy_rect() and Array::set(queue, Array) of box views on one device. The core
  /// has checked both sides (offsets from each adapter's start, `row_pitch` >= `shape.width`,
  /// `slice_pitch` >= `row_pitch * shape.height`, every byte inside its buffer, every
  /// dimension > 0) and that the two regions' covering ranges are disjoint (it copies
  /// overlapping ones through a temporary buffer). `slice_pitch` need not be a multiple of
  /// `row_pitch`, nor is it meaningful when `shape.depth` is 1. Rows fall back to copy().
  /// Throws BackendError. Since SDK 1.6; optional: the default returns false.
  virtual bool copy_rect(BufferAdapter& dst, const RectSide& dst_side, BufferAdapter& src,
                         const RectSide& src_side, const RectShape& shape);
  /// Host to device for a 2-D or 3-D region, as write() (`async` means the same).
  ///
  /// Called by write_rect() and Array::set() of box views. `src_side.offset` counts from
  /// `src`. With `async`, `src` stays valid and unchanged until the queue is synchronized;
  /// without, the call returns once the data are out of `src`. Rows fall back to write();
  /// Array transfers use their staged path instead of rows. Throws BackendError. Since SDK
  /// 1.6; optional: the default returns false.
  virtual bool write_rect(BufferAdapter& dst, const RectSide& dst_side, const void* src,
                          const RectSide& src_side, const RectShape& shape, bool async);
  /// Device to host for a 2-D or 3-D region, as read(): with `async`, `dst` is valid after
  /// synchronize().
  ///
  /// Called by read_rect() and Array::get() of box views. `dst_side.offset` counts from
  /// `dst`. Rows fall back to read(); Array transfers use their staged path instead of rows.
  /// Throws BackendError. Since SDK 1.6; optional: the default returns false.
  virtual bool read_rect(void* dst, const RectSide& dst_side, BufferAdapter& src,
                         const RectSide& src_side, const RectShape& shape, bool async);
  /// Copies a 2-D or 3-D region between buffers of two devices of the context, as
  /// copy_peer() (this queue is on `dst_device`; the core made it wait for the source's
  /// writes).
  ///
  /// Called by copy_rect() and Array::set(queue, Array) of box views across devices. Where it
  /// returns false for the whole region and for one plane, the core copies row by row with
  /// copy_peer(), or through the host where that is refused too. Throws BackendError. Since
  /// SDK 1.6; optional: the default returns false.
  virtual bool copy_rect_peer(BufferAdapter& dst, std::size_t dst_device, const RectSide& dst_side,
                              BufferAdapter& src, std::size_t src_device, const RectSide& src_side,
                              const RectShape& shape);

  // ---- SDK 1.6: interprocess events ----

  /// Records `event` at the current end of the queue, replacing its previous recording.
  ///
  /// Called by Queue::record() with an event of ContextAdapter::create_ipc_event() on this
  /// queue's device (the core checks the kind and the device), on the thread that uses the
  /// queue. Processes that opened the event (ContextAdapter::import_event()) and wait for it
  /// afterwards wait for this work (CUDA: cuEventRecord). Throws BackendError. Since SDK 1.6;
  /// optional: the default throws LogicError (the backend has no interprocess events).
  virtual void record_ipc_event(EventAdapter& event);
  // ---- SDK 1.6: managed memory ----------------------------------------------------------
  // `buffer` is managed memory of this queue's device (ContextAdapter::allocate_managed();
  // host_pointer() is not null: the core checks). All three are hints or attachments the
  // backend may lack: they are called on the thread using the queue, the defaults return
  // false, having done nothing, and the core says so to the user. The core refuses them on
  // plugins before 1.6 with a LogicError naming the plugin's SDK version.

  /// Enqueues a move of `buffer`'s bytes to `to` (this queue's device or the host), a hint
  /// that changes no byte.
  ///
  /// Called by Buffer::prefetch(), with a root or a region (CUDA: cuMemPrefetchAsync; Level
  /// Zero: zeCommandListAppendMemoryPrefetch, to the device; OpenCL: clEnqueueSVMMigrateMem
  /// on 2.1 devices). Returns false, having done nothing, where the backend or device cannot
  /// prefetch there (CUDA without concurrent managed access, Level Zero to the host, OpenCL
  /// before 2.1): the user sees the false. Throws BackendError. Since SDK 1.6; optional: the
  /// default returns false.
  virtual bool prefetch(BufferAdapter& buffer, ManagedLocation to);
  /// Gives `advice` about `buffer`'s bytes, naming `location` (this queue's device or the
  /// host; ignored by read-mostly).
  ///
  /// Called by Buffer::advise(). At once (CUDA's cuMemAdvise) or ordered in the queue (Level
  /// Zero's zeCommandListAppendMemAdvise: read-mostly, a preferred location on the device).
  /// Returns false where the backend has no such advice: the user sees the false. Throws
  /// BackendError. Since SDK 1.6; optional: the default returns false.
  virtual bool advise(BufferAdapter& buffer, ManagedAdvice advice, ManagedLocation location);
  /// Attaches the whole managed allocation `buffer` to this queue as `attach` says, ordered
  /// in the queue.
  ///
  /// Called by Buffer::attach() with a root of managed memory (never a region: the core
  /// checks) (CUDA: cuStreamAttachMemAsync). Returns false where the backend has no attach
  /// kinds: the core then accepts global (the memory is global already) and refuses the
  /// others with LogicError. Throws BackendError. Since SDK 1.6; optional: the default
  /// returns false.
  virtual bool attach(BufferAdapter& buffer, ManagedAttach attach);
  // ---- SDK 1.6: fills -----------------------------------------------------------------------

  /// Fills bytes [offset, offset + size) of `buffer` with copies of `pattern`, ordered in
  /// this queue and without blocking the host.
  ///
  /// Called by Buffer::fill() and by fill() of a contiguous Array (and so zeros(), ones(),
  /// full()), on the thread using the queue. `pattern` has 1, 2, 4, 8, 16, 32, 64 or 128
  /// bytes, and may go away when the call returns; the byte at `offset + k` gets
  /// `pattern[k % pattern.size()]`. `size` > 0 is a multiple of the pattern's size, and
  /// `offset` (into `buffer`, which may be a sub-region, as the transfers' offsets) puts the
  /// first byte at a multiple of the pattern's size from the start of its allocation: the
  /// core cuts a region at another origin into an aligned body, with the pattern rotated, and
  /// naturally aligned pieces of 1, 2, 4... bytes around it. Memory wrapped by
  /// Buffer::from_backend_buffer() may itself start anywhere: check the address where the
  /// API needs more.
  ///
  /// Returns false, having done nothing, where the backend cannot fill with a pattern of that
  /// size at that place: for the first piece of a region the core then fills the whole
  /// region with a kernel (elements of up to 8 bytes, the pattern broadcast over them; the
  /// bytes before the first element aligned to `address_alignment` written from the host),
  /// for a later piece that piece, and PLINTH_DEBUG=transfer says which; plugins before 1.6
  /// are never asked. CUDA and HIP take 1, 2 and 4 bytes (cuMemsetD8/D16/D32Async, through
  /// fill_by_words()), OpenCL up to 128 (clEnqueueFillBuffer), Level Zero up to the compute
  /// queue group's maxMemoryFillPatternSize (zeCommandListAppendMemoryFill). Throws
  /// BackendError. Since SDK 1.6; optional: the default returns false.
  virtual bool fill(BufferAdapter& buffer, std::size_t offset, std::size_t size,
                    std::span<const std::byte> pattern);

  // ---- SDK 1.7: BLAS ------------------------------------------------------------------------

  /// The BLAS library (ApiAdapter::blas_library()) bound to this queue: a handle on the
  /// queue's stream and a workspace of its own.
  ///
  /// Called when the queue's first product runs through the library (only when
  /// blas_library() is available), on the thread using the queue. The core keeps the
  /// adapter with the queue, calls it from one thread at a time as it does the queue, and
  /// destroys it before the queue adapter. CUDA: cublasCreate_v2, cublasSetStream_v2, 32 MiB
  /// through cublasSetWorkspace_v2 on Hopper (4 MiB before), strict FP32 math; OpenCL:
  /// CLBlast has no handle, and the adapter holds the queue. Throws BackendError (the
  /// library's status), OutOfMemoryError for the workspace. Since SDK 1.7; optional: the
  /// default throws LogicError.
  virtual std::unique_ptr<BlasAdapter> create_blas();

  // ---- SDK 1.8: image copies ----------------------------------------------------------------
  // Called only for images of this queue's device made by ContextAdapter::create_image() (or
  // mapped by GlResourceAdapter::map_image()), on the thread using the queue, by
  // write_image(), read_image(), copy_buffer_to_image(), copy_image_to_buffer() and
  // copy_image() (and Image::set()/get(), which copy the whole image). The core has checked
  // that the box lies inside the image (unused axes: origin 0, size 1; every size > 0; a 1-D
  // array's layers are y, a 2-D array's z, as in OpenCL). The host or buffer side is a
  // RectSide in bytes whose row_pitch is at least the box's width times the pixel size and
  // slice_pitch at least row_pitch times its height (both nonzero), its pixels packed as the
  // format's pixel_size() says. Each returns false, having done nothing, where the backend
  // cannot copy that layout directly (OpenCL's buffer-image copies take packed rows only;
  // CUDA's need a slice pitch that is a multiple of the row pitch): the core then copies
  // through a packed temporary (host memory, or a buffer and a rectangular copy,
  // synchronizing the queue before the temporary goes) and calls it again with packed sides.
  // OpenCL: clEnqueueWriteImage, clEnqueueReadImage, clEnqueueCopyBufferToImage,
  // clEnqueueCopyImageToBuffer, clEnqueueCopyImage; CUDA: cuMemcpy3DAsync to, from and between
  // arrays. The defaults throw LogicError (no images). Throw BackendError. Since SDK 1.8.

  /// Host to image, as write(): with `async`, `src` stays valid until the queue is
  /// synchronized; without, the data are out of `src` on return. Since SDK 1.8; optional.
  virtual bool write_image(ImageAdapter& dst, const ImageBox& box, const void* src,
                           const RectSide& src_side, bool async);
  /// Image to host, as read(): with `async`, `dst` is valid after synchronize(); without,
  /// the data are in `dst` on return. Since SDK 1.8; optional.
  virtual bool read_image(void* dst, const RectSide& dst_side, ImageAdapter& src,
                          const ImageBox& box, bool async);
  /// Buffer (of this queue's device) to image, ordered in the queue; never blocks. Since SDK
  /// 1.8; optional.
  virtual bool copy_buffer_to_image(ImageAdapter& dst, const ImageBox& box, BufferAdapter& src,
                                    const RectSide& src_side);
  /// Image to buffer (of this queue's device), ordered in the queue; never blocks. Since SDK
  /// 1.8; optional.
  virtual bool copy_image_to_buffer(BufferAdapter& dst, const RectSide& dst_side, ImageAdapter& src,
                                    const ImageBox& box);
  /// Image to image of the same format, both of this queue's device: `src_box` of `src` to
  /// the box of the same size at `dst_origin` of `dst`, ordered in the queue; never blocks.
  ///
  /// Called by copy_image(); the core checks both boxes. They may be one image, the boxes
  /// then not overlapping. Returns nothing: every backend with images copies between them.
  /// Since SDK 1.8; optional: the default throws LogicError.
  virtual void copy_image(ImageAdapter& dst, const std::array<std::size_t, 3>& dst_origin,
                          ImageAdapter& src, const ImageBox& src_box);
};

inline bool QueueAdapter::record_event_again(EventAdapter&) { return false; }

inline bool QueueAdapter::copy_peer(BufferAdapter&, std::size_t, std::size_t, BufferAdapter&,
                                    std::size_t, std::size_t, std::size_t) {
  return false;
}

inline bool QueueAdapter::copy_rect(BufferAdapter&, const RectSide&, BufferAdapter&,
                                    const RectSide&, const RectShape&) {
  return false;
}

inline bool QueueAdapter::write_rect(BufferAdapter&, const RectSide&, const void*, const RectSide&,
                                     const RectShape&, bool) {
  return false;
}

inline bool QueueAdapter::read_rect(void*, const RectSide&, BufferAdapter&, const RectSide&,
                                    const RectShape&, bool) {
  return false;
}

inline bool QueueAdapter::copy_rect_peer(BufferAdapter&, std::size_t, const RectSide&,
                                         BufferAdapter&, std::size_t, const RectSide&,
                                         const RectShape&) {
  return false;
}

inline std::unique_ptr<BlasAdapter> QueueAdapter::create_blas() {
  throw LogicError("this backend has no BLAS library");
}

inline bool QueueAdapter::write_image(ImageAdapter&, const ImageBox&, const void*, const RectSide&,
                                      bool) {
  throw LogicError("this backend has no images");
}

inline bool QueueAdapter::read_image(void*, const RectSide&, ImageAdapter&, const ImageBox&, bool) {
  throw LogicError("this backend has no images");
}

inline bool QueueAdapter::copy_buffer_to_image(ImageAdapter&, const ImageBox&, BufferAdapter&,
                                               const RectSide&) {
  throw LogicError("this backend has no images");
}

inline bool QueueAdapter::copy_image_to_buffer(BufferAdapter&, const RectSide&, ImageAdapter&,
                                               const ImageBox&) {
  throw LogicError("this backend has no images");
}

inline void QueueAdapter::copy_image(ImageAdapter&, const std::array<std::size_t, 3>&,
                                     ImageAdapter&, const ImageBox&) {
  throw LogicError("this backend has no images");
}

inline void QueueAdapter::record_ipc_event(EventAdapter&) {
  throw LogicError("this backend has no interprocess events");
}
inline bool QueueAdapter::prefetch(BufferAdapter&, ManagedLocation) { return false; }

inline bool QueueAdapter::advise(BufferAdapter&, ManagedAdvice, ManagedLocation) { return false; }

inline bool QueueAdapter::attach(BufferAdapter&, ManagedAttach) { return false; }
inline bool QueueAdapter::fill(BufferAdapter&, std::size_t, std::size_t,
                               std::span<const std::byte>) {
  return false;
}

}  // namespace plinth::backend
