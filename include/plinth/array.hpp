#pragma once

#include <plinth/allocator.hpp>
#include <plinth/array_metadata.hpp>
#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/host_array.hpp>
#include <plinth/kernel_arg.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace plinth {

namespace detail {
struct ArrayImpl;
}

/// An array on one device (grunnur's Array): an ArrayMetadata (shape, dtype, strides in
/// bytes, first element offset) over a Buffer that covers its whole memory (the *base*
/// buffer, as the allocator returned it). Views made by view() share the base buffer.
///
/// A shared handle, cheap to copy: copies and views never copy device memory, which is
/// freed with the last Array (or Buffer) that refers to it.
///
/// **As a kernel argument** an Array passes a pointer to its first element (the one whose
/// indices are all 0), on every backend; the kernel addresses the other elements with the
/// strides (which it must be given, e.g. as scalars, if the array is not contiguous).
/// The pointer comes from first_element_buffer(), a region of the base buffer starting at
/// the first element and reaching to the base buffer's end, made once when the array or
/// view is made, so a launch costs nothing extra.
///
/// On **OpenCL**, where a kernel receives a `cl_mem` and a `cl_mem` cannot carry an offset,
/// that region is a sub-buffer, and OpenCL only creates sub-buffers whose origin is a
/// multiple of the device's DeviceParameters::address_alignment (e.g. 128 bytes on PoCL).
/// So on OpenCL an array whose first element lies at another offset of its allocation
/// works for every transfer (get, set, copies), but passing it to a kernel throws
/// LogicError, saying so, at the launch. To use such a view in a kernel on OpenCL, either
/// lay the base array out so that the view's first element is aligned (the
/// `first_element_offset` of empty() exists for this), or pass base_buffer() and the
/// first element's offset (first_element_offset() / itemsize) as a separate argument. On
/// backends with plain device pointers (CUDA, HIP, Level Zero) any offset works.
/// Elements *before* the first one (views with negative steps) lie below the region's
/// origin: reachable with plain pointers and on OpenCL implementations whose sub-buffers
/// are pointers into the parent (PoCL, the GPU vendors'), though OpenCL leaves it undefined.
///
/// An array with no elements (an extent of 0) still has a base buffer (of at least one
/// element's size) and is a valid kernel argument that must not be dereferenced; its
/// transfers do nothing.
///
/// **Transfers** check the queue's device, the shape and the dtype (LogicError). Contiguous
/// arrays (see ArrayMetadata::is_contiguous) to and from contiguous host arrays go in one
/// call and honour `async`/`no_async`. So do *box* views to and from host arrays laid out as
/// the same box (a sub-matrix or sub-volume of a C- or F-order array, rows taken with a step:
/// elements contiguous along the fastest dimension on both sides, at most three dimensions
/// once those contiguous on both sides are merged, positive strides), as one rectangular copy
/// (rect_copy.hpp) where the backend has one (SDK 1.6 plugins). Any other layout goes through
/// a host staging copy of the byte range covering the elements: get() reads it and gathers
/// the elements on the host; set() scatters the elements into it and writes it back, first
/// reading it unless the elements fill it (ArrayMetadata::is_dense), so that the bytes
/// between elements keep their values — they must not be written concurrently by other
/// queues. Transfers through staging block until they are done, whatever `async` says.
class PLINTH_EXPORT Array {
 public:
  /// A new array of `shape` and `dtype` on `device` (contents undefined). Without `strides`,
  /// C order; `first_element_offset` places the first element that many bytes into the
  /// allocation (default: the smallest offset that fits negative strides, usually 0). The
  /// memory comes from `allocator` (default: the context's MemoryPool, memory_pool.hpp), asked for
  /// first_element_offset + the bytes the elements span (one element's size at least).
  /// Throws LogicError for bad strides or offsets (see ArrayMetadata), or if the allocator
  /// returns a buffer that is too small or on another device; OutOfMemoryError.
  static Array empty(const BoundDevice& device, std::vector<std::size_t> shape, const DType& dtype,
                     std::optional<std::vector<std::ptrdiff_t>> strides = std::nullopt,
                     std::optional<std::size_t> first_element_offset = std::nullopt,
                     const Allocator& allocator = {});
  /// As above, with the memory for `queue` (on its device): the default allocator, the
  /// context's MemoryPool, then orders the memory in `queue`, so a block released by work in
  /// `queue` is reused at once (memory_pool.hpp). What the device overloads do with
  /// `device`'s pool: reuse only memory no queue still uses.
  static Array empty(const Queue& queue, std::vector<std::size_t> shape, const DType& dtype,
                     std::optional<std::vector<std::ptrdiff_t>> strides = std::nullopt,
                     std::optional<std::size_t> first_element_offset = std::nullopt,
                     const Allocator& allocator = {});
  ///@{
  /// A new array of `shape` and `dtype` laid out in `order` without gaps (Order::F: the first
  /// index varies fastest, numpy's `order='F'`), on `device` or with the memory for `queue`.
  /// Throws as the overloads above.
  static Array empty(const BoundDevice& device, std::vector<std::size_t> shape, const DType& dtype,
                     Order order, const Allocator& allocator = {});
  static Array empty(const Queue& queue, std::vector<std::size_t> shape, const DType& dtype,
                     Order order, const Allocator& allocator = {});
  ///@}
  /// A new C-order array on `device` with the shape and dtype of `like` (grunnur's
  /// empty_like: a view's strides and offset are not copied, so the result is as small as
  /// its elements). `like` may be on any device. Throws as empty().
  static Array empty_like(const BoundDevice& device, const Array& like,
                          const Allocator& allocator = {});
  /// A new array laid out as `metadata`, in a buffer of metadata.buffer_size() bytes (one
  /// element's size at least) from `allocator`. Throws as empty().
  static Array empty_with_metadata(const BoundDevice& device, const ArrayMetadata& metadata,
                                   const Allocator& allocator = {});
  ///@{
  /// empty_like() and empty_with_metadata() with the memory for `queue` (see empty()).
  static Array empty_like(const Queue& queue, const Array& like, const Allocator& allocator = {});
  static Array empty_with_metadata(const Queue& queue, const ArrayMetadata& metadata,
                                   const Allocator& allocator = {});
  ///@}
  /// An array laid out as `metadata` in the existing buffer `base` (shared, not copied).
  /// Throws LogicError if `base` has fewer than metadata.buffer_size() bytes.
  static Array from_buffer(const Buffer& base, const ArrayMetadata& metadata);
  /// A new C-order array on `queue`'s device with a copy of `host`; returns once the copy
  /// is done (so `host` may go away).
  static Array from_host(const Queue& queue, const HostArray& host);
  /// As above, through a temporary queue on `device`.
  static Array from_host(const BoundDevice& device, const HostArray& host);

  /// Copies the array into a new C-order host array. With `async` (contiguous arrays only,
  /// see the class comment), the result is valid after queue.synchronize().
  /// Throws LogicError if `queue` is on another device.
  HostArray get(const Queue& queue, bool async = false) const;
  /// Copies the array into `dest` (same shape and dtype, any layout). With `async` the copy
  /// may still be running on return: `dest` is valid after queue.synchronize().
  /// Throws LogicError on a queue of another device, or a shape or dtype mismatch.
  void get(const Queue& queue, const HostArray& dest, bool async = false) const;
  /// Copies `src` (same shape and dtype, any layout) into the array. Asynchronous unless
  /// `no_async` (or staging is needed): `src` must then stay valid and unchanged until the
  /// queue is synchronized. Otherwise it returns once the data have been copied out of `src`,
  /// and the device sees them in queue order (see Buffer::set).
  /// Throws LogicError on a queue of another device, or a shape or dtype mismatch.
  void set(const Queue& queue, const HostArray& src, bool no_async = false) const;
  /// Copies another array of the same shape and dtype and of the same context (possibly on
  /// another device of it) into this one, ordered in `queue` (of this array's device).
  /// Two contiguous arrays, and two box views of the same box layout (see the class comment)
  /// on an SDK 1.6 plugin, are copied on the device (or between devices) without blocking
  /// unless `no_async`; other layouts go through the host and block (copy_into() copies any
  /// layouts of one device with a kernel). The arrays may share memory (views or
  /// sub-regions of one allocation, overlapping in any way): the copy is then a memmove,
  /// this array getting `src`'s elements as they were before the copy.
  /// Throws LogicError on a queue of another device, another context, or a shape or dtype
  /// mismatch.
  void set(const Queue& queue, const Array& src, bool no_async = false) const;

  /// A view by numpy's basic indexing, sharing this array's memory:
  /// `arr.view({Slice(2, 8), Slice::all(), Slice(std::nullopt, std::nullopt, -1)})`, or with
  /// integers, which drop their dimension: `arr.view({3})` is row 3. Slices are clamped to
  /// the extents, as in numpy. Throws LogicError for more indices than dimensions, an
  /// integer index out of bounds, or a slice step of 0.
  Array view(std::span<const Index> indices) const;
  /// As above, for a braced list: `arr.view({3, Slice(1, 5)})`.
  Array view(std::initializer_list<Index> indices) const {
    return view(std::span<const Index>(indices.begin(), indices.size()));
  }

  /// The same array (shape, dtype, strides, elements) over the smallest region of
  /// base_buffer() that holds its elements (grunnur's `Array.minimum_subregion`): the new
  /// array's base buffer is base_buffer().get_sub_region(m.origin, m.size) and its metadata
  /// m.metadata, where m is metadata().minimal_subregion(), so a view becomes an array whose
  /// buffer holds nothing else (e.g. for a library that takes a buffer, or a kernel that gets
  /// the buffer of an array with negative strides). No device memory is copied.
  /// An array with no elements gets a region of one element's size (buffers are never empty).
  /// On OpenCL, as for any view (see the class comment), the result is a kernel argument only
  /// if its first element lies at a multiple of DeviceParameters::address_alignment of the
  /// allocation (where grunnur fails in the driver, plinth's launch throws LogicError saying
  /// so); transfers work at any offset.
  /// Throws BackendError if the backend cannot make the region.
  Array minimum_subregion() const;

  /// Notes that `queue` uses this array's memory in work that plinth does not enqueue itself
  /// (its native handle passed to a vendor library): if the memory is a MemoryPool block, it
  /// is reused only after that work (memory_pool.hpp). plinth's own launches and transfers
  /// note their queues themselves. As Buffer::record_queue() on base_buffer().
  void record_queue(const Queue& queue) const;

  /// The layout: shape, dtype, strides, first element offset (see ArrayMetadata).
  const ArrayMetadata& metadata() const noexcept;
  /// The extent of each dimension.
  const std::vector<std::size_t>& shape() const noexcept { return metadata().shape(); }
  /// Strides in bytes.
  const std::vector<std::ptrdiff_t>& strides() const noexcept { return metadata().strides(); }
  /// The type of the elements.
  const DType& dtype() const noexcept { return metadata().dtype(); }
  /// The number of dimensions (0 for a scalar).
  std::size_t ndim() const noexcept { return metadata().ndim(); }
  /// Number of elements.
  std::size_t size() const noexcept { return metadata().size(); }
  /// size() * itemsize.
  std::size_t nbytes() const noexcept { return metadata().nbytes(); }
  /// Byte offset of the first element in base_buffer().
  std::size_t first_element_offset() const noexcept { return metadata().first_element_offset(); }
  /// True if the elements lie in C order without gaps (ArrayMetadata::is_contiguous), so
  /// that transfers take one call.
  bool is_contiguous() const noexcept { return metadata().is_contiguous(); }
  ///@{
  /// numpy's C_CONTIGUOUS and F_CONTIGUOUS flags (see ArrayMetadata).
  bool is_c_contiguous() const noexcept { return metadata().is_c_contiguous(); }
  bool is_f_contiguous() const noexcept { return metadata().is_f_contiguous(); }
  ///@}
  /// The device whose memory holds the array (base_buffer()'s).
  const BoundDevice& device() const noexcept;
  /// The buffer covering the array's whole memory (shared with every view of it).
  const Buffer& base_buffer() const noexcept;
  /// The region of base_buffer() from the first element to its end (base_buffer() itself
  /// when the first element is at offset 0 or there are no elements): what a kernel
  /// receives. On OpenCL, an unaligned one cannot be a kernel argument (see the class
  /// comment).
  const Buffer& first_element_buffer() const noexcept;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Array still refers to its object and every call on it is defined.
  Array(const Array&) = default;
  Array& operator=(const Array&) = default;
  ~Array() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit Array(std::shared_ptr<const detail::ArrayImpl> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<const detail::ArrayImpl> impl_;
};

inline KernelArg::KernelArg(const Array& array)
    : kind_(Kind::buffer), buffer_(&array.first_element_buffer()), is_array_(true) {}

}  // namespace plinth
