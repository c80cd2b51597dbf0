// The pure rules of array arithmetic (core/algorithms/array_expression_rules.hpp): numpy 2's
// promotion with weak scalars (NEP 50), true division and math function types, same_kind
// casting, broadcasting, scalar conversion; and the dtypes of expressions of scalars only
// (no device needed).

#include "algorithms/array_expression_rules.hpp"
#include "algorithms/array_expression_node.hpp"
#include "algorithms/elementwise_codegen.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "error_message.hpp"

namespace plinth::detail {
namespace array_expression_rules_test {
namespace {

const DType b = DType::boolean(), i8 = DType::int8(), u8 = DType::uint8(), i16 = DType::int16(),
            u16 = DType::uint16(), i32 = DType::int32(), u32 = DType::uint32(),
            i64 = DType::int64(), u64 = DType::uint64(), f32 = DType::float32(),
            f64 = DType::float64(), c64 = DType::complex64(), c128 = DType::complex128(),
            f16 = DType::float16();

OperandType strong(const DType& dtype) { return {dtype, false}; }
OperandType weak(const DType& dtype) { return {dtype, true}; }

using plinth::test::message_of;

TEST(ArrayExpressionPromotion, ArraysFollowResultType) {
  EXPECT_EQ(promote(strong(i32), strong(f32)).dtype, f64);
  EXPECT_EQ(promote(strong(u8), strong(i8)).dtype, i16);
  EXPECT_EQ(promote(strong(i64), strong(u64)).dtype, f64);
  EXPECT_EQ(promote(strong(f32), strong(c64)).dtype, c64);
  EXPECT_EQ(promote(strong(f64), strong(c64)).dtype, c128);
  EXPECT_EQ(promote(strong(b), strong(b)).dtype, b);
  EXPECT_FALSE(promote(strong(i32), strong(f32)).weak);
}

TEST(ArrayExpressionPromotion, WeakScalarsTakeTheArraysTypeWithinItsKind) {
  // float32 array * 2.0 → float32; int8 array + 1 → int8; uint8 + bool → uint8.
  EXPECT_EQ(promote(strong(f32), weak(f64)).dtype, f32);
  EXPECT_EQ(promote(weak(i64), strong(i8)).dtype, i8);
  EXPECT_EQ(promote(strong(u8), weak(i64)).dtype, u8);
  EXPECT_EQ(promote(strong(u8), weak(b)).dtype, u8);
  EXPECT_EQ(promote(strong(c64), weak(f64)).dtype, c64);
  EXPECT_EQ(promote(strong(c64), weak(i64)).dtype, c64);
}

TEST(ArrayExpressionPromotion, WeakScalarsOfAHigherKindGiveTheirDefault) {
  EXPECT_EQ(promote(strong(i32), weak(f64)).dtype, f64);  // int32 * 2.5 → float64
  EXPECT_EQ(promote(strong(i8), weak(f64)).dtype, f64);
  EXPECT_EQ(promote(strong(b), weak(i64)).dtype, i64);
  EXPECT_EQ(promote(strong(f32), weak(c128)).dtype, c64);  // float32 * 1j → complex64
  EXPECT_EQ(promote(strong(f64), weak(c128)).dtype, c128);
  EXPECT_EQ(promote(strong(i16), weak(c128)).dtype, c128);
}

TEST(ArrayExpressionPromotion, TwoWeakScalarsGiveTheDefaultOfTheHigherKind) {
  const auto r = promote(weak(i64), weak(f64));
  EXPECT_EQ(r.dtype, f64);
  EXPECT_FALSE(r.weak);
  EXPECT_EQ(promote(weak(b), weak(b)).dtype, b);
  EXPECT_EQ(promote(weak(c128), weak(i64)).dtype, c128);
}

TEST(ArrayExpressionPromotion, TrueDivisionOfIntegersIsFloat64) {
  EXPECT_EQ(true_divide_type(strong(i32), strong(i32)), f64);
  EXPECT_EQ(true_divide_type(strong(u8), weak(i64)), f64);
  EXPECT_EQ(true_divide_type(strong(b), strong(b)), f64);
  EXPECT_EQ(true_divide_type(strong(f32), weak(i64)), f32);
  EXPECT_EQ(true_divide_type(strong(c64), strong(f32)), c64);
}

TEST(ArrayExpressionPromotion, MathFunctionTypes) {
  EXPECT_EQ(float_function_type(f32), f32);
  EXPECT_EQ(float_function_type(c128), c128);
  // numpy: np.sin of bool, int8 and uint8 is float16, of int16 and uint16 float32.
  EXPECT_EQ(float_function_type(b), f16);
  EXPECT_EQ(float_function_type(i8), f16);
  EXPECT_EQ(float_function_type(u8), f16);
  EXPECT_EQ(float_function_type(f16), f16);
  EXPECT_EQ(float_function_type(i16), f32);
  EXPECT_EQ(float_function_type(u16), f32);
  EXPECT_EQ(float_function_type(i32), f64);
  EXPECT_EQ(float_function_type(u64), f64);
}

// numpy 2's float16 promotions (checked with numpy 2.4): float16 + int8 is float16, + int16
// float32; a weak real or integer scalar takes float16, a weak complex gives complex64; true
// division of int8 stays float64.
TEST(ArrayExpressionPromotion, Float16FollowsNumpy) {
  EXPECT_EQ(promote(strong(f16), strong(i8)).dtype, f16);
  EXPECT_EQ(promote(strong(f16), strong(u8)).dtype, f16);
  EXPECT_EQ(promote(strong(f16), strong(b)).dtype, f16);
  EXPECT_EQ(promote(strong(f16), strong(i16)).dtype, f32);
  EXPECT_EQ(promote(strong(f16), strong(u16)).dtype, f32);
  EXPECT_EQ(promote(strong(f16), strong(f32)).dtype, f32);
  EXPECT_EQ(promote(strong(f16), strong(i32)).dtype, f64);
  EXPECT_EQ(promote(strong(f16), strong(c64)).dtype, c64);
  EXPECT_EQ(promote(strong(f16), weak(f64)).dtype, f16);
  EXPECT_EQ(promote(weak(i64), strong(f16)).dtype, f16);
  EXPECT_EQ(promote(strong(f16), weak(c128)).dtype, c64);
  EXPECT_EQ(true_divide_type(strong(f16), strong(f16)), f16);
  EXPECT_EQ(true_divide_type(strong(f16), weak(i64)), f16);
  EXPECT_EQ(true_divide_type(strong(i8), strong(i8)), f64);
  EXPECT_EQ(true_divide_type(strong(u8), strong(b)), f64);
  EXPECT_EQ(comparison_type(strong(f16), weak(f64)), f16);
  EXPECT_TRUE(can_cast_same_kind(f64, f16));
  EXPECT_TRUE(can_cast_same_kind(i8, f16));
  EXPECT_FALSE(can_cast_same_kind(f16, i32));
}

// numpy 2 compares integers exactly: a signed integer against a uint64 computes in 64-bit
// integers by sign (not in float64, inexact beyond 2^53), and an integer scalar out of the
// array's range is no error (the code generator then compares in 64 bits).
TEST(ArrayExpressionPromotion, IntegerComparisonsAreExact) {
  EXPECT_EQ(comparison_type(strong(i64), strong(u64)), i64);
  EXPECT_EQ(comparison_type(strong(u64), strong(i8)), i64);
  EXPECT_EQ(comparison_type(strong(u64), strong(u32)), u64);
  EXPECT_EQ(comparison_type(strong(i64), strong(f32)), f64);
  EXPECT_EQ(comparison_type(weak(i64), strong(u64)), u64);
  EXPECT_EQ(comparison_type(strong(i8), weak(i64)), i8);
  EXPECT_TRUE(compares_by_sign(i16, u64));
  EXPECT_TRUE(compares_by_sign(u64, i64));
  EXPECT_FALSE(compares_by_sign(u32, i64));
  EXPECT_FALSE(compares_by_sign(u64, u64));
  EXPECT_FALSE(compares_by_sign(u64, f64));

  EXPECT_TRUE(integer_fits(std::int64_t{127}, i8));
  EXPECT_FALSE(integer_fits(std::int64_t{128}, i8));
  EXPECT_TRUE(integer_fits(std::int64_t{-128}, i8));
  EXPECT_FALSE(integer_fits(std::int64_t{-129}, i8));
  EXPECT_FALSE(integer_fits(std::int64_t{-1}, u8));
  EXPECT_TRUE(integer_fits(std::int64_t{255}, u8));
  EXPECT_FALSE(integer_fits(std::int64_t{1000}, u8));
  EXPECT_FALSE(integer_fits(std::uint64_t{1} << 63, i64));
  EXPECT_TRUE(integer_fits(std::uint64_t{(std::uint64_t{1} << 63) - 1}, i64));
  EXPECT_TRUE(integer_fits(std::uint64_t{18446744073709551615u}, u64));
  EXPECT_FALSE(integer_fits(std::int64_t{-1}, u64));
  EXPECT_TRUE(integer_fits(true, u8));
  EXPECT_TRUE(integer_fits(true, b));
  EXPECT_FALSE(integer_fits(std::int64_t{1}, b));
  EXPECT_FALSE(integer_fits(2.0, i32));
  EXPECT_FALSE(integer_fits(std::int64_t{1}, f32));
}

TEST(ArrayExpressionCasting, SameKind) {
  EXPECT_TRUE(can_cast_same_kind(f64, f32));
  EXPECT_TRUE(can_cast_same_kind(i64, i8));
  EXPECT_TRUE(can_cast_same_kind(u64, i8));   // unsigned → signed is within order
  EXPECT_FALSE(can_cast_same_kind(i8, u64));  // signed → unsigned is not (nor safe)
  EXPECT_TRUE(can_cast_same_kind(u8, u64));   // safe
  EXPECT_TRUE(can_cast_same_kind(i32, f32));  // to a higher kind
  EXPECT_FALSE(can_cast_same_kind(f32, i64));
  EXPECT_FALSE(can_cast_same_kind(c64, f64));
  EXPECT_TRUE(can_cast_same_kind(c128, c64));
  EXPECT_TRUE(can_cast_same_kind(b, f32));
  EXPECT_FALSE(can_cast_same_kind(i8, b));
}

TEST(ArrayExpressionShapes, BroadcastAsNumpy) {
  const std::vector<std::size_t> row{1, 5}, column{4, 1}, vector{5}, scalar{}, empty{0, 5};
  EXPECT_EQ(broadcast_shapes(row, column), (std::vector<std::size_t>{4, 5}));
  EXPECT_EQ(broadcast_shapes(vector, column), (std::vector<std::size_t>{4, 5}));
  EXPECT_EQ(broadcast_shapes(scalar, vector), vector);
  EXPECT_EQ(broadcast_shapes(empty, vector), empty);
  const std::vector<std::size_t> three{3, 4}, five{5};
  EXPECT_EQ(message_of([&] { broadcast_shapes(three, five); }),
            "operands could not be broadcast together with shapes (3, 4) (5,)");
  EXPECT_EQ(shape_text(scalar), "()");
}

TEST(ArrayExpressionScalars, ConvertedToTheTypeTheyAreUsedIn) {
  const auto as = [](const ScalarValue& value, const DType& dtype) {
    return detail::Access::impl(scalar_argument(value, dtype));
  };
  EXPECT_EQ(std::get<std::int64_t>(as(std::int64_t{-128}, i8)), -128);
  EXPECT_EQ(std::get<std::uint64_t>(as(true, b)), 1u);  // bool as uint8 0/1
  EXPECT_EQ(std::get<double>(as(0.1, f32)), static_cast<double>(0.1f));
  EXPECT_EQ(std::get<double>(as(0.1, f64)), 0.1);
  EXPECT_EQ(std::get<std::complex<double>>(as(std::int64_t{3}, c128)), std::complex<double>(3));
  EXPECT_EQ(std::get<std::uint64_t>(as(std::uint64_t{18446744073709551615u}, u64)),
            18446744073709551615u);
  // numpy's OverflowError: int8 + 1000, uint8 + -1.
  EXPECT_NE(
      message_of([&] { as(std::int64_t{1000}, i8); }).find("1000 is out of the range of int8"),
      std::string::npos);
  EXPECT_NE(message_of([&] { as(std::int64_t{-1}, u8); }).find("out of the range of uint8"),
            std::string::npos);
  EXPECT_NE(message_of([&] { as(std::uint64_t{1} << 63, i64); }).find("out of the range"),
            std::string::npos);
  EXPECT_NE(message_of([&] { as(std::complex<double>(1, 2), f64); }).find("complex"),
            std::string::npos);
  EXPECT_NE(message_of([&] { as(2.5, i32); }).find("not an integer"), std::string::npos);
  EXPECT_EQ(kernel_dtype(b), u8);
  EXPECT_EQ(kernel_dtype(f32), f32);
  EXPECT_EQ(kernel_dtype(f16), u16);
  EXPECT_EQ(kernel_scalar_dtype(f16), f32);
  EXPECT_EQ(kernel_scalar_dtype(b), u8);
}

// A weak scalar used as float16 is rounded to float16 as numpy's (np.float16(x), from the
// double directly; beyond 65504 inf) and passed as the float that holds it exactly.
TEST(ArrayExpressionScalars, RealsRoundToFloat16) {
  const auto as = [](const ScalarValue& value) {
    return std::get<double>(detail::Access::impl(scalar_argument(value, f16)));
  };
  EXPECT_EQ(as(0.1), 0.0999755859375);
  EXPECT_EQ(as(1.0 + 0x1p-11), 1.0);                      // a tie, to even
  EXPECT_EQ(as(1.0 + 0x1p-11 + 0x1p-40), 1.0 + 0x1p-10);  // not through float32
  EXPECT_EQ(as(std::int64_t{2049}), 2048.0);
  EXPECT_EQ(as(std::int64_t{100000}), std::numeric_limits<double>::infinity());
  EXPECT_EQ(as(-65504.0), -65504.0);
  EXPECT_EQ(as(true), 1.0);
  EXPECT_EQ(as(0x1p-25), 0.0);  // half the smallest subnormal: to even
}

// numpy 2 (NEP 50): a Python float used with a float32 or complex64 array is rounded to
// float32 (and overflows to inf), never refused. The kernel call then takes the rounded value
// exactly (convert_scalar), in a Release build too (GCC 12 at -O2 once folded the rounding of
// both parts of a complex away, and the call threw "not exactly a complex64").
TEST(ArrayExpressionScalars, RealsRoundToFloat32AndComplex64) {
  using C64 = std::complex<float>;
  const auto kernel_value = [](const ScalarValue& value, const DType& dtype) -> std::optional<C64> {
    const auto argument = scalar_argument(value, dtype);
    const auto bytes = convert_scalar(detail::Access::impl(argument), dtype);
    if (!bytes) return std::nullopt;
    if (dtype == f32) {
      float real = 0;
      std::memcpy(&real, bytes->bytes.data(), sizeof real);
      return C64(real, 0);
    }
    C64 result;
    std::memcpy(&result, bytes->bytes.data(), sizeof result);
    return result;
  };
  EXPECT_EQ(kernel_value(0.1, c64), C64(0.1f, 0));  // z * 0.1, fill(z, 0.1)
  EXPECT_EQ(kernel_value(std::complex<double>(0, 0.1), c64), C64(0, 0.1f));  // f32 * 0.1i
  EXPECT_EQ(kernel_value(std::complex<double>(0.1, -0.2), c64), C64(0.1f, -0.2f));
  EXPECT_EQ(kernel_value(std::complex<double>(1.0 / 3, 2.0 / 3), c64), C64(1.0f / 3, 2.0f / 3));
  EXPECT_EQ(kernel_value(std::int64_t{16777217}, c64), C64(16777216.0f, 0));  // ties to even
  EXPECT_EQ(kernel_value(0.1, f32), C64(0.1f, 0));
  const auto inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(kernel_value(1e300, f32), C64(inf, 0));  // numpy: float32(3) + 3e100 is inf
  EXPECT_EQ(kernel_value(std::complex<double>(-1e300, 1e-300), c64), C64(-inf, 0));
  EXPECT_EQ(std::get<std::complex<double>>(detail::Access::impl(scalar_argument(0.1, c64))),
            std::complex<double>(static_cast<double>(0.1f), 0));
}

TEST(ArrayExpressionScalars, ExpressionsOfScalarsOnly) {
  const ArrayExpression two(2);
  EXPECT_TRUE(two.is_weak_scalar());
  EXPECT_EQ(two.dtype(), i64);
  EXPECT_TRUE(two.shape().empty());
  const auto sum = two + 2.5f;
  EXPECT_FALSE(sum.is_weak_scalar());
  EXPECT_EQ(sum.dtype(), f64);
  EXPECT_EQ((two < 3).dtype(), b);
  EXPECT_EQ((two / 3).dtype(), f64);
  EXPECT_EQ(abs(ArrayExpression(std::complex<float>(3, 4))).dtype(), f64);
  EXPECT_EQ(sin(two).dtype(), f64);
  EXPECT_EQ(astype(two, i8).dtype(), i8);
  EXPECT_TRUE((-two).is_weak_scalar());
  EXPECT_NE(message_of([] { static_cast<void>(ArrayExpression(true) - true); }).find("bool"),
            std::string::npos);
  EXPECT_NE(message_of([] { static_cast<void>(-ArrayExpression(true)); }).find("bool"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              static_cast<void>(floor(ArrayExpression(std::complex<double>(1))));
            }).find("complex"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              static_cast<void>(astype(ArrayExpression(std::complex<double>(1)), f32));
            }).find("imaginary"),
            std::string::npos);
  EXPECT_EQ(astype(ArrayExpression(1), f16).dtype(), f16);
  EXPECT_EQ(sin(astype(two, i8)).dtype(), f16);
  EXPECT_EQ((astype(two, f16) * 2.5).dtype(), f16);
  EXPECT_EQ((astype(two, f16) + astype(two, i16)).dtype(), f32);
  EXPECT_EQ((astype(two, f16) * std::complex<double>(0, 1)).dtype(), c64);
  EXPECT_NE(message_of([] {
              static_cast<void>(astype(ArrayExpression(std::complex<double>(1)), f16));
            }).find("imaginary"),
            std::string::npos);
}

TEST(ArrayExpressionScalars, TypedScalarsPromoteAsArrays) {
  const auto f = typed_scalar(2.0, f32);
  EXPECT_FALSE(f.is_weak_scalar());
  EXPECT_EQ(f.dtype(), f32);
  EXPECT_TRUE(f.shape().empty());
  EXPECT_EQ((f * 2.5).dtype(), f32);                     // a weak real takes float32
  EXPECT_EQ((f * typed_scalar(2.5, f64)).dtype(), f64);  // a strong float64 does not
  EXPECT_EQ((typed_scalar(1, i8) + 1).dtype(), i8);
  EXPECT_EQ((typed_scalar(1, i8) + typed_scalar(1, i16)).dtype(), i16);
  EXPECT_EQ((typed_scalar(1, u8) + typed_scalar(1, i8)).dtype(), i16);
  EXPECT_EQ((typed_scalar(true, b) + 1).dtype(), i64);
  EXPECT_EQ((-typed_scalar(1, u8)).dtype(), u8);  // not folded into a weak scalar
  EXPECT_FALSE((-typed_scalar(1, u8)).is_weak_scalar());
  EXPECT_EQ((typed_scalar(1, f16) * std::complex<double>(0, 1)).dtype(), c64);
  // The value as the dtype holds it.
  EXPECT_EQ(std::get<double>(detail::Access::impl(typed_scalar(0.1, f32))->scalar),
            static_cast<double>(0.1f));
  EXPECT_EQ(std::get<double>(detail::Access::impl(typed_scalar(0.1, f16))->scalar),
            0.0999755859375);
  EXPECT_EQ(std::get<std::complex<double>>(detail::Access::impl(typed_scalar(0.1, c64))->scalar),
            std::complex<double>(static_cast<double>(0.1f), 0));
  EXPECT_EQ(std::get<std::int64_t>(detail::Access::impl(typed_scalar(true, i8))->scalar), 1);
  EXPECT_EQ(
      std::get<std::uint64_t>(detail::Access::impl(typed_scalar(~std::uint64_t{0}, u64))->scalar),
      ~std::uint64_t{0});
  EXPECT_NE(message_of([] { static_cast<void>(typed_scalar(300, i8)); }).find("range of int8"),
            std::string::npos);
  EXPECT_NE(message_of([] { static_cast<void>(typed_scalar(-1, u64)); }).find("range"),
            std::string::npos);
  EXPECT_NE(message_of([] { static_cast<void>(typed_scalar(2.5, i32)); }).find("integer"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              static_cast<void>(typed_scalar(std::complex<double>(1, 1), f64));
            }).find("complex"),
            std::string::npos);
  EXPECT_NE(message_of([] { static_cast<void>(typed_scalar(1, b)); }).find("bool"),
            std::string::npos);
}

}  // namespace
}  // namespace array_expression_rules_test
}  // namespace plinth::detail
