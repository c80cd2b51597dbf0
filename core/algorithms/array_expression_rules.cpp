#include "algorithms/array_expression_rules.hpp"

#include "dtypes/float16_rounding.hpp"
#include "dtypes/float32_rounding.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <limits>

namespace plinth::detail {

namespace {

// The kinds weak scalars are compared by: bool < integer < real < complex.
int kind_rank(DTypeKind kind) {
  switch (kind) {
    case DTypeKind::boolean: return 0;
    case DTypeKind::signed_integer:
    case DTypeKind::unsigned_integer: return 1;
    case DTypeKind::floating: return 2;
    case DTypeKind::complex: return 3;
    case DTypeKind::structure: break;
  }
  return -1;
}

// numpy's order for same_kind casting: b < u < i < f < c.
int same_kind_rank(DTypeKind kind) {
  switch (kind) {
    case DTypeKind::boolean: return 0;
    case DTypeKind::unsigned_integer: return 1;
    case DTypeKind::signed_integer: return 2;
    case DTypeKind::floating: return 3;
    case DTypeKind::complex: return 4;
    case DTypeKind::structure: break;
  }
  return -1;
}

void check_not_struct(const DType& dtype) {
  if (dtype.is_struct()) {
    throw LogicError(
        fmt::format("array arithmetic: struct dtype {} has no arithmetic", dtype.name()));
  }
}

// The weak operand `weak` of a higher kind than the strong `strong`.
DType weak_over_strong(const DType& weak, const DType& strong) {
  if (weak.kind() == DTypeKind::complex && strong.kind() == DTypeKind::floating &&
      strong.itemsize() <= 4) {
    return DType::complex64();
  }
  return weak;  // the default type of the weak one's kind
}

}  // namespace

DType default_dtype(DTypeKind kind) {
  switch (kind) {
    case DTypeKind::boolean: return DType::boolean();
    case DTypeKind::signed_integer:
    case DTypeKind::unsigned_integer: return DType::int64();
    case DTypeKind::floating: return DType::float64();
    case DTypeKind::complex: return DType::complex128();
    case DTypeKind::structure: break;
  }
  throw LogicError("array arithmetic: structs have no default dtype");
}

DType scalar_default_dtype(const ScalarValue& value) noexcept {
  switch (value.index()) {
    case 0: return DType::boolean();
    case 1:
    case 2: return DType::int64();
    case 3: return DType::float64();
    default: return DType::complex128();
  }
}

OperandType promote(const OperandType& a, const OperandType& b) {
  check_not_struct(a.dtype);
  check_not_struct(b.dtype);
  if (a.weak && b.weak) {
    const auto kind =
        kind_rank(a.dtype.kind()) >= kind_rank(b.dtype.kind()) ? a.dtype.kind() : b.dtype.kind();
    return {default_dtype(kind), false};
  }
  if (a.weak || b.weak) {
    const auto& weak = a.weak ? a.dtype : b.dtype;
    const auto& strong = a.weak ? b.dtype : a.dtype;
    if (kind_rank(weak.kind()) <= kind_rank(strong.kind())) return {strong, false};
    return {weak_over_strong(weak, strong), false};
  }
  return {result_type(a.dtype, b.dtype), false};
}

bool compares_by_sign(const DType& a, const DType& b) noexcept {
  const auto mixed = [](const DType& s, const DType& u) {
    return s.kind() == DTypeKind::signed_integer && u == DType::uint64();
  };
  return mixed(a, b) || mixed(b, a);
}

DType comparison_type(const OperandType& a, const OperandType& b) {
  const auto type = promote(a, b).dtype;
  if (!a.weak && !b.weak && compares_by_sign(a.dtype, b.dtype)) return DType::int64();
  return type;
}

bool integer_fits(const ScalarValue& value, const DType& dtype) noexcept {
  if (std::holds_alternative<bool>(value)) {
    return dtype.kind() == DTypeKind::boolean || is_integer(dtype);
  }
  if (!is_integer(dtype)) return false;
  const bool is_signed = dtype.kind() == DTypeKind::signed_integer;
  const auto bits = dtype.itemsize() * 8;
  if (const auto* v = std::get_if<std::int64_t>(&value)) {
    return is_signed ? (bits == 64 || (*v >= -(std::int64_t{1} << (bits - 1)) &&
                                       *v < (std::int64_t{1} << (bits - 1))))
                     : (*v >= 0 && (bits == 64 || *v < (std::int64_t{1} << bits)));
  }
  if (const auto* v = std::get_if<std::uint64_t>(&value)) {
    const auto max = is_signed ? (std::uint64_t{1} << (bits - 1)) - 1
                               : (bits == 64 ? std::numeric_limits<std::uint64_t>::max()
                                             : (std::uint64_t{1} << bits) - 1);
    return *v <= max;
  }
  return false;
}

DType true_divide_type(const OperandType& a, const OperandType& b) {
  const auto type = promote(a, b).dtype;
  if (type.kind() == DTypeKind::floating || type.kind() == DTypeKind::complex) return type;
  return DType::float64();
}

DType float_function_type(const DType& dtype) {
  check_not_struct(dtype);
  switch (dtype.kind()) {
    case DTypeKind::floating:
    case DTypeKind::complex: return dtype;
    case DTypeKind::boolean: return DType::float16();
    default:
      if (dtype.itemsize() == 1) return DType::float16();
      return dtype.itemsize() == 2 ? DType::float32() : DType::float64();
  }
}

bool can_cast_same_kind(const DType& from, const DType& to) {
  if (from.is_struct() || to.is_struct()) return from == to;
  if (result_type(from, to) == to) return true;  // safe
  return same_kind_rank(from.kind()) <= same_kind_rank(to.kind());
}

std::string shape_text(std::span<const std::size_t> shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

std::vector<std::size_t> broadcast_shapes(std::span<const std::size_t> a,
                                          std::span<const std::size_t> b) {
  const auto ndim = std::max(a.size(), b.size());
  std::vector<std::size_t> result(ndim);
  for (std::size_t d = 0; d < ndim; ++d) {
    const std::size_t ea = d < a.size() ? a[a.size() - 1 - d] : 1;
    const std::size_t eb = d < b.size() ? b[b.size() - 1 - d] : 1;
    if (ea != eb && ea != 1 && eb != 1) {
      throw LogicError(fmt::format("operands could not be broadcast together with shapes {} {}",
                                   shape_text(a), shape_text(b)));
    }
    result[ndim - 1 - d] = ea == 1 ? eb : ea;
  }
  return result;
}

DType kernel_dtype(const DType& dtype) {
  if (dtype == DType::boolean()) return DType::uint8();
  return dtype == DType::float16() ? DType::uint16() : dtype;
}

DType kernel_scalar_dtype(const DType& dtype) {
  return dtype == DType::float16() ? DType::float32() : kernel_dtype(dtype);
}

std::string scalar_text(const ScalarValue& value) {
  if (const auto* v = std::get_if<bool>(&value)) return *v ? "true" : "false";
  if (const auto* v = std::get_if<std::int64_t>(&value)) return fmt::format("{}", *v);
  if (const auto* v = std::get_if<std::uint64_t>(&value)) return fmt::format("{}", *v);
  if (const auto* v = std::get_if<double>(&value)) return fmt::format("{}", *v);
  const auto& c = std::get<std::complex<double>>(value);
  return fmt::format("({}{:+}j)", c.real(), c.imag());
}

ElementwiseValue scalar_argument(const ScalarValue& value, const DType& dtype) {
  const auto refuse = [&](const char* why) {
    return LogicError(fmt::format("array arithmetic: the scalar {} {} {}", scalar_text(value), why,
                                  dtype.name()));
  };
  switch (dtype.kind()) {
    case DTypeKind::boolean:
      if (const auto* v = std::get_if<bool>(&value)) return static_cast<std::uint8_t>(*v ? 1 : 0);
      throw refuse("is not a bool, so cannot be used as");
    case DTypeKind::signed_integer:
    case DTypeKind::unsigned_integer: {
      if (const auto* v = std::get_if<bool>(&value)) return static_cast<std::int64_t>(*v ? 1 : 0);
      const auto* i = std::get_if<std::int64_t>(&value);
      const auto* u = std::get_if<std::uint64_t>(&value);
      if (i == nullptr && u == nullptr) throw refuse("is not an integer, so cannot be used as");
      if (!integer_fits(value, dtype)) throw refuse("is out of the range of");
      if (i != nullptr) return *i;
      return *u;
    }
    case DTypeKind::floating: {
      if (std::holds_alternative<std::complex<double>>(value)) {
        throw refuse("is complex, so cannot be used as");
      }
      double real = 0;
      if (const auto* v = std::get_if<bool>(&value)) real = *v ? 1 : 0;
      if (const auto* v = std::get_if<std::int64_t>(&value)) real = static_cast<double>(*v);
      if (const auto* v = std::get_if<std::uint64_t>(&value)) real = static_cast<double>(*v);
      if (const auto* v = std::get_if<double>(&value)) real = *v;
      // Rounded by round_to_float32, not by a float conversion (see float32_rounding.hpp);
      // the kernel call then takes the double exactly.
      if (dtype.itemsize() == 2) return round_to_float16(real);  // passed as a float
      if (dtype.itemsize() == 4) return round_to_float32(real);
      return real;
    }
    case DTypeKind::complex: {
      std::complex<double> c;
      if (const auto* v = std::get_if<bool>(&value)) c = *v ? 1 : 0;
      if (const auto* v = std::get_if<std::int64_t>(&value)) c = static_cast<double>(*v);
      if (const auto* v = std::get_if<std::uint64_t>(&value)) c = static_cast<double>(*v);
      if (const auto* v = std::get_if<double>(&value)) c = *v;
      if (const auto* v = std::get_if<std::complex<double>>(&value)) c = *v;
      if (dtype.itemsize() == 8) {
        return std::complex<double>(round_to_float32(c.real()), round_to_float32(c.imag()));
      }
      return c;
    }
    case DTypeKind::structure: break;
  }
  throw refuse("cannot be used as");
}

}  // namespace plinth::detail
