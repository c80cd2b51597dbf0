// mean, var and std (array_reductions.hpp): mean is sum then a division; var and std are one
// pass of shifted sums combined as Chan et al.'s (see var's comment in the header), then a
// small elementwise kernel.

#include <plinth/array_expression.hpp>
#include <plinth/array_reductions.hpp>

#include "algorithms/array_reductions_kit.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <array>
#include <string>
#include <vector>

namespace plinth {

namespace {

/// The dtype mean accumulates and returns for `dtype`: float64 for bools and integers.
DType mean_dtype(const DType& dtype) {
  if (is_real(dtype) || is_complex(dtype)) return dtype;
  return DType::float64();
}

/// The real dtype var accumulates in for `dtype`.
DType var_real_dtype(const DType& dtype) {
  if (dtype == DType::float32() || dtype == DType::complex64()) return DType::float32();
  return DType::float64();
}

/// The struct var accumulates (Chan et al.'s combination with shifted sums): how many
/// elements `n`, the shift `k` (`k`, `l` for a complex: its parts), the sums of the deviations
/// d = x - shift (`s`, and `t` for a complex's imaginary parts) and of |d|^2 (`q`).
DType moments_dtype(const DType& dtype) {
  const auto real = var_real_dtype(dtype);
  if (is_complex(dtype)) {
    return DType::make_struct(
        {{"n", real}, {"k", real}, {"l", real}, {"s", real}, {"t", real}, {"q", real}});
  }
  return DType::make_struct({{"n", real}, {"k", real}, {"s", real}, {"q", real}});
}

/// The preamble of the moments kernel: `_var_make` (one element: n = 1, shifted by itself),
/// `_var_add` (b's sums moved to a's shift: s_b + n_b d and q_b + 2 d s_b + n_b d^2, with
/// d = k_b - k_a, a difference of two data elements: no cancellation) and `_var_zero`.
std::string moments_preamble(bool complex) {
  const std::string make = complex ? "    r.k = (${R})v.x;\n    r.l = (${R})v.y;\n    r.t = 0;\n"
                                   : "    r.k = (${R})v;\n";
  const std::string move =
      complex ? "    const ${R} dx = b.k - a.k, dy = b.l - a.l;\n"
                "    r.l = a.l;\n"
                "    r.s = a.s + b.s + b.n * dx;\n"
                "    r.t = a.t + b.t + b.n * dy;\n"
                "    r.q = a.q + b.q + dx * (2 * b.s + b.n * dx) + dy * (2 * b.t + b.n * dy);\n"
              : "    const ${R} d = b.k - a.k;\n"
                "    r.s = a.s + b.s + b.n * d;\n"
                "    r.q = a.q + b.q + d * (2 * b.s + b.n * d);\n";
  return fmt::format(
      "FUNCTION INLINE ${{P}} _var_make(${{X}} v)\n{{\n    ${{P}} r;\n    r.n = 1;\n{}"
      "    r.s = 0;\n    r.q = 0;\n    return r;\n}}\n"
      "FUNCTION INLINE ${{P}} _var_add(${{P}} a, ${{P}} b)\n{{\n"
      "    if (a.n == 0) return b;\n    if (b.n == 0) return a;\n    ${{P}} r;\n"
      "    r.n = a.n + b.n;\n    r.k = a.k;\n{}    return r;\n}}\n"
      "FUNCTION INLINE ${{P}} _var_zero(void)\n{{\n    ${{P}} r;\n"
      "    r.n = 0;\n    r.k = 0;\n{}    r.s = 0;\n    r.q = 0;\n    return r;\n}}\n",
      make, move, complex ? "    r.l = 0;\n    r.t = 0;\n" : "");
}

/// The kernel of var's moments over `dtype` (as kernel_dtype).
ReductionKernel moments_kernel(const DType& dtype) {
  return detail::cached_reduction(fmt::format("var:{}", dtype.name()), [&] {
    const auto moments = moments_dtype(dtype);
    return ReductionKernel(
        {ElementwiseArg::input("x", dtype)}, moments, "_var_zero()", "_var_add(a, b)",
        "_var_make(x[i])",
        {.name = "plinth_var",
         .preamble = moments_preamble(is_complex(dtype)),
         .render_globals = {
             {"P", ctype(moments)}, {"X", ctype(dtype)}, {"R", ctype(var_real_dtype(dtype))}}});
  });
}

/// Field `name` of the struct array `moments`, a view of `real` elements.
ArrayExpression field(const Array& moments, const char* name, const DType& real) {
  const auto& m = moments.metadata();
  const auto offset = moments.dtype().field(name).offset;
  return Array::from_buffer(moments.base_buffer(),
                            ArrayMetadata(m.shape(), real, m.strides(),
                                          m.first_element_offset() + offset, m.buffer_size()));
}

/// var (or std, `root`) of `x` along `axes`.
Array variance(const char* function, const Queue& queue, const Array& x, const ReductionAxes& axes,
               double ddof, bool root) {
  detail::check_reducible(function, x.dtype());
  const auto resolved = detail::resolve_axes(function, x.shape(), axes.axis);
  const auto real = var_real_dtype(x.dtype());
  std::optional<Array> out;
  if (axes.out) {
    out = detail::checked_out(function, *axes.out, real, resolved, axes.keepdims, real);
  }
  const auto read = detail::kernel_dtype(x.dtype());
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(detail::retyped(x, read))};
  const auto moments = moments_kernel(read).launch(
      queue, values, ReductionTarget{.axes = resolved.axes, .out = std::nullopt});
  const auto n = static_cast<double>(resolved.count);
  const auto s = field(moments, "s", real), q = field(moments, "q", real);
  const auto squared_sum =
      is_complex(x.dtype()) ? s * s + field(moments, "t", real) * field(moments, "t", real) : s * s;
  const auto m2 = q - squared_sum / n;
  auto result = where(m2 < 0.0, 0.0, m2) / std::max(n - ddof, 0.0);
  if (root) result = sqrt(result);
  if (out) {
    assign(queue, *out, result);
    return *axes.out;
  }
  return detail::reshaped(evaluate(queue, result), real,
                          axes.keepdims ? resolved.kept_shape : resolved.shape);
}

}  // namespace

Array mean(const Queue& queue, const Array& x, const ReductionAxes& axes) {
  detail::check_reducible("mean", x.dtype());
  const auto resolved = detail::resolve_axes("mean", x.shape(), axes.axis);
  const auto dtype = mean_dtype(x.dtype());
  std::optional<Array> out;
  if (axes.out) {
    out = detail::checked_out("mean", *axes.out, dtype, resolved, axes.keepdims, dtype);
  }
  const auto total = sum(queue, x, ReductionAxes{.axis = axes.axis}, dtype);
  const auto result = ArrayExpression(total) / static_cast<double>(resolved.count);
  if (out) {
    assign(queue, *out, result);
    return *axes.out;
  }
  return detail::reshaped(evaluate(queue, result), dtype,
                          axes.keepdims ? resolved.kept_shape : resolved.shape);
}

Array var(const Queue& queue, const Array& x, const ReductionAxes& axes, double ddof) {
  return variance("var", queue, x, axes, ddof, false);
}

Array std(const Queue& queue, const Array& x, const ReductionAxes& axes, double ddof) {
  return variance("std", queue, x, axes, ddof, true);
}

}  // namespace plinth
