// sum, prod, nansum and dot (array_reductions.hpp): additive and multiplicative reductions.

#include <plinth/array_reductions.hpp>

#include "algorithms/array_reductions_kit.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>
#include <plinth/functions.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <string>
#include <tuple>
#include <vector>

namespace plinth {

namespace {

using detail::cached_reduction;
using detail::check_reducible;
using detail::kernel_dtype;

enum class Accumulation { sum, prod, nansum };

const char* name_of(Accumulation kind) {
  switch (kind) {
    case Accumulation::sum: return "sum";
    case Accumulation::prod: return "prod";
    case Accumulation::nansum: return "nansum";
  }
  return "sum";
}

/// `in[i]` with NaNs (a NaN part of a complex) replaced by `zero`, for nansum.
std::string nan_to_zero(const DType& in, const std::string& zero) {
  if (is_real(in)) return fmt::format("(x[i] != x[i] ? {} : x[i])", zero);
  if (is_complex(in)) {
    return fmt::format("((x[i].x != x[i].x || x[i].y != x[i].y) ? {} : x[i])", zero);
  }
  return "x[i]";
}

/// The kernel accumulating `in` (as kernel_dtype) as `out` by `kind`.
ReductionKernel accumulation_kernel(Accumulation kind, const DType& in, const DType& out) {
  const auto* function = name_of(kind);
  return cached_reduction(fmt::format("{}:{}:{}", function, in.name(), out.name()), [&] {
    RenderGlobals globals;
    std::string reduce = "a + b";
    if (kind == Accumulation::prod) {
      reduce = is_complex(out) ? "${mul}(a, b)" : "a * b";
      if (is_complex(out)) globals["mul"] = functions::mul({out, out}, out);
    } else if (is_complex(out)) {
      reduce = "${add}(a, b)";
      globals["add"] = functions::add({out, out}, out);
    }
    auto map = detail::converting_map(function, in, out, globals);
    if (kind == Accumulation::nansum && (is_real(in) || is_complex(in))) {
      const auto zero = detail::constant_of(in, false);
      map = in == out ? nan_to_zero(in, zero) : fmt::format("${{cast}}({})", nan_to_zero(in, zero));
    }
    return ReductionKernel({ElementwiseArg::input("x", in)}, out,
                           detail::constant_of(out, kind == Accumulation::prod), reduce, map,
                           {.name = fmt::format("plinth_{}", function), .render_globals = globals});
  });
}

/// Checks `x`'s dtype and gives the accumulation kernel and the result dtype.
std::pair<ReductionKernel, DType> accumulation_for(Accumulation kind, const DType& x,
                                                   const std::optional<DType>& dtype) {
  check_reducible(name_of(kind), x);
  const auto out = dtype.value_or(sum_dtype(x));
  check_reducible(name_of(kind), out);
  return {accumulation_kernel(kind, kernel_dtype(x), kernel_dtype(out)), out};
}

Array accumulate(Accumulation kind, const Queue& queue, const Array& x, const ReductionAxes& axes,
                 const std::optional<DType>& dtype) {
  const auto [kernel, out] = accumulation_for(kind, x.dtype(), dtype);
  const auto resolved = detail::resolve_axes(name_of(kind), x.shape(), axes.axis);
  const std::array<ElementwiseValue, 1> values{
      ElementwiseValue(detail::retyped(x, kernel_dtype(x.dtype())))};
  return detail::run_reduction(name_of(kind), queue, kernel, values, resolved, axes, out);
}

/// Checks dot's arrays (1-D, plain, the same length).
void check_dot(const DType& a_dtype, const std::vector<std::size_t>& a_shape, const DType& b_dtype,
               const std::vector<std::size_t>& b_shape) {
  for (const auto& [name, dtype, shape] :
       {std::tuple{"a", &a_dtype, &a_shape}, std::tuple{"b", &b_dtype, &b_shape}}) {
    detail::check_plain("dot", *dtype);
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
  return cached_reduction(fmt::format("dot:{}:{}", a.name(), b.name()), [&] {
    auto [reduce, globals] = detail::addition(result);
    globals["mul"] = functions::mul({a, b}, result);
    return ReductionKernel({ElementwiseArg::input("a", a), ElementwiseArg::input("b", b)}, result,
                           detail::constant_of(result, false), reduce, "${mul}(a[i], b[i])",
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

Array detail::sum_over_target(const Queue& queue, const Array& x, const ReductionTarget& target,
                              const std::optional<DType>& dtype) {
  const auto [kernel, out] = accumulation_for(Accumulation::sum, x.dtype(), dtype);
  const std::array<ElementwiseValue, 1> values{
      ElementwiseValue(detail::retyped(x, kernel_dtype(x.dtype())))};
  return detail::run_target(queue, kernel, values, target, out);
}

Array sum(const Queue& queue, const Array& x, const ReductionAxes& axes,
          const std::optional<DType>& dtype) {
  return accumulate(Accumulation::sum, queue, x, axes, dtype);
}

Array prod(const Queue& queue, const Array& x, const ReductionAxes& axes,
           const std::optional<DType>& dtype) {
  return accumulate(Accumulation::prod, queue, x, axes, dtype);
}

Array nansum(const Queue& queue, const Array& x, const ReductionAxes& axes,
             const std::optional<DType>& dtype) {
  return accumulate(Accumulation::nansum, queue, x, axes, dtype);
}

MultiArray sum(const MultiQueue& queues, const MultiArray& x, const ReductionTarget& target,
               const std::optional<DType>& dtype) {
  if (x.dtype() == DType::boolean()) {
    throw LogicError("sum: MultiArrays of bool are not summed (sum an int8 or uint8 copy)");
  }
  const auto kernel = accumulation_for(Accumulation::sum, x.dtype(), dtype).first;
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return kernel.launch(queues, values, target);
}

MultiArray prod(const MultiQueue& queues, const MultiArray& x, const ReductionAxes& axes,
                const std::optional<DType>& dtype) {
  if (x.dtype() == DType::boolean()) {
    throw LogicError("prod: MultiArrays of bool are not reduced (use an int8 or uint8 copy)");
  }
  if (axes.keepdims || axes.out) {
    throw LogicError("prod: the MultiQueue form takes no keepdims or out");
  }
  const auto kernel = accumulation_for(Accumulation::prod, x.dtype(), dtype).first;
  const auto resolved = detail::resolve_axes("prod", x.shape(), axes.axis);
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(x)};
  return kernel.launch(queues, values, ReductionTarget{.axes = resolved.axes, .out = {}});
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
