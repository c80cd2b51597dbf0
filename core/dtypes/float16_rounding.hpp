#pragma once

// Rounding a double to float16 on the host, as numpy's `float16(x)` (npy_double_to_half):
// directly from the double, ties to even, so that no intermediate float32 rounding rounds
// twice. Used for the weak scalars of float16 array arithmetic. Exported for the unit tests
// (tests/core/dtypes/).

#include <plinth/export.hpp>

#include <cstdint>

namespace plinth::detail {

/// `value` rounded to the nearest float16 (ties to even), as a double: beyond float16's
/// range (from 65520 in magnitude) ±inf, subnormals kept, below half the smallest subnormal
/// ±0; infinities and NaN as they are. Throws nothing.
PLINTH_EXPORT double round_to_float16(double value) noexcept;

/// The float16 bit pattern of round_to_float16(`value`) (NaN as 0x7e00 with its sign).
/// Throws nothing.
PLINTH_EXPORT std::uint16_t float16_bits(double value) noexcept;

/// The value of the float16 bit pattern `bits`. Throws nothing.
PLINTH_EXPORT double float16_value(std::uint16_t bits) noexcept;

}  // namespace plinth::detail
