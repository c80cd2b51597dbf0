#pragma once

// The checks of a rectangular copy's sides (rect_copy.hpp's RectRegion and RectExtent), as
// pure functions: pitches made explicit, every product and sum checked for overflow (the
// numbers come from users), the region against the size of its buffer or host memory.

#include <plinth/backend/rect_copy.hpp>
#include <plinth/export.hpp>
#include <plinth/rect_copy.hpp>

#include <cstddef>

namespace plinth::detail {

/// `extent` as the SDK takes it. Only for a nonempty extent.
backend::RectShape rect_shape(const RectExtent& extent) noexcept;

/// Whether the extent has no byte (a dimension of 0): the copy does nothing.
bool rect_empty(const RectExtent& extent) noexcept;

/// `region` of a nonempty `extent` as the SDK takes it (the offset of its first byte, both
/// pitches nonzero), checked against `side_size`, the bytes of the buffer or host memory it
/// lies in. Throws LogicError, naming `function` and `side` ("destination buffer", "host
/// source"...), for a row pitch below the width, a slice pitch below row_pitch * height, a
/// number that overflows std::size_t, or a region reaching past `side_size`.
PLINTH_EXPORT backend::RectSide rect_side(const RectRegion& region, const RectExtent& extent,
                                          std::size_t side_size, const char* function,
                                          const char* side);

/// The bytes from a side's first byte to one past its last (its covering range's length).
PLINTH_EXPORT std::size_t rect_span(const backend::RectSide& side,
                                    const backend::RectShape& shape) noexcept;

/// The same side, `planes` slices further on (for copying plane by plane).
backend::RectSide rect_plane(backend::RectSide side, std::size_t planes) noexcept;

}  // namespace plinth::detail
