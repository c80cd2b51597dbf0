// RandomGenerator::integers: arrays equal, element for element, to a host computation of
// the same Lemire draws (random.hpp's file comment) in every integer dtype, over ranges that
// take the 32-bit and the 64-bit path and reject often (so later rounds are drawn); chi-square
// uniformity with fixed seeds over a range that is not a power of two and ranges near 2^32 and
// 2^64 where modulo bias would show; the edge ranges (one value, the whole dtype); misuse.

#include "fixture.hpp"
#include "philox_reference.hpp"

#include <plinth/random.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace random_integers_test {
namespace {

using RandomIntegersTest = DeviceTest;

__extension__ typedef unsigned __int128 U128;

// Lemire's draw in [0, s_minus_1 + 1) for element i, as the device computes it.
std::uint64_t ref_draw(std::uint64_t i, std::uint64_t offset, std::uint64_t seed,
                       std::uint64_t s_minus_1) {
  Words w = stream(i, offset, seed);
  const bool narrow = s_minus_1 <= 0xFFFFFFFFu;
  if (!narrow && s_minus_1 == ~std::uint64_t{0}) return (std::uint64_t{w[1]} << 32) | w[0];
  const U128 s = U128{s_minus_1} + 1;
  const int bits = narrow ? 32 : 64;
  const U128 two_b = U128{1} << bits;
  const U128 t = (two_b - s) % s;
  for (std::uint64_t round = 1;; ++round) {
    const std::vector<std::uint64_t> words =
        narrow ? std::vector<std::uint64_t>{w[0], w[1], w[2], w[3]}
               : std::vector<std::uint64_t>{(std::uint64_t{w[1]} << 32) | w[0],
                                            (std::uint64_t{w[3]} << 32) | w[2]};
    for (const auto x : words) {
      const U128 m = U128{x} * s;
      if (m % two_b >= t) return static_cast<std::uint64_t>(m >> bits);
    }
    w = stream(i + (round << 48), offset, seed);
  }
}

template <class T>
std::vector<T> ref_integers(std::size_t n, std::uint64_t seed, std::uint64_t offset,
                            std::uint64_t low, std::uint64_t s_minus_1) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = static_cast<T>(low + ref_draw(i, offset, seed, s_minus_1));
  }
  return out;
}

template <class T>
std::vector<T> draw(const Queue& queue, RandomGenerator& rng, std::size_t n, IntegerBound low,
                    IntegerBound high, bool endpoint = false) {
  const auto x = Array::empty(queue.device(), {n}, dtype_of<T>());
  rng.integers(queue, x, low, high, endpoint);
  return x.get(queue).template to_vector<T>();
}

// Checks draws over [low, low + s_minus_1] against the host reference.
template <class T>
void expect_like_host(const Queue& queue, T low, std::uint64_t s_minus_1, bool endpoint) {
  SCOPED_TRACE(dtype_of<T>().name() + " low " + std::to_string(low) + " s-1 " +
               std::to_string(s_minus_1));
  const std::size_t n = 10007;
  RandomGenerator rng(0x9e3779b97f4a7c15ULL, 3);
  const auto last = static_cast<T>(static_cast<std::uint64_t>(low) + s_minus_1);
  // Without endpoint, high = last + 1, which only fits a 64-bit integer below the maximum.
  const bool closed = endpoint || last == std::numeric_limits<T>::max();
  const auto got = closed ? draw<T>(queue, rng, n, low, last, true)
                          : draw<T>(queue, rng, n, low, static_cast<T>(last + 1));
  const auto expected =
      ref_integers<T>(n, 0x9e3779b97f4a7c15ULL, 3, static_cast<std::uint64_t>(low), s_minus_1);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] != expected[i] && wrong++ == 0) {
      ADD_FAILURE() << "element " << i << ": " << +got[i] << " instead of " << +expected[i];
    }
  }
  EXPECT_EQ(wrong, 0u);
}

TEST_P(RandomIntegersTest, EqualTheHostReferenceInEveryDtype) {
  const auto q = queue();
  expect_like_host<std::int8_t>(q, -100, 196, false);           // [-100, 97)
  expect_like_host<std::uint8_t>(q, 3, 250, false);             // [3, 254)
  expect_like_host<std::int16_t>(q, -30000, 59999, false);      // not a power of two
  expect_like_host<std::uint16_t>(q, 0, 40000, true);           // [0, 40000]
  expect_like_host<std::int32_t>(q, -7, 1000, false);           // small
  expect_like_host<std::uint32_t>(q, 5, 3u << 30, false);       // 3 * 2^30 + 1 values: rejects
  expect_like_host<std::int64_t>(q, -(1LL << 40), 999, false);  // 64-bit dtype, 32-bit path
  expect_like_host<std::int64_t>(q, -(1LL << 40), (1ULL << 32) - 1, false);  // s = 2^32
  expect_like_host<std::int64_t>(q, -123, (1ULL << 32), false);    // s = 2^32 + 1: 64-bit path
  expect_like_host<std::uint64_t>(q, 1, (3ULL << 62) - 1, false);  // 3 * 2^62 values: rejects
  expect_like_host<std::int64_t>(q, std::numeric_limits<std::int64_t>::min(), ~0ULL, true);
  expect_like_host<std::uint64_t>(q, 0, ~0ULL, true);
  expect_like_host<std::int32_t>(q, std::numeric_limits<std::int32_t>::min(), 0xFFFFFFFFu, true);
  expect_like_host<std::uint32_t>(q, 0, 0xFFFFFFFFu, false);  // high = 2^32
}

// Pearson's chi-square of `values` (each in [0, bins)) against equal expected counts.
double chi_square(const std::vector<std::size_t>& bin_of, std::size_t bins) {
  std::vector<double> count(bins, 0.0);
  for (const auto b : bin_of) count[b] += 1.0;
  const double expected = static_cast<double>(bin_of.size()) / static_cast<double>(bins);
  double chi2 = 0.0;
  for (const double c : count) chi2 += (c - expected) * (c - expected) / expected;
  return chi2;
}

TEST_P(RandomIntegersTest, AreUniformWithoutModuloBias) {
  const std::size_t n = 1 << 20;
  RandomGenerator rng(7);
  {  // 1000 values (not a power of two): 999 degrees of freedom, mean 999, sd 44.7.
    const auto x = draw<std::int32_t>(queue(), rng, n, -500, 500);
    std::vector<std::size_t> bins;
    for (const auto v : x) bins.push_back(static_cast<std::size_t>(v + 500));
    EXPECT_LT(chi_square(bins, 1000), 999 + 6 * 44.7);
  }
  // 3 * 2^30 values of uint32 in 12 bins of 2^28 (11 degrees of freedom; p = 1e-6 at 47):
  // the modulo of a 32-bit word would put twice as many in the first four bins (chi2 ~ 1e5).
  {
    const auto x = draw<std::uint32_t>(queue(), rng, n, 0, 3ULL << 30);
    std::vector<std::size_t> bins;
    for (const auto v : x) bins.push_back(v >> 28);
    EXPECT_LT(chi_square(bins, 12), 47.0);
  }
  {  // 3 * 2^62 values of uint64, likewise in 12 bins of 2^60.
    const auto x = draw<std::uint64_t>(queue(), rng, n, 0, 3ULL << 62);
    std::vector<std::size_t> bins;
    for (const auto v : x) bins.push_back(static_cast<std::size_t>(v >> 60));
    EXPECT_LT(chi_square(bins, 12), 47.0);
  }
  {  // 10^12 + 7 values of int64 (the 64-bit path) in 10 bins (p = 1e-6 at 42).
    const std::int64_t s = 1000000000007LL;
    const auto x = draw<std::int64_t>(queue(), rng, n, -5, s - 5);
    std::vector<std::size_t> bins;
    for (const auto v : x) bins.push_back(static_cast<std::size_t>(U128(v + 5) * 10 / s));
    EXPECT_LT(chi_square(bins, 10), 42.0);
  }
}

TEST_P(RandomIntegersTest, EdgeRangesGiveOneValueOrTheWholeDtype) {
  RandomGenerator rng(11);
  for (const auto v : draw<std::int64_t>(queue(), rng, 1000, -4, -3)) ASSERT_EQ(v, -4);
  for (const auto v : draw<std::uint8_t>(queue(), rng, 1000, 255, 255, true)) ASSERT_EQ(v, 255);
  const auto whole = draw<std::int8_t>(queue(), rng, 100000, -128, 127, true);
  std::vector<std::size_t> bins;
  for (const auto v : whole) bins.push_back(static_cast<std::size_t>(v + 128));
  EXPECT_LT(chi_square(bins, 256), 255 + 6 * 22.6);  // every value, none favoured
  const auto u16 = draw<std::uint16_t>(queue(), rng, 100000, 0, 65536);
  EXPECT_EQ(*std::min_element(u16.begin(), u16.end()), 0);
  EXPECT_GT(*std::max_element(u16.begin(), u16.end()), 65500);
  const auto empty = Array::empty(device(), {0}, DType::int64());
  const auto offset = rng.offset();
  rng.integers(queue(), empty, 0, 10);
  EXPECT_EQ(rng.offset(), offset + 1);
}

TEST_P(RandomIntegersTest, MisuseThrowsLogicErrorAndKeepsTheOffset) {
  RandomGenerator rng(3, 10);
  const auto i8 = Array::empty(device(), {4}, DType::int8());
  const auto u64 = Array::empty(device(), {4}, DType::uint64());
  const auto contains = [](const std::string& message, const char* part) {
    return message.find(part) != std::string::npos;
  };
  const auto message = [&](auto call) { return logic_error_message(call); };
  EXPECT_TRUE(contains(
      message([&] { rng.integers(queue(), Array::empty(device(), {4}, DType::float32()), 0, 4); }),
      "float32"));
  EXPECT_TRUE(contains(
      message([&] { rng.integers(queue(), Array::empty(device(), {4}, DType::boolean()), 0, 2); }),
      "bool"));
  EXPECT_TRUE(contains(message([&] { rng.integers(queue(), i8, 5, 5); }), "low = 5 >= high = 5"));
  EXPECT_TRUE(contains(message([&] { rng.integers(queue(), i8, 5, 4, true); }), ">"));
  EXPECT_TRUE(contains(message([&] { rng.integers(queue(), i8, 0, 129); }), "high = 129"));
  EXPECT_TRUE(contains(message([&] { rng.integers(queue(), i8, 0, 128, true); }), "int8"));
  EXPECT_TRUE(contains(message([&] { rng.integers(queue(), i8, -129, 0); }), "low = -129"));
  EXPECT_TRUE(contains(message([&] { rng.integers(queue(), u64, -1, 3); }), "low = -1"));
  EXPECT_EQ(rng.offset(), 10u);
  rng.integers(queue(), i8, -128, 128);  // high = the maximum + 1 is accepted
  rng.integers(queue(), u64, 0, ~0ULL, true);
  EXPECT_EQ(rng.offset(), 12u);
}

}  // namespace

PLINTH_INSTANTIATE_DEVICE_TEST(RandomIntegersTest);

}  // namespace random_integers_test
}  // namespace plinth::conformance
