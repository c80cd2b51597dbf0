// The result dtypes of the numpy functions of array expressions (issue 30) for every dtype,
// against numpy 2's table (numpy 2.4: `np.<f>(np.zeros(2, d)).dtype.char`, 'X' where numpy
// raises), built from strong scalar nodes (no device needed); and the refusals, which name
// the function and the dtype.

#include "algorithms/array_expression_rules.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "error_message.hpp"

namespace plinth::detail {
namespace array_ufunc_types_test {
namespace {

using Unary = std::function<ArrayExpression(const ArrayExpression&)>;
using Binary = std::function<ArrayExpression(const ArrayExpression&, const ArrayExpression&)>;

// numpy's dtype characters, in the order of the tables' columns.
const char* const columns = "?bBhHiIlLfdFD";

DType dtype_of(char c) {
  switch (c) {
    case '?': return DType::boolean();
    case 'b': return DType::int8();
    case 'B': return DType::uint8();
    case 'h': return DType::int16();
    case 'H': return DType::uint16();
    case 'i': return DType::int32();
    case 'I': return DType::uint32();
    case 'l': return DType::int64();
    case 'L': return DType::uint64();
    case 'f': return DType::float32();
    case 'd': return DType::float64();
    case 'F': return DType::complex64();
    case 'D': return DType::complex128();
    // numpy's float16 for math functions of small integers: plinth's float type of the
    // math functions of int8 (float32 until float16 has arithmetic).
    default: return float_function_type(DType::int8());
  }
}

// A strong (non-weak) expression of `dtype` without a device.
ArrayExpression of(const DType& dtype) { return astype(ArrayExpression(0), dtype); }

using plinth::test::message_of;

// Checks `results` (numpy's characters per column) for `apply` of one strong operand (or two
// of the same dtype); a refusal must name `name` and the dtype.
void check(const std::string& name, const std::string& results,
           const std::function<ArrayExpression(const ArrayExpression&)>& apply) {
  for (std::size_t k = 0; k < results.size(); ++k) {
    const auto dtype = dtype_of(columns[k]);
    SCOPED_TRACE(name + " of " + dtype.name());
    if (results[k] == 'X') {
      const auto message = message_of([&] { static_cast<void>(apply(of(dtype))); });
      EXPECT_NE(message.find(name), std::string::npos) << message;
      EXPECT_NE(message.find(dtype.name()), std::string::npos) << message;
    } else {
      EXPECT_EQ(apply(of(dtype)).dtype(), dtype_of(results[k]));
    }
  }
}

TEST(ArrayUfuncTypes, UnaryFunctionsFollowNumpy) {
  const std::vector<std::tuple<std::string, std::string, Unary>> table = {
      {"isnan", "?????????????", [](const auto& a) { return isnan(a); }},
      {"isinf", "?????????????", [](const auto& a) { return isinf(a); }},
      {"isfinite", "?????????????", [](const auto& a) { return isfinite(a); }},
      {"signbit", "???????????XX", [](const auto& a) { return signbit(a); }},
      {"floor", "?bBhHiIlLfdXX", [](const auto& a) { return floor(a); }},
      {"ceil", "?bBhHiIlLfdXX", [](const auto& a) { return ceil(a); }},
      {"trunc", "?bBhHiIlLfdXX", [](const auto& a) { return trunc(a); }},
      {"rint", "eeeffddddfdFD", [](const auto& a) { return rint(a); }},
      {"sign", "XbBhHiIlLfdFD", [](const auto& a) { return sign(a); }},
      {"square", "bbBhHiIlLfdFD", [](const auto& a) { return square(a); }},
      {"reciprocal", "bbBhHiIlLfdFD", [](const auto& a) { return reciprocal(a); }},
      {"exp2", "eeeffddddfdFD", [](const auto& a) { return exp2(a); }},
      {"log2", "eeeffddddfdFD", [](const auto& a) { return log2(a); }},
      {"expm1", "eeeffddddfdFD", [](const auto& a) { return expm1(a); }},
      {"log1p", "eeeffddddfdFD", [](const auto& a) { return log1p(a); }},
      {"cbrt", "eeeffddddfdXX", [](const auto& a) { return cbrt(a); }},
      {"logical_not", "?????????????", [](const auto& a) { return logical_not(a); }},
      {"invert", "?bBhHiIlLXXXX", [](const auto& a) { return ~a; }},
      {"angle", "deeffddddfdfd", [](const auto& a) { return angle(a); }},
      {"round", "ebBhHiIlLfdFD", [](const auto& a) { return round(a); }},
      {"round", "ebBhHiIlLfdFD", [](const auto& a) { return round(a, -2); }},
  };
  for (const auto& [name, results, apply] : table) check(name, results, apply);
}

TEST(ArrayUfuncTypes, BinaryFunctionsFollowNumpy) {
  const std::vector<std::tuple<std::string, std::string, Binary>> table = {
      {"remainder", "bbBhHiIlLfdXX", [](const auto& a, const auto& b) { return a % b; }},
      {"floor_divide", "bbBhHiIlLfdXX",
       [](const auto& a, const auto& b) { return floor_divide(a, b); }},
      {"bitwise_and", "?bBhHiIlLXXXX", [](const auto& a, const auto& b) { return a & b; }},
      {"bitwise_or", "?bBhHiIlLXXXX", [](const auto& a, const auto& b) { return a | b; }},
      {"bitwise_xor", "?bBhHiIlLXXXX", [](const auto& a, const auto& b) { return a ^ b; }},
      {"left_shift", "bbBhHiIlLXXXX", [](const auto& a, const auto& b) { return a << b; }},
      {"right_shift", "bbBhHiIlLXXXX", [](const auto& a, const auto& b) { return a >> b; }},
      {"logical_and", "?????????????",
       [](const auto& a, const auto& b) { return logical_and(a, b); }},
      {"logical_or", "?????????????",
       [](const auto& a, const auto& b) { return logical_or(a, b); }},
      {"logical_xor", "?????????????",
       [](const auto& a, const auto& b) { return logical_xor(a, b); }},
      {"maximum", "?bBhHiIlLfdFD", [](const auto& a, const auto& b) { return maximum(a, b); }},
      {"minimum", "?bBhHiIlLfdFD", [](const auto& a, const auto& b) { return minimum(a, b); }},
      {"fmax", "?bBhHiIlLfdFD", [](const auto& a, const auto& b) { return fmax(a, b); }},
      {"fmin", "?bBhHiIlLfdFD", [](const auto& a, const auto& b) { return fmin(a, b); }},
      {"arctan2", "eeeffddddfdXX", [](const auto& a, const auto& b) { return arctan2(a, b); }},
      {"hypot", "eeeffddddfdXX", [](const auto& a, const auto& b) { return hypot(a, b); }},
      {"copysign", "eeeffddddfdXX", [](const auto& a, const auto& b) { return copysign(a, b); }},
      {"isclose", "?????????????", [](const auto& a, const auto& b) { return isclose(a, b); }},
      {"clip", "?bBhHiIlLfdFD", [](const auto& a, const auto& b) { return clip(a, b, b); }},
  };
  for (const auto& [name, results, apply] : table) {
    check(name, results, [&](const ArrayExpression& a) { return apply(a, a); });
  }
}

TEST(ArrayUfuncTypes, MixedOperandsAndWeakScalars) {
  const auto i8 = of(DType::int8()), u64 = of(DType::uint64()), i64 = of(DType::int64());
  const auto f32 = of(DType::float32());
  EXPECT_EQ((i8 % 3).dtype(), DType::int8());
  EXPECT_EQ((f32 % 3).dtype(), DType::float32());
  EXPECT_EQ(floor_divide(i8, 2.5).dtype(), DType::float64());
  EXPECT_EQ((ArrayExpression(true) & true).dtype(), DType::boolean());
  EXPECT_EQ((i8 << 3).dtype(), DType::int8());
  EXPECT_EQ(clip(f32, 0.25, 0.75).dtype(), DType::float32());
  EXPECT_EQ(clip(i8, 0.25, 0.75).dtype(), DType::float64());  // numpy 2: weak float over int
  EXPECT_EQ(maximum(f32, of(DType::float64())).dtype(), DType::float64());
  EXPECT_EQ(divmod(i8, i8).first.dtype(), DType::int8());
  EXPECT_EQ(divmod(i8, i8).second.dtype(), DType::int8());
  // int64 with uint64 promotes to float64, which has no bitwise operations (numpy raises).
  const auto message = message_of([&] { static_cast<void>(i64 & u64); });
  EXPECT_NE(message.find("bitwise_and"), std::string::npos) << message;
  EXPECT_NE(message.find("float64"), std::string::npos) << message;
  EXPECT_NE(message_of([&] { static_cast<void>(f32 << 1); }).find("float32"), std::string::npos);
}

TEST(ArrayUfuncTypes, IntegerPowerWithNegativeScalarExponentIsRefused) {
  const auto i16 = of(DType::int16());
  const auto message = message_of([&] { static_cast<void>(pow(i16, -2)); });
  EXPECT_NE(message.find("pow"), std::string::npos) << message;
  EXPECT_NE(message.find("int16"), std::string::npos) << message;
  EXPECT_NE(message.find("-2"), std::string::npos) << message;
  EXPECT_EQ(pow(i16, 2).dtype(), DType::int16());
  EXPECT_EQ(pow(of(DType::float32()), -2).dtype(), DType::float32());
  EXPECT_EQ(pow(i16, -2.0).dtype(), DType::float64());
  EXPECT_EQ(pow(i16, of(DType::int16())).dtype(), DType::int16());  // array exponent: defined
}

}  // namespace
}  // namespace array_ufunc_types_test
}  // namespace plinth::detail
