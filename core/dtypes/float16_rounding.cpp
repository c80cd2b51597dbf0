#include "dtypes/float16_rounding.hpp"

#include <cmath>
#include <limits>

namespace plinth::detail {

double round_to_float16(double value) noexcept {
  if (!std::isfinite(value) || value == 0) return value;
  const double magnitude = std::fabs(value);
  if (magnitude >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), value);
  // The spacing of float16 values around `magnitude` (2^-24 for subnormals): dividing by a
  // power of two is exact, and nearbyint rounds ties to even in the default rounding mode.
  const int exponent = std::max(std::ilogb(magnitude), -14);
  const double spacing = std::ldexp(1.0, exponent - 10);
  return std::copysign(std::nearbyint(magnitude / spacing) * spacing, value);
}

std::uint16_t float16_bits(double value) noexcept {
  const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7e00;
  const double magnitude = std::fabs(round_to_float16(value));
  if (std::isinf(magnitude)) return sign | 0x7c00;
  if (magnitude < std::ldexp(1.0, -14)) {  // subnormal or zero: multiples of 2^-24
    return sign | static_cast<std::uint16_t>(std::ldexp(magnitude, 24));
  }
  const int exponent = std::ilogb(magnitude);
  const auto significand = static_cast<std::uint16_t>(std::ldexp(magnitude, 10 - exponent));
  return sign | static_cast<std::uint16_t>((exponent + 15) << 10) | (significand & 0x3ff);
}

double float16_value(std::uint16_t bits) noexcept {
  const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1f;
  const int significand = bits & 0x3ff;
  if (exponent == 0x1f) {
    return significand == 0 ? sign * std::numeric_limits<double>::infinity()
                            : std::copysign(std::numeric_limits<double>::quiet_NaN(), sign);
  }
  if (exponent == 0) return sign * std::ldexp(significand, -24);
  return sign * std::ldexp(significand + 1024, exponent - 25);
}

}  // namespace plinth::detail
