// numpy.matmul on Arrays: 1-D operands promoted to a row or a column, stacks broadcast, the
// product run by the BLAS kernels (gemv for a matrix and a vector, batched gemm otherwise).

#include "algorithms/kit/array_arguments.hpp"
#include "blas/blas_kernels.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_reductions.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/blas.hpp>
#include <plinth/dtype.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

namespace plinth {

namespace {

/// The broadcast of the stack shapes `a` and `b` (numpy's rules), or LogicError.
std::vector<std::size_t> broadcast_stacks(std::span<const std::size_t> a,
                                          std::span<const std::size_t> b) {
  const std::size_t rank = std::max(a.size(), b.size());
  std::vector<std::size_t> shape(rank, 1);
  for (std::size_t d = 0; d < rank; ++d) {
    const std::size_t ea = d < rank - a.size() ? 1 : a[d - (rank - a.size())];
    const std::size_t eb = d < rank - b.size() ? 1 : b[d - (rank - b.size())];
    if (ea != eb && ea != 1 && eb != 1) {
      throw LogicError(fmt::format("matmul: the stacks of shape ({}) and ({}) do not broadcast",
                                   fmt::join(a, ", "), fmt::join(b, ", ")));
    }
    shape[d] = ea == 1 ? eb : ea;
  }
  return shape;
}

}  // namespace

Array matmul(const Queue& queue, const Array& a_in, const Array& b_in,
             const std::optional<Array>& out) {
  constexpr const char* function = "matmul";
  detail::check_argument_device(function, "a", queue, a_in);
  detail::check_argument_device(function, "b", queue, b_in);
  if (out) detail::check_argument_device(function, "out", queue, *out);
  for (const auto& [name, array] : {std::pair{"a", &a_in}, std::pair{"b", &b_in}}) {
    if (array->ndim() == 0) {
      throw LogicError(
          fmt::format("{}: argument '{}' is 0-D (matmul takes arrays of at least "
                      "one dimension; multiply scalars with *)",
                      function, name));
    }
  }
  const DType dtype = result_type(a_in.dtype(), b_in.dtype());
  if (!detail::blas_type(dtype)) {
    throw LogicError(
        fmt::format("{}: the operands' dtype {} is not supported (float32, float64, "
                    "complex64, complex128)",
                    function, dtype.name()));
  }
  const Array a = a_in.dtype() == dtype ? a_in : astype(queue, a_in, dtype);
  const Array b = b_in.dtype() == dtype ? b_in : astype(queue, b_in, dtype);

  // A 1-D a is a row (1, k), a 1-D b a column (k, 1); their dimension leaves the result.
  const Array a2 = a.ndim() == 1 ? expand_dims(a, 0) : a;
  const Array b2 = b.ndim() == 1 ? expand_dims(b, 1) : b;
  const auto& sa = a2.shape();
  const auto& sb = b2.shape();
  const std::size_t m = sa[sa.size() - 2];
  const std::size_t k = sa[sa.size() - 1];
  const std::size_t n = sb[sb.size() - 1];
  if (sb[sb.size() - 2] != k) {
    throw LogicError(
        fmt::format("{}: a's last dimension has {} elements but b's {} has {} "
                    "(shapes ({}) and ({}))",
                    function, k, b.ndim() == 1 ? "only one" : "second to last", sb[sb.size() - 2],
                    fmt::join(a.shape(), ", "), fmt::join(b.shape(), ", ")));
  }
  auto stack =
      broadcast_stacks(std::span(sa).first(sa.size() - 2), std::span(sb).first(sb.size() - 2));
  std::vector<std::size_t> shape = stack;
  if (a.ndim() > 1) shape.push_back(m);
  if (b.ndim() > 1) shape.push_back(n);

  Array result = [&] {
    if (!out) return Array::empty(queue, shape, dtype);
    if (out->shape() != shape || out->dtype() != dtype) {
      throw LogicError(fmt::format("{}: argument 'out' is ({}) {}, the product is ({}) {}",
                                   function, fmt::join(out->shape(), ", "), out->dtype().name(),
                                   fmt::join(shape, ", "), dtype.name()));
    }
    return *out;
  }();
  if (a.ndim() == 1 && b.ndim() == 1) return dot(queue, a, b, result);

  const detail::ProductTerms terms{};
  detail::into_output(queue, result, {&a, &b}, 0.0, [&](const Array& target) {
    if (stack.empty() && b.ndim() == 1) {
      detail::strided_gemv(queue, a, b, target, terms);  // (m, k) x (k)
    } else if (stack.empty() && a.ndim() == 1) {
      detail::strided_gemv(queue, transposed_view(b), a, target, terms);  // (k) x (k, n)
    } else {
      // The full (stack..., m, n) view of the result, the operands broadcast to its stack.
      Array c = target;
      if (a.ndim() == 1) c = expand_dims(c, -2);
      if (b.ndim() == 1) c = expand_dims(c, -1);
      std::vector<std::size_t> a_shape = stack, b_shape = stack;
      a_shape.insert(a_shape.end(), {m, k});
      b_shape.insert(b_shape.end(), {k, n});
      detail::stacked_gemm(queue, broadcast_to(a2, a_shape), broadcast_to(b2, b_shape), c, terms);
    }
  });
  return result;
}

}  // namespace plinth
