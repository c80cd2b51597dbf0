// RandomGenerator and philox4x32_10(): Random123's known-answer vectors on the host and the
// device; uniform, normal and bits arrays equal, bit for bit, to an independent host
// computation of the same IEEE operation sequence (so equal on every conforming device and
// backend); odd sizes, several dimensions, views with negative strides, empty arrays; seeds,
// offsets and successive calls; statistics and accuracy against the C++ math library; misuse.
//
// This file is compiled with -ffp-contract=off (tests/conformance/CMakeLists.txt): the host
// reference must round every product and sum, as the device code does.

#include "fixture.hpp"
#include "philox_reference.hpp"

#include <plinth/elementwise.hpp>
#include <plinth/random.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

namespace plinth::conformance {
namespace random_test {
namespace {

using RandomTest = DeviceTest;

// ---- The host reference ----------------------------------------------------------------

std::uint64_t bits53(std::uint32_t w0, std::uint32_t w1) {
  return (std::uint64_t{w0 >> 5} << 26) | (w1 >> 6);
}

// [0, 1) and (0, 1] from the words.
template <class T>
T uniform01(const Words& w) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(w[0] >> 8) * std::ldexp(1.0f, -24);
  } else {
    return static_cast<double>(bits53(w[0], w[1])) * std::ldexp(1.0, -53);
  }
}

template <class T>
T uniform_open0(std::uint32_t w0, std::uint32_t w1) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>((w0 >> 8) + 1u) * std::ldexp(1.0f, -24);
  } else {
    return static_cast<double>(bits53(w0, w1) + 1u) * std::ldexp(1.0, -53);
  }
}

template <class T>
struct Precision;
template <>
struct Precision<float> {
  using Bits = std::uint32_t;
  static constexpr int mantissa = 23, bias = 127, recip = 4, rsqrt = 4, log = 5, sin = 5, cos = 6;
  static constexpr Bits magic = 0x5f3759dfu;
  static constexpr double ln2_hi = 0.693359375, ln2_lo = -2.12194440e-4;
};
template <>
struct Precision<double> {
  using Bits = std::uint64_t;
  static constexpr int mantissa = 52, bias = 1023, recip = 5, rsqrt = 5, log = 11, sin = 8,
                       cos = 10;
  static constexpr Bits magic = 0x5fe6eb50c7b537a9u;
  static constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
};

// 1 + z (c[0] + z (c[1] + ...)) evaluated from the innermost coefficient, as the device does:
// returns c[0] + z (c[1] + ...).
template <class T>
T horner(const std::vector<double>& c, T z) {
  T acc = static_cast<T>(c.back());
  for (std::size_t k = c.size() - 1; k-- > 0;) acc = acc * z + static_cast<T>(c[k]);
  return acc;
}

template <class T>
T ref_log(T x) {
  using P = Precision<T>;
  const auto b = std::bit_cast<typename P::Bits>(x);
  int e = static_cast<int>(b >> P::mantissa) - P::bias;
  const typename P::Bits mantissa_mask = (typename P::Bits{1} << P::mantissa) - 1;
  T m = std::bit_cast<T>((b & mantissa_mask) | std::bit_cast<typename P::Bits>(T(1)));
  if (m > static_cast<T>(std::sqrt(2.0))) {
    m = m * T(0.5);
    e += 1;
  }
  const T f = m - T(1);
  const T y = T(2) + f;
  T q = static_cast<T>(0.9937) - static_cast<T>(0.2431) * y;
  for (int k = 0; k < P::recip; ++k) q = q * (T(2) - y * q);
  const T s = f * q;
  const T z = s * s;
  static const std::vector<double> c = [] {
    std::vector<double> odd;
    for (int k = 1; k <= P::log; ++k) odd.push_back(1.0 / (2.0 * k + 1.0));
    return odd;
  }();
  const T p = horner(c, z) * z + T(1);
  const T ln_m = (s + s) * p;
  const T fe = static_cast<T>(e);
  return fe * static_cast<T>(P::ln2_hi) + (fe * static_cast<T>(P::ln2_lo) + ln_m);
}

template <class T>
T ref_sqrt(T x) {
  using P = Precision<T>;
  const T h = x * T(0.5);
  T y = std::bit_cast<T>(P::magic - (std::bit_cast<typename P::Bits>(x) >> 1));
  for (int k = 0; k < P::rsqrt; ++k) y = y * (T(1.5) - (h * y) * y);
  return x * y;
}

// -1/first!, +1/(first+2)!, ...
std::vector<double> alternating_inverse_factorials(int terms, int first) {
  std::vector<double> c;
  for (int k = 1; k <= terms; ++k) {
    double factorial = 1.0;
    for (int n = 2; n <= first + 2 * (k - 1); ++n) factorial *= n;
    c.push_back((k % 2 == 1 ? -1.0 : 1.0) / factorial);
  }
  return c;
}

// Box-Muller on the words, as the device computes it.
template <class T>
std::complex<T> ref_normal_pair(const Words& w) {
  using P = Precision<T>;
  constexpr bool single = std::is_same_v<T, float>;
  const T u1 = single ? uniform_open0<T>(w[0], 0) : uniform_open0<T>(w[0], w[1]);
  const T radius = ref_sqrt(T(-2) * ref_log(u1));
  constexpr int n = single ? 24 : 53;
  const std::uint64_t k =
      (single ? std::uint64_t{w[1] >> 8} : bits53(w[2], w[3])) + (std::uint64_t{1} << (n - 3));
  const unsigned quadrant = static_cast<unsigned>(k >> (n - 2)) & 3u;
  const std::int64_t r = static_cast<std::int64_t>(k & ((std::uint64_t{1} << (n - 2)) - 1)) -
                         (std::int64_t{1} << (n - 3));
  const T theta =
      (static_cast<T>(r) * std::ldexp(T(1), -(n - 2))) * static_cast<T>(1.5707963267948966);
  const T z = theta * theta;
  static const auto sin_c = alternating_inverse_factorials(P::sin, 3);
  static const auto cos_c = alternating_inverse_factorials(P::cos, 2);
  const T s = theta + (theta * z) * horner(sin_c, z);
  const T c = T(1) + z * horner(cos_c, z);
  const std::array<std::complex<T>, 4> rotated{std::complex<T>(c, s), std::complex<T>(-s, c),
                                               std::complex<T>(-c, -s), std::complex<T>(s, -c)};
  return {radius * rotated[quadrant].real(), radius * rotated[quadrant].imag()};
}

template <class T>
std::vector<T> ref_uniform(std::size_t n, std::uint64_t seed, std::uint64_t offset, double low,
                           double high) {
  const T lo = static_cast<T>(low), hi = static_cast<T>(high), width = hi - lo;
  const T below = std::nextafter(hi, lo);
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const T v = lo + width * uniform01<T>(stream(i, offset, seed));
    out[i] = v < hi ? v : below;
  }
  return out;
}

// T real or complex.
template <class T>
std::vector<T> ref_normal(std::size_t n, std::uint64_t seed, std::uint64_t offset,
                          std::complex<double> mean, double stddev) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Words w = stream(i, offset, seed);
    if constexpr (std::is_floating_point_v<T>) {
      const auto z = ref_normal_pair<T>(w);
      out[i] = static_cast<T>(mean.real()) + static_cast<T>(stddev) * z.real();
    } else {
      using R = typename T::value_type;
      const auto z = ref_normal_pair<R>(w);
      const R scale = static_cast<R>(stddev * std::sqrt(0.5));
      out[i] = T(static_cast<R>(mean.real()) + scale * z.real(),
                 static_cast<R>(mean.imag()) + scale * z.imag());
    }
  }
  return out;
}

template <class T>
std::vector<T> ref_bits(std::size_t n, std::uint64_t seed, std::uint64_t offset) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Words w = stream(i, offset, seed);
    if constexpr (sizeof(T) == 8) {
      out[i] = static_cast<T>((std::uint64_t{w[1]} << 32) | w[0]);
    } else {
      out[i] = static_cast<T>(w[0]);
    }
  }
  return out;
}

// How many elements differ in their bits, with the first one described in `first`.
template <class T>
std::size_t bit_mismatches(const std::vector<T>& got, const std::vector<T>& expected,
                           std::string& first) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::memcmp(&got[i], &expected[i], sizeof(T)) != 0) {
      if (wrong++ == 0) {
        if constexpr (std::is_arithmetic_v<T>) {
          first = "element " + std::to_string(i) + ": " + std::to_string(got[i]) + " instead of " +
                  std::to_string(expected[i]);
        } else {
          first = "element " + std::to_string(i);
        }
      }
    }
  }
  return wrong;
}

#define EXPECT_SAME_BITS(got, expected)                                 \
  do {                                                                  \
    std::string first_;                                                 \
    EXPECT_EQ(bit_mismatches((got), (expected), first_), 0u) << first_; \
  } while (false)

const std::vector<std::size_t> odd_sizes{1, 7, 1000003};

// ---- Tests ------------------------------------------------------------------------------

struct Kat {
  Words ctr;
  std::uint32_t key0, key1;
  Words expected;
};

// Random123's kat_vectors for philox4x32_10.
const std::vector<Kat> kats{
    {{0, 0, 0, 0}, 0, 0, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     0xffffffff,
     0xffffffff,
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     0xa4093822,
     0x299f31d0,
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(RandomHostReference, MatchesRandom123KnownAnswers) {
  for (const auto& kat : kats) EXPECT_EQ(philox(kat.ctr, kat.key0, kat.key1), kat.expected);
}

TEST_P(RandomTest, PhiloxModuleMatchesRandom123KnownAnswers) {
  const DType u32 = DType::uint32();
  // Words j of counter k are c<j>[k]; the key is (k0[k], k1[k]).
  ElementwiseKernel kernel({ElementwiseArg::output("o0", u32), ElementwiseArg::output("o1", u32),
                            ElementwiseArg::output("o2", u32), ElementwiseArg::output("o3", u32),
                            ElementwiseArg::input("c0", u32), ElementwiseArg::input("c1", u32),
                            ElementwiseArg::input("c2", u32), ElementwiseArg::input("c3", u32),
                            ElementwiseArg::input("k0", u32), ElementwiseArg::input("k1", u32)},
                           R"(${philox}words ctr;
ctr.x0 = c0[i]; ctr.x1 = c1[i]; ctr.x2 = c2[i]; ctr.x3 = c3[i];
const ${philox}words r = ${philox}(ctr, k0[i], k1[i]);
o0[i] = r.x0; o1[i] = r.x1; o2[i] = r.x2; o3[i] = r.x3;)",
                           {.render_globals = {{"philox", philox4x32_10()}}});
  std::vector<std::vector<std::uint32_t>> ins(6);
  for (const auto& kat : kats) {
    for (std::size_t j = 0; j < 4; ++j) ins[j].push_back(kat.ctr[j]);
    ins[4].push_back(kat.key0);
    ins[5].push_back(kat.key1);
  }
  const auto n = kats.size();
  std::vector<Array> outs, in_arrays;
  for (int k = 0; k < 4; ++k) outs.push_back(Array::empty(device(), {n}, u32));
  for (const auto& in : ins)
    in_arrays.push_back(Array::from_host(queue(), HostArray::from_values(in)));
  kernel(queue(), outs[0], outs[1], outs[2], outs[3], in_arrays[0], in_arrays[1], in_arrays[2],
         in_arrays[3], in_arrays[4], in_arrays[5]);
  std::vector<std::vector<std::uint32_t>> got;
  for (const auto& out : outs) got.push_back(out.get(queue()).to_vector<std::uint32_t>());
  for (std::size_t j = 0; j < n; ++j) {
    EXPECT_EQ((Words{got[0][j], got[1][j], got[2][j], got[3][j]}), kats[j].expected) << j;
  }
}

TEST_P(RandomTest, UniformIsBitIdenticalToTheHostForOddSizes) {
  for (const auto n : odd_sizes) {
    SCOPED_TRACE(n);
    RandomGenerator rng(0x0123456789abcdefULL, 5);
    const auto x = Array::empty(device(), {n}, DType::float32());
    rng.uniform(queue(), x);
    EXPECT_SAME_BITS(x.get(queue()).to_vector<float>(),
                     ref_uniform<float>(n, 0x0123456789abcdefULL, 5, 0.0, 1.0));
    rng.uniform(queue(), x, -3.0, 7.25);
    EXPECT_SAME_BITS(x.get(queue()).to_vector<float>(),
                     ref_uniform<float>(n, 0x0123456789abcdefULL, 6, -3.0, 7.25));
    if (device().params().supports_double) {
      const auto y = Array::empty(device(), {n}, DType::float64());
      rng.uniform(queue(), y, -1e10, 0.1);
      EXPECT_SAME_BITS(y.get(queue()).to_vector<double>(),
                       ref_uniform<double>(n, 0x0123456789abcdefULL, 7, -1e10, 0.1));
    }
    EXPECT_EQ(rng.offset(), device().params().supports_double ? 8u : 7u);
  }
}

TEST_P(RandomTest, UniformStaysBelowHighWhereRoundingReachesIt) {
  // width 2^-20 at 1.0: a sixteenth of the values round up to high and are replaced.
  const std::size_t n = 100000;
  const double high = 1.0 + std::ldexp(1.0, -20);
  RandomGenerator rng(7);
  const auto x = Array::empty(device(), {n}, DType::float32());
  rng.uniform(queue(), x, 1.0, high);
  const auto got = x.get(queue()).to_vector<float>();
  EXPECT_SAME_BITS(got, ref_uniform<float>(n, 7, 0, 1.0, high));
  std::size_t at_top = 0;
  for (const float v : got) {
    ASSERT_GE(v, 1.0f);
    ASSERT_LT(v, static_cast<float>(high));
    if (v == std::nextafter(static_cast<float>(high), 0.0f)) ++at_top;
  }
  EXPECT_GT(at_top, n / 16);  // the clamped ones and those that landed there
}

TEST_P(RandomTest, NormalIsBitIdenticalToTheHostForEveryDtype) {
  const bool doubles = device().params().supports_double;
  for (const auto n : odd_sizes) {
    SCOPED_TRACE(n);
    const std::uint64_t seed = 99;
    RandomGenerator rng(seed, 1ULL << 40);
    const auto offset = rng.offset();
    const auto f = Array::empty(device(), {n}, DType::float32());
    rng.normal(queue(), f, 0.5, 3.0);
    EXPECT_SAME_BITS(f.get(queue()).to_vector<float>(),
                     ref_normal<float>(n, seed, offset, 0.5, 3.0));
    const auto c = Array::empty(device(), {n}, DType::complex64());
    rng.normal(queue(), c, std::complex<double>(-1.0, 2.0), 0.25);
    EXPECT_SAME_BITS(c.get(queue()).to_vector<std::complex<float>>(),
                     ref_normal<std::complex<float>>(n, seed, offset + 1,
                                                     std::complex<double>(-1.0, 2.0), 0.25));
    if (doubles) {
      const auto d = Array::empty(device(), {n}, DType::float64());
      rng.normal(queue(), d);
      EXPECT_SAME_BITS(d.get(queue()).to_vector<double>(),
                       ref_normal<double>(n, seed, offset + 2, 0.0, 1.0));
      const auto z = Array::empty(device(), {n}, DType::complex128());
      rng.normal(queue(), z, 1e3, 1e-3);
      EXPECT_SAME_BITS(z.get(queue()).to_vector<std::complex<double>>(),
                       ref_normal<std::complex<double>>(n, seed, offset + 3, 1e3, 1e-3));
    }
  }
}

TEST_P(RandomTest, BitsAreBitIdenticalToTheHostForEveryIntegerDtype) {
  const std::size_t n = 1001;
  RandomGenerator rng(0xffffffffffffffffULL, 0xfffffffffffffffeULL);
  const auto check = [&]<class T>(T /*tag*/) {
    SCOPED_TRACE(dtype_of<T>().name());
    const auto offset = rng.offset();
    const auto x = Array::empty(device(), {n}, dtype_of<T>());
    rng.bits(queue(), x);
    EXPECT_SAME_BITS(x.get(queue()).template to_vector<T>(),
                     ref_bits<T>(n, 0xffffffffffffffffULL, offset));
  };
  check(std::int8_t{});
  check(std::uint8_t{});  // the offset has wrapped to 0 after this one
  check(std::int16_t{});
  check(std::uint16_t{});
  check(std::int32_t{});
  check(std::uint32_t{});
  check(std::int64_t{});
  check(std::uint64_t{});
  EXPECT_EQ(rng.offset(), 6u);
}

TEST_P(RandomTest, NumbersFollowTheFlatIndexInAnyShapeAndView) {
  // Three dimensions: element (a, b, c) has number (a * 5 + b) * 7 + c.
  RandomGenerator rng(2024);
  const auto cube = Array::empty(device(), {3, 5, 7}, DType::float32());
  rng.uniform(queue(), cube);
  EXPECT_SAME_BITS(cube.get(queue()).to_vector<float>(), ref_uniform<float>(105, 2024, 0, 0, 1));

  // A view of rows 1..6 and columns 8, 6, 4, 2 of an (8, 9) array: view element (r, c) has
  // number r * 4 + c; the rest of the base is untouched.
  const std::vector<float> sentinel(72, -7.0f);
  const auto base = Array::from_host(queue(), HostArray::from_values(sentinel, {8, 9}));
  const auto view = base.view({Slice(1, 7), Slice(8, 0, -2)});
  ASSERT_EQ(view.shape(), (std::vector<std::size_t>{6, 4}));
  rng.normal(queue(), view, 1.0, 2.0);
  const auto expected = ref_normal<float>(24, 2024, 1, 1.0, 2.0);
  const auto got = base.get(queue()).to_vector<float>();
  for (std::size_t r = 0; r < 8; ++r) {
    for (std::size_t c = 0; c < 9; ++c) {
      float want = -7.0f;
      if (r >= 1 && r < 7 && c >= 2 && c % 2 == 0) want = expected[(r - 1) * 4 + (8 - c) / 2];
      EXPECT_EQ(std::bit_cast<std::uint32_t>(got[r * 9 + c]), std::bit_cast<std::uint32_t>(want))
          << r << ", " << c;
    }
  }
  // A reversed view gets the numbers of a contiguous array in its own order.
  const auto line = Array::empty(device(), {50}, DType::uint32());
  rng.set_offset(0);
  rng.bits(queue(), line.view({Slice(std::nullopt, std::nullopt, -1)}));
  auto reversed = ref_bits<std::uint32_t>(50, 2024, 0);
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(line.get(queue()).to_vector<std::uint32_t>(), reversed);
}

TEST_P(RandomTest, EmptyArraysLaunchNothingAndTakeAnOffset) {
  RandomGenerator rng(1);
  rng.uniform(queue(), Array::empty(device(), {0}, DType::float32()));
  rng.normal(queue(), Array::empty(device(), {4, 0}, DType::complex64()));
  rng.bits(queue(), Array::empty(device(), {0, 3}, DType::uint8()));
  EXPECT_EQ(rng.offset(), 3u);
}

TEST_P(RandomTest, SeedsAndOffsetsGiveReproducibleDistinctStreams) {
  const std::size_t n = 4096;
  const auto draw = [&](RandomGenerator& rng) {
    const auto x = Array::empty(device(), {n}, DType::float32());
    rng.uniform(queue(), x);
    return x.get(queue()).to_vector<float>();
  };
  const auto same_count = [](const std::vector<float>& a, const std::vector<float>& b) {
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i] ? 1 : 0;
    return same;
  };
  RandomGenerator a(42), b(42), c(43);
  const auto a1 = draw(a), a2 = draw(a), b1 = draw(b), c1 = draw(c);
  EXPECT_EQ(a1, b1);                   // same seed: same numbers
  EXPECT_LT(same_count(a1, a2), 10u);  // successive calls: fresh numbers
  EXPECT_LT(same_count(a1, c1), 10u);  // another seed: other numbers
  // A copy continues from the same state; set_offset repeats a call.
  RandomGenerator copy = a;
  EXPECT_EQ(draw(copy), draw(a));
  a.set_offset(1);
  EXPECT_EQ(draw(a), a2);
  // Seeds that differ only in their high word differ too.
  RandomGenerator high(42 + (1ULL << 32));
  EXPECT_LT(same_count(draw(high), a1), 10u);
}

TEST_P(RandomTest, StatisticsAndAccuracyAgreeWithTheMathLibrary) {
  const std::size_t n = 1000000;
  RandomGenerator rng(31337);
  // Normals: mean 1.5, stddev 2 (float32) within five standard errors.
  const auto x = Array::empty(device(), {n}, DType::float32());
  rng.normal(queue(), x, 1.5, 2.0);
  const auto got = x.get(queue()).to_vector<float>();
  double sum = 0, sum2 = 0;
  for (const float v : got) sum += v;
  const double mean = sum / n;
  for (const float v : got) sum2 += (v - mean) * (v - mean);
  const double variance = sum2 / (n - 1);
  EXPECT_NEAR(mean, 1.5, 5 * 2.0 / std::sqrt(double(n)));
  EXPECT_NEAR(variance, 4.0, 5 * 4.0 * std::sqrt(2.0 / n));

  // Each standard normal against Box-Muller with the C++ library in double precision.
  const auto check_accuracy = [&](const auto& values, double tolerance, bool single) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const Words w = stream(i, rng.offset() - 1, 31337);
      const double u1 = single ? uniform_open0<float>(w[0], 0) : uniform_open0<double>(w[0], w[1]);
      const double u2 =
          single ? uniform01<float>({w[1], 0, 0, 0}) : uniform01<double>({w[2], w[3], 0, 0});
      const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
      if (std::fabs(static_cast<double>(values[i]) - z) > tolerance * (1 + std::fabs(z))) ++wrong;
    }
    return wrong;
  };
  const auto standard = Array::empty(device(), {n}, DType::float32());
  rng.normal(queue(), standard);
  EXPECT_EQ(check_accuracy(standard.get(queue()).to_vector<float>(), 1e-6, true), 0u);
  if (device().params().supports_double) {
    const auto d = Array::empty(device(), {n}, DType::float64());
    rng.normal(queue(), d);
    EXPECT_EQ(check_accuracy(d.get(queue()).to_vector<double>(), 1e-14, false), 0u);
  }

  // Complex normals: each part has stddev / sqrt(2).
  const auto c = Array::empty(device(), {n}, DType::complex64());
  rng.normal(queue(), c, std::complex<double>(0, 1), 2.0);
  double re2 = 0, im2 = 0;
  for (const auto v : c.get(queue()).to_vector<std::complex<float>>()) {
    re2 += double(v.real()) * v.real();
    im2 += (double(v.imag()) - 1) * (double(v.imag()) - 1);
  }
  EXPECT_NEAR(re2 / n, 2.0, 0.03);
  EXPECT_NEAR(im2 / n, 2.0, 0.03);

  // Uniform: within [low, high), mean (low + high) / 2, variance (high - low)^2 / 12.
  const auto u = Array::empty(device(), {n}, DType::float32());
  rng.uniform(queue(), u, -2.0, 6.0);
  double usum = 0, usum2 = 0;
  for (const float v : u.get(queue()).to_vector<float>()) {
    ASSERT_GE(v, -2.0f);
    ASSERT_LT(v, 6.0f);
    usum += v;
    usum2 += double(v) * v;
  }
  EXPECT_NEAR(usum / n, 2.0, 5 * 8.0 / std::sqrt(12.0 * n));
  EXPECT_NEAR(usum2 / n - (usum / n) * (usum / n), 64.0 / 12.0, 0.05);
}

TEST_P(RandomTest, MisuseThrowsLogicErrorAndKeepsTheOffset) {
  RandomGenerator rng(3, 10);
  const auto ints = Array::empty(device(), {4}, DType::int32());
  const auto floats = Array::empty(device(), {4}, DType::float32());
  const auto complex = Array::empty(device(), {4}, DType::complex64());
  EXPECT_NE(logic_error_message([&] { rng.normal(queue(), ints); }).find("int32"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { rng.uniform(queue(), complex); }).find("complex64"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { rng.bits(queue(), floats); }).find("float32"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { rng.uniform(queue(), floats, 2.0, 1.0); }).find("low"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              rng.uniform(queue(), floats, 1.0, 1.0 + 1e-12);
            }).find("low < high"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { rng.uniform(queue(), floats, 0.0, NAN); }).find("finite"),
            std::string::npos);
  EXPECT_NE(
      logic_error_message([&] { rng.uniform(queue(), floats, -3e38, 3e38); }).find("overflows"),
      std::string::npos);
  EXPECT_NE(logic_error_message([&] { rng.normal(queue(), floats, 0.0, -1.0); }).find("stddev"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              rng.normal(queue(), floats, std::complex<double>(0, 1));
            }).find("complex mean"),
            std::string::npos);
  EXPECT_EQ(rng.offset(), 10u);
  // Still usable afterwards.
  rng.normal(queue(), complex);
  EXPECT_EQ(rng.offset(), 11u);
}

}  // namespace

PLINTH_INSTANTIATE_DEVICE_TEST(RandomTest);

}  // namespace random_test
}  // namespace plinth::conformance
