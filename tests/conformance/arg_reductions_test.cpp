// argmin and argmax against host references: the first occurrence among duplicates, the
// first NaN, ±0 (equal: the first wins), ±inf, the extreme integers (the kernel's neutral
// values), every integer width, bool, float64 where the device has doubles; sizes 1, 2 and
// 2^k ± 1; axes of 2-D and 3-D arrays; views with negative strides; misuse.

#include "fixture.hpp"
#include "large_device.hpp"

#include <plinth/array_expression.hpp>

#include <plinth/array_reductions.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace arg_reductions_test {
namespace {

using ArgReductionTest = DeviceTest;

/// A uint8 array of 2^31 + 5 elements, all `base`, but `value` at each of `at`.
Array large_uint8(const Queue& queue, std::uint8_t base, std::uint8_t value,
                  const std::vector<std::size_t>& at) {
  const std::size_t n = (std::size_t{1} << 31) + 5;
  auto x = Array::empty(queue, {n}, DType::uint8());
  fill(queue, x, base);
  for (const auto k : at) {
    const auto p = static_cast<std::ptrdiff_t>(k);
    fill(queue, x.view({Slice(p, p + 1)}), value);
  }
  return x;
}

std::uint64_t next(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 33;
}

/// numpy's argmin (`is_min`) or argmax of xs[first], xs[first + step], ... (count of them).
template <class T>
std::int64_t host_arg(const std::vector<T>& xs, std::size_t first, std::size_t step,
                      std::size_t count, bool is_min) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < count; ++k) {
    const T a = xs[first + best * step], b = xs[first + k * step];
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a)) break;
      if (std::isnan(b)) {
        best = k;
        break;
      }
    }
    if (is_min ? b < a : b > a) best = k;
  }
  return static_cast<std::int64_t>(best);
}

template <class T>
std::int64_t device_arg(const Queue& queue, const Array& x, bool is_min) {
  const auto result = is_min ? argmin(queue, x) : argmax(queue, x);
  EXPECT_EQ(result.dtype(), DType::int64());
  EXPECT_EQ(result.ndim(), 0u);
  return result.get(queue).to_vector<std::int64_t>()[0];
}

const std::vector<std::size_t> sizes{1, 2, 3, 255, 256, 257, 1023, 1025, 4097, 65537, 131073};

template <class T>
std::vector<T> floats_with_specials(std::size_t n, std::uint64_t seed, bool nans) {
  std::vector<T> xs(n);
  for (auto& x : xs) {
    const auto r = next(seed);
    switch (r % 64) {
      case 0: x = nans ? std::numeric_limits<T>::quiet_NaN() : T(0); break;
      case 1: x = -T(0); break;
      case 2: x = T(0); break;
      case 3: x = (r % 128) < 64 ? T(9) : T(-9); break;  // duplicates of the extremes
      default: x = static_cast<T>(r % 17) - T(8); break;
    }
  }
  return xs;
}

TEST_P(ArgReductionTest, Float32FirstOccurrenceAndNaN) {
  for (const bool nans : {false, true}) {
    for (const auto n : sizes) {
      SCOPED_TRACE(::testing::Message() << "n " << n << (nans ? " with NaN" : ""));
      const auto xs = floats_with_specials<float>(n, n * 3 + 1, nans);
      const auto x = Array::from_host(queue(), HostArray::from_values(xs));
      EXPECT_EQ(device_arg<float>(queue(), x, true), host_arg(xs, 0, 1, n, true));
      EXPECT_EQ(device_arg<float>(queue(), x, false), host_arg(xs, 0, 1, n, false));
    }
  }
  // Infinities, -0 before +0, and a NaN late in the array.
  std::vector<float> special(1000, 1.0f);
  special[10] = -0.0f;
  special[20] = 0.0f;
  special[500] = std::numeric_limits<float>::infinity();
  special[600] = std::numeric_limits<float>::infinity();
  special[700] = -std::numeric_limits<float>::infinity();
  auto x = Array::from_host(queue(), HostArray::from_values(special));
  EXPECT_EQ(device_arg<float>(queue(), x, false), 500);
  EXPECT_EQ(device_arg<float>(queue(), x, true), 700);
  special[700] = 1.0f;
  special[900] = std::numeric_limits<float>::quiet_NaN();
  special[950] = std::numeric_limits<float>::quiet_NaN();
  x = Array::from_host(queue(), HostArray::from_values(special));
  EXPECT_EQ(device_arg<float>(queue(), x, false), 900);
  EXPECT_EQ(device_arg<float>(queue(), x, true), 900);
  std::vector<float> zeros(300, 1.0f);
  zeros[17] = 0.0f;
  zeros[40] = -0.0f;
  x = Array::from_host(queue(), HostArray::from_values(zeros));
  EXPECT_EQ(device_arg<float>(queue(), x, true), 17);  // +0 == -0: the first
}

template <class T>
void check_integers(const Queue& queue) {
  SCOPED_TRACE(dtype_of<T>().name());
  for (const auto n : {std::size_t{1}, std::size_t{257}, std::size_t{4097}}) {
    std::vector<T> xs(n);
    std::uint64_t seed = n;
    for (auto& x : xs) {
      const auto r = next(seed) % 8;
      x = r == 0   ? std::numeric_limits<T>::min()
          : r == 1 ? std::numeric_limits<T>::max()
                   : static_cast<T>(next(seed));
    }
    const auto x = Array::from_host(queue, HostArray::from_values(xs));
    EXPECT_EQ(device_arg<T>(queue, x, true), host_arg(xs, 0, 1, n, true)) << n;
    EXPECT_EQ(device_arg<T>(queue, x, false), host_arg(xs, 0, 1, n, false)) << n;
  }
  // All elements the neutral value of the reduction: index 0.
  const std::vector<T> lows(513, std::numeric_limits<T>::min());
  const std::vector<T> highs(513, std::numeric_limits<T>::max());
  EXPECT_EQ(device_arg<T>(queue, Array::from_host(queue, HostArray::from_values(lows)), false), 0);
  EXPECT_EQ(device_arg<T>(queue, Array::from_host(queue, HostArray::from_values(highs)), true), 0);
}

TEST_P(ArgReductionTest, EveryIntegerWidthAndBool) {
  check_integers<std::int8_t>(queue());
  check_integers<std::uint8_t>(queue());
  check_integers<std::int16_t>(queue());
  check_integers<std::uint16_t>(queue());
  check_integers<std::int32_t>(queue());
  check_integers<std::uint32_t>(queue());
  check_integers<std::int64_t>(queue());
  check_integers<std::uint64_t>(queue());
  const std::vector<std::uint8_t> flags{0, 0, 1, 0, 1};
  const auto b = Array::from_host(
      queue(), HostArray::from_bytes(std::as_bytes(std::span(flags)), {5}, DType::boolean()));
  EXPECT_EQ(device_arg<bool>(queue(), b, false), 2);
  EXPECT_EQ(device_arg<bool>(queue(), b, true), 0);
}

TEST_P(ArgReductionTest, Float64WithNaN) {
  if (!device().params().supports_double) GTEST_SKIP() << "no doubles";
  for (const auto n : {std::size_t{1}, std::size_t{1025}, std::size_t{65537}}) {
    const auto xs = floats_with_specials<double>(n, n + 5, true);
    const auto x = Array::from_host(queue(), HostArray::from_values(xs));
    EXPECT_EQ(device_arg<double>(queue(), x, true), host_arg(xs, 0, 1, n, true)) << n;
    EXPECT_EQ(device_arg<double>(queue(), x, false), host_arg(xs, 0, 1, n, false)) << n;
  }
}

TEST_P(ArgReductionTest, AlongEachAxis) {
  const std::size_t a = 5, b = 129, c = 33;
  const auto xs = floats_with_specials<float>(a * b * c, 77, true);
  const auto x = Array::from_host(queue(), HostArray::from_values(xs, {a, b, c}));
  const std::size_t extents[3] = {a, b, c};
  const std::size_t strides[3] = {b * c, c, 1};
  for (const bool is_min : {true, false}) {
    for (std::ptrdiff_t axis = -3; axis < 3; ++axis) {
      SCOPED_TRACE(::testing::Message() << "axis " << axis << (is_min ? " argmin" : " argmax"));
      const auto d = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
      const auto result = is_min ? argmin(queue(), x, axis) : argmax(queue(), x, axis);
      std::vector<std::size_t> shape;
      for (std::size_t k = 0; k < 3; ++k)
        if (k != d) shape.push_back(extents[k]);
      ASSERT_EQ(result.shape(), shape);
      const auto got = result.get(queue()).to_vector<std::int64_t>();
      std::size_t out = 0;
      for (std::size_t i = 0; i < a; ++i)
        for (std::size_t j = 0; j < b; ++j)
          for (std::size_t k = 0; k < c; ++k) {
            const std::size_t position[3] = {i, j, k};
            if (position[d] != 0) continue;
            const auto first = i * strides[0] + j * strides[1] + k * strides[2];
            ASSERT_EQ(got[out], host_arg(xs, first, strides[d], extents[d], is_min)) << out;
            ++out;
          }
    }
  }
}

TEST_P(ArgReductionTest, ReversedAndSteppedViews) {
  const std::size_t n = 4001;
  const auto xs = floats_with_specials<float>(n, 123, false);
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto view = x.view({Slice(std::nullopt, std::nullopt, -3)});
  std::vector<float> seen;
  for (std::size_t k = n; k-- > 0;)
    if ((n - 1 - k) % 3 == 0) seen.push_back(xs[k]);
  ASSERT_EQ(view.size(), seen.size());
  EXPECT_EQ(device_arg<float>(queue(), view, true), host_arg(seen, 0, 1, seen.size(), true));
  EXPECT_EQ(device_arg<float>(queue(), view, false), host_arg(seen, 0, 1, seen.size(), false));
}

// Beyond 2^31 elements (GPUs with the memory only): an index past 32 bits.
TEST_P(ArgReductionTest, Beyond2To31Elements) {
  if (!large_device(device(), std::size_t{3} << 30)) GTEST_SKIP() << "not a large device";
  const std::size_t at = (std::size_t{1} << 31) + 3;
  const auto x = large_uint8(queue(), 5, 7, {at, at + 1});
  EXPECT_EQ(argmax(queue(), x).get(queue()).to_vector<std::int64_t>()[0],
            static_cast<std::int64_t>(at));
  const auto y = large_uint8(queue(), 5, 1, {at + 1});
  EXPECT_EQ(argmin(queue(), y).get(queue()).to_vector<std::int64_t>()[0],
            static_cast<std::int64_t>(at + 1));
}

TEST_P(ArgReductionTest, MisuseNamesTheArgument) {
  const auto empty = Array::empty(queue(), {0}, DType::float32());
  EXPECT_NE(logic_error_message([&] { argmax(queue(), empty); }).find("empty"), std::string::npos);
  const auto matrix = Array::empty(queue(), {3, 0}, DType::float32());
  EXPECT_NE(logic_error_message([&] { argmin(queue(), matrix, 1); }).find("'x'"),
            std::string::npos);
  const auto x = Array::from_host(queue(), HostArray::from_values(std::vector<float>{1, 2}));
  EXPECT_NE(logic_error_message([&] {
              argmax(queue(), x, 1);
            }).find("is out of bounds for array of dimension"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              argmax(queue(), x, -2);
            }).find("is out of bounds for array of dimension"),
            std::string::npos);
  const auto z = Array::empty(queue(), {4}, DType::complex64());
  EXPECT_NE(logic_error_message([&] { argmin(queue(), z); }).find("complex64"), std::string::npos);
}

PLINTH_INSTANTIATE_DEVICE_TEST(ArgReductionTest);

}  // namespace
}  // namespace arg_reductions_test
}  // namespace plinth::conformance
