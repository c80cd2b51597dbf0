// numpy's operators and functions on integer and bool arrays (include/plinth/array_expression.hpp,
// issue 30) against host references over every pair of edge values (0, ±1, the extremes and
// their neighbours), in every integer dtype and bool: remainder and floor division (Python's
// rounding toward -inf, computed exactly in 128 bits; x % 0 and x // 0 give 0), the bitwise
// operators, shifts by the bit width or more and by negative counts, maximum/minimum, the
// rounding functions (which keep the integer dtype), sign/square/reciprocal, the predicates,
// the logical functions, and the refusals.

#include "ufunc_check.hpp"

#include <plinth/errors.hpp>

#include <algorithm>

namespace plinth::conformance {
namespace array_ufuncs_integer_test {
namespace {

using namespace ufunc;  // NOLINT(google-build-using-namespace)
using ArrayUfuncsIntegerTest = DeviceTest;

__extension__ typedef __int128 Wide;            // NOLINT(modernize-use-using)
__extension__ typedef unsigned __int128 UWide;  // NOLINT(modernize-use-using)

template <class T>
bool negative(T a) {
  if constexpr (std::is_signed_v<T>) {
    return a < 0;
  } else {
    return false;
  }
}

template <class T>
T wrap(Wide value) {
  return static_cast<T>(static_cast<std::uint64_t>(value));
}

// Python's floor division and modulo, exact in 128 bits (0 for a divisor of 0, as numpy).
template <class T>
Wide floor_quotient(T a, T b) {
  const Wide x = a, y = b;
  Wide q = x / y;
  if (x % y != 0 && (negative(a) != negative(b))) q -= 1;
  return q;
}
template <class T>
T floor_divide_ref(T a, T b) {
  return b == 0 ? T(0) : wrap<T>(floor_quotient(a, b));
}
template <class T>
T remainder_ref(T a, T b) {
  return b == 0 ? T(0) : wrap<T>(Wide(a) - Wide(b) * floor_quotient(a, b));
}

// numpy's npy_lshift/npy_rshift: the count read as an unsigned size.
template <class T>
T shift_ref(T a, T b, bool left) {
  constexpr std::size_t bits = sizeof(T) * 8;
  const auto count = static_cast<std::size_t>(static_cast<std::int64_t>(b));
  if (negative(b) || count >= bits) return left || !negative(a) ? T(0) : static_cast<T>(-1);
  if (left) return wrap<T>(static_cast<Wide>(static_cast<std::uint64_t>(a) << count));
  return static_cast<T>(a >> count);
}

template <class T>
std::vector<T> shift_counts() {
  std::vector<T> v = {0, 1, 2, 7, static_cast<T>(sizeof(T) * 8 - 1), static_cast<T>(sizeof(T) * 8)};
  if (sizeof(T) < 8 || std::is_signed_v<T>) v.push_back(static_cast<T>(sizeof(T) * 8 + 1));
  if constexpr (std::is_signed_v<T>) v.push_back(T(-1));
  return v;
}

TEST_P(ArrayUfuncsIntegerTest, RemainderAndFloorDivideRoundTowardMinusInfinity) {
  for_integers([&]<class T>() {
    const auto edges = integer_edges<T>();
    check_binary<T, T>(
        queue(), "remainder", edges, edges, [](const auto& a, const auto& b) { return a % b; },
        remainder_ref<T>);
    check_binary<T, T>(
        queue(), "floor_divide", edges, edges,
        [](const auto& a, const auto& b) { return floor_divide(a, b); }, floor_divide_ref<T>);
    check_binary<T, T>(
        queue(), "divmod", edges, edges,
        [](const auto& a, const auto& b) { return divmod(a, b).second; }, remainder_ref<T>);
  });
  // Weak scalars on either side; bools compute as int8.
  const auto x = upload<std::int16_t>(queue(), {-7, 7, -1, 0});
  check_unary<std::int16_t, std::int16_t>(
      queue(), "x % 3", {-7, 7, -1, 0}, [](const auto& a) { return a % 3; },
      [](std::int16_t a) { return remainder_ref<std::int16_t>(a, 3); });
  check_unary<std::int16_t, std::int16_t>(
      queue(), "-7 // x", {-7, 7, -1, 2, 0}, [](const auto& a) { return floor_divide(-7, a); },
      [](std::int16_t a) { return floor_divide_ref<std::int16_t>(-7, a); });
  check_binary<Bool, std::int8_t>(
      queue(), "bool %", {{0}, {1}}, {{0}, {1}}, [](const auto& a, const auto& b) { return a % b; },
      [](Bool a, Bool b) { return remainder_ref<std::int8_t>(a.value, b.value); });
  EXPECT_EQ(evaluate(queue(), x % 3).dtype(), DType::int16());
}

TEST_P(ArrayUfuncsIntegerTest, BitwiseOperators) {
  for_integers([&]<class T>() {
    const auto edges = integer_edges<T>();
    check_binary<T, T>(
        queue(), "&", edges, edges, [](const auto& a, const auto& b) { return a & b; },
        [](T a, T b) { return static_cast<T>(a & b); });
    check_binary<T, T>(
        queue(), "|", edges, edges, [](const auto& a, const auto& b) { return a | b; },
        [](T a, T b) { return static_cast<T>(a | b); });
    check_binary<T, T>(
        queue(), "^", edges, edges, [](const auto& a, const auto& b) { return a ^ b; },
        [](T a, T b) { return static_cast<T>(a ^ b); });
    check_unary<T, T>(
        queue(), "~", edges, [](const auto& a) { return ~a; },
        [](T a) { return static_cast<T>(~a); });
    check_binary<T, T>(
        queue(), "<<", edges, shift_counts<T>(),
        [](const auto& a, const auto& b) { return a << b; },
        [](T a, T b) { return shift_ref(a, b, true); });
    check_binary<T, T>(
        queue(), ">>", edges, shift_counts<T>(),
        [](const auto& a, const auto& b) { return a >> b; },
        [](T a, T b) { return shift_ref(a, b, false); });
  });
  const std::vector<Bool> bools = {{0}, {1}};
  check_binary<Bool, Bool>(
      queue(), "bool &", bools, bools, [](const auto& a, const auto& b) { return a & b; },
      [](Bool a, Bool b) { return Bool{static_cast<std::uint8_t>(a.value & b.value)}; });
  check_binary<Bool, Bool>(
      queue(), "bool ^", bools, bools, [](const auto& a, const auto& b) { return a ^ b; },
      [](Bool a, Bool b) { return Bool{static_cast<std::uint8_t>(a.value ^ b.value)}; });
  check_unary<Bool, Bool>(
      queue(), "~bool", bools, [](const auto& a) { return ~a; },
      [](Bool a) { return Bool{static_cast<std::uint8_t>(1 - a.value)}; });
  check_binary<Bool, std::int8_t>(
      queue(), "bool <<", bools, bools, [](const auto& a, const auto& b) { return a << b; },
      [](Bool a, Bool b) { return static_cast<std::int8_t>(a.value << b.value); });
  check_unary<std::int32_t, std::int32_t>(
      queue(), "x << 31", {1, -1, 3}, [](const auto& a) { return a << 31; },
      [](std::int32_t a) { return shift_ref<std::int32_t>(a, 31, true); });
}

TEST_P(ArrayUfuncsIntegerTest, MaximumMinimumAndClip) {
  for_integers([&]<class T>() {
    const auto edges = integer_edges<T>();
    check_binary<T, T>(
        queue(), "maximum", edges, edges,
        [](const auto& a, const auto& b) { return maximum(a, b); },
        [](T a, T b) { return std::max(a, b); });
    check_binary<T, T>(
        queue(), "minimum", edges, edges,
        [](const auto& a, const auto& b) { return minimum(a, b); },
        [](T a, T b) { return std::min(a, b); });
    check_binary<T, T>(
        queue(), "fmax", edges, edges, [](const auto& a, const auto& b) { return fmax(a, b); },
        [](T a, T b) { return std::max(a, b); });
    check_binary<T, T>(
        queue(), "fmin", edges, edges, [](const auto& a, const auto& b) { return fmin(a, b); },
        [](T a, T b) { return std::min(a, b); });
    check_binary<T, T>(
        queue(), "clip(x, lo, 5)", edges, edges,
        [](const auto& a, const auto& b) {
          return clip(a, b, astype(ArrayExpression(5), a.dtype()));
        },
        [](T a, T lo) { return std::min(std::max(a, lo), T(5)); });
  });
  const std::vector<Bool> bools = {{0}, {1}};
  check_binary<Bool, Bool>(
      queue(), "bool maximum", bools, bools,
      [](const auto& a, const auto& b) { return maximum(a, b); },
      [](Bool a, Bool b) { return Bool{std::max(a.value, b.value)}; });
}

TEST_P(ArrayUfuncsIntegerTest, UnaryFunctionsKeepTheIntegerDtype) {
  for_integers([&]<class T>() {
    const auto edges = integer_edges<T>();
    const std::function<T(T)> same = [](T a) { return a; };
    check_unary<T, T>(
        queue(), "floor", edges, [](const auto& a) { return floor(a); }, same);
    check_unary<T, T>(
        queue(), "ceil", edges, [](const auto& a) { return ceil(a); }, same);
    check_unary<T, T>(
        queue(), "trunc", edges, [](const auto& a) { return trunc(a); }, same);
    check_unary<T, T>(
        queue(), "round", edges, [](const auto& a) { return round(a, 2); }, same);
    check_unary<T, T>(
        queue(), "sign", edges, [](const auto& a) { return sign(a); },
        [](T a) { return static_cast<T>(a > 0 ? 1 : (negative(a) ? -1 : 0)); });
    check_unary<T, T>(
        queue(), "square", edges, [](const auto& a) { return square(a); },
        [](T a) {
          // In unsigned arithmetic, which wraps (uint64 max squared overflows __int128).
          const auto w = static_cast<UWide>(Wide(a));
          return wrap<T>(static_cast<Wide>(w * w));
        });
    check_unary<T, T>(
        queue(), "reciprocal", edges, [](const auto& a) { return reciprocal(a); },
        [](T a) { return a == 0 ? T(0) : static_cast<T>(T(1) / a); });
    check_unary<T, Bool>(
        queue(), "isnan", edges, [](const auto& a) { return isnan(a); }, [](T) { return Bool{0}; });
    check_unary<T, Bool>(
        queue(), "isinf", edges, [](const auto& a) { return isinf(a); }, [](T) { return Bool{0}; });
    check_unary<T, Bool>(
        queue(), "isfinite", edges, [](const auto& a) { return isfinite(a); },
        [](T) { return Bool{1}; });
    check_unary<T, Bool>(
        queue(), "signbit", edges, [](const auto& a) { return signbit(a); },
        [](T a) { return Bool{static_cast<std::uint8_t>(negative(a) ? 1 : 0)}; });
  });
  // round to negative decimals: numpy's float64 rint(x / 10) * 10, halves to even, then
  // converted back (127 rounds to 130, which wraps to -126 in int8, as numpy's).
  check_unary<std::int32_t, std::int32_t>(
      queue(), "round(x, -1)", {15, 25, -15, -25, 14, 0, 1000005, -1000015},
      [](const auto& a) { return round(a, -1); },
      [](std::int32_t a) { return static_cast<std::int32_t>(std::nearbyint(a / 10.0) * 10); });
  check_unary<std::int8_t, std::int8_t>(
      queue(), "round(int8, -1)", {127, -128, 45, 55}, [](const auto& a) { return round(a, -1); },
      [](std::int8_t a) {
        return wrap<std::int8_t>(static_cast<Wide>(std::nearbyint(a / 10.0) * 10));
      });
  check_unary<std::uint16_t, std::uint16_t>(
      queue(), "round(uint16, -2)", {150, 250, 65535, 49},
      [](const auto& a) { return round(a, -2); },
      [](std::uint16_t a) {
        return wrap<std::uint16_t>(static_cast<Wide>(std::nearbyint(a / 100.0) * 100));
      });
}

TEST_P(ArrayUfuncsIntegerTest, LogicalFunctionsGiveBoolForAnyDtype) {
  const std::vector<std::int32_t> xs = {0, 1, -1, std::numeric_limits<std::int32_t>::min()};
  const auto truth = [](auto v) { return v != decltype(v)(0); };
  check_binary<std::int32_t, Bool>(
      queue(), "logical_and", xs, xs,
      [](const auto& a, const auto& b) { return logical_and(a, b); },
      [&](std::int32_t a, std::int32_t b) {
        return Bool{static_cast<std::uint8_t>(truth(a) && truth(b))};
      });
  check_binary<std::int32_t, Bool>(
      queue(), "logical_or", xs, xs, [](const auto& a, const auto& b) { return logical_or(a, b); },
      [&](std::int32_t a, std::int32_t b) {
        return Bool{static_cast<std::uint8_t>(truth(a) || truth(b))};
      });
  check_binary<std::int32_t, Bool>(
      queue(), "logical_xor", xs, xs,
      [](const auto& a, const auto& b) { return logical_xor(a, b); },
      [&](std::int32_t a, std::int32_t b) {
        return Bool{static_cast<std::uint8_t>(truth(a) != truth(b))};
      });
  const auto reals = real_edges<float>();  // NaN and -0.0 included: NaN is true, -0.0 false
  check_unary<float, Bool>(
      queue(), "logical_not", reals, [](const auto& a) { return logical_not(a); },
      [](float a) { return Bool{static_cast<std::uint8_t>(a == 0 ? 1 : 0)}; });
  using C = std::complex<float>;
  check_unary<C, Bool>(
      queue(), "logical_not", {C(0, 0), C(0, 1), C(-0.0f, 0), C(2, 0)},
      [](const auto& a) { return logical_not(a); },
      [](C a) { return Bool{static_cast<std::uint8_t>(a == C(0, 0) ? 1 : 0)}; });
}

TEST_P(ArrayUfuncsIntegerTest, RefusalsNameTheFunctionAndDtype) {
  const auto f = upload<float>(queue(), {1, 2});
  const auto i = upload<std::int64_t>(queue(), {1, 2});
  const auto u = upload<std::uint64_t>(queue(), {1, 2});
  const auto message = logic_error_message([&] { static_cast<void>(f & f); });
  EXPECT_NE(message.find("bitwise_and"), std::string::npos) << message;
  EXPECT_NE(message.find("float32"), std::string::npos) << message;
  EXPECT_NE(logic_error_message([&] { static_cast<void>(~f); }).find("float32"), std::string::npos);
  EXPECT_NE(logic_error_message([&] { static_cast<void>(i >> u); }).find("float64"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { static_cast<void>(pow(i, -1)); }).find("negative"),
            std::string::npos);
  // An array exponent cannot be refused: negative powers give 0, or ±1 for a base of ±1.
  check_binary<std::int64_t, std::int64_t>(
      queue(), "pow", {2, 1, -1, 0}, {-1, -2},
      [](const auto& a, const auto& b) { return pow(a, b); },
      [](std::int64_t a, std::int64_t b) {
        return a == 1 ? std::int64_t{1} : (a == -1 ? ((b & 1) != 0 ? std::int64_t{-1} : 1) : 0);
      });
}

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayUfuncsIntegerTest);

}  // namespace
}  // namespace array_ufuncs_integer_test
}  // namespace plinth::conformance
