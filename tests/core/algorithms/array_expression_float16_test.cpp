// The float16 pieces of array arithmetic's code generator (array_expression_float16.hpp): a
// float16 value is a float loaded from bits, every float16 result is rounded back, and a store
// of a value that is already a conversion of bits stores those bits.

#include "algorithms/array_expression_float16.hpp"

#include <gtest/gtest.h>

namespace plinth::detail {
namespace array_expression_float16_test {
namespace {

TEST(ArrayExpressionFloat16, LoadsRoundsAndStores) {
  EXPECT_EQ(float16_load("a0[i]"), "plinth_half_to_float(a0[i])");
  EXPECT_EQ(float16_round("x"), "plinth_half_to_float(plinth_float_to_half_rte(x))");
  // A rounded value is stored as the bits of its rounding, not converted twice.
  EXPECT_EQ(float16_store(float16_round("(a * b)")), "plinth_float_to_half_rte((a * b))");
  EXPECT_EQ(float16_store(float16_load("a0[i]")), "a0[i]");
  // Two calls are not one: the whole value is converted.
  EXPECT_EQ(float16_store("plinth_half_to_float(a) + plinth_half_to_float(b)"),
            "plinth_float_to_half_rte(plinth_half_to_float(a) + plinth_half_to_float(b))");
  EXPECT_EQ(float16_store("((c) ? (x) : (y))"), "plinth_float_to_half_rte(((c) ? (x) : (y)))");
}

TEST(ArrayExpressionFloat16, ConversionsRoundOnceAndOnlyWhereNeeded) {
  // float64 rounds directly; 8-bit integers and bool are exact; wider integers round from
  // float32 (exact there up to 2^24, far beyond float16's range).
  EXPECT_EQ(float16_from("d", DType::float64()),
            "plinth_half_to_float(plinth_double_to_half_rte(d))");
  EXPECT_EQ(float16_from("c", DType::int8()), "((float)(c))");
  EXPECT_EQ(float16_from("c", DType::boolean()), "((float)(c))");
  EXPECT_EQ(float16_from("s", DType::int16()),
            "plinth_half_to_float(plinth_float_to_half_rte(((float)(s))))");
  EXPECT_EQ(float16_from("f", DType::float32()),
            "plinth_half_to_float(plinth_float_to_half_rte(((float)(f))))");
  EXPECT_EQ(float16_from("h", DType::float16()), "h");
  EXPECT_TRUE(float16_rounds(ExpressionOp::multiply));
  EXPECT_TRUE(float16_rounds(ExpressionOp::function));
  EXPECT_TRUE(float16_rounds(ExpressionOp::ufunc));
  EXPECT_FALSE(float16_rounds(ExpressionOp::negative));
  EXPECT_FALSE(float16_rounds(ExpressionOp::where));
  EXPECT_FALSE(float16_rounds(ExpressionOp::cast));
}

}  // namespace
}  // namespace array_expression_float16_test
}  // namespace plinth::detail
