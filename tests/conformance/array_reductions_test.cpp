// numpy's prod, any, all, nansum, nanmin, nanmax and the reductions of bool arrays
// (array_reductions.hpp) against host references at edge values (0, -0.0, inf, NaN,
// denormals, integer extremes, empty arrays) in each dtype numpy accepts.

#include "fixture.hpp"

#include <plinth/array_reductions.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace array_reductions_test {
namespace {

using ArrayReductionsTest = DeviceTest;

template <class T>
Array device_array(const Queue& queue, const std::vector<T>& values) {
  return Array::from_host(queue, HostArray::from_values(values));
}

/// A bool array of `bytes` (0 or 1).
Array bool_array(const Queue& queue, const std::vector<std::uint8_t>& bytes) {
  return Array::from_host(queue, HostArray::from_bytes(std::as_bytes(std::span(bytes)),
                                                       {bytes.size()}, DType::boolean()));
}

/// The only element of a shape-() result, as T (checking the dtype).
template <class T>
T scalar_of(const Queue& queue, const Array& result) {
  EXPECT_EQ(result.shape(), std::vector<std::size_t>{});
  EXPECT_EQ(result.dtype(), dtype_of<T>());
  return result.get(queue).template values<const T>()[0];
}

/// The sequential product of `xs` in S (integers wrap around as numpy's).
template <class S, class T>
S host_prod(const std::vector<T>& xs) {
  S result = 1;
  for (const auto v : xs) {
    if constexpr (std::is_integral_v<S>) {
      result = static_cast<S>(static_cast<std::uint64_t>(result) *
                              static_cast<std::uint64_t>(static_cast<S>(v)));
    } else {
      result *= static_cast<S>(v);
    }
  }
  return result;
}

template <class T, class S>
void check_integer_prod(const Queue& queue) {
  SCOPED_TRACE(dtype_of<T>().name());
  const T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  for (const auto& xs : {std::vector<T>{3, 5, 7}, std::vector<T>{hi, 2, 3},
                         std::vector<T>{lo, 3, hi}, std::vector<T>{1, 0, hi}, std::vector<T>{}}) {
    const auto got = scalar_of<S>(queue, prod(queue, device_array(queue, xs)));
    EXPECT_EQ(got, (host_prod<S, T>(xs)));
  }
  // Many elements: each is 1 but a few, the product of those exact (several groups).
  std::vector<T> many(1000003, T{1});
  many[5] = 3;
  many[500000] = static_cast<T>(std::is_signed_v<T> ? -2 : 2);
  many[1000002] = 5;
  EXPECT_EQ(scalar_of<S>(queue, prod(queue, device_array(queue, many))), (host_prod<S, T>(many)));
}

template <class T>
void check_float_prod(const Queue& queue) {
  SCOPED_TRACE(dtype_of<T>().name());
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T denorm = std::numeric_limits<T>::denorm_min();
  // Exact products: the order does not matter.
  for (const auto& xs :
       {std::vector<T>{1.5, -2, 0.5, 4, -0.25, 3}, std::vector<T>{-0.0, 2}, std::vector<T>{0.0, -3},
        std::vector<T>{inf, -2}, std::vector<T>{denorm, 4}, std::vector<T>{denorm, T(0.5)},
        std::vector<T>{}}) {
    const auto got = scalar_of<T>(queue, prod(queue, device_array(queue, xs)));
    const auto expected = host_prod<T, T>(xs);
    EXPECT_EQ(got, expected);
    EXPECT_EQ(std::signbit(got), std::signbit(expected));
  }
  EXPECT_TRUE(
      std::isnan(scalar_of<T>(queue, prod(queue, device_array(queue, std::vector<T>{inf, 0})))));
  EXPECT_TRUE(
      std::isnan(scalar_of<T>(queue, prod(queue, device_array(queue, std::vector<T>{2, nan})))));
}

TEST_P(ArrayReductionsTest, ProdOfEveryDtypeAtEdgeValues) {
  check_integer_prod<std::int8_t, std::int64_t>(queue());
  check_integer_prod<std::uint8_t, std::uint64_t>(queue());
  check_integer_prod<std::int16_t, std::int64_t>(queue());
  check_integer_prod<std::uint16_t, std::uint64_t>(queue());
  check_integer_prod<std::int32_t, std::int64_t>(queue());
  check_integer_prod<std::uint32_t, std::uint64_t>(queue());
  check_integer_prod<std::uint64_t, std::uint64_t>(queue());
  // int64: the wrap-around of signed products is not checked (the kernel languages leave
  // signed overflow undefined); in range, products are exact.
  EXPECT_EQ(
      scalar_of<std::int64_t>(
          queue(),
          prod(queue(),
               device_array(queue(), std::vector<std::int64_t>{-(std::int64_t{1} << 62), 2}))),
      std::numeric_limits<std::int64_t>::lowest());
  check_float_prod<float>(queue());
  const std::vector<std::complex<float>> zs{{1, 2}, {3, -1}, {0, 1}};
  EXPECT_EQ(scalar_of<std::complex<float>>(queue(), prod(queue(), device_array(queue(), zs))),
            zs[0] * zs[1] * zs[2]);
  // bool: int64, as numpy.
  EXPECT_EQ(scalar_of<std::int64_t>(queue(), prod(queue(), bool_array(queue(), {1, 1, 1}))), 1);
  EXPECT_EQ(scalar_of<std::int64_t>(queue(), prod(queue(), bool_array(queue(), {1, 0, 1}))), 0);
  if (!device().params().supports_double) GTEST_SKIP() << "no double precision";
  check_float_prod<double>(queue());
  const std::vector<std::complex<double>> zd{{1, 2}, {3, -1}, {0.5, 1}};
  EXPECT_EQ(scalar_of<std::complex<double>>(queue(), prod(queue(), device_array(queue(), zd))),
            zd[0] * zd[1] * zd[2]);
}

/// any and all of `xs` against the host (non-zero is true).
template <class T>
void check_truth(const Queue& queue, const std::vector<T>& xs) {
  bool any_true = false, all_true = true;
  for (const auto v : xs) {
    const bool truth = v != T{};
    any_true = any_true || truth;
    all_true = all_true && truth;
  }
  const auto x = device_array(queue, xs);
  EXPECT_EQ(scalar_of<bool>(queue, any(queue, x)), any_true) << xs.size() << " elements";
  EXPECT_EQ(scalar_of<bool>(queue, all(queue, x)), all_true) << xs.size() << " elements";
}

template <class T>
void check_truth_of(const Queue& queue) {
  SCOPED_TRACE(dtype_of<T>().name());
  const T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  for (const auto& xs : {std::vector<T>{0, 0}, std::vector<T>{0, lo}, std::vector<T>{hi, 1},
                         std::vector<T>{1, 0, 1}, std::vector<T>{}}) {
    check_truth(queue, xs);
  }
  if constexpr (std::is_floating_point_v<T>) {
    check_truth(queue, std::vector<T>{-0.0, 0.0});                               // -0.0 is false
    check_truth(queue, std::vector<T>{std::numeric_limits<T>::quiet_NaN(), 1});  // NaN true
    check_truth(queue, std::vector<T>{std::numeric_limits<T>::denorm_min(), -T(0.0)});
    check_truth(queue, std::vector<T>{std::numeric_limits<T>::infinity(), 2});
  }
  std::vector<T> many(1000003, T{1});
  check_truth(queue, many);
  many[999999] = T{};
  check_truth(queue, many);
  std::vector<T> zeros(1000003, T{});
  zeros[777777] = T{3};
  check_truth(queue, zeros);
}

TEST_P(ArrayReductionsTest, AnyAndAllOfEveryDtype) {
  check_truth_of<std::int8_t>(queue());
  check_truth_of<std::uint8_t>(queue());
  check_truth_of<std::int16_t>(queue());
  check_truth_of<std::uint16_t>(queue());
  check_truth_of<std::int32_t>(queue());
  check_truth_of<std::uint32_t>(queue());
  check_truth_of<std::int64_t>(queue());
  check_truth_of<std::uint64_t>(queue());
  check_truth_of<float>(queue());
  // complex: true where either part is non-zero.
  check_truth(queue(), std::vector<std::complex<float>>{{0, 0}, {0, -0.0f}});
  check_truth(queue(), std::vector<std::complex<float>>{{0, 1}, {2, 0}});
  check_truth(queue(), std::vector<std::complex<float>>{{0, 1}, {0, 0}});
  // bool, with a byte of 2 (written behind numpy's back) also true.
  for (const auto& bytes : {std::vector<std::uint8_t>{0, 0}, std::vector<std::uint8_t>{0, 1},
                            std::vector<std::uint8_t>{1, 2}, std::vector<std::uint8_t>{}}) {
    const auto x = bool_array(queue(), bytes);
    bool any_true = false, all_true = true;
    for (const auto b : bytes) {
      any_true = any_true || b != 0;
      all_true = all_true && b != 0;
    }
    EXPECT_EQ(scalar_of<bool>(queue(), any(queue(), x)), any_true);
    EXPECT_EQ(scalar_of<bool>(queue(), all(queue(), x)), all_true);
  }
  EXPECT_NE(logic_error_message([&] {
              any(queue(), Array::empty(queue(), {3}, DType::float16()));
            }).find("float16"),
            std::string::npos);
  if (!device().params().supports_double) GTEST_SKIP() << "no double precision";
  check_truth_of<double>(queue());
  check_truth(queue(), std::vector<std::complex<double>>{{0, 0}, {0, 1e-320}});
}

TEST_P(ArrayReductionsTest, BoolArraysReduceAsNumpy) {
  std::vector<std::uint8_t> bytes(1000003);
  std::int64_t ones = 0;
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    bytes[k] = (k * 2654435761u) % 7 < 3;
    ones += bytes[k];
  }
  const auto x = bool_array(queue(), bytes);
  EXPECT_EQ(sum_dtype(DType::boolean()), DType::int64());
  EXPECT_EQ(scalar_of<std::int64_t>(queue(), sum(queue(), x)), ones);
  EXPECT_EQ(scalar_of<std::int64_t>(queue(), nansum(queue(), x)), ones);
  EXPECT_EQ(scalar_of<bool>(queue(), min(queue(), x)), false);
  EXPECT_EQ(scalar_of<bool>(queue(), max(queue(), x)), true);
  EXPECT_EQ(scalar_of<bool>(queue(), nanmax(queue(), x)), true);
  const auto all_ones = bool_array(queue(), {1, 1, 1});
  EXPECT_EQ(scalar_of<bool>(queue(), min(queue(), all_ones, ReductionTarget{})), true);
  EXPECT_EQ(scalar_of<std::int64_t>(queue(), sum(queue(), all_ones, ReductionTarget{})), 3);
  EXPECT_EQ(argmax(queue(), x).get(queue()).to_vector<std::int64_t>()[0], 0);
}

template <class T>
void check_nan_reductions(const Queue& queue) {
  SCOPED_TRACE(dtype_of<T>().name());
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const auto x = device_array(queue, std::vector<T>{nan, 3, -1.5, nan, -0.0});
  EXPECT_EQ(scalar_of<T>(queue, nansum(queue, x)), T(1.5));
  EXPECT_EQ(scalar_of<T>(queue, nanmin(queue, x)), T(-1.5));
  EXPECT_EQ(scalar_of<T>(queue, nanmax(queue, x)), T(3));
  EXPECT_TRUE(std::isnan(scalar_of<T>(queue, sum(queue, x))));
  const auto nans = device_array(queue, std::vector<T>{nan, nan});
  EXPECT_EQ(scalar_of<T>(queue, nansum(queue, nans)), T(0));
  EXPECT_TRUE(std::isnan(scalar_of<T>(queue, nanmin(queue, nans))));  // numpy: NaN, warns
  EXPECT_TRUE(std::isnan(scalar_of<T>(queue, nanmax(queue, nans))));
  const auto infinite = device_array(queue, std::vector<T>{nan, -inf, inf});
  EXPECT_EQ(scalar_of<T>(queue, nanmin(queue, infinite)), -inf);
  EXPECT_EQ(scalar_of<T>(queue, nanmax(queue, infinite)), inf);
  EXPECT_TRUE(std::isnan(scalar_of<T>(queue, nansum(queue, infinite))));  // inf - inf
  // Many elements, NaN everywhere but a few.
  std::vector<T> many(1000003, nan);
  many[12] = 2;
  many[600000] = -7;
  many[1000002] = 5;
  const auto m = device_array(queue, many);
  EXPECT_EQ(scalar_of<T>(queue, nansum(queue, m)), T(0));
  EXPECT_EQ(scalar_of<T>(queue, nanmin(queue, m)), T(-7));
  EXPECT_EQ(scalar_of<T>(queue, nanmax(queue, m)), T(5));
  EXPECT_NE(logic_error_message([&] {
              nanmin(queue, device_array(queue, std::vector<T>{}));
            }).find("no elements"),
            std::string::npos);
}

TEST_P(ArrayReductionsTest, NanReductionsSkipNaNs) {
  check_nan_reductions<float>(queue());
  // Integers behave as sum/min/max.
  const auto ints =
      device_array(queue(), std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::lowest(),
                                                      4, std::numeric_limits<std::int32_t>::max()});
  EXPECT_EQ(scalar_of<std::int64_t>(queue(), nansum(queue(), ints)), 3);
  EXPECT_EQ(scalar_of<std::int32_t>(queue(), nanmin(queue(), ints)),
            std::numeric_limits<std::int32_t>::lowest());
  EXPECT_EQ(scalar_of<std::int32_t>(queue(), nanmax(queue(), ints)),
            std::numeric_limits<std::int32_t>::max());
  // complex nansum: an element with a NaN part counts as 0.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto zs =
      device_array(queue(), std::vector<std::complex<float>>{{1, nan}, {2, 1}, {nan, 0}, {-1, 3}});
  EXPECT_EQ(scalar_of<std::complex<float>>(queue(), nansum(queue(), zs)),
            std::complex<float>(1, 4));
  EXPECT_NE(logic_error_message([&] { nanmin(queue(), zs); }).find("not ordered"),
            std::string::npos);
  if (!device().params().supports_double) GTEST_SKIP() << "no double precision";
  check_nan_reductions<double>(queue());
}

}  // namespace

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayReductionsTest);

}  // namespace array_reductions_test
}  // namespace plinth::conformance
