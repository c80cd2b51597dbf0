#pragma once

// The block of a whole array that a splay's part covers: for MultiArray::resplay (which
// copies between blocks) and the kernel families' MultiQueue calls (which ask how the parts
// lie in the whole array).

#include <plinth/array_metadata.hpp>

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace plinth::detail {

/// A block of the whole array: a half-open range of positions in each dimension.
using Box = std::vector<std::pair<std::size_t, std::size_t>>;

/// Whether `box` holds no element. Throws nothing.
bool is_empty(const Box& box) noexcept;

/// The block that a part's view `indices` of an array of `shape` covers, if every index is
/// a slice of step 1 (the dimensions it leaves out are taken whole); nothing otherwise (an
/// integer index drops a dimension, a step leaves gaps). Throws nothing but std::bad_alloc.
std::optional<Box> plain_box(const std::vector<Index>& indices,
                             const std::vector<std::size_t>& shape);

/// The extent of `box` in each dimension. Throws nothing but std::bad_alloc.
std::vector<std::size_t> extents(const Box& box);

}  // namespace plinth::detail
