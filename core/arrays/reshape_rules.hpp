#pragma once

// numpy's reshape rules as pure functions of layouts: the new shape with its unknown (-1)
// extent inferred (_fix_unknown_dimension), and the strides of a reshape that needs no copy
// (_attempt_nocopy_reshape, with PyArray_Newshape's shortcuts).

#include <plinth/array_metadata.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace plinth::detail {

/// `requested` with its one negative extent (numpy: any negative value is the unknown one)
/// replaced by what makes the size `size`. `shape` is the array's, for the message.
/// Throws LogicError, naming both shapes, for two unknown extents, a size that does not
/// match, or an unknown extent next to known ones whose product is 0.
PLINTH_EXPORT std::vector<std::size_t> resolve_reshape(std::span<const std::size_t> shape,
                                                       std::span<const std::ptrdiff_t> requested);

/// The strides with which `metadata`'s elements, read in `order`, take the shape `shape`
/// (of the same size) without moving: numpy's reshape without a copy. Arrays contiguous in
/// `order` and arrays of the same shape always succeed; otherwise numpy's
/// _attempt_nocopy_reshape decides. Empty when the reshape needs a copy.
PLINTH_EXPORT std::optional<std::vector<std::ptrdiff_t>> reshape_strides(
    const ArrayMetadata& metadata, std::span<const std::size_t> shape, Order order);

}  // namespace plinth::detail
