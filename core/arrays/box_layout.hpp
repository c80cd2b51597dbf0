#pragma once

// Box layouts: two strided layouts of one shape (a device array's and a host array's, or two
// device arrays') whose elements form the same 2-D or 3-D box of rows, so that a rectangular
// copy (rect_copy.hpp) moves them in one call: a sub-matrix of a C- or F-order array, a
// sub-volume, a strided row slice.

#include <plinth/backend/rect_copy.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <optional>
#include <span>

namespace plinth::detail {

/// A rectangular copy between two layouts: its shape (width in bytes, height, depth) and
/// each side's pitches, with offsets 0 (the first elements'; the caller adds where they lie).
struct BoxCopy {
  backend::RectShape shape;
  backend::RectSide a;
  backend::RectSide b;
};

/// The rectangular copy moving every element of a `shape` array of `itemsize`-byte elements
/// between the layouts `a_strides` and `b_strides` (bytes), or nothing where no copy of at
/// most three dimensions does: a stride that is negative or 0 (on a dimension of more than
/// one element), rows that are not contiguous on both sides (the fastest-varying dimension,
/// ordered by `a`'s strides, must have stride `itemsize` in both), dimensions ordered
/// differently on the two sides, pitches that would make rows or slices overlap, or more
/// than three dimensions after merging those that are contiguous in both. Dimensions of
/// extent 1 are ignored. An array without elements has no copy.
PLINTH_EXPORT std::optional<BoxCopy> box_copy(std::span<const std::size_t> shape,
                                              std::span<const std::ptrdiff_t> a_strides,
                                              std::span<const std::ptrdiff_t> b_strides,
                                              std::size_t itemsize);

}  // namespace plinth::detail
