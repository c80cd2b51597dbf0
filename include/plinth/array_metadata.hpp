#pragma once

// The layout of an array in memory (shape, strides, first element), and views of it by
// numpy's basic slicing. Shared by Array (device memory) and HostArray (host memory).

#include <plinth/dtype.hpp>
#include <plinth/export.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace plinth {

/// A basic slice of one dimension, as Python's `start:stop:step`: an absent start or stop
/// means "from the beginning" / "to the end" in the direction of `step` (so
/// `Slice(std::nullopt, std::nullopt, -1)` reverses the dimension); negative values count
/// from the end; start and stop beyond the dimension are clamped, as in numpy, so a slice is
/// never out of bounds (it may be empty). A step of 0 is rejected when the view is made.
///
///     arr.view({Slice(2, 8), Slice::all(), Slice(std::nullopt, std::nullopt, -1)});
struct Slice {
  std::optional<std::ptrdiff_t> start;  ///< the first position; absent: the first in `step`'s way
  std::optional<std::ptrdiff_t> stop;   ///< the position after the last; absent: to the end
  std::ptrdiff_t step = 1;              ///< may be negative; 0 is rejected by the view

  /// The whole dimension (`:`).
  Slice() = default;
  /// `start:stop:step`; there is deliberately no one-argument form (Python's `slice(n)`
  /// means a stop, which reads as a start in C++).
  Slice(std::optional<std::ptrdiff_t> start_, std::optional<std::ptrdiff_t> stop_,
        std::ptrdiff_t step_ = 1)
      : start(start_), stop(stop_), step(step_) {}
  /// The whole dimension (`:`).
  static Slice all() { return {}; }

  /// Equal start, stop and step (not equal effect: `Slice(0, 100)` differs from all()).
  bool operator==(const Slice& other) const = default;
};

/// One term of a view: a Slice (keeps the dimension) or an integer (selects one position
/// and drops the dimension; negative values count from the end). Converts implicitly from
/// both, so `arr.view({3, Slice(1, 5)})` is row 3, columns 1 to 4.
class Index {
 public:
  ///@{
  /// A slice, or an integer position (not a bool).
  Index(const Slice& slice) : slice_(slice) {}  // NOLINT(google-explicit-constructor)
  template <std::integral I>
    requires(!std::is_same_v<I, bool>)
  Index(I position)  // NOLINT(google-explicit-constructor)
      : position_(clamp(position)), is_slice_(false) {}
  ///@}

  /// True for a Slice, false for an integer position.
  bool is_slice() const noexcept { return is_slice_; }
  /// The slice (meaningful only if is_slice()).
  const Slice& slice() const noexcept { return slice_; }
  /// The position (meaningful only if !is_slice()).
  std::ptrdiff_t position() const noexcept { return position_; }

 private:
  template <class I>
  static std::ptrdiff_t clamp(I value) {
    // An unsigned position too large for ptrdiff_t is out of bounds anyway.
    if constexpr (std::is_unsigned_v<I> && sizeof(I) >= sizeof(std::ptrdiff_t)) {
      if (value > static_cast<I>(std::numeric_limits<std::ptrdiff_t>::max())) {
        return std::numeric_limits<std::ptrdiff_t>::max();
      }
    }
    return static_cast<std::ptrdiff_t>(value);
  }

  Slice slice_;
  std::ptrdiff_t position_ = 0;
  bool is_slice_ = true;
};

/// The order of a new array's elements in memory (numpy's `order`): C (row-major, the last
/// index varies fastest) or F (Fortran's column-major, the first index varies fastest).
enum class Order {
  C,  ///< row-major
  F,  ///< column-major
};

/// Where the elements of an array lie in a block of memory (grunnur's ArrayMetadata):
/// the shape, the element type, the strides in bytes (numpy's convention; they may be
/// negative, zero, or leave gaps), the byte offset of the first element (the one whose
/// indices are all 0) from the start of the block, and the size of the block.
///
/// Shapes may have zero dimensions (one element) or extents of 0 (no elements). A value type.
class PLINTH_EXPORT ArrayMetadata {
 public:
  /// The layout of a `shape` array of `dtype`. Without `strides`, C order (the last index
  /// varies fastest, no gaps). Without `first_element_offset`, the smallest offset that
  /// keeps every element at or after the start of the block (0 unless a stride is negative).
  /// Without `buffer_size`, the smallest block that holds every element.
  /// Throws LogicError if `strides` has another length than `shape`, if an element would lie
  /// before the block or beyond `buffer_size`, or if a size overflows.
  ArrayMetadata(std::vector<std::size_t> shape, const DType& dtype,
                std::optional<std::vector<std::ptrdiff_t>> strides = std::nullopt,
                std::optional<std::size_t> first_element_offset = std::nullopt,
                std::optional<std::size_t> buffer_size = std::nullopt);

  /// C-order strides of `shape` for elements of `itemsize` bytes.
  static std::vector<std::ptrdiff_t> default_strides(std::span<const std::size_t> shape,
                                                     std::size_t itemsize);
  /// The strides of `shape` laid out in `order` without gaps (Order::C as above; Order::F:
  /// the first index varies fastest). Throws LogicError if a stride overflows.
  static std::vector<std::ptrdiff_t> default_strides(std::span<const std::size_t> shape,
                                                     std::size_t itemsize, Order order);

  /// The extent of each dimension.
  const std::vector<std::size_t>& shape() const noexcept { return shape_; }
  /// The type of the elements.
  const DType& dtype() const noexcept { return dtype_; }
  /// The bytes between neighbours along each dimension (negative for reversed dimensions).
  const std::vector<std::ptrdiff_t>& strides() const noexcept { return strides_; }
  /// The number of dimensions (0 for a scalar).
  std::size_t ndim() const noexcept { return shape_.size(); }
  /// Number of elements (1 for zero dimensions, 0 if an extent is 0).
  std::size_t size() const noexcept { return size_; }
  /// size() * itemsize: the bytes a contiguous copy of the elements takes.
  std::size_t nbytes() const noexcept { return size_ * dtype_.itemsize(); }
  /// Byte offset of the first element from the start of the block.
  std::size_t first_element_offset() const noexcept { return first_element_offset_; }
  /// The size of the block the elements lie in.
  std::size_t buffer_size() const noexcept { return buffer_size_; }
  /// Byte offset of the lowest byte of any element (first_element_offset() for no elements).
  std::size_t min_offset() const noexcept { return min_offset_; }
  /// Bytes from min_offset() to the end of the highest element: the smallest range that
  /// covers every element (0 for no elements).
  std::size_t span() const noexcept { return span_; }
  /// True if the elements lie in C order without gaps (strides of extent-1 dimensions do
  /// not matter), so that the bytes [first_element_offset(), + nbytes()) are exactly the
  /// elements in C order. Empty arrays are contiguous.
  bool is_contiguous() const noexcept { return contiguous_; }
  /// numpy's C_CONTIGUOUS flag: the same as is_contiguous() (the strides of extent-1
  /// dimensions do not matter; arrays of 0 or 1 elements are contiguous).
  bool is_c_contiguous() const noexcept { return contiguous_; }
  /// numpy's F_CONTIGUOUS flag: the elements lie in Fortran order (the first index varies
  /// fastest) without gaps, the strides of extent-1 dimensions not mattering; arrays of 0 or
  /// 1 elements, and one-dimensional contiguous ones, are both C- and F-contiguous.
  bool is_f_contiguous() const noexcept { return f_contiguous_; }
  /// True if the elements, in some order, fill span() exactly: no gaps and no overlaps
  /// (a reversed or transposed contiguous array is dense but not contiguous).
  bool is_dense() const noexcept { return dense_; }

  /// The view by numpy's basic indexing: one Index per leading dimension (the rest are taken
  /// whole); Slices keep a dimension, integers drop it. The view lies in the same block
  /// (same buffer_size()).
  /// Throws LogicError for more indices than dimensions, an integer index out of bounds
  /// (after counting negative ones from the end), or a slice step of 0.
  ArrayMetadata view(std::span<const Index> indices) const;
  /// As above, for a braced list: `m.view({2, Slice(1, 5)})`.
  ArrayMetadata view(std::initializer_list<Index> indices) const {
    return view(std::span<const Index>(indices.begin(), indices.size()));
  }

  /// The same layout (shape, dtype, strides) seen from the region [origin, origin + size) of
  /// the block (grunnur's `ArrayMetadata.get_sub_region`): the first element offset is
  /// first_element_offset() - origin and the block size is `size`.
  /// Throws LogicError if an element (or, with no elements, the first element offset) lies
  /// before `origin` or beyond origin + size, or if the region does not fit in the block.
  ArrayMetadata get_sub_region(std::size_t origin, std::size_t size) const;

  struct SubRegion;

  /// The smallest region of the block that holds every element, and the layout seen from it
  /// (grunnur's `ArrayMetadata.minimal_subregion`): `origin` is min_offset(), `size` is
  /// span(), and `metadata` is get_sub_region(origin, size) — the same shape and strides,
  /// first element offset first_element_offset() - min_offset(), block size span().
  /// An array with no elements gives an empty region at its first element offset.
  /// Throws nothing but std::bad_alloc.
  SubRegion minimal_subregion() const;

  /// Equal shapes, dtypes, strides, first element offsets and block sizes.
  bool operator==(const ArrayMetadata& other) const = default;

 private:
  std::vector<std::size_t> shape_;
  DType dtype_;
  std::vector<std::ptrdiff_t> strides_;
  std::size_t first_element_offset_ = 0;
  std::size_t buffer_size_ = 0;
  std::size_t size_ = 0;
  std::size_t min_offset_ = 0;
  std::size_t span_ = 0;
  bool contiguous_ = true;
  bool f_contiguous_ = true;
  bool dense_ = true;
};

/// A region of an array's block and the array's layout seen from it
/// (ArrayMetadata::minimal_subregion).
struct ArrayMetadata::SubRegion {
  /// Where the region starts in the original block.
  std::size_t origin = 0;
  /// Bytes in the region.
  std::size_t size = 0;
  /// The layout relative to the region's start, with block size `size`.
  ArrayMetadata metadata;
};

}  // namespace plinth
