// numpy's type promotion (np.result_type on dtypes) and np.min_scalar_type, for the scalar
// dtypes plinth supports, and grunnur's promotion of the small types to 32 bits.

#include <plinth/dtype.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace plinth {

namespace {

// Whether a float type of `float_size` bytes holds every integer of `int_size` bytes.
// numpy counts int64 → float64 as safe although float64 has 53 bits of mantissa.
bool float_holds_integer(std::size_t float_size, std::size_t int_size) {
  return float_size > int_size || (float_size == 8 && int_size == 8);
}

// numpy's np.can_cast(from, to, "safe") for the scalar dtypes.
bool can_cast_safely(const DType& from, const DType& to) {
  const auto to_size = to.itemsize();
  const auto from_size = from.itemsize();
  switch (from.kind()) {
    case DTypeKind::boolean: return true;
    case DTypeKind::signed_integer:
    case DTypeKind::unsigned_integer: {
      const bool from_signed = from.kind() == DTypeKind::signed_integer;
      switch (to.kind()) {
        case DTypeKind::signed_integer:
          return from_signed ? to_size >= from_size : to_size > from_size;
        case DTypeKind::unsigned_integer: return !from_signed && to_size >= from_size;
        case DTypeKind::floating: return float_holds_integer(to_size, from_size);
        case DTypeKind::complex: return float_holds_integer(to_size / 2, from_size);
        default: return false;
      }
    }
    case DTypeKind::floating:
      return (to.kind() == DTypeKind::floating && to_size >= from_size) ||
             (to.kind() == DTypeKind::complex && to_size / 2 >= from_size);
    case DTypeKind::complex: return to.kind() == DTypeKind::complex && to_size >= from_size;
    case DTypeKind::structure: return false;
  }
  return false;
}

}  // namespace

// numpy's rule: the result has the smallest size, then the smallest kind (bool, int, uint,
// float, complex), among the types every input casts to safely. Checking the candidates in
// that order gives it, whatever the order of the inputs.
DType result_type(std::span<const DType> dtypes) {
  if (dtypes.empty()) throw LogicError("result_type: needs at least one dtype");
  for (const auto& dtype : dtypes) {
    if (dtype.is_struct()) {
      throw LogicError(fmt::format("result_type: struct dtype {} takes no part in type promotion",
                                   dtype.name()));
    }
  }
  static const std::array<DType, 14> candidates = {
      DType::boolean(), DType::int8(),    DType::uint8(),     DType::int16(),     DType::uint16(),
      DType::float16(), DType::int32(),   DType::uint32(),    DType::float32(),   DType::int64(),
      DType::uint64(),  DType::float64(), DType::complex64(), DType::complex128()};
  for (const auto& candidate : candidates) {
    bool all = true;
    for (const auto& dtype : dtypes) all = all && can_cast_safely(dtype, candidate);
    if (all) return candidate;
  }
  // Unreachable: every scalar casts safely to complex128.
  throw LogicError("result_type: no common type");
}

namespace detail {

DType min_scalar_type_of(bool /*value*/) { return DType::boolean(); }

DType min_scalar_type_of(std::uint64_t value) {
  if (value <= std::numeric_limits<std::uint8_t>::max()) return DType::uint8();
  if (value <= std::numeric_limits<std::uint16_t>::max()) return DType::uint16();
  if (value <= std::numeric_limits<std::uint32_t>::max()) return DType::uint32();
  return DType::uint64();
}

DType min_scalar_type_of(std::int64_t value) {
  if (value >= 0) return min_scalar_type_of(static_cast<std::uint64_t>(value));
  if (value >= std::numeric_limits<std::int8_t>::min()) return DType::int8();
  if (value >= std::numeric_limits<std::int16_t>::min()) return DType::int16();
  if (value >= std::numeric_limits<std::int32_t>::min()) return DType::int32();
  return DType::int64();
}

// numpy's thresholds (not the types' exact limits): float16 below 65000 in magnitude,
// float32 below 3.4e38; infinities and NaN count as float16.
DType min_scalar_type_of(double value) {
  if (!std::isfinite(value) || (value > -65000.0 && value < 65000.0)) return DType::float16();
  if (value > -3.4e38 && value < 3.4e38) return DType::float32();
  return DType::float64();
}

DType min_scalar_type_of(float value) {
  if (!std::isfinite(value) || (value > -65000.0f && value < 65000.0f)) return DType::float16();
  return DType::float32();
}

// There is no complex32: complex64 if both parts fit float32's range (NaN and infinities do
// not), else complex128.
DType min_scalar_type_of(std::complex<double> value) {
  const auto fits = [](double part) { return part > -3.4e38 && part < 3.4e38; };
  return fits(value.real()) && fits(value.imag()) ? DType::complex64() : DType::complex128();
}

DType min_scalar_type_of(std::complex<float> /*value*/) { return DType::complex64(); }

// grunnur computes np.min_scalar_type(-value - 1): the signed type of the same size holds
// 0..value exactly when it holds -value - 1.
DType min_signed_scalar_type_of(std::uint64_t value) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    throw LogicError(fmt::format(
        "min_scalar_type: no signed integer dtype holds {} (force_signed; int64 ends at {})", value,
        std::numeric_limits<std::int64_t>::max()));
  return min_scalar_type_of(-static_cast<std::int64_t>(value) - 1);
}

DType promote_to_32_bits(const DType& dtype) {
  if (dtype.itemsize() >= 4) return dtype;
  switch (dtype.kind()) {
    case DTypeKind::signed_integer: return DType::int32();
    case DTypeKind::unsigned_integer: return DType::uint32();
    case DTypeKind::floating: return DType::float32();
    default: return dtype;
  }
}

}  // namespace detail

}  // namespace plinth
