// ReductionKernel and sum/min/max/dot: every real and complex dtype against host references
// (integers exactly, floating-point sums within a bound for another summation order), odd
// sizes (1, 7, 1000003), empty arrays, views with negative strides, broadcasting, axes of a
// 3-D array, custom reductions (max |x|, a complex sum, a struct), an output array, and
// misuse (LogicError naming the argument; CompileError with the generated source).

#include "fixture.hpp"

#include <plinth/array_reductions.hpp>
#include <plinth/functions.hpp>
#include <plinth/reduction.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace reduction_test {
namespace {

using ReductionTest = DeviceTest;

const DType f32 = DType::float32(), i32 = DType::int32(), c64 = DType::complex64();

/// Values of T that exercise signs, wrap-around and fractions: k-th of n.
template <class T>
T value_at(std::size_t k) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    using R = typename T::value_type;
    return T(static_cast<R>(static_cast<int>(k % 17) - 8) * R(0.25),
             static_cast<R>(static_cast<int>(k % 11) - 5) * R(0.5));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<int>(k % 1001) - 500) * T(0.125);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(static_cast<std::int64_t>(k * 2654435761u % 251) - 125);
  } else {
    return static_cast<T>(k * 2654435761u % 253);
  }
}

template <class T>
std::vector<T> values(std::size_t n) {
  std::vector<T> result(n);
  for (std::size_t k = 0; k < n; ++k) result[k] = value_at<T>(k);
  return result;
}

template <class T>
constexpr bool is_double_type =
    std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;

/// sum() of every size against the host, in numpy's result dtype.
template <class T, class S>
void check_sum(const Queue& queue) {
  const auto dtype = dtype_of<T>();
  SCOPED_TRACE(dtype.name());
  EXPECT_EQ(sum_dtype(dtype), dtype_of<S>());
  for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000003}}) {
    SCOPED_TRACE(n);
    const auto xs = values<T>(n);
    const auto x = Array::from_host(queue, HostArray::from_values(xs));
    const auto result = sum(queue, x);
    EXPECT_EQ(result.shape(), std::vector<std::size_t>{});
    ASSERT_EQ(result.dtype(), dtype_of<S>());
    const S got = result.get(queue).template to_vector<S>()[0];
    if constexpr (std::is_integral_v<S>) {
      S expected = 0;
      for (const auto v : xs) expected = static_cast<S>(expected + static_cast<S>(v));
      EXPECT_EQ(got, expected);
    } else {
      S expected{};
      double bound = 0;
      for (const auto v : xs) {
        expected += v;
        bound += std::abs(v);
      }
      const double eps = is_double_type<T> ? 1e-13 : 1e-5;
      EXPECT_LE(std::abs(got - expected), eps * (bound + 1)) << "got " << got;
    }
  }
}

TEST_P(ReductionTest, SumOfEveryDtypeMatchesTheHost) {
  check_sum<std::int8_t, std::int64_t>(queue());
  check_sum<std::uint8_t, std::uint64_t>(queue());
  check_sum<std::int16_t, std::int64_t>(queue());
  check_sum<std::uint16_t, std::uint64_t>(queue());
  check_sum<std::int32_t, std::int64_t>(queue());
  check_sum<std::uint32_t, std::uint64_t>(queue());
  check_sum<std::int64_t, std::int64_t>(queue());
  check_sum<std::uint64_t, std::uint64_t>(queue());
  check_sum<float, float>(queue());
  check_sum<std::complex<float>, std::complex<float>>(queue());
  if (!device().params().supports_double) {
    const auto x = Array::from_host(queue(), HostArray::from_values(std::vector<double>{1, 2}));
    EXPECT_NE(logic_error_message([&] { sum(queue(), x); }).find("double precision"),
              std::string::npos);
    GTEST_SKIP() << device().name() << " has no double precision (float64 was refused)";
  }
  check_sum<double, double>(queue());
  check_sum<std::complex<double>, std::complex<double>>(queue());
}

template <class T>
void check_min_max(const Queue& queue) {
  const auto dtype = dtype_of<T>();
  SCOPED_TRACE(dtype.name());
  for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000003}}) {
    SCOPED_TRACE(n);
    auto xs = values<T>(n);
    xs[n / 2] = std::numeric_limits<T>::max();  // the extremes of the dtype are found too
    if (n > 1) xs[n - 1] = std::numeric_limits<T>::lowest();
    const auto x = Array::from_host(queue, HostArray::from_values(xs));
    const auto lo = min(queue, x), hi = max(queue, x);
    EXPECT_EQ(lo.dtype(), dtype);
    EXPECT_EQ(lo.get(queue).template to_vector<T>()[0], *std::min_element(xs.begin(), xs.end()));
    EXPECT_EQ(hi.get(queue).template to_vector<T>()[0], *std::max_element(xs.begin(), xs.end()));
  }
}

TEST_P(ReductionTest, MinAndMaxOfEveryRealDtype) {
  check_min_max<std::int8_t>(queue());
  check_min_max<std::uint8_t>(queue());
  check_min_max<std::int16_t>(queue());
  check_min_max<std::uint16_t>(queue());
  check_min_max<std::int32_t>(queue());
  check_min_max<std::uint32_t>(queue());
  check_min_max<std::int64_t>(queue());
  check_min_max<std::uint64_t>(queue());
  check_min_max<float>(queue());
  // Infinities and NaN, as numpy: a NaN anywhere gives NaN.
  std::vector<float> xs(1000, 2.0f);
  xs[3] = -std::numeric_limits<float>::infinity();
  auto x = Array::from_host(queue(), HostArray::from_values(xs));
  EXPECT_EQ(min(queue(), x).get(queue()).to_vector<float>()[0], xs[3]);
  EXPECT_EQ(max(queue(), x).get(queue()).to_vector<float>()[0], 2.0f);
  xs[700] = std::numeric_limits<float>::quiet_NaN();
  x = Array::from_host(queue(), HostArray::from_values(xs));
  EXPECT_TRUE(std::isnan(min(queue(), x).get(queue()).to_vector<float>()[0]));
  EXPECT_TRUE(std::isnan(max(queue(), x).get(queue()).to_vector<float>()[0]));
  // Complex numbers are not ordered; nothing has no minimum.
  const auto z = Array::empty(device(), {4}, c64);
  EXPECT_NE(logic_error_message([&] { min(queue(), z); }).find("complex"), std::string::npos);
  const auto empty = Array::empty(device(), {0}, f32);
  EXPECT_NE(logic_error_message([&] { max(queue(), empty); }).find("no elements"),
            std::string::npos);
  if (device().params().supports_double) check_min_max<double>(queue());
}

TEST_P(ReductionTest, EmptyArraysSumToZero) {
  for (const auto& shape : {std::vector<std::size_t>{0}, std::vector<std::size_t>{3, 0, 2}}) {
    const auto x = Array::empty(device(), shape, i32);
    const auto total = sum(queue(), x);
    EXPECT_EQ(total.get(queue()).to_vector<std::int64_t>(), std::vector<std::int64_t>{0});
  }
  // Along axes: outputs over an empty reduced extent are 0; an empty output shape is empty.
  const auto x = Array::empty(device(), {3, 0}, f32);
  const auto rows = sum(queue(), x, ReductionTarget{.axes = {{1}}});
  EXPECT_EQ(rows.get(queue()).to_vector<float>(), std::vector<float>(3, 0.0f));
  const auto columns = sum(queue(), x, ReductionTarget{.axes = {{0}}});
  EXPECT_EQ(columns.shape(), std::vector<std::size_t>{0});
}

TEST_P(ReductionTest, DotOfEveryKind) {
  const std::size_t n = 100003;
  {
    const auto xs = values<float>(n), ys = values<float>(n + 5);
    const auto x = Array::from_host(queue(), HostArray::from_values(xs));
    const auto y = Array::from_host(
        queue(), HostArray::from_values(std::vector<float>(ys.begin() + 5, ys.end())));
    double expected = 0, bound = 0;
    for (std::size_t k = 0; k < n; ++k) {
      expected += double(xs[k]) * double(ys[k + 5]);
      bound += std::fabs(double(xs[k]) * double(ys[k + 5]));
    }
    const auto got = dot(queue(), x, y).get(queue()).to_vector<float>()[0];
    EXPECT_NEAR(got, expected, 1e-5 * (bound + 1));
  }
  {
    const auto xs = values<std::int32_t>(n);
    const auto ys = values<std::int16_t>(n);
    const auto x = Array::from_host(queue(), HostArray::from_values(xs));
    const auto y = Array::from_host(queue(), HostArray::from_values(ys));
    std::int32_t expected = 0;
    for (std::size_t k = 0; k < n; ++k) expected += xs[k] * ys[k];
    const auto result = dot(queue(), x, y);
    EXPECT_EQ(result.dtype(), i32);  // result_type, as numpy.dot
    EXPECT_EQ(result.get(queue()).to_vector<std::int32_t>()[0], expected);
  }
  {
    // No conjugation.
    const auto xs = values<std::complex<float>>(n);
    std::vector<std::complex<float>> ys(n);
    for (std::size_t k = 0; k < n; ++k) ys[k] = value_at<std::complex<float>>(k * 3 + 1);
    const auto x = Array::from_host(queue(), HostArray::from_values(xs));
    const auto y = Array::from_host(queue(), HostArray::from_values(ys));
    std::complex<double> expected = 0;
    for (std::size_t k = 0; k < n; ++k) {
      expected += std::complex<double>(xs[k]) * std::complex<double>(ys[k]);
    }
    const auto got = dot(queue(), x, y).get(queue()).to_vector<std::complex<float>>()[0];
    EXPECT_NEAR(got.real(), expected.real(), 1e-5 * n);
    EXPECT_NEAR(got.imag(), expected.imag(), 1e-5 * n);
    // Into an output array.
    const auto out = Array::empty(device(), {}, c64);
    dot(queue(), x, y, out);
    EXPECT_NEAR(out.get(queue()).to_vector<std::complex<float>>()[0].real(), expected.real(),
                1e-5 * n);
  }
  const auto m = Array::empty(device(), {2, 3}, f32), v = Array::empty(device(), {5}, f32);
  EXPECT_NE(logic_error_message([&] { dot(queue(), m, v); }).find("'a' must be 1-D"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              dot(queue(), v, Array::empty(device(), {4}, f32));
            }).find("argument 'b'"),
            std::string::npos);
}

/// The host sum of a C-order (4, 5, 6) array over `axes`.
std::vector<std::int64_t> host_sum_3d(const std::vector<std::int32_t>& xs,
                                      const std::vector<std::size_t>& axes) {
  const std::size_t shape[3] = {4, 5, 6};
  const auto reduced = [&](std::size_t d) {
    return std::find(axes.begin(), axes.end(), d) != axes.end();
  };
  std::size_t outputs = 1;
  for (std::size_t d = 0; d < 3; ++d) outputs *= reduced(d) ? 1 : shape[d];
  std::vector<std::int64_t> result(outputs, 0);
  for (std::size_t a = 0; a < 4; ++a) {
    for (std::size_t b = 0; b < 5; ++b) {
      for (std::size_t c = 0; c < 6; ++c) {
        const std::size_t index[3] = {a, b, c};
        std::size_t o = 0;
        for (std::size_t d = 0; d < 3; ++d) {
          if (!reduced(d)) o = o * shape[d] + index[d];
        }
        result[o] += xs[(a * 5 + b) * 6 + c];
      }
    }
  }
  return result;
}

TEST_P(ReductionTest, AxesOfA3DArray) {
  const auto xs = values<std::int32_t>(120);
  const auto base = Array::from_host(queue(), HostArray::from_values(xs, {4, 5, 6}));
  const std::vector<std::vector<std::size_t>> combos = {{},     {0},    {1},    {2},
                                                        {0, 1}, {0, 2}, {2, 1}, {0, 1, 2}};
  for (const auto& axes : combos) {
    SCOPED_TRACE(::testing::PrintToString(axes));
    const auto result = sum(queue(), base, ReductionTarget{.axes = axes});
    std::vector<std::size_t> expected_shape;
    for (std::size_t d = 0; d < 3; ++d) {
      if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
        expected_shape.push_back(base.shape()[d]);
      }
    }
    EXPECT_EQ(result.shape(), expected_shape);
    EXPECT_EQ(result.get(queue()).to_vector<std::int64_t>(), host_sum_3d(xs, axes));
  }
  // min/max along an axis too, of a reversed view.
  const auto reversed = base.view({Slice(std::nullopt, std::nullopt, -1)});
  const auto maxima = max(queue(), reversed, ReductionTarget{.axes = {{2}}});
  const auto got = maxima.get(queue()).to_vector<std::int32_t>();
  ASSERT_EQ(got.size(), 20u);
  for (std::size_t a = 0; a < 4; ++a) {
    for (std::size_t b = 0; b < 5; ++b) {
      const auto row = xs.begin() + static_cast<std::ptrdiff_t>(((3 - a) * 5 + b) * 6);
      EXPECT_EQ(got[a * 5 + b], *std::max_element(row, row + 6));
    }
  }
  // Misuse of axes.
  EXPECT_NE(logic_error_message([&] {
              sum(queue(), base, ReductionTarget{.axes = {{3}}});
            }).find("axis 3"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              sum(queue(), base, ReductionTarget{.axes = {{1, 1}}});
            }).find("twice"),
            std::string::npos);
}

TEST_P(ReductionTest, LongAxesBothWays) {
  // (3, 200001) along the long axis (several groups per output, then stage 2) and its
  // transpose-like layout (200001, 3) along axis 0 (a strided reduced axis).
  const std::size_t n = 200001;
  const auto xs = values<float>(3 * n);
  const auto wide = Array::from_host(queue(), HostArray::from_values(xs, {3, n}));
  const auto tall = Array::from_host(queue(), HostArray::from_values(xs, {n, 3}));
  const auto rows = sum(queue(), wide, ReductionTarget{.axes = {{1}}}).get(queue());
  const auto cols = sum(queue(), tall, ReductionTarget{.axes = {{0}}}).get(queue());
  for (std::size_t o = 0; o < 3; ++o) {
    double row = 0, col = 0, bound = 0;
    for (std::size_t k = 0; k < n; ++k) {
      row += xs[o * n + k];
      col += xs[k * 3 + o];
      bound += std::fabs(xs[o * n + k]) + std::fabs(xs[k * 3 + o]);
    }
    EXPECT_NEAR(rows.to_vector<float>()[o], row, 1e-5 * bound);
    EXPECT_NEAR(cols.to_vector<float>()[o], col, 1e-5 * bound);
  }
}

// Any C identifier names a reduction, even one the kernel dialect defines, as `dot` in
// reduction.hpp's own example: the generated kernel functions have names of their own.
TEST_P(ReductionTest, KernelsNamedLikeBuiltinsWork) {
  const std::vector<std::int32_t> xs{3, -1, 7, 0, 12}, ys{2, 5, -1, 9, 1};
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto y = Array::from_host(queue(), HostArray::from_values(ys));
  for (const char* name : {"sin", "dot", "max", "exp", "float", "kernel", "barrier"}) {
    SCOPED_TRACE(name);
    const ReductionKernel kernel({ElementwiseArg::input("x", i32), ElementwiseArg::input("y", i32)},
                                 i32, "0", "a + b", "x[i] * y[i]", {.name = name});
    EXPECT_EQ(kernel.name(), name);
    // 6 - 5 - 7 + 0 + 12
    EXPECT_EQ(kernel(queue(), x, y).get(queue()).to_vector<std::int32_t>(),
              std::vector<std::int32_t>{6});
  }
}

TEST_P(ReductionTest, ViewsAndBroadcastingInTheMap) {
  // sum over (m, n) of x[r, c] * w[c]: x a reversed, strided view, w broadcast along rows.
  ReductionKernel weighted({ElementwiseArg::input("x", f32), ElementwiseArg::input("w", f32),
                            ElementwiseArg::scalar("k", f32)},
                           f32, "0.0f", "a + b", "x[i] * w[i] * k", {.name = "weighted"});
  const std::size_t m = 37, n = 53;
  std::vector<float> xs(m * 2 * n), ws(n);
  for (std::size_t k = 0; k < xs.size(); ++k) xs[k] = static_cast<float>(k % 19) - 9.0f;
  for (std::size_t c = 0; c < n; ++c) ws[c] = static_cast<float>(c % 5) * 0.5f;
  const auto base = Array::from_host(queue(), HostArray::from_values(xs, {m, 2 * n}));
  const auto x =
      base.view({Slice(std::nullopt, std::nullopt, -1), Slice(std::nullopt, std::nullopt, 2)});
  const auto w = Array::from_host(queue(), HostArray::from_values(ws, {1, n}));
  double expected = 0;
  std::vector<double> per_row(m, 0.0);
  for (std::size_t r = 0; r < m; ++r) {
    for (std::size_t c = 0; c < n; ++c) {
      const double v = double(xs[(m - 1 - r) * 2 * n + 2 * c]) * ws[c] * 2.0;
      expected += v;
      per_row[r] += v;
    }
  }
  EXPECT_NEAR(weighted(queue(), x, w, 2.0f).get(queue()).to_vector<float>()[0], expected, 1e-2);
  const auto rows = weighted(queue(), ReductionTarget{.axes = {{1}}}, x, w, 2.0f);
  const auto got = rows.get(queue()).to_vector<float>();
  for (std::size_t r = 0; r < m; ++r) EXPECT_NEAR(got[r], per_row[r], 1e-3) << r;
  // Into a given array.
  const auto out = Array::empty(device(), {m}, f32);
  weighted(queue(), ReductionTarget{.axes = {{1}}, .out = out}, x, w, 2.0f);
  EXPECT_EQ(out.get(queue()).to_vector<float>(), got);
  EXPECT_NE(logic_error_message([&] {
              weighted(queue(), ReductionTarget{.out = out}, x, w, 2.0f);
            }).find("output array"),
            std::string::npos);
}

TEST_P(ReductionTest, CustomReductions) {
  // max |x| of an int32 array in float32.
  ReductionKernel max_abs({ElementwiseArg::input("x", i32)}, f32, "0.0f", "a > b ? a : b",
                          "fabs((float)x[i])", {.name = "max_abs"});
  const auto xs = values<std::int32_t>(1000003);
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  float expected = 0;
  for (const auto v : xs) expected = std::max(expected, std::fabs(static_cast<float>(v)));
  EXPECT_EQ(max_abs(queue(), x).get(queue()).to_vector<float>()[0], expected);
  EXPECT_EQ(max_abs.cached_programs(), 1u);

  // A sum of squared magnitudes of complex values (through functions::norm) in float32, and
  // a complex sum with complex local memory.
  ReductionKernel norm2({ElementwiseArg::input("z", c64)}, f32, "0.0f", "a + b", "${norm}(z[i])",
                        {.name = "norm2", .render_globals = {{"norm", functions::norm(c64)}}});
  ReductionKernel csum({ElementwiseArg::input("z", c64)}, c64, "COMPLEX_CTR(float2)(0.0f, 0.0f)",
                       "${add}(a, b)", "z[i]",
                       {.name = "csum", .render_globals = {{"add", functions::add({c64, c64})}}});
  const auto zs = values<std::complex<float>>(777);
  const auto z = Array::from_host(queue(), HostArray::from_values(zs));
  double norm = 0;
  std::complex<double> total = 0;
  for (const auto v : zs) {
    norm += std::norm(std::complex<double>(v));
    total += std::complex<double>(v);
  }
  EXPECT_NEAR(norm2(queue(), z).get(queue()).to_vector<float>()[0], norm, 1e-3);
  const auto got = csum(queue(), z).get(queue()).to_vector<std::complex<float>>()[0];
  EXPECT_NEAR(got.real(), total.real(), 1e-3);
  EXPECT_NEAR(got.imag(), total.imag(), 1e-3);

  // A struct output: the minimum and maximum at once.
  const auto range = DType::make_struct({{"lo", i32}, {"hi", i32}});
  ReductionKernel minmax({ElementwiseArg::input("x", i32)}, range, "{2147483647, -2147483647 - 1}",
                         "${make}(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi)",
                         "${make}(x[i], x[i])",
                         {.name = "minmax",
                          .preamble = "FUNCTION ${range} ${make}(int lo, int hi)\n"
                                      "{ ${range} r; r.lo = lo; r.hi = hi; return r; }\n",
                          .render_globals = {{"range", ctype(range)}, {"make", "make_range"}}});
  const auto host = minmax(queue(), x).get(queue());
  ASSERT_EQ(host.nbytes(), 8u);  // lo, hi
  std::int32_t result[2];
  std::memcpy(result, host.block().data(), sizeof result);
  EXPECT_EQ(result[0], *std::min_element(xs.begin(), xs.end()));
  EXPECT_EQ(result[1], *std::max_element(xs.begin(), xs.end()));
}

TEST_P(ReductionTest, MisuseIsReported) {
  ReductionKernel total({ElementwiseArg::input("x", f32)}, f32, "0.0f", "a + b", "x[i]",
                        {.name = "total"});
  const auto x = Array::empty(device(), {8}, f32);
  const auto ints = Array::empty(device(), {8}, i32);
  EXPECT_NE(logic_error_message([&] { total(queue()); }).find("takes 1 arguments"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { total(queue(), ints); }).find("argument 'x'"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { total(queue(), 1.0f); }).find("argument 'x'"),
            std::string::npos);
  EXPECT_THROW(ReductionKernel({ElementwiseArg::output("y", f32)}, f32, "0", "a + b", "y[i]"),
               LogicError);
  EXPECT_THROW(ReductionKernel({ElementwiseArg::input("x", f32)}, DType::boolean(), "0", "a", "1"),
               LogicError);
  EXPECT_THROW(ReductionKernel({ElementwiseArg::input("x", f32)}, f32, "", "a + b", "x[i]"),
               LogicError);
  // A reduce expression that does not compile: CompileError with the generated source.
  ReductionKernel broken({ElementwiseArg::input("x", f32)}, f32, "0.0f", "a + undeclared_name_42",
                         "x[i]", {.name = "broken"});
  try {
    broken(queue(), x);
    FAIL() << "no CompileError";
  } catch (const CompileError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("undeclared_name_42"), std::string::npos) << what;
    EXPECT_NE(what.find("KERNEL void _red_kernel_broken("), std::string::npos) << what;
    EXPECT_NE(what.find("// ReductionKernel 'broken': _red_kernel_broken, "), std::string::npos)
        << what;
  }
  EXPECT_EQ(broken.cached_programs(), 0u);
  // The good kernel still works after all that.
  const auto ones = Array::from_host(queue(), HostArray::from_values(std::vector<float>(9, 1.0f)));
  EXPECT_EQ(total(queue(), ones).get(queue()).to_vector<float>()[0], 9.0f);
}

PLINTH_INSTANTIATE_DEVICE_TEST(ReductionTest);

}  // namespace
}  // namespace reduction_test
}  // namespace plinth::conformance
