#include <plinth/array_reductions.hpp>

#include "algorithms/kit/recipe_cache.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>
#include <plinth/functions.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace plinth {

namespace {

/// The kernel cached under `key` in the recipe cache, made by `make` the first time.
template <class Make>
ReductionKernel cached_kernel(const std::string& key, Make make) {
  return detail::recipe_cache().get<ReductionKernel>("reduction", key, make);
}

std::string zero_of(const DType& dtype) {
  if (is_complex(dtype) || is_real(dtype)) return detail::c_constant_of(0.0, dtype);
  if (dtype.kind() == DTypeKind::unsigned_integer) {
    return detail::c_constant_of(std::uint64_t{0}, dtype);
  }
  return detail::c_constant_of(std::int64_t{0}, dtype);
}

/// `a + b` for the output dtype (through the functions library for complex values).
std::pair<std::string, RenderGlobals> addition(const DType& dtype) {
  if (is_complex(dtype)) return {"${add}(a, b)", {{"add", functions::add({dtype, dtype}, dtype)}}};
  return {"a + b", {}};
}

void check_plain(const char* function, const DType& dtype) {
  if (dtype.is_struct()) {
    throw LogicError(fmt::format("{}: the array is of the struct dtype {} (use a ReductionKernel)",
                                 function, dtype.name()));
  }
}

/// Refuses what min and max cannot order or reduce: structs, complex numbers, and an
/// output reducing no elements of an array of `shape` (numpy: no identity).
void check_min_or_max(const char* function, const DType& dtype,
                      const std::vector<std::size_t>& shape, const ReductionTarget& target) {
  check_plain(function, dtype);
  if (is_complex(dtype)) {
    throw LogicError(
        fmt::format("{}: complex numbers ({}) are not ordered", function, dtype.name()));
  }
  std::size_t extent = 1;
  if (target.axes) {
    for (const auto axis : *target.axes) extent *= axis < shape.size() ? shape[axis] : 1;
  } else {
    for (const auto size : shape) extent *= size;
  }
  if (extent == 0) {
    throw LogicError(
        fmt::format("{}: the array of shape ({}) has no elements to reduce along "
                    "the axes (there is no identity)",
                    function, fmt::join(shape, ", ")));
  }
}

/// The kernel of min (`is_min`) or max over `dtype`.
ReductionKernel min_or_max_kernel(const DType& dtype, bool is_min) {
  const char* function = is_min ? "min" : "max";
  return cached_kernel(fmt::format("{}:{}", function, dtype.name()), [&] {
    const char* op = is_min ? "<" : ">";
    std::string neutral, reduce, preamble;
    if (is_real(dtype)) {
      // C has no portable infinity literal: made from its bits (a union, valid everywhere).
      const bool single = dtype.itemsize() == 4;
      preamble = fmt::format(
          "FUNCTION {0} plinth_minmax_infinity(void)\n"
          "{{\n"
          "    union {{ {1} bits; {0} value; }} v;\n"
          "    v.bits = {2};\n"
          "    return v.value;\n"
          "}}\n",
          single ? "float" : "double", single ? "unsigned int" : "unsigned long",
          single ? "0x7f800000u" : "0x7ff0000000000000UL");
      neutral = is_min ? "plinth_minmax_infinity()" : "-plinth_minmax_infinity()";
      // NaN wins, as in numpy (a != a only for NaN).
      reduce = fmt::format("(a != a || a {} b) ? a : b", op);
    } else {
      const bool is_signed = dtype.kind() == DTypeKind::signed_integer;
      const auto bits = 8 * dtype.itemsize();
      if (is_signed) {
        const std::int64_t most = static_cast<std::int64_t>((std::uint64_t{1} << (bits - 1)) - 1);
        neutral = detail::c_constant_of(is_min ? most : -most - 1, dtype);
      } else {
        const std::uint64_t most =
            bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
        neutral = detail::c_constant_of(is_min ? most : std::uint64_t{0}, dtype);
      }
      reduce = fmt::format("a {} b ? a : b", op);
    }
    return ReductionKernel({ElementwiseArg::input("x", dtype)}, dtype, neutral, reduce, "x[i]",
                           {.name = is_min ? "plinth_min" : "plinth_max", .preamble = preamble});
  });
}

/// The kernel summing `in` as `out`.
ReductionKernel sum_kernel(const DType& in, const DType& out) {
  return cached_kernel(fmt::format("sum:{}:{}", in.name(), out.name()), [&] {
    auto [reduce, globals] = addition(out);
    std::string map = "x[i]";
    if (in != out) {
      try {
        globals["cast"] = functions::cast(in, out);
      } catch (const LogicError& error) {
        throw LogicError(fmt::format("sum: a {} array cannot be summed as {}: {}", in.name(),
                                     out.name(), error.what()));
      }
      map = "${cast}(x[i])";
    }
    return ReductionKernel({ElementwiseArg::input("x", in)}, out, zero_of(out), reduce, map,
                           {.name = "plinth_sum", .render_globals = globals});
  });
}

/// Checks dot's arrays (1-D, plain, the same length).
void check_dot(const DType& a_dtype, const std::vector<std::size_t>& a_shape, const DType& b_dtype,
               const std::vector<std::size_t>& b_shape) {
  for (const auto& [name, dtype, shape] :
       {std::tuple{"a", &a_dtype, &a_shape}, std::tuple{"b", &b_dtype, &b_shape}}) {
    check_plain("dot", *dtype);
    if (shape->size() != 1) {
      throw LogicError(fmt::format("dot: argument '{}' must be 1-D, got shape ({})", name,
                                   fmt::join(*shape, ", ")));
    }
  }
  if (a_shape[0] != b_shape[0]) {
    throw LogicError(
        fmt::format("dot: argument 'b' has {} elements, argument 'a' {}", b_shape[0], a_shape[0]));
  }
}

/// The kernel of dot over `a` and `b`.
ReductionKernel dot_kernel(const DType& a, const DType& b) {
  const auto result = result_type(a, b);
  return cached_kernel(fmt::format("dot:{}:{}", a.name(), b.name()), [&] {
    auto [reduce, globals] = addition(result);
    globals["mul"] = functions::mul({a, b}, result);
    return ReductionKernel({ElementwiseArg::input("a", a), ElementwiseArg::input("b", b)}, result,
                           zero_of(result), reduce, "${mul}(a[i], b[i])",
                           {.name = "plinth_dot", .render_globals = globals});
  });
}

}  // namespace

DType sum_dtype(const DType& dtype) {
  if (dtype.is_struct()) {
    throw LogicError(fmt::format("sum_dtype: the struct dtype {} has no sum", dtype.name()));
  }
  if (dtype == DType::boolean()) return DType::int64();
  if (dtype.kind() == DTypeKind::signed_integer) return DType::int64();
  if (dtype.kind() == DTypeKind::unsigned_integer) return DType::uint64();
  return dtype;
}

Array sum(const Queue& queue, const Array& x, const ReductionTarget& target,
          const std::optional<DType>& dtype) {
  check_plain("sum", x.dtype());
  const auto kernel = sum_kernel(x.dtype(), dtype.value_or(sum_dtype(x.dtype())));
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return kernel.launch(queue, values, target);
}

MultiArray sum(const MultiQueue& queues, const MultiArray& x, const ReductionTarget& target,
               const std::optional<DType>& dtype) {
  check_plain("sum", x.dtype());
  const auto kernel = sum_kernel(x.dtype(), dtype.value_or(sum_dtype(x.dtype())));
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return kernel.launch(queues, values, target);
}

Array min(const Queue& queue, const Array& x, const ReductionTarget& target) {
  check_min_or_max("min", x.dtype(), x.shape(), target);
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return min_or_max_kernel(x.dtype(), true).launch(queue, values, target);
}

Array max(const Queue& queue, const Array& x, const ReductionTarget& target) {
  check_min_or_max("max", x.dtype(), x.shape(), target);
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return min_or_max_kernel(x.dtype(), false).launch(queue, values, target);
}

MultiArray min(const MultiQueue& queues, const MultiArray& x, const ReductionTarget& target) {
  check_min_or_max("min", x.dtype(), x.shape(), target);
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return min_or_max_kernel(x.dtype(), true).launch(queues, values, target);
}

MultiArray max(const MultiQueue& queues, const MultiArray& x, const ReductionTarget& target) {
  check_min_or_max("max", x.dtype(), x.shape(), target);
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return min_or_max_kernel(x.dtype(), false).launch(queues, values, target);
}

Array dot(const Queue& queue, const Array& a, const Array& b, const std::optional<Array>& out) {
  check_dot(a.dtype(), a.shape(), b.dtype(), b.shape());
  const std::array<ElementwiseValue, 2> values{ElementwiseValue(a), ElementwiseValue(b)};
  return dot_kernel(a.dtype(), b.dtype())
      .launch(queue, values, ReductionTarget{.axes = std::nullopt, .out = out});
}

MultiArray dot(const MultiQueue& queues, const MultiArray& a, const MultiArray& b) {
  check_dot(a.dtype(), a.shape(), b.dtype(), b.shape());
  const std::array<ElementwiseValue, 2> values{ElementwiseValue(a), ElementwiseValue(b)};
  return dot_kernel(a.dtype(), b.dtype()).launch(queues, values);
}

}  // namespace plinth
