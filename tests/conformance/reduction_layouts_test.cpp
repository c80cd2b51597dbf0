// Reductions along any axes of every layout, against host references computed from the
// arrays' own strides: 2-D matrices of several shapes (1xN, Nx1, 3x1000003, 1000x3, 17x513)
// as C-contiguous arrays, transposed views, m[:, ::2] and m[::3, :], along axis 0 (the
// columns path), axis 1 (the rows path), both and none; 3-D arrays along (0, 2), (1,),
// (0, 1); int32 sums into int64, complex64 sums, a struct output, a user kernel with two
// array arguments and a scalar along axis 0, an output that is a sub-view, and empty axes.

#include "fixture.hpp"

#include <plinth/array_reductions.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/dtype_c.hpp>
#include <plinth/reduction.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace reduction_layouts_test {
namespace {

using ReductionLayoutTest = DeviceTest;

const DType f32 = DType::float32(), i32 = DType::int32(), c64 = DType::complex64();

/// Values with signs and no pattern along rows or columns: the k-th.
float value_at(std::size_t k) {
  return static_cast<float>(static_cast<std::int64_t>(k * 2654435761u % 251) - 125) * 0.125f;
}

/// `view` (an Array over the buffer that holds `base` from its start) reduced on the host
/// over `axes` (all when empty) with `op`, starting from `init`, in C order of the kept axes.
template <class T, class R, class Op>
std::vector<R> host_reduce(const std::vector<T>& base, const Array& view,
                           const std::vector<std::size_t>& axes, R init, Op op) {
  const auto& shape = view.shape();
  const std::size_t ndim = shape.size();
  const auto itemsize = static_cast<std::ptrdiff_t>(sizeof(T));
  const auto reduced = [&](std::size_t d) {
    return axes.empty() || std::find(axes.begin(), axes.end(), d) != axes.end();
  };
  std::size_t outputs = 1, total = 1;
  for (std::size_t d = 0; d < ndim; ++d) {
    total *= shape[d];
    if (!reduced(d)) outputs *= shape[d];
  }
  std::vector<R> result(outputs, init);
  std::vector<std::size_t> index(ndim, 0);
  for (std::size_t flat = 0; flat < total; ++flat) {
    std::ptrdiff_t at = static_cast<std::ptrdiff_t>(view.first_element_offset()) / itemsize;
    std::size_t o = 0;
    for (std::size_t d = 0; d < ndim; ++d) {
      at += static_cast<std::ptrdiff_t>(index[d]) * view.strides()[d] / itemsize;
      if (!reduced(d)) o = o * shape[d] + index[d];
    }
    result[o] = op(result[o], base[static_cast<std::size_t>(at)]);
    for (std::size_t d = ndim; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return result;
}

/// The kinds of 2-D views of a rows x cols matrix.
enum class Layout { contiguous, transposed, every_other_column, every_third_row };

/// A matrix of `rows` x `cols` float32 values in `layout`, and the values of its buffer.
struct Matrix {
  std::vector<float> base;
  Array view;
};

Matrix make_matrix(const Queue& queue, Layout layout, std::size_t rows, std::size_t cols) {
  std::vector<std::size_t> base_shape = {rows, cols};
  if (layout == Layout::transposed) base_shape = {cols, rows};
  if (layout == Layout::every_other_column) base_shape = {rows, 2 * cols};
  if (layout == Layout::every_third_row) base_shape = {3 * rows, cols};
  std::vector<float> base(base_shape[0] * base_shape[1]);
  for (std::size_t k = 0; k < base.size(); ++k) base[k] = value_at(k);
  const auto array = Array::from_host(queue, HostArray::from_values(base, base_shape));
  switch (layout) {
    case Layout::contiguous: return {base, array};
    case Layout::transposed: return {base, transposed_view(array)};
    case Layout::every_other_column:
      return {base, array.view({Slice(), Slice(std::nullopt, std::nullopt, 2)})};
    case Layout::every_third_row: return {base, array.view({Slice(std::nullopt, std::nullopt, 3)})};
  }
  return {base, array};
}

const char* layout_name(Layout layout) {
  switch (layout) {
    case Layout::contiguous: return "contiguous";
    case Layout::transposed: return "transposed";
    case Layout::every_other_column: return "m[:, ::2]";
    case Layout::every_third_row: return "m[::3, :]";
  }
  return "?";
}

TEST_P(ReductionLayoutTest, SumsAndMaximaOfMatricesAlongEveryAxis) {
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1000}, {1000, 1}, {3, 1000003}, {1000, 3}, {17, 513}, {300, 257}};
  const std::vector<std::optional<std::vector<std::size_t>>> choices = {
      std::vector<std::size_t>{0}, std::vector<std::size_t>{1}, std::vector<std::size_t>{0, 1},
      std::nullopt};
  for (const auto& [rows, cols] : shapes) {
    for (const auto layout : {Layout::contiguous, Layout::transposed, Layout::every_other_column,
                              Layout::every_third_row}) {
      const auto matrix = make_matrix(queue(), layout, rows, cols);
      ASSERT_EQ(matrix.view.shape(), (std::vector<std::size_t>{rows, cols}));
      for (const auto& axes : choices) {
        SCOPED_TRACE(::testing::Message() << rows << " x " << cols << ", " << layout_name(layout)
                                          << ", axes " << ::testing::PrintToString(axes));
        const std::vector<std::size_t> host_axes = axes.value_or(std::vector<std::size_t>{});
        const ReductionTarget target{.axes = axes};
        const auto sums = sum(queue(), matrix.view, target).get(queue()).to_vector<float>();
        const auto expected = host_reduce(matrix.base, matrix.view, host_axes, 0.0,
                                          [](double a, float b) { return a + b; });
        const auto bounds = host_reduce(matrix.base, matrix.view, host_axes, 0.0,
                                        [](double a, float b) { return a + std::fabs(b); });
        ASSERT_EQ(sums.size(), expected.size());
        for (std::size_t o = 0; o < sums.size(); ++o) {
          ASSERT_NEAR(sums[o], expected[o], 1e-6 * bounds[o] + 1e-6) << "output " << o;
        }
        const auto maxima = max(queue(), matrix.view, target).get(queue()).to_vector<float>();
        EXPECT_EQ(maxima, host_reduce(matrix.base, matrix.view, host_axes, -1e30f,
                                      [](float a, float b) { return std::max(a, b); }));
      }
    }
  }
}

TEST_P(ReductionLayoutTest, Int32SumsOfThreeDimensionsIntoInt64) {
  const std::vector<std::size_t> shape = {12, 40, 300};
  std::vector<std::int32_t> base(12 * 40 * 300);
  for (std::size_t k = 0; k < base.size(); ++k) {
    base[k] = static_cast<std::int32_t>(k * 2654435761u % 100003) - 50000;
  }
  const auto array = Array::from_host(queue(), HostArray::from_values(base, shape));
  const std::vector<std::ptrdiff_t> permutation = {2, 0, 1};
  const auto permuted = transposed_view(array, permutation);  // (300, 12, 40)
  const auto every_other = array.view({Slice(), Slice(std::nullopt, std::nullopt, 2)});
  const std::vector<std::vector<std::size_t>> choices = {{0, 2}, {1}, {0, 1}, {2}, {1, 2}, {0}};
  for (const auto& [name, view] : {std::pair{"contiguous", array}, std::pair{"permuted", permuted},
                                   std::pair{"every other", every_other}}) {
    for (const auto& axes : choices) {
      SCOPED_TRACE(::testing::Message() << name << ", axes " << ::testing::PrintToString(axes));
      const auto result = sum(queue(), view, ReductionTarget{.axes = axes});
      ASSERT_EQ(result.dtype(), DType::int64());
      EXPECT_EQ(result.get(queue()).to_vector<std::int64_t>(),
                host_reduce(base, view, axes, std::int64_t{0},
                            [](std::int64_t a, std::int32_t b) { return a + b; }));
    }
  }
}

TEST_P(ReductionLayoutTest, Complex64SumsAlongEachAxis) {
  const std::size_t rows = 37, cols = 1029;
  std::vector<std::complex<float>> base(rows * cols);
  for (std::size_t k = 0; k < base.size(); ++k) {
    base[k] = {static_cast<float>(static_cast<int>(k % 17) - 8) * 0.25f,
               static_cast<float>(static_cast<int>(k % 11) - 5) * 0.5f};
  }
  const auto array = Array::from_host(queue(), HostArray::from_values(base, {rows, cols}));
  for (const std::size_t axis : {0u, 1u}) {
    SCOPED_TRACE(axis);
    const auto got = sum(queue(), array, ReductionTarget{.axes = {{axis}}})
                         .get(queue())
                         .to_vector<std::complex<float>>();
    const auto expected = host_reduce(
        base, array, {axis}, std::complex<double>(0),
        [](std::complex<double> a, std::complex<float> b) { return a + std::complex<double>(b); });
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t o = 0; o < got.size(); ++o) {  // quarters and halves: exact
      EXPECT_EQ(std::complex<double>(got[o]), expected[o]) << o;
    }
  }
}

TEST_P(ReductionLayoutTest, DotLikeKernelAlongAxisZeroIntoASubView) {
  // sum over rows of x[r, c] * y[r, c] * k: x contiguous, y a transposed view or a row
  // broadcast along the rows.
  ReductionKernel dot_rows({ElementwiseArg::input("x", f32), ElementwiseArg::input("y", f32),
                            ElementwiseArg::scalar("k", f32)},
                           f32, "0.0f", "a + b", "x[i] * y[i] * k", {.name = "dot_rows"});
  const std::size_t rows = 300, cols = 257;
  std::vector<float> xs(rows * cols), ys(rows * cols), ws(cols);
  for (std::size_t k = 0; k < xs.size(); ++k) {
    xs[k] = value_at(k);
    ys[k] = value_at(k + 7);
  }
  for (std::size_t c = 0; c < cols; ++c) ws[c] = value_at(3 * c);
  const auto x = Array::from_host(queue(), HostArray::from_values(xs, {rows, cols}));
  const auto y_base = Array::from_host(queue(), HostArray::from_values(ys, {cols, rows}));
  const auto y = transposed_view(y_base);
  const auto w = Array::from_host(queue(), HostArray::from_values(ws, {1, cols}));
  std::vector<double> expected(cols, 0.0), broadcast(cols, 0.0), bound(cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      expected[c] += double(xs[r * cols + c]) * ys[c * rows + r] * 2.0;
      broadcast[c] += double(xs[r * cols + c]) * ws[c] * 2.0;
      bound[c] += std::fabs(double(xs[r * cols + c])) * (std::fabs(ys[c * rows + r]) + 1) * 40;
    }
  }
  // Into elements 5 .. 5 + cols of a larger array, the rest untouched.
  const auto whole = Array::from_host(
      queue(), HostArray::from_values(std::vector<float>(cols + 10, -7.0f), {cols + 10}));
  const auto out = whole.view({Slice(5, static_cast<std::ptrdiff_t>(5 + cols))});
  const auto returned = dot_rows(queue(), ReductionTarget{.axes = {{0}}, .out = out}, x, y, 2.0f);
  EXPECT_EQ(returned.shape(), (std::vector<std::size_t>{cols}));
  const auto got = whole.get(queue()).to_vector<float>();
  for (std::size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(got[k], -7.0f);
    EXPECT_EQ(got[cols + 5 + k], -7.0f);
  }
  for (std::size_t c = 0; c < cols; ++c) {
    EXPECT_NEAR(got[5 + c], expected[c], 1e-6 * bound[c]) << c;
  }
  const auto rowed =
      dot_rows(queue(), ReductionTarget{.axes = {{0}}}, x, w, 2.0f).get(queue()).to_vector<float>();
  for (std::size_t c = 0; c < cols; ++c) EXPECT_NEAR(rowed[c], broadcast[c], 1e-6 * bound[c]);
}

TEST_P(ReductionLayoutTest, StructOutputAlongAxisZero) {
  const auto range = DType::make_struct({{"lo", i32}, {"hi", i32}});
  ReductionKernel minmax({ElementwiseArg::input("x", i32)}, range, "{2147483647, -2147483647 - 1}",
                         "${make}(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi)",
                         "${make}(x[i], x[i])",
                         {.name = "minmax_columns",
                          .preamble = "FUNCTION ${range} ${make}(int lo, int hi)\n"
                                      "{ ${range} r; r.lo = lo; r.hi = hi; return r; }\n",
                          .render_globals = {{"range", ctype(range)}, {"make", "make_range"}}});
  const std::size_t rows = 2000, cols = 70;
  std::vector<std::int32_t> xs(rows * cols);
  for (std::size_t k = 0; k < xs.size(); ++k) {
    xs[k] = static_cast<std::int32_t>(k * 2654435761u % 1000003) - 500000;
  }
  const auto x = Array::from_host(queue(), HostArray::from_values(xs, {rows, cols}));
  const auto host = minmax(queue(), ReductionTarget{.axes = {{0}}}, x).get(queue());
  ASSERT_EQ(host.nbytes(), 8u * cols);
  std::vector<std::int32_t> got(2 * cols);
  std::memcpy(got.data(), host.block().data(), host.nbytes());
  for (std::size_t c = 0; c < cols; ++c) {
    std::int32_t lo = xs[c], hi = xs[c];
    for (std::size_t r = 0; r < rows; ++r) {
      lo = std::min(lo, xs[r * cols + c]);
      hi = std::max(hi, xs[r * cols + c]);
    }
    EXPECT_EQ(got[2 * c], lo) << c;
    EXPECT_EQ(got[2 * c + 1], hi) << c;
  }
}

TEST_P(ReductionLayoutTest, EmptyAndSingleExtents) {
  // Nothing reduced: the neutral value per output; no outputs: an empty result.
  const auto no_rows = Array::empty(device(), {0, 5}, f32);
  EXPECT_EQ(sum(queue(), no_rows, ReductionTarget{.axes = {{0}}}).get(queue()).to_vector<float>(),
            std::vector<float>(5, 0.0f));
  EXPECT_TRUE(sum(queue(), no_rows, ReductionTarget{.axes = {{1}}})
                  .get(queue())
                  .to_vector<float>()
                  .empty());
  // A transposed (5, 1) view along each axis.
  std::vector<float> xs(5);
  for (std::size_t k = 0; k < xs.size(); ++k) xs[k] = value_at(k);
  const auto row = Array::from_host(queue(), HostArray::from_values(xs, {1, 5}));
  const auto column = transposed_view(row);
  EXPECT_EQ(sum(queue(), column, ReductionTarget{.axes = {{1}}}).get(queue()).to_vector<float>(),
            xs);
  const auto total =
      sum(queue(), column, ReductionTarget{.axes = {{0}}}).get(queue()).to_vector<float>();
  ASSERT_EQ(total.size(), 1u);
  EXPECT_NEAR(total[0], xs[0] + xs[1] + xs[2] + xs[3] + xs[4], 1e-5);
}

PLINTH_INSTANTIATE_DEVICE_TEST(ReductionLayoutTest);

}  // namespace
}  // namespace reduction_layouts_test
}  // namespace plinth::conformance
