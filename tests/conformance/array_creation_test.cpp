// Array creation (include/plinth/array_creation.hpp) against numpy's rules computed on the host:
// zeros/ones/full in C and Fortran order and every kind of dtype, arange's length and values
// (numpy's fill formula, checked bit for bit, float32 included), linspace's (numpy's float64
// formula, bit for bit), eye's diagonals, the *_like forms, MultiQueue zeros/full, and misuse.

#include "fixture.hpp"

#include <plinth/array_creation.hpp>

#include <fmt/format.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace array_creation_test {
namespace {

using ArrayCreationTest = DeviceTest;
using Shape = std::vector<std::size_t>;

template <class T>
std::vector<T> values_of(const Queue& queue, const Array& array) {
  return array.get(queue).to_vector<T>();
}

/// The elements of a C-order copy of `array` as raw T (float16 as its bits, bool as bytes).
template <class T>
std::vector<T> bits_of(const Queue& queue, const Array& array) {
  const auto host = array.get(queue);
  std::vector<T> bits(array.size());
  if (!bits.empty()) std::memcpy(bits.data(), host.data(), bits.size() * sizeof(T));
  return bits;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// numpy's arange fill rule for a float dtype T: start, start + step (as a double, converted),
/// then first + i * (second - first) in T, not contracted.
template <class T>
std::vector<T> arange_reference(double start, double stop, double step) {
  const auto n = static_cast<std::size_t>(std::max(0.0, std::ceil((stop - start) / step)));
  std::vector<T> values(n);
  const auto b0 = static_cast<T>(start);
  const auto b1 = static_cast<T>(start + step);
  const T delta = b1 - b0;
  for (std::size_t i = 0; i < n; ++i) {
    volatile T product = static_cast<T>(i) * delta;  // no fused multiply-add
    values[i] = i == 0 ? b0 : i == 1 ? b1 : static_cast<T>(b0 + product);
  }
  return values;
}

/// numpy's linspace in float64 (function_base.py), before the conversion to the dtype.
std::vector<double> linspace_reference(double start, double stop, std::size_t num, bool endpoint) {
  const double div = static_cast<double>(endpoint ? num - 1 : num);
  const double delta = stop - start;
  const double step = div > 0 ? delta / div : 0.0;
  std::vector<double> values(num);
  for (std::size_t i = 0; i < num; ++i) {
    const double x = static_cast<double>(i);
    volatile double y = div > 0 ? (step == 0 ? (x / div) * delta : x * step) : x * delta;
    values[i] = y + start;
  }
  if (endpoint && num > 1) values[num - 1] = stop;
  return values;
}

TEST_P(ArrayCreationTest, ZerosOnesFullInEveryKindOfDtype) {
  if (!device().params().supports_double) GTEST_SKIP() << "float64 defaults need doubles";
  const auto z = zeros(queue(), {2, 3}, DType::float32());
  EXPECT_EQ(z.dtype(), DType::float32());
  EXPECT_EQ(values_of<float>(queue(), z), std::vector<float>(6, 0.0f));
  EXPECT_EQ(values_of<double>(queue(), ones(queue(), {4})), std::vector<double>(4, 1.0));
  EXPECT_EQ(values_of<std::int8_t>(queue(), ones(queue(), {3}, DType::int8())),
            std::vector<std::int8_t>(3, 1));
  // float16's ones are the bits 0x3C00, bool's 1.
  EXPECT_EQ(bits_of<std::uint16_t>(queue(), ones(queue(), {5}, DType::float16())),
            std::vector<std::uint16_t>(5, 0x3C00));
  EXPECT_EQ(bits_of<std::uint16_t>(queue(), zeros(queue(), {5}, DType::float16())),
            std::vector<std::uint16_t>(5, 0));
  EXPECT_EQ(bits_of<std::uint8_t>(queue(), ones(queue(), {2}, DType::boolean())),
            std::vector<std::uint8_t>(2, 1));
  // full takes numpy's type of the value.
  EXPECT_EQ(full(queue(), {2}, 2.5).dtype(), DType::float64());
  EXPECT_EQ(full(queue(), {2}, 7).dtype(), DType::int64());
  EXPECT_EQ(full(queue(), {2}, true).dtype(), DType::boolean());
  EXPECT_EQ(values_of<std::int64_t>(queue(), full(queue(), {3}, -7)),
            std::vector<std::int64_t>(3, -7));
  // A real into an integer dtype truncates (numpy's unsafe cast).
  EXPECT_EQ(values_of<std::int32_t>(queue(), full(queue(), {2}, 3.7, DType::int32())),
            std::vector<std::int32_t>(2, 3));
  if (device().params().supports_double) {
    const auto c = full(queue(), {2}, std::complex<double>(1, -2));
    EXPECT_EQ(c.dtype(), DType::complex128());
    EXPECT_EQ(values_of<std::complex<double>>(queue(), c),
              std::vector<std::complex<double>>(2, {1, -2}));
  }
  // Empty and zero-dimensional shapes.
  EXPECT_EQ(zeros(queue(), {0, 3}).size(), 0u);
  EXPECT_EQ(values_of<double>(queue(), full(queue(), {}, 4.0)), std::vector<double>{4.0});
  EXPECT_NE(logic_error_message([&] { full(queue(), {2}, 300, DType::int8()); }).find("300"),
            std::string::npos);
  const auto point = DType::make_struct({{"x", DType::float32()}});
  EXPECT_FALSE(logic_error_message([&] { zeros(queue(), {2}, point); }).empty());
}

TEST_P(ArrayCreationTest, FortranOrderLaysOutColumnsFirst) {
  const auto f = full(queue(), {3, 4}, 1.5f, DType::float32(), Order::F);
  EXPECT_EQ(f.strides(), (std::vector<std::ptrdiff_t>{4, 12}));
  EXPECT_TRUE(f.is_f_contiguous());
  EXPECT_FALSE(f.is_c_contiguous());
  EXPECT_EQ(values_of<float>(queue(), f), std::vector<float>(12, 1.5f));
  const auto e = Array::empty(queue(), {2, 3, 4}, DType::int16(), Order::F);
  EXPECT_EQ(e.strides(), (std::vector<std::ptrdiff_t>{2, 4, 12}));
  // The *_like forms keep a Fortran layout and take another dtype.
  const auto zl = zeros_like(queue(), f, DType::int32());
  EXPECT_EQ(zl.dtype(), DType::int32());
  EXPECT_TRUE(zl.is_f_contiguous());
  EXPECT_EQ(values_of<std::int32_t>(queue(), zl), std::vector<std::int32_t>(12, 0));
  const auto ol = ones_like(queue(), f, std::nullopt, Order::C);
  EXPECT_TRUE(ol.is_c_contiguous());
  EXPECT_EQ(values_of<float>(queue(), ol), std::vector<float>(12, 1.0f));
  EXPECT_EQ(values_of<float>(queue(), full_like(queue(), f, 9)), std::vector<float>(12, 9.0f));
  const auto el = empty_like(queue(), f);
  EXPECT_EQ(el.shape(), f.shape());
  EXPECT_TRUE(el.is_f_contiguous());
}

TEST_P(ArrayCreationTest, ArangeLengthsAndIntegerValues) {
  const auto a = arange(queue(), 10);
  EXPECT_EQ(a.dtype(), DType::int64());
  std::vector<std::int64_t> expected(10);
  for (std::size_t i = 0; i < 10; ++i) expected[i] = static_cast<std::int64_t>(i);
  EXPECT_EQ(values_of<std::int64_t>(queue(), a), expected);
  EXPECT_EQ(values_of<std::int64_t>(queue(), arange(queue(), 1, 10, 3)),
            (std::vector<std::int64_t>{1, 4, 7}));
  EXPECT_EQ(values_of<std::int64_t>(queue(), arange(queue(), 5, -6, -4)),
            (std::vector<std::int64_t>{5, 1, -3}));
  EXPECT_EQ(arange(queue(), 5, 1).size(), 0u);
  EXPECT_EQ(arange(queue(), 0, 10, -1).size(), 0u);
  // Extreme int64 arguments: the length is exact.
  const auto big = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(values_of<std::int64_t>(queue(), arange(queue(), big - 2, big)),
            (std::vector<std::int64_t>{big - 2, big - 1}));
  // A real argument gives float64; a real start with an integer dtype truncates (numpy's
  // [0, 1, 2, 3, 4, 5, 6] for arange(0.5, 5, 0.7, dtype=int64)).
  EXPECT_EQ(arange(queue(), 0, 1, 0.25).dtype(), DType::float64());
  EXPECT_EQ(values_of<std::int64_t>(queue(), arange(queue(), 0.5, 5, 0.7, DType::int64())),
            (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6}));
  // int8 wraps as numpy's (start + i * delta in the dtype).
  EXPECT_EQ(values_of<std::int8_t>(queue(), arange(queue(), 0, 300, 100, DType::int8())),
            (std::vector<std::int8_t>{0, 100, -56}));
  EXPECT_EQ(bits_of<std::uint16_t>(queue(), arange(queue(), 7, 0, -3, DType::uint16())),
            (std::vector<std::uint16_t>{7, 4, 1}));
  EXPECT_NE(logic_error_message([&] { arange(queue(), 0, 5, 0); }).find("step is 0"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { arange(queue(), 0.0, 5.0, 0.0); }).find("step is 0"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              arange(queue(), -3, 5, 1, DType::uint8());
            }).find("does not fit uint8"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              arange(queue(), 0, 5, 1, DType::boolean());
            }).find("not supported"),
            std::string::npos);
  EXPECT_NE(
      logic_error_message([&] { arange(queue(), 0.0, std::nan(""), 1.0); }).find("cannot compute"),
      std::string::npos);
}

TEST_P(ArrayCreationTest, ArangeFloatValuesAreNumpysBitForBit) {
  struct Case {
    double start, stop, step;
  };
  // (0, 2^25 + 17, 1) has indices float32 cannot hold exactly.
  for (const auto& c : {Case{0.1, 1e6, 0.3}, Case{-3.7, 1e5, 0.013}, Case{1e7, -5.5, -1.7},
                        Case{0, 33554449, 1}, Case{0.5, 33, 1e-3}, Case{1, 2, 0.3}}) {
    SCOPED_TRACE(fmt::format("arange({}, {}, {})", c.start, c.stop, c.step));
    const auto f = arange(queue(), c.start, c.stop, c.step, DType::float32());
    EXPECT_TRUE(
        same_bits(values_of<float>(queue(), f), arange_reference<float>(c.start, c.stop, c.step)));
    if (!device().params().supports_double) continue;
    const auto d = arange(queue(), c.start, c.stop, c.step);
    EXPECT_TRUE(same_bits(values_of<double>(queue(), d),
                          arange_reference<double>(c.start, c.stop, c.step)));
  }
  EXPECT_EQ(arange(queue(), 0.0, 1.0, 0.1).size(), 10u);
}

TEST_P(ArrayCreationTest, LinspaceValuesAreNumpysBitForBit) {
  if (!device().params().supports_double) GTEST_SKIP() << "linspace is exact with doubles only";
  struct Case {
    double start, stop;
    std::size_t num;
    bool endpoint;
  };
  // 5e-324 over 4 steps: the step underflows to 0, numpy's (i / div) * delta branch.
  for (const auto& c : {Case{0, 1, 50, true}, Case{-3.3, 7.1, 1001, false},
                        Case{1e-3, 1e5, 777, true}, Case{0, 5e-324, 5, true}, Case{2, 2, 4, true},
                        Case{0, 1, 1, true}, Case{3, -7, 13, false}, Case{0, 1, 0, true}}) {
    SCOPED_TRACE(fmt::format("linspace({}, {}, {}, {})", c.start, c.stop, c.num, c.endpoint));
    const auto reference = linspace_reference(c.start, c.stop, c.num, c.endpoint);
    const auto d = linspace(queue(), c.start, c.stop, c.num, c.endpoint);
    EXPECT_EQ(d.dtype(), DType::float64());
    EXPECT_TRUE(same_bits(values_of<double>(queue(), d), reference));
    std::vector<float> as_float(reference.begin(), reference.end());
    const auto f = linspace(queue(), c.start, c.stop, c.num, c.endpoint, DType::float32());
    EXPECT_TRUE(same_bits(values_of<float>(queue(), f), as_float));
  }
  // Integer dtypes take the floor (numpy: [0, 1, 3, 5, 6, 8, 10]).
  EXPECT_EQ(values_of<std::int32_t>(queue(), linspace(queue(), 0, 10, 7, true, DType::int32())),
            (std::vector<std::int32_t>{0, 1, 3, 5, 6, 8, 10}));
  EXPECT_EQ(values_of<std::int32_t>(queue(), linspace(queue(), 0, -3, 3, false, DType::int32())),
            (std::vector<std::int32_t>{0, -1, -2}));
  EXPECT_FALSE(
      logic_error_message([&] { linspace(queue(), 0, 1, 5, true, DType::complex64()); }).empty());
}

TEST_P(ArrayCreationTest, EyeDiagonalsInEveryLayout) {
  struct Case {
    std::size_t n, m;
    std::ptrdiff_t k;
  };
  for (const auto& c : {Case{3, 4, 1}, Case{4, 3, -2}, Case{3, 3, 5}, Case{5, 2, 0}}) {
    for (const auto order : {Order::C, Order::F}) {
      SCOPED_TRACE(
          fmt::format("eye({}, {}, {}) order {}", c.n, c.m, c.k, order == Order::C ? "C" : "F"));
      const auto e = eye(queue(), c.n, c.m, c.k, DType::int32(), order);
      ASSERT_EQ(e.shape(), (Shape{c.n, c.m}));
      EXPECT_EQ(order == Order::F, e.is_f_contiguous() && !e.is_c_contiguous());
      std::vector<std::int32_t> expected(c.n * c.m);
      for (std::size_t r = 0; r < c.n; ++r) {
        for (std::size_t col = 0; col < c.m; ++col) {
          expected[r * c.m + col] =
              static_cast<std::ptrdiff_t>(col) - static_cast<std::ptrdiff_t>(r) == c.k ? 1 : 0;
        }
      }
      EXPECT_EQ(values_of<std::int32_t>(queue(), e), expected);
    }
  }
  EXPECT_EQ(values_of<float>(queue(), eye(queue(), 2, std::nullopt, 0, DType::float32())),
            (std::vector<float>{1, 0, 0, 1}));
  EXPECT_EQ(bits_of<std::uint16_t>(queue(), eye(queue(), 2, std::nullopt, 0, DType::float16())),
            (std::vector<std::uint16_t>{0x3C00, 0, 0, 0x3C00}));
  EXPECT_EQ(bits_of<std::uint8_t>(queue(), eye(queue(), 2, 1, -1, DType::boolean())),
            (std::vector<std::uint8_t>{0, 1}));
  EXPECT_EQ(
      values_of<std::complex<float>>(queue(), eye(queue(), 2, std::nullopt, 0, DType::complex64())),
      (std::vector<std::complex<float>>{1, 0, 0, 1}));
  EXPECT_EQ(eye(queue(), 0).size(), 0u);
}

TEST_P(ArrayCreationTest, MultiQueueZerosAndFull) {
  const MultiQueue queues({queue()});
  const auto z = zeros(queues, {6, 2}, DType::int32());
  EXPECT_EQ(z.get(queues).to_vector<std::int32_t>(), std::vector<std::int32_t>(12, 0));
  const auto f = full(queues, {5}, 2.5f, DType::float32());
  EXPECT_EQ(f.get(queues).to_vector<float>(), std::vector<float>(5, 2.5f));
  EXPECT_EQ(full(queues, {3}, 7).dtype(), DType::int64());
}

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayCreationTest);

}  // namespace
}  // namespace array_creation_test
}  // namespace plinth::conformance
