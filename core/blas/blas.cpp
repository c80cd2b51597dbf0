// gemm, gemm_batched, gemv and ger: the arguments checked, the transposes made views, an
// output overlapping an input replaced by a temporary; blas_kernels.cpp runs the products.

#include "algorithms/kit/array_arguments.hpp"
#include "algorithms/kit/multi_parts.hpp"
#include "blas/blas_kernels.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/blas.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace plinth {

namespace detail {

namespace {

struct Named {
  const char* name;
  const Array* array;
};

/// Checks the operands of `function`: on the queue's device, of one dtype that the kernels
/// take, of `ndim` dimensions each. Throws LogicError naming the argument otherwise.
void check_operands(const char* function, const Queue& queue, std::initializer_list<Named> operands,
                    std::initializer_list<std::size_t> ndims) {
  auto ndim = ndims.begin();
  const auto& first = *operands.begin();
  for (const auto& operand : operands) {
    check_argument_device(function, operand.name, queue, *operand.array);
    if (operand.array->ndim() != *ndim) {
      throw LogicError(fmt::format("{}: argument '{}' has {} dimensions, not {} (shape ({}))",
                                   function, operand.name, operand.array->ndim(), *ndim,
                                   fmt::join(operand.array->shape(), ", ")));
    }
    ++ndim;
    if (operand.array->dtype() != first.array->dtype()) {
      throw LogicError(
          fmt::format("{}: argument '{}' is {} but '{}' is {} (one dtype for every "
                      "operand)",
                      function, operand.name, operand.array->dtype().name(), first.name,
                      first.array->dtype().name()));
    }
  }
  if (!blas_type(first.array->dtype())) {
    throw LogicError(
        fmt::format("{}: dtype {} is not supported (float32, float64, complex64, "
                    "complex128)",
                    function, first.array->dtype().name()));
  }
}

/// Throws LogicError for a scalar with an imaginary part used with a real dtype.
void check_scalar(const char* function, const char* name, std::complex<double> value,
                  const DType& dtype) {
  if (value.imag() != 0 && !is_complex(dtype)) {
    throw LogicError(fmt::format("{}: {} = ({}, {}) has an imaginary part, but the dtype is {}",
                                 function, name, value.real(), value.imag(), dtype.name()));
  }
}

/// op(`array`) for its last two dimensions as a view; whether it conjugates is in
/// `conjugate` (for a complex dtype only).
Array op_view(const Array& array, Transpose op, bool& conjugate) {
  conjugate = op == Transpose::conjugate_transpose && is_complex(array.dtype());
  return op == Transpose::none ? array : swapaxes(array, -1, -2);
}

/// The output `out` for `function` of `shape`: checked (argument `name`), or a new array
/// when not given (then `beta` must be 0).
Array output(const char* function, const char* name, const Queue& queue,
             const std::optional<Array>& out, const std::vector<std::size_t>& shape,
             const DType& dtype, std::complex<double> beta) {
  if (!out) {
    if (beta != 0.0) {
      throw LogicError(fmt::format("{}: beta = ({}, {}) needs an output '{}' to scale", function,
                                   beta.real(), beta.imag(), name));
    }
    return Array::empty(queue, shape, dtype);
  }
  if (out->shape() != shape) {
    throw LogicError(fmt::format("{}: argument '{}' has shape ({}), the product has ({})", function,
                                 name, fmt::join(out->shape(), ", "), fmt::join(shape, ", ")));
  }
  return *out;
}

/// gemm and gemm_batched: `rank` 2 or 3.
Array gemm_of_rank(const char* function, std::size_t rank, const Queue& queue, const Array& a,
                   const Array& b, const std::optional<Array>& c, const GemmOptions& options) {
  if (c) {
    check_operands(function, queue, {{"a", &a}, {"b", &b}, {"c", &*c}}, {rank, rank, rank});
  } else {
    check_operands(function, queue, {{"a", &a}, {"b", &b}}, {rank, rank});
  }
  check_scalar(function, "alpha", options.alpha, a.dtype());
  check_scalar(function, "beta", options.beta, a.dtype());
  ProductTerms terms{options.alpha, options.beta, false, false, options.tensor_float32};
  const Array op_a = op_view(a, options.trans_a, terms.conjugate_a);
  const Array op_b = op_view(b, options.trans_b, terms.conjugate_b);
  const auto& sa = op_a.shape();
  const auto& sb = op_b.shape();
  if (sa[rank - 1] != sb[rank - 2]) {
    throw LogicError(
        fmt::format("{}: op(a) is {} x {} and op(b) is {} x {}: the inner dimensions "
                    "differ",
                    function, sa[rank - 2], sa[rank - 1], sb[rank - 2], sb[rank - 1]));
  }
  std::vector<std::size_t> shape{sa[rank - 2], sb[rank - 1]};
  if (rank == 3) {
    if (sa[0] != sb[0]) {
      throw LogicError(fmt::format("{}: a holds {} matrices and b {}", function, sa[0], sb[0]));
    }
    shape.insert(shape.begin(), sa[0]);
  }
  const Array result = output(function, "c", queue, c, shape, a.dtype(), options.beta);
  into_output(queue, result, {&a, &b}, options.beta,
              [&](const Array& out) { stacked_gemm(queue, op_a, op_b, out, terms); });
  return result;
}

}  // namespace

}  // namespace detail

Array gemm(const Queue& queue, const Array& a, const Array& b, const std::optional<Array>& c,
           const GemmOptions& options) {
  return detail::gemm_of_rank("gemm", 2, queue, a, b, c, options);
}

Array gemm_batched(const Queue& queue, const Array& a, const Array& b,
                   const std::optional<Array>& c, const GemmOptions& options) {
  return detail::gemm_of_rank("gemm_batched", 3, queue, a, b, c, options);
}

MultiArray gemm_batched(const MultiQueue& queues, const MultiArray& a, const MultiArray& b,
                        const std::optional<MultiArray>& c, const GemmOptions& options) {
  constexpr const char* what = "gemm_batched";
  const auto layout_a = detail::part_layout(what, a);
  const auto check_alike = [&](const char* name, const MultiArray& other) {
    const auto layout = detail::part_layout(what, other);
    bool alike = other.devices() == a.devices() && layout.boxes.size() == layout_a.boxes.size();
    for (std::size_t i = 0; alike && i < layout.boxes.size(); ++i) {
      alike = layout.boxes[i].size() > 0 && layout_a.boxes[i].size() > 0 &&
              layout.boxes[i][0] == layout_a.boxes[i][0];
    }
    if (!alike || (!layout_a.whole && layout_a.axis != std::size_t{0})) {
      throw LogicError(
          fmt::format("{}: '{}' and 'a' are not split along axis 0 alike", what, name));
    }
  };
  if (a.shape().size() != 3) {
    throw LogicError(
        fmt::format("{}: argument 'a' has {} dimensions, not 3", what, a.shape().size()));
  }
  check_alike("b", b);
  if (c) check_alike("c", *c);
  const auto part_queues = detail::part_queues(what, queues, a.devices());
  // The whole arrays checked here, so that no device's part is refused after another's
  // product was enqueued (each part's call checks the rest: dtypes and scalars, alike on
  // every part).
  const auto& sa = a.shape();
  const auto& sb = b.shape();
  if (sb.size() != 3 || (c && c->shape().size() != 3)) {
    throw LogicError(fmt::format("{}: arguments 'b' and 'c' must have 3 dimensions", what));
  }
  if (b.dtype() != a.dtype() || (c && c->dtype() != a.dtype())) {
    throw LogicError(fmt::format("{}: 'a', 'b' and 'c' must have one dtype", what));
  }
  const bool ta = options.trans_a != Transpose::none;
  const bool tb = options.trans_b != Transpose::none;
  const std::size_t m = ta ? sa[2] : sa[1], k = ta ? sa[1] : sa[2];
  const std::size_t n = tb ? sb[1] : sb[2], kb = tb ? sb[2] : sb[1];
  if (k != kb || sa[0] != sb[0]) {
    throw LogicError(fmt::format("{}: op(a) is {} x ({} x {}) and op(b) {} x ({} x {})", what,
                                 sa[0], m, k, sb[0], kb, n));
  }
  const std::vector<std::size_t> shape{sa[0], m, n};
  if (c && c->shape() != shape) {
    throw LogicError(fmt::format("{}: argument 'c' has shape ({}), the product has ({})", what,
                                 fmt::join(c->shape(), ", "), fmt::join(shape, ", ")));
  }
  std::optional<MultiArray> result = c;
  if (!result) {
    if (options.beta != 0.0) {
      throw LogicError(fmt::format("{}: beta needs an output 'c' to scale", what));
    }
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (const auto& box : layout_a.boxes) ranges.emplace_back(box[0].first, box[0].second);
    result = MultiArray::empty(a.devices(), shape, a.dtype(), {},
                               std::make_shared<detail::AxisRangeSplay>(0, std::move(ranges)));
  }
  for (std::size_t i = 0; i < part_queues.size(); ++i) {
    const auto& device = a.devices()[i];
    gemm_batched(part_queues[i], a[device], b[device], (*result)[device], options);
  }
  return *result;
}

Array gemv(const Queue& queue, const Array& a, const Array& x, const std::optional<Array>& y,
           const GemvOptions& options) {
  constexpr const char* function = "gemv";
  if (y) {
    detail::check_operands(function, queue, {{"a", &a}, {"x", &x}, {"y", &*y}}, {2, 1, 1});
  } else {
    detail::check_operands(function, queue, {{"a", &a}, {"x", &x}}, {2, 1});
  }
  detail::check_scalar(function, "alpha", options.alpha, a.dtype());
  detail::check_scalar(function, "beta", options.beta, a.dtype());
  detail::ProductTerms terms{options.alpha, options.beta, false, false};
  const Array op_a = detail::op_view(a, options.trans, terms.conjugate_a);
  if (op_a.shape()[1] != x.shape()[0]) {
    throw LogicError(fmt::format("{}: op(a) is {} x {} but x has {} elements", function,
                                 op_a.shape()[0], op_a.shape()[1], x.shape()[0]));
  }
  const Array result =
      detail::output(function, "y", queue, y, {op_a.shape()[0]}, a.dtype(), options.beta);
  detail::into_output(queue, result, {&a, &x}, options.beta,
                      [&](const Array& out) { detail::strided_gemv(queue, op_a, x, out, terms); });
  return result;
}

Array ger(const Queue& queue, const Array& x, const Array& y, const std::optional<Array>& a,
          const GerOptions& options) {
  constexpr const char* function = "ger";
  if (a) {
    detail::check_operands(function, queue, {{"x", &x}, {"y", &y}, {"a", &*a}}, {1, 1, 2});
    if (a->shape() != std::vector<std::size_t>{x.shape()[0], y.shape()[0]}) {
      throw LogicError(fmt::format("{}: argument 'a' has shape ({}), x y^T is {} x {}", function,
                                   fmt::join(a->shape(), ", "), x.shape()[0], y.shape()[0]));
    }
  } else {
    detail::check_operands(function, queue, {{"x", &x}, {"y", &y}}, {1, 1});
  }
  detail::check_scalar(function, "alpha", options.alpha, x.dtype());
  // The outer product as one elementwise expression (plinth's array kernels: any strides,
  // and an `a` that overlaps x or y is handled by assign()).
  const ArrayExpression column = expand_dims(x, 1);
  const ArrayExpression row = options.conjugate_y ? conj(expand_dims(y, 0)) : expand_dims(y, 0);
  const ArrayExpression alpha = is_complex(x.dtype()) ? ArrayExpression(options.alpha)
                                                      : ArrayExpression(options.alpha.real());
  if (!a) return evaluate(queue, alpha * column * row);
  assign(queue, *a, *a + alpha * column * row);
  return *a;
}

}  // namespace plinth
