// count_nonzero, nonzero, flatnonzero, compress and extract against host references: float32
// with NaN, ±0 and ±inf, integers, bool, complex64, structs; sizes 0, 1, 2^k ± 1 around the
// work-group and tile sizes; 2-D and 3-D arrays; views with steps and negative strides;
// axes; and misuse (LogicError naming the argument).

#include "fixture.hpp"
#include "large_device.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/compaction.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace compaction_test {
namespace {

using CompactionTest = DeviceTest;

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

const std::vector<std::size_t> sizes{0,    1,    2,    255,  256,   257,   1023,
                                     1024, 1025, 4097, 8191, 65537, 131073};

std::uint64_t next(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 33;
}

/// Floats with NaN, ±0, ±inf and values on both sides of 0.5.
std::vector<float> floats(std::size_t n, std::uint64_t seed) {
  std::vector<float> xs(n);
  for (auto& x : xs) {
    const auto r = next(seed);
    switch (r % 16) {
      case 0: x = std::numeric_limits<float>::quiet_NaN(); break;
      case 1: x = -0.0f; break;
      case 2: x = 0.0f; break;
      case 3: x = std::numeric_limits<float>::infinity(); break;
      case 4: x = -std::numeric_limits<float>::infinity(); break;
      case 5: x = 0.5f; break;
      default: x = static_cast<float>(r % 1000) / 1000.0f; break;
    }
  }
  return xs;
}

/// A bool array from bytes that are 0 or 1.
HostArray bools(const std::vector<std::uint8_t>& flags, std::vector<std::size_t> shape) {
  return HostArray::from_bytes(std::as_bytes(std::span(flags)), std::move(shape), DType::boolean());
}

TEST_P(CompactionTest, ExtractSelectsAsNumpyMask) {
  for (const auto n : sizes) {
    SCOPED_TRACE(n);
    const auto xs = floats(n, n + 1);
    const auto x = Array::from_host(queue(), HostArray::from_values(xs));
    // The mask from an expression (x > 0.5, a bool array), as numpy's x[x > 0.5].
    const auto mask = evaluate(queue(), ArrayExpression(x) > 0.5);
    ASSERT_EQ(mask.dtype(), DType::boolean());
    const auto got = extract(queue(), mask, x).get(queue()).to_vector<float>();
    std::vector<float> expected;
    for (const auto v : xs)
      if (v > 0.5f) expected.push_back(v);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k) ASSERT_EQ(got[k], expected[k]) << k;
  }
}

TEST_P(CompactionTest, FlatnonzeroOfFloatsCountsNanAndNotSignedZero) {
  for (const auto n : sizes) {
    SCOPED_TRACE(n);
    const auto xs = floats(n, 3 * n + 7);
    const auto x = Array::from_host(queue(), HostArray::from_values(xs));
    const auto got = flatnonzero(queue(), x).get(queue()).to_vector<std::int64_t>();
    std::vector<std::int64_t> expected;
    for (std::size_t k = 0; k < n; ++k)
      if (xs[k] != 0.0f || std::isnan(xs[k])) expected.push_back(static_cast<std::int64_t>(k));
    ASSERT_EQ(got, expected);
    const auto count = count_nonzero(queue(), x).get(queue()).to_vector<std::int64_t>();
    ASSERT_EQ(count, std::vector<std::int64_t>{static_cast<std::int64_t>(expected.size())});
  }
}

TEST_P(CompactionTest, NonzeroGivesOneIndexArrayPerDimension) {
  const std::vector<std::size_t> shape{7, 33, 65};
  std::vector<std::int32_t> xs(7 * 33 * 65);
  std::uint64_t seed = 5;
  for (auto& x : xs) x = next(seed) % 3 == 0 ? static_cast<std::int32_t>(next(seed) % 5) - 2 : 0;
  const auto x = Array::from_host(queue(), HostArray::from_values(xs, shape));
  const auto got = nonzero(queue(), x);
  ASSERT_EQ(got.size(), 3u);
  std::vector<std::vector<std::int64_t>> expected(3);
  for (std::size_t i = 0; i < 7; ++i)
    for (std::size_t j = 0; j < 33; ++j)
      for (std::size_t k = 0; k < 65; ++k)
        if (xs[(i * 33 + j) * 65 + k] != 0) {
          expected[0].push_back(static_cast<std::int64_t>(i));
          expected[1].push_back(static_cast<std::int64_t>(j));
          expected[2].push_back(static_cast<std::int64_t>(k));
        }
  for (std::size_t d = 0; d < 3; ++d) {
    EXPECT_EQ(got[d].dtype(), DType::int64());
    EXPECT_EQ(got[d].get(queue()).to_vector<std::int64_t>(), expected[d]) << "dimension " << d;
  }
  // Counts along each axis (numpy.count_nonzero(x, axis)).
  const auto rows =
      count_nonzero(queue(), x, std::vector<std::size_t>{1}).get(queue()).to_vector<std::int64_t>();
  ASSERT_EQ(rows.size(), 7u * 65u);
  for (std::size_t i = 0; i < 7; ++i)
    for (std::size_t k = 0; k < 65; ++k) {
      std::int64_t c = 0;
      for (std::size_t j = 0; j < 33; ++j) c += xs[(i * 33 + j) * 65 + k] != 0 ? 1 : 0;
      ASSERT_EQ(rows[i * 65 + k], c) << i << ", " << k;
    }
  // No nonzero element: empty index arrays.
  const auto zeros = Array::from_host(queue(), HostArray::empty({3, 4}, DType::int32()));
  for (const auto& index : nonzero(queue(), zeros)) EXPECT_EQ(index.size(), 0u);
}

TEST_P(CompactionTest, BoolComplexAndIntegerFlags) {
  const std::size_t n = 1000;
  std::vector<std::uint8_t> flags(n);
  std::vector<std::complex<float>> zs(n);
  std::vector<std::int64_t> big(n);
  std::uint64_t seed = 11;
  for (std::size_t k = 0; k < n; ++k) {
    flags[k] = next(seed) % 2;
    const auto r = next(seed) % 4;
    zs[k] = r == 0   ? std::complex<float>(-0.0f, 0.0f)
            : r == 1 ? std::complex<float>(0.0f, -2.0f)
            : r == 2 ? std::complex<float>(3.0f, 0.0f)
                     : std::complex<float>(0.0f, -0.0f);
    big[k] = (next(seed) % 2) ? std::numeric_limits<std::int64_t>::min() : 0;
  }
  const auto b = Array::from_host(queue(), bools(flags, {n}));
  const auto z = Array::from_host(queue(), HostArray::from_values(zs));
  const auto g = Array::from_host(queue(), HostArray::from_values(big));
  std::vector<std::int64_t> eb, ez, eg;
  for (std::size_t k = 0; k < n; ++k) {
    if (flags[k]) eb.push_back(static_cast<std::int64_t>(k));
    if (zs[k] != std::complex<float>(0, 0)) ez.push_back(static_cast<std::int64_t>(k));
    if (big[k] != 0) eg.push_back(static_cast<std::int64_t>(k));
  }
  EXPECT_EQ(flatnonzero(queue(), b).get(queue()).to_vector<std::int64_t>(), eb);
  EXPECT_EQ(flatnonzero(queue(), z).get(queue()).to_vector<std::int64_t>(), ez);
  EXPECT_EQ(flatnonzero(queue(), g).get(queue()).to_vector<std::int64_t>(), eg);
  EXPECT_EQ(count_nonzero(queue(), z).get(queue()).to_vector<std::int64_t>()[0],
            static_cast<std::int64_t>(ez.size()));
  EXPECT_EQ(count_nonzero(queue(), b).get(queue()).to_vector<std::int64_t>()[0],
            static_cast<std::int64_t>(eb.size()));
  // complex128 (16-byte elements: two words), with ±0 parts.
  std::vector<std::complex<double>> wide(zs.begin(), zs.end());
  const auto w = Array::from_host(queue(), HostArray::from_values(wide));
  EXPECT_EQ(flatnonzero(queue(), w).get(queue()).to_vector<std::int64_t>(), ez);
  EXPECT_EQ(count_nonzero(queue(), w).get(queue()).to_vector<std::int64_t>()[0],
            static_cast<std::int64_t>(ez.size()));
  // Complex values selected by a bool mask keep both parts.
  const auto picked = extract(queue(), b, z).get(queue()).to_vector<std::complex<float>>();
  ASSERT_EQ(picked.size(), eb.size());
  for (std::size_t k = 0; k < eb.size(); ++k)
    EXPECT_EQ(picked[k], zs[static_cast<std::size_t>(eb[k])]);
  // A struct array is selected as whole elements.
  const auto point =
      DType::make_struct({{"x", DType::float32()}, {"y", DType::int32()}, {"z", DType::int32()}});
  std::vector<std::byte> bytes(n * point.itemsize());
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<std::byte>(k % 253);
  const auto s = Array::from_host(queue(), HostArray::from_bytes(bytes, {n}, point));
  const auto got = extract(queue(), b, s).get(queue());
  ASSERT_EQ(got.size(), eb.size());
  for (std::size_t k = 0; k < eb.size(); ++k) {
    const auto* element = static_cast<const std::byte*>(got.data()) + k * point.itemsize();
    const auto* source = bytes.data() + static_cast<std::size_t>(eb[k]) * point.itemsize();
    ASSERT_EQ(std::memcmp(element, source, point.itemsize()), 0) << k;
  }
}

TEST_P(CompactionTest, ViewsWithStepsAndNegativeStrides) {
  const std::size_t n = 5001;
  const auto xs = floats(n, 99);
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  // Every other element backwards, and a mask over another backward view.
  const auto view = x.view({Slice(std::nullopt, std::nullopt, -2)});
  const auto count = view.size();
  std::vector<std::uint8_t> flags(2 * count + 3);
  std::uint64_t seed = 4;
  for (auto& f : flags) f = next(seed) % 3 == 0;
  const auto m = Array::from_host(queue(), bools(flags, {flags.size()}));
  const auto mask = m.view({Slice(static_cast<std::ptrdiff_t>(2 * count - 1), std::nullopt, -2)});
  ASSERT_EQ(mask.size(), count);
  const auto got = extract(queue(), mask, view).get(queue()).to_vector<float>();
  std::vector<float> expected;
  for (std::size_t k = 0; k < count; ++k)
    if (flags[2 * count - 1 - 2 * k]) expected.push_back(xs[n - 1 - 2 * k]);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (std::isnan(expected[k])) {
      EXPECT_TRUE(std::isnan(got[k])) << k;
    } else {
      EXPECT_EQ(got[k], expected[k]) << k;
    }
  }
  std::vector<std::int64_t> nonzero_expected;
  for (std::size_t k = 0; k < count; ++k) {
    const float v = xs[n - 1 - 2 * k];
    if (v != 0.0f || std::isnan(v)) nonzero_expected.push_back(static_cast<std::int64_t>(k));
  }
  EXPECT_EQ(flatnonzero(queue(), view).get(queue()).to_vector<std::int64_t>(), nonzero_expected);
  EXPECT_EQ(count_nonzero(queue(), view).get(queue()).to_vector<std::int64_t>()[0],
            static_cast<std::int64_t>(nonzero_expected.size()));
}

TEST_P(CompactionTest, CompressAlongAxesAndFlat) {
  const std::vector<std::size_t> shape{5, 6, 7};
  std::vector<std::int16_t> xs(5 * 6 * 7);
  for (std::size_t k = 0; k < xs.size(); ++k) xs[k] = static_cast<std::int16_t>(k * 7 - 300);
  const auto x = Array::from_host(queue(), HostArray::from_values(xs, shape));
  const auto at = [&](std::size_t i, std::size_t j, std::size_t k) {
    return xs[(i * 6 + j) * 7 + k];
  };
  // Axis 1 with a condition shorter than the extent; axis -1; axis 0.
  const std::vector<std::int32_t> c1{0, 3, 0, -1};  // positions 1 and 3
  const auto cond1 = Array::from_host(queue(), HostArray::from_values(c1));
  const auto y = compress(queue(), cond1, x, 1);
  ASSERT_EQ(y.shape(), (std::vector<std::size_t>{5, 2, 7}));
  const auto yv = y.get(queue()).to_vector<std::int16_t>();
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t k = 0; k < 7; ++k) {
      ASSERT_EQ(yv[(i * 2 + 0) * 7 + k], at(i, 1, k));
      ASSERT_EQ(yv[(i * 2 + 1) * 7 + k], at(i, 3, k));
    }
  std::vector<std::uint8_t> c2{1, 0, 0, 1, 1, 0, 1};
  const auto cond2 = Array::from_host(queue(), bools(c2, {7}));
  const auto z = compress(queue(), cond2, x, -1);
  ASSERT_EQ(z.shape(), (std::vector<std::size_t>{5, 6, 4}));
  const auto zv = z.get(queue()).to_vector<std::int16_t>();
  const std::size_t picked[4] = {0, 3, 4, 6};
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 6; ++j)
      for (std::size_t k = 0; k < 4; ++k) ASSERT_EQ(zv[(i * 6 + j) * 4 + k], at(i, j, picked[k]));
  const auto none = Array::from_host(queue(), bools({0, 0}, {2}));
  EXPECT_EQ(compress(queue(), none, x, 0).shape(), (std::vector<std::size_t>{0, 6, 7}));
  // Without an axis: the flattened array's first elements.
  const auto flat = compress(queue(), cond2, x).get(queue()).to_vector<std::int16_t>();
  EXPECT_EQ(flat, (std::vector<std::int16_t>{xs[0], xs[3], xs[4], xs[6]}));
}

// Beyond 2^31 elements (GPUs with the memory only): indices and positions past 32 bits.
TEST_P(CompactionTest, Beyond2To31Elements) {
  if (!large_device(device(), std::size_t{3} << 30)) GTEST_SKIP() << "not a large device";
  const std::size_t last = (std::size_t{1} << 31) + 4;
  const std::vector<std::size_t> at{3, (std::size_t{1} << 31) - 1, std::size_t{1} << 31, last};
  const auto x = large_uint8(queue(), 0, 9, at);
  std::vector<std::int64_t> expected(at.begin(), at.end());
  EXPECT_EQ(flatnonzero(queue(), x).get(queue()).to_vector<std::int64_t>(), expected);
  EXPECT_EQ(count_nonzero(queue(), x).get(queue()).to_vector<std::int64_t>()[0], 4);
  EXPECT_EQ(extract(queue(), x, x).get(queue()).to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{9, 9, 9, 9}));
}

TEST_P(CompactionTest, MisuseNamesTheArgument) {
  const auto x = Array::from_host(queue(), HostArray::from_values(std::vector<float>{1, 2, 3}));
  const auto m2 = Array::from_host(queue(), bools({1, 0}, {2}));
  EXPECT_NE(logic_error_message([&] { extract(queue(), m2, x); }).find("'condition'"),
            std::string::npos);
  const auto scalar = Array::from_host(queue(), HostArray::from_values(std::vector<float>{1}, {}));
  EXPECT_NE(logic_error_message([&] { nonzero(queue(), scalar); }).find("0-d"), std::string::npos);
  const auto long_condition = Array::from_host(queue(), bools({1, 0, 1, 1}, {4}));
  EXPECT_NE(logic_error_message([&] { compress(queue(), long_condition, x); }).find("'condition'"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { compress(queue(), m2, x, 1); }).find("'axis'"),
            std::string::npos);
  const auto matrix =
      Array::from_host(queue(), HostArray::from_values(std::vector<float>{1, 2, 3, 4}, {2, 2}));
  EXPECT_NE(logic_error_message([&] { compress(queue(), matrix, x); }).find("1-D"),
            std::string::npos);
  const auto point = DType::make_struct({{"x", DType::float32()}});
  const auto s = Array::empty(queue(), {3}, point);
  EXPECT_NE(logic_error_message([&] { flatnonzero(queue(), s); }).find("struct"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { count_nonzero(queue(), s); }).find("struct"),
            std::string::npos);
}

PLINTH_INSTANTIATE_DEVICE_TEST(CompactionTest);

}  // namespace
}  // namespace compaction_test
}  // namespace plinth::conformance
