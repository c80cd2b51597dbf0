// Rounding doubles to float32 on the host without a float conversion the compiler may drop
// (issue 25: GCC 12 at -O2 folded the rounding of a complex's two parts away).

#include "dtypes/float32_rounding.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace plinth::detail {
namespace float32_rounding_test {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

TEST(Float32Rounding, NearestTiesToEven) {
  EXPECT_EQ(round_to_float32(0.1), static_cast<double>(0.1f));
  EXPECT_EQ(round_to_float32(-1.0 / 3), static_cast<double>(-1.0f / 3));
  EXPECT_EQ(round_to_float32(16777217.0), 16777216.0);          // 2^24 + 1: a tie, to even
  EXPECT_EQ(round_to_float32(16777219.0), 16777220.0);          // 2^24 + 3: a tie, to even
  EXPECT_EQ(round_to_float32(16777218.5), 16777218.0);          // below the tie
  EXPECT_EQ(round_to_float32(1.0 + 0x1p-24), 1.0);              // tie between 1 and 1 + 2^-23
  EXPECT_EQ(round_to_float32(1.0 + 0x1.8p-23), 1.0 + 0x1p-22);  // carries into the next bit
  EXPECT_EQ(round_to_float32(0x1.ffffffp0), 2.0);               // rounds up into the next binade
  EXPECT_EQ(round_to_float32(42.0), 42.0);
}

TEST(Float32Rounding, RangeEnds) {
  const double max = std::numeric_limits<float>::max();
  EXPECT_EQ(round_to_float32(max), max);
  EXPECT_EQ(round_to_float32(-max), -max);
  EXPECT_EQ(round_to_float32(max + 0x1p103), inf);  // halfway to 2^128: to even, overflow
  EXPECT_EQ(round_to_float32(max + 0x1p102), max);  // below halfway
  EXPECT_EQ(round_to_float32(1e300), inf);          // numpy: float32(1e300) is inf
  EXPECT_EQ(round_to_float32(-1e300), -inf);
  EXPECT_EQ(round_to_float32(0x1p-149), 0x1p-149);      // the smallest subnormal
  EXPECT_EQ(round_to_float32(0x1.8p-149), 0x1p-148);    // a tie between subnormals, to even
  EXPECT_EQ(round_to_float32(0x1.4p-140), 0x1.4p-140);  // a subnormal, exactly
  EXPECT_EQ(round_to_float32(0x1p-150), 0.0);           // a tie between 0 and 2^-149
  const double tiny = round_to_float32(-1e-300);
  EXPECT_EQ(tiny, 0.0);
  EXPECT_TRUE(std::signbit(tiny));
  EXPECT_TRUE(std::signbit(round_to_float32(-0.0)));
  EXPECT_EQ(round_to_float32(inf), inf);
  EXPECT_EQ(round_to_float32(-inf), -inf);
  EXPECT_TRUE(std::isnan(round_to_float32(std::nan(""))));
}

TEST(Float32Rounding, AgreesWithTheHardwareConversion) {
  std::mt19937_64 random(25);
  for (int k = 0; k < 100000; ++k) {
    // Random doubles from below float32's subnormals to its largest binade (exponents
    // -160..126; beyond, the C++ conversion is undefined: RangeEnds tests the overflow).
    const auto bits = random();
    const int exponent = static_cast<int>(bits % 287) - 160;
    const double value = std::ldexp(1.0 + static_cast<double>(bits >> 12) * 0x1p-52, exponent) *
                         ((bits & 1) ? -1 : 1);
    volatile float narrowed = static_cast<float>(value);  // volatile: the conversion happens
    const double expected = narrowed;
    ASSERT_EQ(round_to_float32(value), expected) << std::hexfloat << value;
    ASSERT_EQ(is_exact_float32(value), expected == value) << std::hexfloat << value;
  }
}

TEST(Float32Rounding, ExactValues) {
  EXPECT_TRUE(is_exact_float32(0.5));
  EXPECT_TRUE(is_exact_float32(static_cast<double>(0.1f)));
  EXPECT_FALSE(is_exact_float32(0.1));
  EXPECT_FALSE(is_exact_float32(16777217.0));
  EXPECT_FALSE(is_exact_float32(1e300));
  EXPECT_FALSE(is_exact_float32(1e-300));
  EXPECT_TRUE(is_exact_float32(-inf));
  EXPECT_TRUE(is_exact_float32(std::nan("")));
  EXPECT_TRUE(is_exact_float32(-0.0));
}

}  // namespace
}  // namespace float32_rounding_test
}  // namespace plinth::detail
