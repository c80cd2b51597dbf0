#pragma once

#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>
#include <plinth/managed_memory.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

namespace plinth {

namespace backend {
class BufferAdapter;
}

namespace detail {
struct BufferImpl;
}

struct PitchedBuffer;
class IpcMemoryHandle;  // ipc.hpp

/// A block of global memory on one device (or a region of one). Cheap to copy (shared
/// handle); memory is freed with the last copy of the buffer and of its sub-regions.
class PLINTH_EXPORT Buffer {
 public:
  /// Allocates `size` bytes on `device`. Throws LogicError for size 0, OutOfMemoryError.
  static Buffer allocate(const BoundDevice& device, std::size_t size);
  /// Wraps native memory (cl_mem, CUdeviceptr...) of `size` bytes on `device`; with
  /// `take_ownership` it is freed with the last copy.
  static Buffer from_backend_buffer(const BoundDevice& device, std::uintptr_t native_memory,
                                    std::size_t size, bool take_ownership = false);
  /// Wraps native memory of `size` bytes on `device` that something else owns (another
  /// library's array: DLPack, __cuda_array_interface__): plinth never frees it, and releases
  /// `owner` (e.g. a handle whose deleter gives the memory back to its producer) once the
  /// last copy of the buffer and of its sub-regions has gone and plinth's handle of the
  /// memory has been released. `owner` may be null (the caller keeps the memory alive).
  /// Throws LogicError for size 0, BackendError where the backend refuses the handle.
  static Buffer from_backend_buffer(const BoundDevice& device, std::uintptr_t native_memory,
                                    std::size_t size, std::shared_ptr<void> owner);
  /// Allocates `depth` slices of `height` rows of `width_bytes` bytes on `device`, each row
  /// starting at a multiple of the pitch the device prefers for 2-D and 3-D copies and
  /// accesses (PyCUDA's mem_alloc_pitch: CUDA's cuMemAllocPitch; elsewhere the width rounded
  /// up to DeviceParameters::address_alignment, unless the backend says otherwise). Returns
  /// the buffer (row_pitch * height * depth bytes, outside the memory pool) and its pitches,
  /// for rect_copy.hpp's RectRegion. Throws LogicError for a size of 0 or one that does not
  /// fit std::size_t, OutOfMemoryError.
  static PitchedBuffer allocate_pitched(const BoundDevice& device, std::size_t width_bytes,
                                        std::size_t height, std::size_t depth = 1);

  /// Allocates `size` bytes of managed memory for `device` (cuMemAllocManaged,
  /// hipMallocManaged, zeMemAllocShared, fine-grained SVM on OpenCL: managed_memory.hpp): one
  /// address that kernels on the device and the host both use, the memory moving between
  /// them on demand. The buffer is an ordinary Buffer to transfers, sub-regions, Arrays
  /// (Array::from_buffer) and kernels; its host side is host_pointer() and
  /// HostArray::managed_view(). `attach` is global (every queue) or host (the host only,
  /// until attach()); never single. Never from the memory pool. Throws LogicError for size 0,
  /// for ManagedAttach::single, where the backend or the device has no managed memory (saying
  /// why: a plugin before SDK 1.6, a device without it, OpenCL SVM that is only
  /// coarse-grained) or no such attach kind; OutOfMemoryError; BackendError. Any thread.
  static Buffer allocate_managed(const BoundDevice& device, std::size_t size,
                                 ManagedAttach attach = ManagedAttach::global);

  /// Copies the buffer into `dest` (of exactly size() bytes). With `async`, returns at once;
  /// `dest` is valid after queue.synchronize(). Throws LogicError on a size mismatch or a
  /// queue of another device.
  void get(const Queue& queue, std::span<std::byte> dest, bool async = false) const;
  /// Copies `src` (exactly size() bytes) into the buffer. Asynchronous unless `no_async`:
  /// `src` must then stay valid and unchanged until the queue is synchronized. With
  /// `no_async`, returns once the data have been copied out of `src` (as the vendors' own
  /// synchronous writes do): the device sees them in queue order, i.e. to later work in
  /// `queue`, and to other queues after an event recorded in `queue` or its synchronize().
  void set(const Queue& queue, std::span<const std::byte> src, bool no_async = false) const;
  /// Copies another buffer of the same size and context (device to device; never blocks
  /// unless `no_async`). Regions of one allocation may overlap (see overlaps()): the copy
  /// is then a memmove, the buffer getting `src`'s bytes as they were before it (done in
  /// pieces that do not overlap, or through a temporary buffer of size() bytes). Throws
  /// LogicError on a size mismatch or a queue or buffer of another device or context,
  /// OutOfMemoryError for the temporary.
  void set(const Queue& queue, const Buffer& src, bool no_async = false) const;
  /// Fills the buffer with copies of `pattern` (1 to 128 bytes; byte k of the buffer gets
  /// pattern[k % pattern.size()]), asynchronously, ordered in `queue` (PyCUDA's memset_d8,
  /// d16 and d32, OpenCL's clEnqueueFillBuffer). `pattern` may go away when this returns. To
  /// fill part of a buffer, fill a region of it (get_sub_region()): any origin works, the
  /// pattern starting at the region's first byte. A pattern that repeats a shorter one counts
  /// as the shorter one. Where the backend's fill takes the pattern's size (CUDA: 1, 2 or 4
  /// bytes, cuMemsetD8/D16/D32Async; OpenCL: powers of two up to 128, clEnqueueFillBuffer;
  /// Level Zero: powers of two up to the device's maxMemoryFillPatternSize,
  /// zeCommandListAppendMemoryFill), the part of the region aligned to it is one vendor call
  /// and the few bytes before and after it small ones; otherwise (other sizes, plugins of SDK
  /// 1.5 or older) a fill kernel fills it, writing the bytes before its first aligned element
  /// from the host (blocking until they are written). PLINTH_DEBUG=transfer says which path
  /// each fill took. Throws LogicError for an empty pattern, one longer than 128 bytes, a
  /// buffer size that is not a whole number of patterns, or a queue of another device;
  /// BackendError.
  void fill(const Queue& queue, std::span<const std::byte> pattern) const;
  /// fill() with the bytes of `value` (e.g. a float or a uint16_t) as the pattern.
  template <class T>
    requires(std::is_trivially_copyable_v<T> && !std::is_pointer_v<T> &&
             !std::is_convertible_v<const T&, std::span<const std::byte>>)
  void fill(const Queue& queue, const T& value) const {
    fill(queue, std::as_bytes(std::span<const T, 1>(&value, 1)));
  }
  /// The bytes [origin, origin + size) of this buffer, sharing its memory.
  /// Throws LogicError if out of bounds or empty. Origins not aligned to the device's
  /// address_alignment are fine for transfers; on OpenCL such a region cannot be a kernel
  /// argument (the launch throws LogicError, saying so).
  Buffer get_sub_region(std::size_t origin, std::size_t size) const;

  /// Notes that `queue` uses this buffer's memory in work that plinth does not enqueue itself
  /// (its native handle passed to a vendor library). For a MemoryPool block (memory_pool.hpp),
  /// the block is then reused only after the work `queue` has at its release; for other
  /// memory it does nothing. plinth's own launches and transfers note their queues
  /// themselves. Throws LogicError if `queue` is of another context.
  void record_queue(const Queue& queue) const;

  /// A handle of this buffer's memory for another process's from_ipc_handle() (ipc.hpp):
  /// the vendor's handle of the allocation it lies in, its offset there and its size, so a
  /// sub-region or a MemoryPool block is exported as exactly its bytes. The memory stays
  /// this process's: keep the buffer (and, for a pool block, keep it from going back to the
  /// pool) while other processes use it. Throws LogicError where the backend has no
  /// interprocess memory (OpenCL; plugins of SDK 1.5 and older; see ipc_support()) and for a
  /// virtual buffer (virtual_alloc.hpp), whose memory pack() may move; BackendError when the
  /// vendor refuses (e.g. memory wrapped from elsewhere, or itself imported). Any thread.
  IpcMemoryHandle ipc_handle() const;
  /// The memory that `handle` (another process's ipc_handle()) names, mapped on `device` (of
  /// the same API; CUDA maps another device's memory through peer access). The exporter's
  /// allocation stays mapped in this process until the last copy of the returned buffer and
  /// of its sub-regions goes; importing regions of one allocation again maps it once. Work on
  /// it is ordered with the exporter's only by events (Event::from_ipc_handle()). Throws
  /// LogicError for a handle of another API or where the backend has no interprocess memory,
  /// BackendError when the vendor refuses the handle (e.g. one exported by this process:
  /// CUDA maps only other processes' memory). Any thread.
  static Buffer from_ipc_handle(const BoundDevice& device, const IpcMemoryHandle& handle);
  /// Whether the memory is managed (allocate_managed(), or a sub-region of such a buffer).
  /// Throws nothing.
  bool is_managed() const noexcept;
  /// The host's address of this buffer's (or region's) first byte, for managed memory. The
  /// host may read and write through it while no work that uses the buffer is running: after
  /// a Queue::synchronize() (or an Event::wait()) of every queue that used it, and before
  /// more is enqueued (unless the device has concurrent managed access, which CUDA reports
  /// as CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS). Throws LogicError for a buffer that is
  /// not managed.
  std::byte* host_pointer() const;
  /// Enqueues a move of this buffer's (or region's) managed memory to `to` on `queue`
  /// (cuMemPrefetchAsync and its kin, managed_memory.hpp): a hint that saves the page
  /// faults of the first accesses there. Returns true if it was enqueued, false (having
  /// done nothing) where the backend or device has no prefetch to that location, e.g.
  /// OpenCL before 2.1, Level Zero to the host, CUDA devices without concurrent managed
  /// access. Throws LogicError for memory that is not managed or a queue of another device;
  /// BackendError.
  bool prefetch(const Queue& queue, ManagedLocation to = ManagedLocation::device) const;
  /// Gives `advice` about this buffer's (or region's) managed memory, naming `location`
  /// (the buffer's device or the host; ignored by the read-mostly advice): a hint
  /// (managed_memory.hpp). CUDA and HIP apply it at once; Level Zero orders it in `queue`
  /// before work enqueued later. Returns true if the backend took it, false (having done
  /// nothing) where it has no such advice (OpenCL; on Level Zero, accessed-by and a
  /// preferred location on the host). Throws LogicError for memory that is not managed or a
  /// queue of another device; BackendError.
  bool advise(const Queue& queue, ManagedAdvice advice,
              ManagedLocation location = ManagedLocation::device) const;
  /// Attaches the whole managed allocation to `queue` as `attach` says
  /// (cuStreamAttachMemAsync, PyCUDA's ManagedAllocation.attach): single makes it reachable
  /// by `queue` alone, which lets the host use it while other queues run kernels on devices
  /// without concurrent managed access; global and host as at allocation. Ordered in
  /// `queue`. Throws LogicError for memory that is not managed, a sub-region (the attachment
  /// is the whole allocation's), a queue of another device, or a backend without attach
  /// kinds (Level Zero, OpenCL: their managed memory is always global, so global is a no-op
  /// there and single and host are refused); BackendError.
  void attach(const Queue& queue, ManagedAttach attach) const;

  /// The offset from the root allocation (0 for an allocation).
  std::size_t offset() const;
  /// Bytes in this buffer or region.
  std::size_t size() const;
  /// The device the memory is on.
  const BoundDevice& device() const;
  /// cl_mem, CUdeviceptr (of this region's start), ...
  std::uintptr_t native_handle() const;
  /// True if this buffer and `other` share a byte of memory: regions of one allocation whose
  /// byte ranges overlap (a buffer and itself included). Distinct allocations, buffers wrapped
  /// separately by from_backend_buffer and distinct virtual buffers (whose memory pack() may
  /// share only between buffers not in use at once) never overlap. Throws nothing.
  bool overlaps(const Buffer& other) const noexcept;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Buffer still refers to its object and every call on it is defined.
  Buffer(const Buffer&) = default;
  Buffer& operator=(const Buffer&) = default;
  ~Buffer() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit Buffer(std::shared_ptr<detail::BufferImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::BufferImpl>& impl() const noexcept { return impl_; }
  backend::BufferAdapter& adapter() const;

  std::shared_ptr<detail::BufferImpl> impl_;
};

/// What Buffer::allocate_pitched() returns: the buffer, the bytes between the starts of
/// two rows (>= the width asked for) and between the starts of two slices (row_pitch *
/// height).
struct PitchedBuffer {
  Buffer buffer;                ///< row_pitch * height * depth bytes
  std::size_t row_pitch = 0;    ///< bytes from the start of a row to the start of the next
  std::size_t slice_pitch = 0;  ///< bytes from the start of a slice to the next: row_pitch * height
};

}  // namespace plinth
