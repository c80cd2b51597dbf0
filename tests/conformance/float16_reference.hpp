#pragma once

// A host reference of numpy's float16 (npy_half_to_float, npy_float_to_half,
// npy_double_to_half) for the float16 conformance tests, written on the bits: round to nearest
// even, overflow to ±inf (from 65520 in magnitude), subnormals kept, NaN kept (quiet).
// Independent of plinth's own rounding (core/dtypes/float16_rounding.cpp, which works on
// doubles with nearbyint).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace plinth::conformance::half {

inline std::uint32_t float_bits(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, 4);
  return bits;
}
inline float float_of(std::uint32_t bits) {
  float value = 0;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// The float holding the float16 `h` exactly (a NaN keeps its sign and payload, quieted).
inline float to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu, significand = h & 0x3ffu;
  if (exponent == 0x1f && significand == 0) return float_of(sign | 0x7f800000u);  // ±inf
  if (exponent == 0x1f) return float_of(sign | 0x7fc00000u | (significand << 13));
  if (exponent != 0) return float_of(sign | ((exponent + 112) << 23) | (significand << 13));
  const float magnitude = std::ldexp(static_cast<float>(significand), -24);  // exact
  return (h & 0x8000u) != 0 ? -magnitude : magnitude;
}

/// `value` rounded to float16, ties to even (numpy's npy_float_to_half).
inline std::uint16_t from_float(float value) {
  const std::uint32_t x = float_bits(value);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return sign | 0x7e00u | ((a >> 13) & 0x3ffu);  // NaN, quieted
  if (a >= 0x477ff000u) return sign | 0x7c00u;                        // from 65520: inf
  if (a <= 0x33000000u) return sign;  // up to 2^-25 (a tie with 0: to even)
  const std::uint32_t e = a >> 23;
  std::uint32_t q = 0, rest = 0, half = 0;
  if (e < 113) {  // a float16 subnormal: units of 2^-24
    const std::uint32_t m = (a & 0x7fffffu) | 0x800000u, shift = 126 - e;
    q = m >> shift;
    rest = m & ((1u << shift) - 1);
    half = 1u << (shift - 1);
  } else {
    q = ((e - 112) << 10) | ((a >> 13) & 0x3ffu);
    rest = a & 0x1fffu;
    half = 0x1000u;
  }
  if (rest > half || (rest == half && (q & 1u) != 0)) ++q;  // may carry into the exponent
  return static_cast<std::uint16_t>(sign | q);
}

/// `value` rounded to float16 directly (numpy's npy_double_to_half): through a float rounded
/// to odd (toward zero, then the last bit set if inexact), which keeps the information a
/// second rounding to 11 bits needs.
inline std::uint16_t from_double(double value) {
  if (!std::isfinite(value)) return from_float(static_cast<float>(value));
  float f = static_cast<float>(value);
  if (static_cast<double>(f) != value) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(value)) f = std::nextafter(f, 0.0f);
    f = float_of(float_bits(f) | 1u);
  }
  return from_float(f);
}

/// numpy's float16 result of a float32 computation: rounded to float16, as a float.
inline float round(float value) { return to_float(from_float(value)); }

inline bool is_nan(std::uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

}  // namespace plinth::conformance::half
