#include "dtypes/float32_rounding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace plinth::detail {

double round_to_float32(double value) noexcept {
  if (!std::isfinite(value) || value == 0) return value;
  // float32 has 24 significant bits; its normal exponents reach down to -126, below which
  // the spacing stays that of the subnormals, 2^-149. Every step below is exact (scaling by
  // a power of two that neither overflows nor underflows, an integer of at most 25 bits)
  // except the one rounding, nearbyint's, which rounds to even in the default mode.
  constexpr int mantissa_bits = std::numeric_limits<float>::digits;           // 24
  constexpr int min_exponent = std::numeric_limits<float>::min_exponent - 1;  // -126
  const int exponent = std::max(std::ilogb(value), min_exponent);
  const int spacing = exponent - (mantissa_bits - 1);
  const double rounded = std::ldexp(std::nearbyint(std::ldexp(value, -spacing)), spacing);
  if (std::fabs(rounded) > static_cast<double>(std::numeric_limits<float>::max())) {
    return std::copysign(std::numeric_limits<double>::infinity(), value);
  }
  return rounded;
}

bool is_exact_float32(double value) noexcept {
  return std::isnan(value) || round_to_float32(value) == value;
}

}  // namespace plinth::detail
