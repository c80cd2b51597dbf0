// mean, var and std (array_reductions.hpp) against host references: numpy's dtypes, edge
// values (inf, NaN, empty arrays, ddof >= count), complex var, and var's accuracy on data
// whose mean is large against its spread (where the naive one-pass formula fails), over the
// whole array and along axes (the shifted kernel with a shift per output).

#include "fixture.hpp"

#include <plinth/array_reductions.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace array_statistics_test {
namespace {

using ArrayStatisticsTest = DeviceTest;

template <class T>
Array device_array(const Queue& queue, const std::vector<T>& values,
                   std::vector<std::size_t> shape = {}) {
  if (shape.empty()) shape = {values.size()};
  return Array::from_host(queue, HostArray::from_values(values, shape));
}

template <class T>
std::vector<T> elements_of(const Queue& queue, const Array& result) {
  EXPECT_EQ(result.dtype(), dtype_of<T>());
  return result.get(queue).template to_vector<T>();
}

template <class T>
T scalar_of(const Queue& queue, const Array& result) {
  EXPECT_EQ(result.shape(), std::vector<std::size_t>{});
  return elements_of<T>(queue, result)[0];
}

/// The host's two-pass variance of `xs` in long double, with `ddof`.
template <class T>
long double host_var(const std::vector<T>& xs, double ddof = 0) {
  long double mean = 0, m2 = 0;
  for (const auto v : xs) mean += v;
  mean /= static_cast<long double>(xs.size());
  for (const auto v : xs) m2 += (v - mean) * (v - mean);
  return m2 / (static_cast<long double>(xs.size()) - ddof);
}

TEST_P(ArrayStatisticsTest, MeanFollowsNumpysDtypes) {
  const auto q = queue();
  if (!device().params().supports_double) {
    // Integers' means are float64: refused without double precision.
    EXPECT_NE(logic_error_message([&] {
                mean(q, device_array(q, std::vector<std::int32_t>{1, 2}));
              }).find("double"),
              std::string::npos);
  } else {
    EXPECT_EQ(
        scalar_of<double>(q, mean(q, device_array(q, std::vector<std::int8_t>{-128, 127, 1}))),
        0.0);
    EXPECT_EQ(scalar_of<double>(
                  q, mean(q, device_array(q, std::vector<std::uint64_t>{~std::uint64_t{0}, 1}))),
              9.223372036854775808e18);
    const std::vector<std::uint8_t> bytes{1, 0, 1, 1};
    const auto flags = Array::from_host(
        q, HostArray::from_bytes(std::as_bytes(std::span(bytes)), {4}, DType::boolean()));
    EXPECT_EQ(scalar_of<double>(q, mean(q, flags)), 0.75);
    EXPECT_EQ(scalar_of<double>(q, mean(q, device_array(q, std::vector<double>{1, 2, 4}))),
              7.0 / 3.0);
  }
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(scalar_of<float>(q, mean(q, device_array(q, std::vector<float>{1, 2, 3.5f}))),
            6.5f / 3);
  EXPECT_EQ(scalar_of<float>(q, mean(q, device_array(q, std::vector<float>{1, 2, inf}))), inf);
  EXPECT_TRUE(
      std::isnan(scalar_of<float>(q, mean(q, device_array(q, std::vector<float>{inf, -inf})))));
  EXPECT_TRUE(std::isnan(scalar_of<float>(q, mean(q, device_array(q, std::vector<float>{})))));
  EXPECT_EQ(scalar_of<std::complex<float>>(
                q, mean(q, device_array(q, std::vector<std::complex<float>>{{1, 2}, {3, -4}}))),
            std::complex<float>(2, -1));
  // float32 accumulates well: 2^22 + 3 values of 1e4 + 0.5 (a sequential float32 sum would
  // be off by percents).
  std::vector<float> many((std::size_t{1} << 22) + 3, 1e4f + 0.5f);
  EXPECT_NEAR(scalar_of<float>(q, mean(q, device_array(q, many))), 1e4f + 0.5f, 1e-5 * 1e4);
}

TEST_P(ArrayStatisticsTest, VarAndStdAtEdgeValues) {
  const auto q = queue();
  const auto x = device_array(q, std::vector<float>{1, 2, 3, 4});
  EXPECT_EQ(scalar_of<float>(q, var(q, x)), 1.25f);
  EXPECT_FLOAT_EQ(scalar_of<float>(q, var(q, x, {}, 1)), 5.0f / 3);
  EXPECT_FLOAT_EQ(scalar_of<float>(q, std(q, x)), std::sqrt(1.25f));
  EXPECT_EQ(scalar_of<float>(q, var(q, x, {}, 4)), std::numeric_limits<float>::infinity());
  EXPECT_EQ(scalar_of<float>(q, var(q, x, {}, 7)), std::numeric_limits<float>::infinity());
  const auto one = device_array(q, std::vector<float>{5});
  EXPECT_EQ(scalar_of<float>(q, var(q, one)), 0.0f);
  EXPECT_TRUE(std::isnan(scalar_of<float>(q, var(q, one, {}, 1))));  // 0 / 0, as numpy
  EXPECT_TRUE(std::isnan(scalar_of<float>(q, var(q, device_array(q, std::vector<float>{})))));
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const auto& xs :
       {std::vector<float>{1, inf}, std::vector<float>{inf, 1, 2}, std::vector<float>{2, nan}}) {
    EXPECT_TRUE(std::isnan(scalar_of<float>(q, var(q, device_array(q, xs)))));
  }
  // Equal values: exactly 0 (never negative).
  EXPECT_EQ(scalar_of<float>(q, std(q, device_array(q, std::vector<float>(1001, 0.1f)))), 0.0f);
  // complex: the mean of |x - mean|^2, real.
  const auto z = device_array(q, std::vector<std::complex<float>>{{1, 1}, {-1, -1}, {3, -1}});
  EXPECT_FLOAT_EQ(scalar_of<float>(q, var(q, z)), (16.0f / 9 + 2 * (4 + 4.0f / 9)) / 3);
  if (!device().params().supports_double) GTEST_SKIP() << "no double precision";
  const std::vector<std::int16_t> ints{-32768, 32767, 0, 5};
  EXPECT_DOUBLE_EQ(scalar_of<double>(q, var(q, device_array(q, ints))),
                   static_cast<double>(host_var(ints)));
  const std::vector<double> ds{1e-310, -1e-310, 0.0, -0.0};  // denormals
  EXPECT_DOUBLE_EQ(scalar_of<double>(q, var(q, device_array(q, ds))),
                   static_cast<double>(host_var(ds)));
}

/// 1e4 + noise of spread about 0.1 (a fixed pseudo-random sequence), as float32.
std::vector<float> large_mean_data(std::size_t n) {
  std::vector<float> xs(n);
  std::uint32_t state = 12345;
  for (auto& v : xs) {
    state = state * 1664525u + 1013904223u;
    v = 1e4f + (static_cast<float>(state >> 8) / 16777216.0f - 0.5f) * 0.3f;
  }
  return xs;
}

TEST_P(ArrayStatisticsTest, VarIsStableWithALargeMean) {
  const auto q = queue();
  const auto xs = large_mean_data(1000003);
  const auto expected = static_cast<double>(host_var(xs));
  // The naive formula E[x^2] - E[x]^2 in float32 loses every digit here (the shift is needed):
  float sx = 0, sxx = 0;
  for (const auto v : xs) {
    sx += v;
    sxx += v * v;
  }
  const auto n = static_cast<float>(xs.size());
  EXPECT_GT(std::abs((sxx / n - (sx / n) * (sx / n)) - expected), 0.5 * expected);
  const auto x = device_array(q, xs);
  EXPECT_NEAR(scalar_of<float>(q, var(q, x)), expected, 1e-3 * expected);
  EXPECT_NEAR(scalar_of<float>(q, std(q, x, {}, 1)), std::sqrt(expected),
              1e-3 * std::sqrt(expected));
  // A reversed view (not contiguous: the per-output shift kernel) and axes of a matrix.
  EXPECT_NEAR(scalar_of<float>(q, var(q, x.view({Slice(std::nullopt, std::nullopt, -1)}))),
              expected, 1e-3 * expected);
  const std::size_t rows = 1000, cols = 3;
  const std::vector<float> matrix(xs.begin(), xs.begin() + rows * cols);
  const auto m = device_array(q, matrix, {rows, cols});
  for (const std::ptrdiff_t axis : {0, 1, -1}) {
    SCOPED_TRACE(axis);
    const auto got = elements_of<float>(q, var(q, m, {.axis = {{axis}}}));
    const bool down = axis == 0;
    ASSERT_EQ(got.size(), down ? cols : rows);
    for (std::size_t k = 0; k < got.size(); ++k) {
      std::vector<float> line;
      for (std::size_t j = 0; j < (down ? rows : cols); ++j) {
        line.push_back(down ? matrix[j * cols + k] : matrix[k * cols + j]);
      }
      const auto reference = static_cast<double>(host_var(line));
      EXPECT_NEAR(got[k], reference, 2e-3 * reference + 1e-6) << "output " << k;
    }
  }
}

}  // namespace

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayStatisticsTest);

}  // namespace array_statistics_test
}  // namespace plinth::conformance
