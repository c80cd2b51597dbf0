// Rounding doubles to float16 on the host as numpy's float16(x) does (directly from the
// double, ties to even): the expected bit patterns were written by numpy 2.4
// (`np.float16(v).view(np.uint16)`).

#include "dtypes/float16_rounding.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace plinth::detail {
namespace float16_rounding_test {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

TEST(Float16Rounding, MatchesNumpysBitPatterns) {
  const std::pair<double, std::uint16_t> cases[] = {
      {0.1, 0x2e66},
      {-0.3333333333333333, 0xb555},
      {1.00048828125, 0x3c00},       // 1 + 2^-11: a tie, to even
      {1.00146484375, 0x3c02},       // 1 + 3 * 2^-11: a tie, to even (up)
      {1.0004882812509095, 0x3c01},  // just above the tie: float32 would round it to the tie
      {65504.0, 0x7bff},
      {65519.99, 0x7bff},
      {65520.0, 0x7c00},  // halfway to 65536: to even, overflow
      {-65520.0, 0xfc00},
      {1e+300, 0x7c00},
      {5.960464477539063e-08, 0x0001},   // the smallest subnormal
      {2.9802322387695312e-08, 0x0000},  // half of it: a tie, to even (0)
      {2.9802322388562674e-08, 0x0001},  // just above
      {8.940696716308594e-08, 0x0002},   // 1.5 subnormals: to even
      {6.103515625e-05, 0x0400},         // the smallest normal
      {6.1005353927612305e-05, 0x0400},
      {-1.4901161193847656e-08, 0x8000},  // to -0
      {0.0, 0x0000},
      {-0.0, 0x8000},
      {inf, 0x7c00},
      {2049.0, 0x6800},
      {2051.0, 0x6802},
      {3.14159, 0x4248},
      {1e-08, 0x0000},
      {6e-05, 0x03ef},
      {100000.0, 0x7c00},
  };
  for (const auto& [value, bits] : cases) {
    EXPECT_EQ(float16_bits(value), bits) << value;
    EXPECT_EQ(float16_value(bits), round_to_float16(value)) << value;
    EXPECT_EQ(std::signbit(round_to_float16(value)), std::signbit(value)) << value;
  }
}

TEST(Float16Rounding, EveryBitPatternRoundTrips) {
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double value = float16_value(static_cast<std::uint16_t>(bits));
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(round_to_float16(value)));
      EXPECT_EQ(float16_bits(value) & 0x7e00, 0x7e00);
      continue;
    }
    ASSERT_EQ(round_to_float16(value), value) << bits;
    ASSERT_EQ(float16_bits(value), bits) << bits;
  }
}

}  // namespace
}  // namespace float16_rounding_test
}  // namespace plinth::detail
