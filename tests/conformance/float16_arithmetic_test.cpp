// float16 array arithmetic (include/plinth/array_expression.hpp) bit for bit against numpy's
// rules (float16_reference.hpp): every operation whose numpy result is float16 computed in
// float32 and rounded back at once (x * y + z is round(round(x * y) + z)), divisions,
// comparisons, weak scalars rounded to float16, promotions with other dtypes, astype to and
// from every dtype, fill, where, the math functions of float16 and of bool, int8 and uint8
// (which give float16), at the edge values: ±0, ±inf, NaN, subnormals, 65504, overflow.

#include "dialect_support.hpp"
#include "fixture.hpp"
#include "float16_reference.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace float16_arithmetic_test {
namespace {

using Float16Test = DeviceTest;
using Float16MultiDeviceTest = MultiDeviceTest;

const DType f16 = DType::float16(), f32 = DType::float32(), f64 = DType::float64();

using Bits = std::vector<std::uint16_t>;

Array halves(const Queue& queue, const Bits& bits, std::vector<std::size_t> shape = {}) {
  if (shape.empty()) shape = {bits.size()};
  return Array::from_host(queue, HostArray::from_bytes(std::as_bytes(std::span(bits)), shape, f16));
}

Bits bits_of(const Queue& queue, const Array& array) {
  EXPECT_EQ(array.dtype(), f16);
  const auto host = array.get(queue);
  Bits bits(array.size());
  std::memcpy(bits.data(), host.data(), bits.size() * 2);
  return bits;
}

// A bool array's elements as 0 or 1.
std::vector<int> flags_of(const Queue& queue, const Array& array) {
  EXPECT_EQ(array.dtype(), DType::boolean());
  const auto host = array.get(queue);
  std::vector<int> flags(array.size());
  for (std::size_t k = 0; k < flags.size(); ++k) flags[k] = static_cast<int>(host.data()[k]);
  return flags;
}

// The edge values of float16, then pseudo-random bit patterns (NaNs and infinities included).
Bits sample(std::size_t n, std::uint64_t seed) {
  Bits bits = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3c01, 0x7bff,
               0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555, 0x2e66, 0xc000, 0x5bff, 0x1400, 0x7800};
  dialect::Sequence random(seed);
  while (bits.size() < n) bits.push_back(static_cast<std::uint16_t>(random.next()));
  bits.resize(n);
  return bits;
}

// Compares float16 results with the reference's bits (NaNs: any NaN); `ulps` > 0 allows that
// many float16 steps (for math functions, whose float32 results differ between libraries).
void expect_bits(const Bits& got, const Bits& expected, const std::string& what, int ulps = 0) {
  ASSERT_EQ(got.size(), expected.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    bool ok = half::is_nan(expected[k]) ? half::is_nan(got[k]) : got[k] == expected[k];
    if (!ok && ulps > 0 && !half::is_nan(got[k]) && ((got[k] ^ expected[k]) & 0x8000) == 0) {
      ok = std::abs(static_cast<int>(got[k]) - static_cast<int>(expected[k])) <= ulps;
    }
    if (!ok && ++wrong <= 6) {
      ADD_FAILURE() << what << " element " << k << ": got 0x" << std::hex << got[k]
                    << ", expected 0x" << expected[k] << std::dec;
    }
  }
  EXPECT_EQ(wrong, 0u) << what;
}

Bits map(const Bits& x, const std::function<float(float)>& f) {
  Bits r(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) r[k] = half::from_float(f(half::to_float(x[k])));
  return r;
}
Bits map(const Bits& x, const Bits& y, const std::function<float(float, float)>& f) {
  Bits r(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    r[k] = half::from_float(f(half::to_float(x[k]), half::to_float(y[k])));
  }
  return r;
}

TEST_P(Float16Test, MultiplyAddRoundsAfterEveryOperation) {
  const std::size_t n = 4099;
  const auto xb = sample(n, 1), yb = sample(n, 2), zb = sample(n, 3);
  const auto x = halves(queue(), xb), y = halves(queue(), yb), z = halves(queue(), zb);
  const auto r = evaluate(queue(), x * y + z);
  EXPECT_EQ(r.dtype(), f16);
  const auto product = map(xb, yb, [](float a, float b) { return a * b; });
  const auto expected = map(product, zb, [](float p, float c) { return p + c; });
  expect_bits(bits_of(queue(), r), expected, "x * y + z");
  // The rounding of x * y matters: a single rounding of the float32 x * y + z differs.
  std::size_t differ = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const float once = half::to_float(xb[k]) * half::to_float(yb[k]) + half::to_float(zb[k]);
    differ += half::from_float(once) != expected[k] && !half::is_nan(expected[k]) ? 1 : 0;
  }
  EXPECT_GT(differ, 0u);
  expect_bits(bits_of(queue(), evaluate(queue(), x - y)),
              map(xb, yb, [](float a, float b) { return a - b; }), "x - y");
  expect_bits(bits_of(queue(), evaluate(queue(), -x)), map(xb, [](float a) { return -a; }), "-x");
  expect_bits(bits_of(queue(), evaluate(queue(), abs(x))),
              map(xb, [](float a) { return std::fabs(a); }), "abs");
}

TEST_P(Float16Test, DivisionsAtTheEdges) {
  const auto xb = sample(2053, 4), yb = sample(2053, 5);
  const auto x = halves(queue(), xb), y = halves(queue(), yb);
  expect_bits(bits_of(queue(), evaluate(queue(), x / y)),
              map(xb, yb, [](float a, float b) { return a / b; }), "x / y");
  expect_bits(bits_of(queue(), evaluate(queue(), y / x)),
              map(yb, xb, [](float a, float b) { return a / b; }), "y / x");
  // 1 / ±0, 0 / 0, 65504 / 0.5 (overflow), a subnormal / 2 (ties to even), -0 / 1.
  const Bits a = {0x3c00, 0x3c00, 0x0000, 0x7bff, 0x0001, 0x0003, 0x8000};
  const Bits b = {0x0000, 0x8000, 0x0000, 0x3800, 0x4000, 0x4000, 0x3c00};
  const Bits expected = {0x7c00, 0xfc00, 0x7e00, 0x7c00, 0x0000, 0x0002, 0x8000};
  expect_bits(bits_of(queue(), evaluate(queue(), halves(queue(), a) / halves(queue(), b))),
              expected, "edge divisions");
  // True division of int8 stays float64, as numpy's.
  if (device().params().supports_double) {
    const auto i =
        Array::from_host(queue(), HostArray::from_values(std::vector<std::int8_t>{1, 2}));
    EXPECT_EQ((ArrayExpression(i) / i).dtype(), f64);
  }
}

TEST_P(Float16Test, ComparisonsAndWhere) {
  const auto xb = sample(1031, 6), yb = sample(1031, 7);
  const auto x = halves(queue(), xb), y = halves(queue(), yb);
  const std::vector<std::pair<const char*, ArrayExpression>> cases = {
      {"<", x < y}, {"<=", x <= y}, {"==", x == y}, {"!=", x != y}, {">", x > y}, {">=", x >= y}};
  for (const auto& [name, expression] : cases) {
    const auto got = flags_of(queue(), evaluate(queue(), expression));
    for (std::size_t k = 0; k < xb.size(); ++k) {
      const float a = half::to_float(xb[k]), b = half::to_float(yb[k]);
      const std::string op = name;
      const bool expected = op == "<"    ? a < b
                            : op == "<=" ? a <= b
                            : op == "==" ? a == b
                            : op == "!=" ? a != b
                            : op == ">"  ? a > b
                                         : a >= b;
      ASSERT_EQ(got[k], expected ? 1 : 0) << name << " element " << k;
    }
  }
  // A weak real scalar is rounded to float16 first (numpy: float16(0.1) < 0.1 is false).
  const auto tenth = halves(queue(), {0x2e66, 0x2e65, 0x2e67});
  EXPECT_EQ(flags_of(queue(), evaluate(queue(), tenth < 0.1)), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(flags_of(queue(), evaluate(queue(), tenth == 0.1)), (std::vector<int>{1, 0, 0}));
  // where keeps float16 values as they are, a weak scalar rounded.
  const auto w = evaluate(queue(), where(x < y, x, 0.1));
  EXPECT_EQ(w.dtype(), f16);
  Bits expected(xb.size());
  for (std::size_t k = 0; k < xb.size(); ++k) {
    expected[k] = half::to_float(xb[k]) < half::to_float(yb[k]) ? xb[k] : 0x2e66;
  }
  expect_bits(bits_of(queue(), w), expected, "where");
}

TEST_P(Float16Test, WeakScalarsAndPromotions) {
  const auto xb = sample(517, 8);
  const auto x = halves(queue(), xb);
  // x * 0.1: 0.1 rounded to float16 (0x2e66), the product rounded.
  const float tenth = half::to_float(0x2e66);
  expect_bits(bits_of(queue(), evaluate(queue(), x * 0.1)),
              map(xb, [&](float a) { return a * tenth; }), "x * 0.1");
  expect_bits(bits_of(queue(), evaluate(queue(), x + 3)), map(xb, [](float a) { return a + 3; }),
              "x + 3");
  // 100000 is inf as float16: x + 100000 is inf (NaN for -inf and NaN).
  expect_bits(bits_of(queue(), evaluate(queue(), x + 100000)),
              map(xb, [](float a) { return a + std::numeric_limits<float>::infinity(); }),
              "x + 100000");
  // float16 with int8 gives float16; with int16 and float32, float32 (exactly the sum).
  std::vector<std::int8_t> i8s(xb.size());
  std::vector<std::int16_t> i16s(xb.size());
  for (std::size_t k = 0; k < xb.size(); ++k) {
    i8s[k] = static_cast<std::int8_t>(k * 37);
    i16s[k] = static_cast<std::int16_t>(k * 1237);
  }
  const auto a8 = Array::from_host(queue(), HostArray::from_values(i8s));
  const auto a16 = Array::from_host(queue(), HostArray::from_values(i16s));
  Bits b8(xb.size());
  for (std::size_t k = 0; k < xb.size(); ++k) {
    b8[k] = half::from_float(half::to_float(xb[k]) + static_cast<float>(i8s[k]));
  }
  expect_bits(bits_of(queue(), evaluate(queue(), x + a8)), b8, "float16 + int8");
  const auto s16 = evaluate(queue(), x + a16);
  EXPECT_EQ(s16.dtype(), f32);
  const auto got16 = s16.get(queue()).to_vector<float>();
  for (std::size_t k = 0; k < xb.size(); ++k) {
    const float expected = half::to_float(xb[k]) + static_cast<float>(i16s[k]);
    ASSERT_TRUE(got16[k] == expected || (std::isnan(got16[k]) && std::isnan(expected))) << k;
  }
  const auto c = evaluate(queue(), x * std::complex<double>(0, 1));
  EXPECT_EQ(c.dtype(), DType::complex64());
  const auto gotc = c.get(queue()).to_vector<std::complex<float>>();
  for (std::size_t k = 0; k < xb.size(); ++k) {
    const float v = half::to_float(xb[k]);
    if (std::isfinite(v)) {
      ASSERT_EQ(gotc[k].imag(), v) << k;
    }
  }
}

TEST_P(Float16Test, AstypeToAndFromEveryDtype) {
  const auto xb = sample(300, 9);
  const auto x = halves(queue(), xb);
  // To float32 exactly; to int16 truncated (finite values within range only).
  const auto to32 = astype(queue(), x, f32).get(queue()).to_vector<float>();
  for (std::size_t k = 0; k < xb.size(); ++k) {
    const float v = half::to_float(xb[k]);
    ASSERT_TRUE(half::float_bits(to32[k]) == half::float_bits(v) || std::isnan(v)) << k;
  }
  const Bits small = {0x3c00, 0xc500, 0x57d0, 0x0001, 0x8000, 0x4248};  // 1 -5 125 tiny -0 3.14
  const auto s = halves(queue(), small);
  EXPECT_EQ(astype(queue(), s, DType::int8()).get(queue()).to_vector<std::int8_t>(),
            (std::vector<std::int8_t>{1, -5, 125, 0, 0, 3}));
  EXPECT_EQ(flags_of(queue(), astype(queue(), s, DType::boolean())),
            (std::vector<int>{1, 1, 1, 1, 0, 1}));
  EXPECT_EQ(astype(queue(), s, DType::complex64()).get(queue()).to_vector<std::complex<float>>(),
            (std::vector<std::complex<float>>{1, -5, 125, 0x1p-24f, -0.0f, 3.140625f}));
  // From integers: 2049 ties to 2048, 65519 is 65504, 65520 overflows.
  const auto ints = Array::from_host(
      queue(), HostArray::from_values(std::vector<std::int32_t>{2049, 2051, 65519, 65520, -7}));
  expect_bits(bits_of(queue(), astype(queue(), ints, f16)),
              {0x6800, 0x6802, 0x7bff, 0x7c00, 0xc700}, "int32 to float16");
  const auto bytes =
      Array::from_host(queue(), HostArray::from_values(std::vector<std::uint8_t>{255, 0, 7}));
  expect_bits(bits_of(queue(), astype(queue(), bytes, f16)), {0x5bf8, 0x0000, 0x4700},
              "uint8 to float16");
  // From float32: ties and the subnormal range.
  const std::vector<float> floats = {1.0f + 0x1p-11f, 1.0f + 0x1.8p-11f, 0x1p-25f,
                                     0x1.8p-24f,      65520.0f,          -1e-30f};
  const auto f = Array::from_host(queue(), HostArray::from_values(floats));
  Bits expected;
  for (const float v : floats) expected.push_back(half::from_float(v));
  expect_bits(bits_of(queue(), astype(queue(), f, f16)), expected, "float32 to float16");
  if (device().params().supports_double) {  // rounded once, not through float32
    const std::vector<double> doubles = {1.0 + 0x1p-11 + 0x1p-40, 1e300, 0.1, -0x1p-25};
    const auto d = Array::from_host(queue(), HostArray::from_values(doubles));
    expect_bits(bits_of(queue(), astype(queue(), d, f16)), {0x3c01, 0x7c00, 0x2e66, 0x8000},
                "float64 to float16");
    const auto out = Array::empty(queue(), {doubles.size()}, f16);
    assign(queue(), out, ArrayExpression(d) * 1.0);  // same_kind: float64 to float16
    expect_bits(bits_of(queue(), out), {0x3c01, 0x7c00, 0x2e66, 0x8000}, "assign float64");
  }
  const auto z = Array::empty(queue(), {2}, DType::complex64());
  EXPECT_NE(logic_error_message([&] { astype(queue(), z, f16); }).find("imaginary"),
            std::string::npos);
  // A transposed view converts through a tile: float32 to float16 and back.
  const std::size_t rows = 37, cols = 45;
  std::vector<float> grid(rows * cols);
  for (std::size_t k = 0; k < grid.size(); ++k) grid[k] = static_cast<float>(k) * 0.37f - 99;
  const auto g = Array::from_host(queue(), HostArray::from_values(grid, {rows, cols}));
  const auto t = astype(queue(), transposed_view(g), f16);
  const auto tb = bits_of(queue(), t);
  for (std::size_t r = 0; r < cols; ++r) {
    for (std::size_t c = 0; c < rows; ++c) {
      ASSERT_EQ(tb[r * rows + c], half::from_float(grid[c * cols + r])) << r << ", " << c;
    }
  }
  const auto back = astype(queue(), transposed_view(t), f32).get(queue()).to_vector<float>();
  for (std::size_t k = 0; k < grid.size(); ++k) {
    ASSERT_EQ(back[k], half::round(grid[k])) << k;
  }
}

TEST_P(Float16Test, FillRoundsTheValue) {
  const auto a = Array::empty(queue(), {9}, f16);
  fill(queue(), a, 0.1);
  expect_bits(bits_of(queue(), a), Bits(9, 0x2e66), "fill 0.1");
  fill(queue(), a, 100000);
  expect_bits(bits_of(queue(), a), Bits(9, 0x7c00), "fill 100000");
  fill(queue(), a, -0.0);
  expect_bits(bits_of(queue(), a), Bits(9, 0x8000), "fill -0.0");
  fill(queue(), a.view({Slice{0, 9, 2}}), 65504.0f);  // a strided view
  expect_bits(bits_of(queue(), a),
              {0x7bff, 0x8000, 0x7bff, 0x8000, 0x7bff, 0x8000, 0x7bff, 0x8000, 0x7bff},
              "fill a view");
}

TEST_P(Float16Test, MathFunctions) {
  const auto xb = sample(1024, 10);
  const auto x = halves(queue(), xb);
  struct Case {
    const char* name;
    ArrayExpression expression;
    std::function<float(float)> reference;
    int ulps;
  };
  const std::vector<Case> cases = {
      {"sqrt", sqrt(x), [](float v) { return std::sqrt(v); }, 0},
      {"floor", floor(x), [](float v) { return std::floor(v); }, 0},
      {"ceil", ceil(x), [](float v) { return std::ceil(v); }, 0},
      {"fabs", fabs(x), [](float v) { return std::fabs(v); }, 0},
      {"sin", sin(x), [](float v) { return std::sin(v); }, 1},
      {"exp", exp(x), [](float v) { return std::exp(v); }, 1},
      {"log", log(x), [](float v) { return std::log(v); }, 1},
      {"tanh", tanh(x), [](float v) { return std::tanh(v); }, 1},
      {"pow", pow(x, 3), [](float v) { return std::pow(v, 3.0f); }, 1},
      {"fmod", fmod(x, 1.5), [](float v) { return std::fmod(v, 1.5f); }, 0},
  };
  for (const auto& c : cases) {
    const auto r = evaluate(queue(), c.expression);
    EXPECT_EQ(r.dtype(), f16) << c.name;
    expect_bits(bits_of(queue(), r), map(xb, c.reference), c.name, c.ulps);
  }
  // bool, int8 and uint8 give float16 (numpy), int16 float32.
  std::vector<std::int8_t> i8s;
  std::vector<std::uint8_t> u8s;
  for (int k = -128; k < 128; ++k) {
    i8s.push_back(static_cast<std::int8_t>(k));
    u8s.push_back(static_cast<std::uint8_t>(k + 128));
  }
  const auto a8 = Array::from_host(queue(), HostArray::from_values(i8s));
  const auto au8 = Array::from_host(queue(), HostArray::from_values(u8s));
  const std::vector<std::uint8_t> bools = {0, 1};
  const auto flags = Array::from_host(
      queue(), HostArray::from_bytes(std::as_bytes(std::span(bools)), {2}, DType::boolean()));
  Bits expected8, expectedu8;
  for (const auto v : i8s) expected8.push_back(half::from_float(std::sin(static_cast<float>(v))));
  for (const auto v : u8s) expectedu8.push_back(half::from_float(std::sqrt(static_cast<float>(v))));
  expect_bits(bits_of(queue(), evaluate(queue(), sin(a8))), expected8, "sin int8", 1);
  expect_bits(bits_of(queue(), evaluate(queue(), sqrt(au8))), expectedu8, "sqrt uint8");
  expect_bits(bits_of(queue(), evaluate(queue(), exp(flags))), {0x3c00, 0x4170}, "exp bool");
  const auto shorts =
      Array::from_host(queue(), HostArray::from_values(std::vector<std::int16_t>{4, 9}));
  EXPECT_EQ(evaluate(queue(), sqrt(shorts)).dtype(), f32);
}

// numpy's other functions of float16 compute in float32 and round back as well.
TEST_P(Float16Test, NumpyFunctionsRoundBack) {
  const auto xb = sample(1024, 14), yb = sample(1024, 15);
  const auto x = halves(queue(), xb), y = halves(queue(), yb);
  const auto nan = std::numeric_limits<float>::quiet_NaN();
  expect_bits(
      bits_of(queue(), evaluate(queue(), maximum(x, y))),
      map(xb, yb, [nan](float a, float b) { return a != a || b != b ? nan : std::fmax(a, b); }),
      "maximum");
  expect_bits(bits_of(queue(), evaluate(queue(), square(x))),
              map(xb, [](float a) { return a * a; }), "square");
  expect_bits(bits_of(queue(), evaluate(queue(), hypot(x, y))),
              map(xb, yb, [](float a, float b) { return std::hypot(a, b); }), "hypot", 1);
  expect_bits(bits_of(queue(), evaluate(queue(), exp2(x))),
              map(xb, [](float a) { return std::exp2(a); }), "exp2", 1);
}

TEST_P(Float16MultiDeviceTest, AssignsFloat16MultiArraysOnEveryDevice) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t n = 997 * devices.size();
  const auto xb = sample(n, 11), yb = sample(n, 12), zb = sample(n, 13);
  const auto upload = [&](const Bits& bits) {
    return MultiArray::from_host(
        queues, HostArray::from_bytes(std::as_bytes(std::span(bits)), {bits.size()}, f16));
  };
  const auto x = upload(xb), y = upload(yb), z = upload(zb);
  const auto out = MultiArray::empty(devices, {n}, f16);
  assign(queues, out, x * y + z);
  queues.synchronize();
  const auto host = out.get(queues);
  Bits got(n);
  std::memcpy(got.data(), host.data(), n * 2);
  const auto product = map(xb, yb, [](float a, float b) { return a * b; });
  expect_bits(got, map(product, zb, [](float p, float c) { return p + c; }), "x * y + z");
}

PLINTH_INSTANTIATE_DEVICE_TEST(Float16Test);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(Float16MultiDeviceTest);

}  // namespace
}  // namespace float16_arithmetic_test
}  // namespace plinth::conformance
