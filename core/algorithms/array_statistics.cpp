// mean, var and std (array_reductions.hpp): mean is sum then a division; var and std are one
// pass of shifted sums (see var's comment in the header) then a small elementwise kernel.

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

/// The struct var accumulates: the sums of the deviations d (`s`, and `t` for a complex's
/// imaginary parts) and of |d|^2 (`q`).
DType moments_dtype(const DType& dtype) {
  const auto real = var_real_dtype(dtype);
  if (is_complex(dtype)) return DType::make_struct({{"s", real}, {"t", real}, {"q", real}});
  return DType::make_struct({{"s", real}, {"q", real}});
}

/// The kernel of var's shifted sums over `dtype` (as kernel_dtype). With `first_shift` the
/// shift is `x[0]` (a contiguous array reduced whole); otherwise a second array `k` gives
/// each output's shift (broadcast along the reduced axes).
ReductionKernel moments_kernel(const DType& dtype, bool first_shift) {
  return detail::cached_reduction(
      fmt::format("var:{}:{}", dtype.name(), first_shift ? "first" : "shift"), [&] {
        const auto moments = moments_dtype(dtype);
        const bool complex = is_complex(dtype);
        const std::string make =
            complex ? "    const ${R} dx = (${R})v.x - (${R})k.x, dy = (${R})v.y - (${R})k.y;\n"
                      "    r.s = dx;\n    r.t = dy;\n    r.q = dx * dx + dy * dy;\n"
                    : "    const ${R} d = (${R})v - (${R})k;\n    r.s = d;\n    r.q = d * d;\n";
        const std::string add = complex ? "    r.s = a.s + b.s;\n    r.t = a.t + b.t;\n"
                                          "    r.q = a.q + b.q;\n"
                                        : "    r.s = a.s + b.s;\n    r.q = a.q + b.q;\n";
        const std::string zero =
            complex ? "    r.s = 0;\n    r.t = 0;\n    r.q = 0;\n" : "    r.s = 0;\n    r.q = 0;\n";
        const auto preamble = fmt::format(
            "FUNCTION INLINE ${{P}} _var_make(${{X}} v, ${{X}} k)\n{{\n    ${{P}} r;\n{}"
            "    return r;\n}}\n"
            "FUNCTION INLINE ${{P}} _var_add(${{P}} a, ${{P}} b)\n{{\n    ${{P}} r;\n{}"
            "    return r;\n}}\n"
            "FUNCTION INLINE ${{P}} _var_zero(void)\n{{\n    ${{P}} r;\n{}    return r;\n}}\n",
            make, add, zero);
        std::vector<ElementwiseArg> args{ElementwiseArg::input("x", dtype)};
        if (!first_shift) args.push_back(ElementwiseArg::input("k", dtype));
        return ReductionKernel(
            std::move(args), moments, "_var_zero()", "_var_add(a, b)",
            first_shift ? "_var_make(x[i], x[0])" : "_var_make(x[i], k[i])",
            {.name = "plinth_var",
             .preamble = preamble,
             .render_globals = {
                 {"P", ctype(moments)}, {"X", ctype(dtype)}, {"R", ctype(var_real_dtype(dtype))}}});
      });
}

/// `x` at index 0 of each reduced axis (of extent 0 where the axis is empty): each output's
/// shift, broadcasting along the reduced axes.
Array shifts(const Array& x, const detail::ResolvedAxes& resolved) {
  auto shape = x.shape();
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (resolved.reduced[d]) shape[d] = std::min<std::size_t>(shape[d], 1);
  }
  const auto& m = x.metadata();
  return Array::from_buffer(
      x.base_buffer(),
      ArrayMetadata(shape, x.dtype(), m.strides(), m.first_element_offset(), m.buffer_size()));
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
  if (axes.into) {
    out = detail::checked_out(function, *axes.into, real, resolved, axes.keepdims, real);
  }
  const auto read = detail::kernel_dtype(x.dtype());
  const auto source = detail::retyped(x, read);
  const bool whole = resolved.shape.empty() && x.is_contiguous();
  const std::array<ElementwiseValue, 2> values{ElementwiseValue(source),
                                               ElementwiseValue(shifts(source, resolved))};
  const auto moments = moments_kernel(read, whole)
                           .launch(queue, std::span(values.data(), whole ? 1 : 2),
                                   ReductionTarget{.axes = whole ? std::nullopt : resolved.axes,
                                                   .out = std::nullopt});
  const auto n = static_cast<double>(resolved.count);
  const auto s = field(moments, "s", real), q = field(moments, "q", real);
  const auto squared_sum =
      is_complex(x.dtype()) ? s * s + field(moments, "t", real) * field(moments, "t", real) : s * s;
  const auto m2 = q - squared_sum / n;
  auto result = where(m2 < 0.0, 0.0, m2) / std::max(n - ddof, 0.0);
  if (root) result = sqrt(result);
  if (out) {
    assign(queue, *out, result);
    return *axes.into;
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
  if (axes.into) {
    out = detail::checked_out("mean", *axes.into, dtype, resolved, axes.keepdims, dtype);
  }
  const auto total = sum(queue, x, ReductionAxes{.axis = axes.axis}, dtype);
  const auto result = ArrayExpression(total) / static_cast<double>(resolved.count);
  if (out) {
    assign(queue, *out, result);
    return *axes.into;
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
