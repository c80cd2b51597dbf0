#pragma once

// Rounding a double to float32 precision on the host, by arithmetic on its exponent and
// significand rather than by a float conversion: GCC 12 at -O2 vectorises a narrowing and
// widening of both parts of a complex number and then drops the pair, so
// `double(float(x)) == x` held for every x and the rounding never happened (issue 25).
// Exported for the unit tests (tests/core/dtypes/).

#include <plinth/export.hpp>

namespace plinth::detail {

/// `value` rounded to the nearest float32 (ties to even), as a double: what
/// `static_cast<float>(value)` gives on an IEEE machine in the default rounding mode, without
/// relying on the compiler keeping that conversion. Values beyond float32's range become ±inf
/// (as numpy's `float32(1e300)`), values below its smallest subnormal ±0; infinities and NaN
/// are returned as they are. Throws nothing.
PLINTH_EXPORT double round_to_float32(double value) noexcept;

/// True if float32 holds `value` exactly (every float32 value, ±inf and NaN included).
/// Throws nothing.
PLINTH_EXPORT bool is_exact_float32(double value) noexcept;

}  // namespace plinth::detail
