#pragma once

#include <plinth/array_metadata.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace plinth {

class Array;
class Buffer;
class Context;
class HostRegistration;

/// An array in host memory: an ArrayMetadata (shape, dtype, strides in bytes, first element
/// offset) over a block of bytes — what numpy's ndarray is to grunnur. It is what Array and
/// MultiArray transfer from and to.
///
/// A shared handle, like a numpy array or std::span: copying a HostArray or taking a view()
/// never copies the elements, and a `const HostArray&` still lets you change them (the
/// constness is the handle's). The block is either owned (empty(), from_values(), copy():
/// freed with the last handle), page-locked memory of a context (page_locked(): returned to
/// the context's page-locked pool with the last handle), or the caller's (wrap(),
/// HostRegistration::wrap(): it must outlive every handle).
///
/// Transfers (Array::set/get, Buffer::set/get) from and to page-locked memory go straight to
/// the DMA engine; ordinary (pageable) memory goes through the backend's staging, which is
/// nearly as fast for large synchronous transfers but costs host copies (page_locked.hpp).
///
///     std::vector<float> values(12);
///     auto host = HostArray::wrap(std::span(values), {3, 4});     // no copy
///     auto column = host.view({Slice::all(), 1});                  // shape (3), stride 16
///     auto back = HostArray::empty({3, 4}, DType::float32());      // zero-filled
class PLINTH_EXPORT HostArray {
 public:
  /// A new zero-filled C-order array. Throws LogicError if the size overflows.
  static HostArray empty(std::vector<std::size_t> shape, const DType& dtype);
  /// A new zero-filled block of metadata.buffer_size() bytes laid out as `metadata`.
  static HostArray empty(const ArrayMetadata& metadata);
  /// A new zero-filled C-order array in page-locked host memory of `context`
  /// (cuMemHostAlloc; OpenCL: a mapped CL_MEM_ALLOC_HOST_PTR buffer), which transfers on every
  /// device of the context use directly, at the DMA rate, asynchronous ones without staging.
  /// The memory comes from the context's page-locked pool (page_locked_pool.hpp) and goes
  /// back to it with the last handle to it (views and copies of the handle included), which
  /// keeps the context alive until then; a reused block is zero-filled again. With
  /// PLINTH_MEMORY_POOL=off it is allocated fresh and freed with the last handle. An array of
  /// no elements is valid (it still holds a small page-locked block). Any thread may call it.
  /// Throws LogicError if the size overflows, or if the context's backend has no page-locked
  /// memory (its plugin implements SDK 1.0 or 1.1, or the backend has none);
  /// OutOfMemoryError if the memory cannot be page-locked (after the pool has given back what
  /// it caches) or the pool's limit would be passed; BackendError for other failures of the
  /// vendor API.
  static HostArray page_locked(const Context& context, std::vector<std::size_t> shape,
                               const DType& dtype);
  /// As above, metadata.buffer_size() bytes laid out as `metadata`.
  static HostArray page_locked(const Context& context, const ArrayMetadata& metadata);
  /// The host's view of managed memory (Buffer::allocate_managed()): the elements of `buffer`
  /// (or of its region) laid out as `metadata` (at most buffer.size() bytes), through
  /// Buffer::host_pointer(); no copy. The view keeps the buffer alive. Read and write it only
  /// while no work that uses the buffer runs (after Queue::synchronize() of the queues that
  /// used it; see Buffer::host_pointer()). Throws LogicError if the buffer is not managed or
  /// too small for `metadata`.
  static HostArray managed_view(const Buffer& buffer, const ArrayMetadata& metadata);
  /// As above, the elements of `array` (an Array over managed memory, e.g. through
  /// Array::from_buffer()) with its layout.
  static HostArray managed_view(const Array& array);
  /// A new zero-filled C-order array whose first element lies at an address that is a
  /// multiple of `alignment` (PyCUDA's aligned_empty and aligned_zeros): for SIMD loads, or
  /// page-aligned memory (4096) to register with HostRegistration. The memory is freed with
  /// the last handle. Throws LogicError if `alignment` is not a power of two or is below the
  /// dtype's alignment, or if the size overflows; OutOfMemoryError.
  static HostArray aligned(std::vector<std::size_t> shape, const DType& dtype,
                           std::size_t alignment);
  /// As page_locked() above, with the first element at an address that is a multiple of
  /// `alignment` (the block holds up to alignment - 1 bytes more, before it). Throws as
  /// page_locked() and, for `alignment`, as aligned().
  static HostArray page_locked(const Context& context, std::vector<std::size_t> shape,
                               const DType& dtype, std::size_t alignment);
  /// A new C-order array holding a copy of `bytes` (exactly the array's nbytes).
  /// Throws LogicError on a size mismatch.
  static HostArray from_bytes(std::span<const std::byte> bytes, std::vector<std::size_t> shape,
                              const DType& dtype);
  /// A new C-order array of dtype_of<T>() holding a copy of `values`, of shape `shape`.
  /// Throws LogicError if the shape's size is not values.size().
  template <class T>
  static HostArray from_values(std::span<const T> values, std::vector<std::size_t> shape) {
    const ArrayMetadata metadata(std::move(shape), dtype_of<T>());
    check_count(metadata, values.size());
    return from_bytes(std::as_bytes(values), metadata.shape(), metadata.dtype());
  }
  /// As above, one-dimensional.
  template <class T>
  static HostArray from_values(std::span<const T> values) {
    return from_values(values, {values.size()});
  }
  ///@{
  /// The two forms above, for a vector.
  template <class T>
  static HostArray from_values(const std::vector<T>& values, std::vector<std::size_t> shape) {
    return from_values(std::span<const T>(values), std::move(shape));
  }
  template <class T>
  static HostArray from_values(const std::vector<T>& values) {
    return from_values(std::span<const T>(values), {values.size()});
  }
  ///@}
  /// Refers to the caller's `memory` (at least metadata.buffer_size() bytes) laid out as
  /// `metadata`; no copy. Throws LogicError if `memory` is too small.
  static HostArray wrap(std::span<std::byte> memory, const ArrayMetadata& metadata);
  /// Refers to the caller's `values` as a C-order array of dtype_of<T>() and shape
  /// `shape`; no copy. Throws LogicError if the shape's size is not values.size().
  template <class T>
    requires(!std::is_const_v<T>)
  static HostArray wrap(std::span<T> values, std::vector<std::size_t> shape) {
    const ArrayMetadata metadata(std::move(shape), dtype_of<T>());
    check_count(metadata, values.size());
    return wrap(std::as_writable_bytes(values), metadata);
  }
  /// As above, one-dimensional.
  template <class T>
    requires(!std::is_const_v<T>)
  static HostArray wrap(std::span<T> values) {
    return wrap(values, {values.size()});
  }

  /// The layout: shape, dtype, strides, first element offset (see ArrayMetadata).
  const ArrayMetadata& metadata() const noexcept { return metadata_; }
  /// The extent of each dimension.
  const std::vector<std::size_t>& shape() const noexcept { return metadata_.shape(); }
  /// The bytes between neighbours along each dimension.
  const std::vector<std::ptrdiff_t>& strides() const noexcept { return metadata_.strides(); }
  /// The type of the elements.
  const DType& dtype() const noexcept { return metadata_.dtype(); }
  /// The number of dimensions (0 for a scalar).
  std::size_t ndim() const noexcept { return metadata_.ndim(); }
  /// Number of elements.
  std::size_t size() const noexcept { return metadata_.size(); }
  /// size() * itemsize.
  std::size_t nbytes() const noexcept { return metadata_.nbytes(); }
  /// True if the elements lie in C order without gaps (ArrayMetadata::is_contiguous).
  bool is_contiguous() const noexcept { return metadata_.is_contiguous(); }
  /// Whether the elements lie in page-locked memory that plinth knows of: from page_locked(),
  /// or from HostRegistration::wrap() (which keeps the memory registered while the array
  /// lives). Views share their parent's answer; copy() is ordinary memory. Memory page-locked
  /// behind plinth's back and wrapped with wrap() says false, although transfers may still
  /// detect it (CUDA does).
  bool is_page_locked() const noexcept;
  /// Whether the elements lie in managed memory (managed_view()); views share the answer.
  bool is_managed() const noexcept;

  /// The first element (the one whose indices are all 0).
  std::byte* data() const noexcept { return block_.get() + metadata_.first_element_offset(); }
  /// The whole block the elements lie in (for a view: its parent's block).
  std::span<std::byte> block() const noexcept { return {block_.get(), metadata_.buffer_size()}; }

  /// The element at `indices` (one per dimension, each within its extent).
  /// Throws LogicError otherwise.
  std::byte* element(std::span<const std::size_t> indices) const;
  /// The element at `indices` as a T. Throws LogicError for bad indices, or if T does not
  /// match the dtype (see values()).
  template <class T>
  T& at(std::initializer_list<std::size_t> indices) const {
    check_type(sizeof(T), alignof(T), element_dtype<T>(), false);
    return *reinterpret_cast<T*>(element(std::span(indices.begin(), indices.size())));
  }
  /// The elements of a contiguous array as T, in C order. T must be the dtype's type
  /// (dtype_of<T>() == dtype()) or, for struct dtypes, a trivially copyable type of the
  /// same size. Throws LogicError if T does not match, the array is not contiguous, or the
  /// elements are not aligned for T.
  template <class T>
  std::span<T> values() const {
    check_type(sizeof(T), alignof(T), element_dtype<T>(), true);
    return {reinterpret_cast<T*>(data()), size()};
  }
  /// A copy of the elements as T, in C order (any layout). Throws LogicError as values().
  template <class T>
  std::vector<T> to_vector() const {
    const HostArray contiguous = is_contiguous() ? *this : copy();
    const auto elements = contiguous.template values<const T>();
    return std::vector<T>(elements.begin(), elements.end());
  }

  /// A view by numpy's basic indexing (see ArrayMetadata::view), sharing the elements.
  /// Throws LogicError as ArrayMetadata::view.
  HostArray view(std::span<const Index> indices) const;
  /// As above, for a braced list: `host.view({3, Slice(1, 5)})`.
  HostArray view(std::initializer_list<Index> indices) const {
    return view(std::span<const Index>(indices.begin(), indices.size()));
  }
  ///@{
  /// Copies share the elements. Moving copies too (there are no move operations), so a
  /// moved-from HostArray still refers to its elements and every call on it is defined.
  HostArray(const HostArray&) = default;
  HostArray& operator=(const HostArray&) = default;
  ~HostArray() = default;
  ///@}

  /// A new owning C-order array with a copy of the elements.
  HostArray copy() const;
  /// Copies the elements of `src` (same shape and dtype, any layout, possibly overlapping
  /// this array) into this array.
  /// Throws LogicError on a shape or dtype mismatch.
  void assign(const HostArray& src) const;

 private:
  friend class HostRegistration;

  HostArray(std::shared_ptr<std::byte[]> block, ArrayMetadata metadata)
      : block_(std::move(block)), metadata_(std::move(metadata)) {}

  template <class T>
  static std::optional<DType> element_dtype() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_arithmetic_v<U> && sizeof(U) <= 8) {
      return dtype_of<U>();
    } else if constexpr (std::is_same_v<U, std::complex<float>> ||
                         std::is_same_v<U, std::complex<double>>) {
      return dtype_of<U>();
    } else {
      static_assert(std::is_trivially_copyable_v<U>, "HostArray: T must be trivially copyable");
      return std::nullopt;
    }
  }
  void check_type(std::size_t size, std::size_t alignment, const std::optional<DType>& dtype,
                  bool contiguous) const;
  static void check_alignment(const char* what, const DType& dtype, std::size_t alignment);
  static void check_count(const ArrayMetadata& metadata, std::size_t count);

  std::shared_ptr<std::byte[]> block_;
  ArrayMetadata metadata_;
};

}  // namespace plinth
