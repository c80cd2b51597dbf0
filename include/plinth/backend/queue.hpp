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
/// Transfers take buffers of the same context; offsets and sizes were checked by the core.
class QueueAdapter {
 public:
  virtual ~QueueAdapter() = default;
  /// Host to device. With `async`, returns once enqueued; `src` must then stay valid and
  /// unchanged until the queue is synchronized. Without, returns once the data have been
  /// copied out of `src` (the vendors' own rule: not necessarily onto the device); later work
  /// in this queue sees them, other queues after an event recorded here or a synchronize().
  virtual void write(BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
                     bool async) = 0;
  /// Device to host. With `async`, `dst` is valid only after the queue is synchronized.
  virtual void read(void* dst, BufferAdapter& src, std::size_t src_offset, std::size_t size,
                    bool async) = 0;
  /// Device to device, ordered in this queue (never blocks the host).
  virtual void copy(BufferAdapter& dst, std::size_t dst_offset, BufferAdapter& src,
                    std::size_t src_offset, std::size_t size) = 0;
  /// Blocks until all work enqueued so far is done.
  virtual void synchronize() = 0;
  /// Marks the current end of the queue's work (timing-capable).
  virtual std::unique_ptr<EventAdapter> record_event() = 0;
  /// Makes later work in this queue wait for `event` (possibly of another queue).
  virtual void wait_for(EventAdapter& event) = 0;
  /// cl_command_queue, CUstream, hipStream_t, ze_command_list_handle_t.
  virtual NativeHandle native_handle() const = 0;

  // ---- SDK 1.2: called only on plugins of ABI 1.2 or later --------------------------------

  /// Records `event` again at the current end of the queue, as record_event() would a new
  /// one: the core reuses the events of this queue that no user holds any more, so that
  /// recording one allocates nothing. `event` came from this queue's record_event(); nothing
  /// else refers to it, but work enqueued earlier (a wait_for() on another queue) may still
  /// wait for its previous recording. Returns false if the backend cannot (the default): the
  /// core then calls record_event() every time. Throws BackendError.
  virtual bool record_event_again(EventAdapter& event);

  // ---- SDK 1.4: called only on plugins of ABI 1.4 or later --------------------------------

  /// Copies between buffers of two different devices of the context (`dst` on `dst_device`,
  /// `src` on `src_device`, indices of the context; this queue is on `dst_device`), ordered
  /// in this queue and without blocking the host, by the vendor's device-to-device path
  /// (CUDA: cuMemcpyPeerAsync, with peer access enabled where the devices support it). The
  /// core has made this queue wait for the source's writes. Returns false, having done
  /// nothing, where the backend has no such path (the default): the core then copies through
  /// the host, and says so under PLINTH_DEBUG=transfer. Throws BackendError. (Plugins before
  /// 1.4 get copy() for these copies, as 1.0 defined it.)
  virtual bool copy_peer(BufferAdapter& dst, std::size_t dst_device, std::size_t dst_offset,
                         BufferAdapter& src, std::size_t src_device, std::size_t src_offset,
                         std::size_t size);

  // ---- SDK 1.6: rectangular copies --------------------------------------------------------
  // 2-D and 3-D regions (rect_copy.hpp), called only on plugins of ABI 1.6 or later, on the
  // thread using the queue. Sides and shapes are checked by the core (RectSide, RectShape).
  // Each returns false, having done nothing, where the backend cannot make this copy in one
  // call (the defaults; or a pitch beyond the API's limits): the core then copies plane by
  // plane through the same method (depth 1), and row by row through write()/read()/copy()
  // where that is refused too, and says so under PLINTH_DEBUG=transfer. Throw BackendError.

  /// Device to device on this queue's device, as copy() (never blocks the host). The two
  /// regions share no byte (the core copies overlapping ones through a temporary buffer).
  virtual bool copy_rect(BufferAdapter& dst, const RectSide& dst_side, BufferAdapter& src,
                         const RectSide& src_side, const RectShape& shape);
  /// Host to device, as write(): with `async`, `src` stays valid and unchanged until the
  /// queue is synchronized; without, the call returns once the data are out of `src`.
  virtual bool write_rect(BufferAdapter& dst, const RectSide& dst_side, const void* src,
                          const RectSide& src_side, const RectShape& shape, bool async);
  /// Device to host, as read(): with `async`, `dst` is valid after synchronize().
  virtual bool read_rect(void* dst, const RectSide& dst_side, BufferAdapter& src,
                         const RectSide& src_side, const RectShape& shape, bool async);
  /// Between buffers of two devices of the context, as copy_peer() (this queue is on
  /// `dst_device`; the core made it wait for the source's writes). Where it returns false
  /// the core copies plane by plane, then through the host.
  virtual bool copy_rect_peer(BufferAdapter& dst, std::size_t dst_device, const RectSide& dst_side,
                              BufferAdapter& src, std::size_t src_device, const RectSide& src_side,
                              const RectShape& shape);

  // ---- SDK 1.6: interprocess events ----

  /// Records `event` (ContextAdapter::create_ipc_event() of this queue's device) at the
  /// current end of the queue, replacing its previous recording: processes that opened it
  /// (ContextAdapter::import_event()) and wait for it afterwards wait for this work. Throws
  /// BackendError, LogicError (the default: the backend has no interprocess events).
  virtual void record_ipc_event(EventAdapter& event);
  // ---- SDK 1.6: managed memory ----------------------------------------------------------
  // `buffer` is managed memory of this queue's device (host_pointer() is not null; the core
  // checks). All three are hints or attachments the backend may lack: the defaults return
  // false, having done nothing, and the core says so to the user.

  /// Enqueues a move of `buffer`'s memory to `to` (this queue's device or the host)
  /// (cuMemPrefetchAsync). Returns false where the backend or device cannot prefetch there.
  /// Throws BackendError.
  virtual bool prefetch(BufferAdapter& buffer, ManagedLocation to);
  /// Gives `advice` about `buffer`'s memory naming `location` (cuMemAdvise), at once or
  /// ordered in this queue where the API orders it. Returns false where the backend has no
  /// such advice. Throws BackendError.
  virtual bool advise(BufferAdapter& buffer, ManagedAdvice advice, ManagedLocation location);
  /// Attaches the whole managed allocation `buffer` (a root, never a sub-region) to this
  /// queue as `attach` says (cuStreamAttachMemAsync), ordered in the queue. Returns false
  /// where the backend has no attach kinds. Throws BackendError.
  virtual bool attach(BufferAdapter& buffer, ManagedAttach attach);
  // ---- SDK 1.6: fills -----------------------------------------------------------------------

  /// Fills bytes [offset, offset + size) of `buffer` with copies of `pattern` (the bytes
  /// at offset + k get pattern[k % pattern.size()]), ordered in this queue and without
  /// blocking the host (`pattern` may go away when this returns). The core calls it with a
  /// pattern of 1, 2, 4, 8, 16, 32, 64 or 128 bytes, a `size` (> 0) that is a multiple of
  /// the pattern's size, and an `offset` (into `buffer`, which may be a sub-region, as the
  /// transfers' offsets) that puts the first byte at a multiple of the pattern's size from
  /// the start of its allocation (a from_backend_buffer()'s memory may itself start anywhere:
  /// check the address where the API needs more). Returns false, having done nothing, where the
  /// backend cannot fill with a pattern of that size at that place (the default): the core then
  /// fills with a kernel and says so under PLINTH_DEBUG=transfer (CUDA: cuMemsetD8/D16/D32Async;
  /// OpenCL: clEnqueueFillBuffer; Level Zero: zeCommandListAppendMemoryFill). Throws BackendError.
  virtual bool fill(BufferAdapter& buffer, std::size_t offset, std::size_t size,
                    std::span<const std::byte> pattern);

  // ---- SDK 1.7: BLAS ------------------------------------------------------------------------

  /// The BLAS library (ApiAdapter::blas_library()) bound to this queue: a handle and its
  /// workspace, made when the queue's first product runs through the library. Called only
  /// when blas_library() is available; the core keeps the adapter with the queue and destroys
  /// it first. Throws BackendError (the library's status), OutOfMemoryError for the workspace.
  /// Optional: the default throws LogicError.
  virtual std::unique_ptr<BlasAdapter> create_blas();

  // ---- SDK 1.8: image copies ----------------------------------------------------------------
  // Called only for images of this queue's device made by ContextAdapter::create_image(),
  // with a box that the core has checked lies inside the image (unused axes: origin 0, size
  // 1; every size > 0). The host or buffer side is a RectSide in bytes whose row_pitch is at
  // least the box's width times the pixel size and slice_pitch at least row_pitch times its
  // height (both nonzero), its pixels packed as the format's pixel_size() says. Each returns
  // false, having done nothing, where the backend cannot copy that layout directly (e.g.
  // OpenCL's buffer-image copies take packed rows only; CUDA's need a slice pitch that is a
  // multiple of the row pitch): the core then packs the data through a temporary and calls
  // it again with packed sides. The defaults throw LogicError (no images). Throw
  // BackendError.

  /// Host to image, as write(): with `async`, `src` stays valid until the queue is
  /// synchronized; without, the data are out of `src` on return.
  virtual bool write_image(ImageAdapter& dst, const ImageBox& box, const void* src,
                           const RectSide& src_side, bool async);
  /// Image to host, as read(): with `async`, `dst` is valid after synchronize().
  virtual bool read_image(void* dst, const RectSide& dst_side, ImageAdapter& src,
                          const ImageBox& box, bool async);
  /// Buffer (of this queue's device) to image, ordered in the queue.
  virtual bool copy_buffer_to_image(ImageAdapter& dst, const ImageBox& box, BufferAdapter& src,
                                    const RectSide& src_side);
  /// Image to buffer (of this queue's device), ordered in the queue.
  virtual bool copy_image_to_buffer(BufferAdapter& dst, const RectSide& dst_side, ImageAdapter& src,
                                    const ImageBox& box);
  /// Image to image of the same format (both of this queue's device): `src_box` of `src` to
  /// the box of the same size at `dst_origin` of `dst` (checked to fit), ordered in the
  /// queue. They may be one image, the boxes then not overlapping. Never returns false: every
  /// backend with images copies between them.
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
