#pragma once

// The layout planner every generated elementwise kernel uses (as PyTorch's TensorIterator and
// CuPy's indexer do): how a call's arrays are walked. It drops extents of 1, may order the
// dimensions by the written array's strides, merges dimensions that every array steps through
// as through one, tells which arrays the flat index addresses directly, and whether 32-bit
// index arithmetic is exact. Pure: shapes and strides in, a plan out.

#include <plinth/export.hpp>

#include <boost/container/small_vector.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace plinth::detail {

template <class T, std::size_t N>
using SmallVector = boost::container::small_vector<T, N>;

/// How a call's arrays are walked.
struct LayoutPlan {
  /// The iteration dimensions as the kernel walks them (outermost first), extents of 1
  /// dropped and mergeable neighbours merged; at least one.
  SmallVector<std::size_t, 6> shape;
  /// Per array, `shape.size()` element strides (0 where broadcast), one array after another.
  SmallVector<std::int64_t, 24> strides;
  /// Per array: the flat index over `shape` (row-major) addresses it directly (its strides
  /// are the row-major strides of `shape`).
  SmallVector<bool, 8> direct;
  /// Whether the dimensions were put in another order than the call's (the flat index then
  /// is not the call's row-major index).
  bool reordered = false;
  /// Whether every flat index and every array's element offset fits 31 bits, so that the
  /// kernel may index with 32-bit arithmetic.
  bool index32 = false;

  std::size_t rank() const { return shape.size(); }
  std::span<const std::int64_t> strides_of(std::size_t array) const {
    return {strides.data() + array * rank(), rank()};
  }
  /// Whether every array is addressed directly.
  bool all_direct() const {
    for (const bool d : direct) {
      if (!d) return false;
    }
    return true;
  }
};

/// Plans a call over `shape` (its iteration shape; elements of 0 are fine) for arrays whose
/// element strides over `shape` are `strides` (`arrays` of them, `shape.size()` each, 0 where
/// broadcast). With `order_by`, the dimensions are ordered by that array's absolute strides,
/// largest first (stable; a caller passes it only where the flat index's order does not
/// matter); without, they keep the call's order. Throws nothing but std::bad_alloc.
PLINTH_EXPORT LayoutPlan plan_layout(std::span<const std::size_t> shape,
                                     std::span<const std::int64_t> strides, std::size_t arrays,
                                     std::optional<std::size_t> order_by);

/// A divisor as a multiplier and shift, so that for every n < 2^31,
/// n / divisor == (n * multiplier) >> shift in 64-bit arithmetic (Granlund and Montgomery's
/// round-up method): what a kernel divides flat indices by instead of a division.
struct FastDivisor {
  std::uint64_t multiplier = 0;
  std::uint32_t shift = 0;
};

/// The FastDivisor of `divisor` (1 <= divisor < 2^31). Throws nothing.
PLINTH_EXPORT FastDivisor fast_divisor(std::uint32_t divisor) noexcept;

}  // namespace plinth::detail
