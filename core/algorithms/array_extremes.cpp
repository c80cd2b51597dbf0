// min, max, nanmin and nanmax (array_reductions.hpp).

#include <plinth/array_reductions.hpp>

#include "algorithms/array_reductions_kit.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>

namespace plinth {

namespace {

/// Which extreme, and whether NaNs are skipped.
struct Extreme {
  bool is_min;
  bool skip_nan;
  const char* name() const {
    if (skip_nan) return is_min ? "nanmin" : "nanmax";
    return is_min ? "min" : "max";
  }
};

/// A C function `plinth_minmax_bits()` giving the float or double of the given bits (C has
/// no portable infinity or NaN literal: made from its bits through a union).
std::string bits_function(const DType& dtype, bool nan) {
  const bool single = dtype.itemsize() == 4;
  const char* bits = single ? (nan ? "0x7fc00000u" : "0x7f800000u")
                            : (nan ? "0x7ff8000000000000UL" : "0x7ff0000000000000UL");
  return fmt::format(
      "FUNCTION {0} plinth_minmax_bits(void)\n"
      "{{\n"
      "    union {{ {1} bits; {0} value; }} v;\n"
      "    v.bits = {2};\n"
      "    return v.value;\n"
      "}}\n",
      single ? "float" : "double", single ? "unsigned int" : "unsigned long", bits);
}

/// The integer neutral of `extreme` over `dtype`: its largest value for min, lowest for max.
std::string integer_neutral(const DType& dtype, bool is_min) {
  const auto bits = 8 * dtype.itemsize();
  if (dtype.kind() == DTypeKind::signed_integer) {
    const std::int64_t most = static_cast<std::int64_t>((std::uint64_t{1} << (bits - 1)) - 1);
    return detail::c_constant_of(is_min ? most : -most - 1, dtype);
  }
  const std::uint64_t most =
      bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
  return detail::c_constant_of(is_min ? most : std::uint64_t{0}, dtype);
}

/// The kernel of `extreme` over `dtype` (as kernel_dtype).
ReductionKernel extreme_kernel(const DType& dtype, Extreme extreme) {
  const bool skip_nan = extreme.skip_nan && is_real(dtype);
  const char* name = skip_nan ? extreme.name() : (extreme.is_min ? "min" : "max");
  return detail::cached_reduction(fmt::format("{}:{}", name, dtype.name()), [&] {
    const char* op = extreme.is_min ? "<" : ">";
    std::string neutral, reduce, preamble;
    if (skip_nan) {
      // NaN is the neutral: either side's NaN yields the other, so only all-NaN gives NaN.
      preamble = bits_function(dtype, true);
      neutral = "plinth_minmax_bits()";
      reduce = fmt::format("(a != a) ? b : ((b != b) ? a : (a {} b ? a : b))", op);
    } else if (is_real(dtype)) {
      preamble = bits_function(dtype, false);
      neutral = extreme.is_min ? "plinth_minmax_bits()" : "-plinth_minmax_bits()";
      // NaN wins, as in numpy (a != a only for NaN).
      reduce = fmt::format("(a != a || a {} b) ? a : b", op);
    } else {
      neutral = integer_neutral(dtype, extreme.is_min);
      reduce = fmt::format("a {} b ? a : b", op);
    }
    return ReductionKernel({ElementwiseArg::input("x", dtype)}, dtype, neutral, reduce, "x[i]",
                           {.name = fmt::format("plinth_{}", name), .preamble = preamble});
  });
}

Array extreme_of(Extreme extreme, const Queue& queue, const Array& x, const ReductionAxes& axes) {
  const auto resolved = detail::resolve_axes(extreme.name(), x.shape(), axes.axis);
  detail::check_ordered(extreme.name(), x.dtype(), x.shape(), resolved);
  const auto read = detail::kernel_dtype(x.dtype());
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(detail::retyped(x, read))};
  return detail::run_reduction(extreme.name(), queue, extreme_kernel(read, extreme), values,
                               resolved, axes, x.dtype());
}

Array extreme_of(Extreme extreme, const Queue& queue, const Array& x,
                 const ReductionTarget& target) {
  detail::check_ordered(extreme.name(), x.dtype(), x.shape(),
                        detail::resolve_target(x.shape(), target));
  const auto read = detail::kernel_dtype(x.dtype());
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(detail::retyped(x, read))};
  return detail::run_target(queue, extreme_kernel(read, extreme), values, target, x.dtype());
}

MultiArray extreme_of(Extreme extreme, const MultiQueue& queues, const MultiArray& x,
                      const ReductionTarget& target) {
  detail::check_ordered(extreme.name(), x.dtype(), x.shape(),
                        detail::resolve_target(x.shape(), target));
  if (x.dtype() == DType::boolean()) {
    throw LogicError(fmt::format(
        "{}: MultiArrays of bool are not reduced (use an int8 or uint8 copy)", extreme.name()));
  }
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return extreme_kernel(x.dtype(), extreme).launch(queues, values, target);
}

}  // namespace

Array detail::min_over_target(const Queue& queue, const Array& x, const ReductionTarget& target) {
  return extreme_of({.is_min = true, .skip_nan = false}, queue, x, target);
}

Array detail::max_over_target(const Queue& queue, const Array& x, const ReductionTarget& target) {
  return extreme_of({.is_min = false, .skip_nan = false}, queue, x, target);
}

Array min(const Queue& queue, const Array& x, const ReductionAxes& axes) {
  return extreme_of({.is_min = true, .skip_nan = false}, queue, x, axes);
}

Array max(const Queue& queue, const Array& x, const ReductionAxes& axes) {
  return extreme_of({.is_min = false, .skip_nan = false}, queue, x, axes);
}

Array nanmin(const Queue& queue, const Array& x, const ReductionAxes& axes) {
  return extreme_of({.is_min = true, .skip_nan = true}, queue, x, axes);
}

Array nanmax(const Queue& queue, const Array& x, const ReductionAxes& axes) {
  return extreme_of({.is_min = false, .skip_nan = true}, queue, x, axes);
}

MultiArray min(const MultiQueue& queues, const MultiArray& x, const ReductionTarget& target) {
  return extreme_of({.is_min = true, .skip_nan = false}, queues, x, target);
}

MultiArray max(const MultiQueue& queues, const MultiArray& x, const ReductionTarget& target) {
  return extreme_of({.is_min = false, .skip_nan = false}, queues, x, target);
}

}  // namespace plinth
