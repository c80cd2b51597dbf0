// Array arithmetic (include/plinth/array_expression.hpp) against host references: every
// operator for every dtype, mixed dtypes and weak scalars (numpy 2's promotion),
// broadcasting, views with negative strides, empty arrays and odd sizes, the math functions
// real and complex, astype between every pair of dtypes, fill, copy of strided views, the
// kernel cache, and misuse (LogicError naming shapes, dtypes and devices).

#include "complex_exp_special_values.hpp"
#include "fixture.hpp"

#include <plinth/array_expression.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace plinth::conformance {
namespace array_math_test {
namespace {

using ArrayMathTest = DeviceTest;
using ArrayMathMultiDeviceTest = MultiDeviceTest;
using C = std::complex<double>;

const DType b8 = DType::boolean(), i8 = DType::int8(), u8 = DType::uint8(), i16 = DType::int16(),
            u16 = DType::uint16(), i32 = DType::int32(), u32 = DType::uint32(),
            i64 = DType::int64(), u64 = DType::uint64(), f32 = DType::float32(),
            f64 = DType::float64(), c64 = DType::complex64(), c128 = DType::complex128();

// --- Host values of any dtype, as complex doubles ---

template <class T>
void put(std::byte* at, T value) {
  std::memcpy(at, &value, sizeof(T));
}
template <class T>
T take(const std::byte* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

// `value` stored as `dtype` would store it in C (integers wrap around, reals truncate).
void store(std::byte* at, const DType& dtype, C value) {
  const double r = value.real();
  const auto integer = [&] {
    return std::isfinite(r) ? static_cast<std::int64_t>(std::trunc(r)) : std::int64_t{0};
  };
  if (dtype == b8) return put<std::uint8_t>(at, value != C(0) ? 1 : 0);
  if (dtype == i8) return put(at, static_cast<std::int8_t>(integer()));
  if (dtype == u8) return put(at, static_cast<std::uint8_t>(integer()));
  if (dtype == i16) return put(at, static_cast<std::int16_t>(integer()));
  if (dtype == u16) return put(at, static_cast<std::uint16_t>(integer()));
  if (dtype == i32) return put(at, static_cast<std::int32_t>(integer()));
  if (dtype == u32) return put(at, static_cast<std::uint32_t>(integer()));
  if (dtype == i64) return put(at, integer());
  if (dtype == u64) {
    return put(at,
               r >= 9.2e18 ? static_cast<std::uint64_t>(r) : static_cast<std::uint64_t>(integer()));
  }
  if (dtype == f32) return put(at, static_cast<float>(r));
  if (dtype == f64) return put(at, r);
  if (dtype == c64) return put(at, std::complex<float>(value));
  if (dtype == c128) return put(at, value);
  FAIL() << "no host conversion for " << dtype.name();
}

C load(const std::byte* at, const DType& dtype) {
  if (dtype == b8) return take<std::uint8_t>(at);
  if (dtype == i8) return take<std::int8_t>(at);
  if (dtype == u8) return take<std::uint8_t>(at);
  if (dtype == i16) return take<std::int16_t>(at);
  if (dtype == u16) return take<std::uint16_t>(at);
  if (dtype == i32) return take<std::int32_t>(at);
  if (dtype == u32) return take<std::uint32_t>(at);
  if (dtype == i64) return static_cast<double>(take<std::int64_t>(at));
  if (dtype == u64) return static_cast<double>(take<std::uint64_t>(at));
  if (dtype == f32) return take<float>(at);
  if (dtype == f64) return take<double>(at);
  if (dtype == c64) return C(take<std::complex<float>>(at));
  return take<C>(at);
}

// `value` rounded to what `dtype` holds.
C round_to(C value, const DType& dtype) {
  std::byte bytes[16];
  store(bytes, dtype, value);
  return load(bytes, dtype);
}

Array upload(const Queue& queue, const std::vector<C>& values, const DType& dtype,
             const std::vector<std::size_t>& shape) {
  auto host = HostArray::empty(shape, dtype);
  for (std::size_t k = 0; k < values.size(); ++k) {
    store(host.data() + k * dtype.itemsize(), dtype, values[k]);
  }
  return Array::from_host(queue, host);
}

Array upload(const Queue& queue, const std::vector<C>& values, const DType& dtype) {
  return upload(queue, values, dtype, std::vector<std::size_t>{values.size()});
}

std::vector<std::byte> bytes_of(const HostArray& host) {
  return {host.data(), host.data() + host.metadata().nbytes()};
}

std::vector<C> download(const Queue& queue, const Array& array) {
  const auto host = array.get(queue);
  std::vector<C> values(array.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    values[k] = load(host.data() + k * array.dtype().itemsize(), array.dtype());
  }
  return values;
}

// Values typical of `dtype`: small integers (signed ones negative too), reals with
// fractions, complex numbers with both parts; never 0 with `nonzero`.
std::vector<C> sample(const DType& dtype, std::size_t n, int seed, bool nonzero = false) {
  std::vector<C> values(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto j = static_cast<int>((k * 7 + static_cast<std::size_t>(seed) * 3) % 21);
    double v = 0;
    if (dtype == b8) {
      v = (j % 3 == 0) ? 0 : 1;
      if (nonzero) v = 1;
    } else if (dtype.kind() == DTypeKind::unsigned_integer) {
      v = j + (nonzero ? 1 : 0);
    } else if (is_integer(dtype)) {
      v = j - 10;
      if (nonzero && v == 0) v = 11;
    } else {
      v = (j - 10) * 0.37 + 0.11;
    }
    values[k] = is_complex(dtype) ? C(v, (j % 5 - 2) * 0.6 + 0.05) : C(v);
  }
  return values;
}

double tolerance(const DType& dtype) {
  if (is_integer(dtype) || dtype == b8) return 0;
  return (dtype == f32 || dtype == c64) ? 2e-5 : 1e-12;
}

bool close(C got, C expected, double tol) {
  const auto both_nan = [](double a, double b) { return std::isnan(a) && std::isnan(b); };
  const auto near = [&](double a, double b) {
    if (both_nan(a, b) || a == b) return true;
    return std::fabs(a - b) <= tol * (1 + std::fabs(b));
  };
  return near(got.real(), expected.real()) && near(got.imag(), expected.imag());
}

// Checks `result` (of `dtype`) against `reference` rounded to `dtype`; prints the first
// mismatches.
void expect_values(const Queue& queue, const Array& result, const std::vector<C>& reference,
                   double tol_scale = 1) {
  const auto got = download(queue, result);
  ASSERT_EQ(got.size(), reference.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const auto expected = round_to(reference[k], result.dtype());
    if (!close(got[k], expected, tolerance(result.dtype()) * tol_scale)) {
      if (++wrong <= 3) {
        ADD_FAILURE() << result.dtype().name() << " element " << k << ": got " << got[k]
                      << ", expected " << expected;
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
}

bool lexicographic_less(C a, C b) {
  return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
}

std::vector<DType> all_dtypes(const BoundDevice& device, bool with_bool = true) {
  std::vector<DType> dtypes = {i8, u8, i16, u16, i32, u32, i64, u64, f32, c64};
  if (with_bool) dtypes.insert(dtypes.begin(), b8);
  if (device.params().supports_double) {
    dtypes.push_back(f64);
    dtypes.push_back(c128);
  }
  return dtypes;
}

std::vector<C> map2(const std::vector<C>& a, const std::vector<C>& b,
                    const std::function<C(C, C)>& f) {
  std::vector<C> out(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) out[k] = f(a[k], b[k]);
  return out;
}

std::vector<C> map1(const std::vector<C>& a, const std::function<C(C)>& f) {
  std::vector<C> out(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) out[k] = f(a[k]);
  return out;
}

// --- Tests ---

TEST_P(ArrayMathTest, PyCudaFirstExampleReadsNaturally) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{1000003}}) {
    SCOPED_TRACE(n);
    std::vector<float> xs(n);
    for (std::size_t k = 0; k < n; ++k) xs[k] = static_cast<float>(k % 1000) * 0.5f - 7.0f;
    const auto gpu_array = Array::from_host(queue(), HostArray::from_values(xs));
    const Array result = evaluate(queue(), gpu_array * 2.0);
    EXPECT_EQ(result.dtype(), f32);
    EXPECT_EQ(result.shape(), gpu_array.shape());
    const auto got = result.get(queue()).to_vector<float>();
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < n; ++k) wrong += got[k] != xs[k] * 2.0f ? 1 : 0;
    EXPECT_EQ(wrong, 0u);
  }
}

TEST_P(ArrayMathTest, EveryOperatorForEveryDtype) {
  const std::size_t n = 1001;
  for (const auto& dtype : all_dtypes(device())) {
    SCOPED_TRACE(dtype.name());
    const auto av = sample(dtype, n, 1), bv = sample(dtype, n, 2, true);
    const auto a = upload(queue(), av, dtype), b = upload(queue(), bv, dtype);
    const auto check = [&](const ArrayExpression& e, const DType& expected_dtype,
                           const std::vector<C>& reference) {
      const auto r = evaluate(queue(), e);
      EXPECT_EQ(r.dtype(), expected_dtype);
      expect_values(queue(), r, reference);
    };
    const bool is_bool = dtype == b8;
    if (is_bool) {
      check(a + b, b8, map2(av, bv, [](C x, C y) { return C(x != 0.0 || y != 0.0); }));
      check(a * b, b8, map2(av, bv, [](C x, C y) { return C(x != 0.0 && y != 0.0); }));
    } else {
      check(a + b, dtype, map2(av, bv, [](C x, C y) { return x + y; }));
      check(a - b, dtype, map2(av, bv, [](C x, C y) { return x - y; }));
      check(a * b, dtype, map2(av, bv, [](C x, C y) { return x * y; }));
      check(-a, dtype, map1(av, [](C x) { return -x; }));
    }
    const auto div_dtype = (is_integer(dtype) || is_bool) ? f64 : dtype;
    // numpy's true division of integers is float64.
    if (div_dtype == dtype || device().params().supports_double) {
      check(a / b, div_dtype, map2(av, bv, [](C x, C y) { return x / y; }));
    }
    check(a == b, b8, map2(av, bv, [](C x, C y) { return C(x == y); }));
    check(a != b, b8, map2(av, bv, [](C x, C y) { return C(x != y); }));
    check(a < b, b8,
          map2(
              av, bv, [](C x, C y) { return C(lexicographic_less(x, y)); }));
    check(a <= b, b8, map2(av, bv, [](C x, C y) { return C(!lexicographic_less(y, x)); }));
    check(a > b, b8, map2(av, bv, [](C x, C y) { return C(lexicographic_less(y, x)); }));
    check(a >= b, b8, map2(av, bv, [](C x, C y) { return C(!lexicographic_less(x, y)); }));
    check(a == a, b8, std::vector<C>(n, C(1)));  // a repeated leaf
    const auto abs_dtype = is_complex(dtype) ? real_for(dtype) : dtype;
    check(abs(a), abs_dtype, map1(av, [](C x) { return C(std::abs(x)); }));
  }
}

TEST_P(ArrayMathTest, MixedDtypesPromoteAsNumpy) {
  std::vector<DType> dtypes = {i32, f32, c64};
  if (device().params().supports_double) dtypes.push_back(f64);
  const std::size_t n = 257;
  for (const auto& da : dtypes) {
    for (const auto& db : dtypes) {
      const auto type = result_type(da, db);
      if (is_double(type) && !device().params().supports_double) continue;
      SCOPED_TRACE(da.name() + " with " + db.name());
      const auto av = sample(da, n, 3), bv = sample(db, n, 4, true);
      const auto a = upload(queue(), av, da), b = upload(queue(), bv, db);
      // The host reference computes with the values as they are stored.
      const auto ra = map1(av, [&](C x) { return round_to(x, da); });
      const auto rb = map1(bv, [&](C x) { return round_to(x, db); });
      for (const auto& [name, expression, reference] :
           std::vector<std::tuple<std::string, ArrayExpression, std::vector<C>>>{
               {"+", a + b, map2(ra, rb, [](C x, C y) { return x + y; })},
               {"*", a * b, map2(ra, rb, [](C x, C y) { return x * y; })},
               {"-", b - a, map2(rb, ra, [](C x, C y) { return x - y; })},
               {"/", a / b, map2(ra, rb, [](C x, C y) { return x / y; })}}) {
        SCOPED_TRACE(name);
        const auto r = evaluate(queue(), expression);
        EXPECT_EQ(r.dtype(), (name == "/" && type == i32) ? f64 : type);
        expect_values(queue(), r, reference);
      }
    }
  }
}

TEST_P(ArrayMathTest, WeakScalarsPromoteAsPythonScalars) {
  const bool doubles = device().params().supports_double;
  const auto f = upload(queue(), {1.5, -2.25, 3}, f32);
  auto r = evaluate(queue(), f * 2.0 + 1);  // float32 * 2.0 stays float32
  EXPECT_EQ(r.dtype(), f32);
  expect_values(queue(), r, {4, -3.5, 7});
  r = evaluate(queue(), 0.1 * f);  // 0.1 rounded to float32 first, as numpy 2
  EXPECT_EQ(r.dtype(), f32);
  EXPECT_EQ(r.get(queue()).to_vector<float>()[0], 0.1f * 1.5f);

  const auto small = upload(queue(), {127, -128, 5}, i8);
  r = evaluate(queue(), small + 1);  // int8 + 1 stays int8 and wraps around
  EXPECT_EQ(r.dtype(), i8);
  expect_values(queue(), r, {-128, -127, 6});
  r = evaluate(queue(), 2 - small);
  expect_values(queue(), r, {-125, 130, -3});
  // numpy's OverflowError: the scalar does not fit the array's type.
  EXPECT_NE(logic_error_message([&] {
              evaluate(queue(), small + 1000);
            }).find("1000 is out of the range of int8"),
            std::string::npos);
  const auto bytes = upload(queue(), {1, 2}, u8);
  EXPECT_NE(logic_error_message([&] { evaluate(queue(), bytes + -1); }).find("uint8"),
            std::string::npos);

  const auto flags = upload(queue(), {1, 0}, b8);
  if (doubles) {
    const auto ints = upload(queue(), {3, -4}, i32);
    r = evaluate(queue(), ints * 2.5);  // int32 * 2.5 → float64
    EXPECT_EQ(r.dtype(), f64);
    expect_values(queue(), r, {7.5, -10});
    r = evaluate(queue(), flags + 1);  // bool + 1 → int64
    EXPECT_EQ(r.dtype(), i64);
    expect_values(queue(), r, {2, 1});
  }
  r = evaluate(queue(), f * std::complex<double>(0, 1));  // float32 * 1j → complex64
  EXPECT_EQ(r.dtype(), c64);
  expect_values(queue(), r, {C(0, 1.5), C(0, -2.25), C(0, 3)});
  r = evaluate(queue(), flags * true);
  EXPECT_EQ(r.dtype(), b8);
  expect_values(queue(), r, {1, 0});
  r = evaluate(queue(), f > 0);
  EXPECT_EQ(r.dtype(), b8);
  expect_values(queue(), r, {1, 0, 1});
  // x * 2 and x * 3 share one kernel: the scalar is an argument.
  const auto before = expression_cache_info();
  const auto x = upload(queue(), {1, 2, 3}, u16);
  const auto r2 = evaluate(queue(), x * 2);
  const auto middle = expression_cache_info();
  const auto r3 = evaluate(queue(), x * 3);
  const auto after = expression_cache_info();
  EXPECT_LE(middle.misses, before.misses + 1);
  EXPECT_EQ(after.misses, middle.misses);
  EXPECT_EQ(after.hits, middle.hits + 1);
  expect_values(queue(), r2, {2, 4, 6});
  expect_values(queue(), r3, {3, 6, 9});
  EXPECT_GE(after.capacity, after.kernels);
}

// numpy 2 (NEP 50): a double scalar with a complex64 array is a complex64 rounded from the
// double, never refused (a Release build once threw "not exactly a complex64").
TEST_P(ArrayMathTest, DoubleScalarsRoundToComplex64) {
  using C64 = std::complex<float>;
  const auto z = upload(queue(), {C(1, 2), C(-3, 0), C(0, 0.5)}, c64);
  const auto got = [&](const Array& r) {
    EXPECT_EQ(r.dtype(), c64);
    return r.get(queue()).to_vector<C64>();
  };
  const float tenth = 0.1f;  // what numpy rounds 0.1 to
  // z * 0.1: (a + bi)(t + 0i) = (a t - b 0) + (a 0 + b t)i, each product exact or rounded
  // once in float32.
  EXPECT_EQ(got(evaluate(queue(), z * 0.1)),
            (std::vector<C64>{{1 * tenth, 2 * tenth}, {-3 * tenth, 0}, {0, 0.5f * tenth}}));
  const auto f = upload(queue(), std::vector<C>(3, C(0)), c64);
  fill(queue(), f, 0.1);
  EXPECT_EQ(got(f), std::vector<C64>(3, C64(tenth, 0)));
  const auto flags = upload(queue(), {1, 0, 1}, b8);
  EXPECT_EQ(got(evaluate(queue(), where(flags, z, 0.1))),
            (std::vector<C64>{{1, 2}, {tenth, 0}, {0, 0.5f}}));
  const auto x = upload(queue(), {2, -1, 0.5}, f32);  // float32 * 0.1i → complex64
  const auto r = got(evaluate(queue(), x * std::complex<double>(0, 0.1)));
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].imag(), 2 * tenth);
  EXPECT_EQ(r[1].imag(), -tenth);
  EXPECT_EQ(r[2].imag(), 0.5f * tenth);
}

// numpy 2 compares integers exactly: an integer scalar out of the array's range is no error
// but compares as its value, and a signed integer against a uint64 compares by sign, not
// through float64 (where 2^63 - 1 and 2^63 are equal).
TEST_P(ArrayMathTest, IntegerComparisonsAreExact) {
  const auto flags = [&](const ArrayExpression& e) {
    const auto r = evaluate(queue(), e);
    EXPECT_EQ(r.dtype(), b8);
    std::vector<std::uint8_t> out;
    for (const auto value : download(queue(), r)) out.push_back(value.real() != 0 ? 1 : 0);
    return out;
  };
  using Flags = std::vector<std::uint8_t>;
  const auto small = upload(queue(), {127, -128, 5}, i8);
  EXPECT_EQ(flags(small < 1000), Flags(3, 1));
  EXPECT_EQ(flags(small >= 1000), Flags(3, 0));
  EXPECT_EQ(flags(small > -129), Flags(3, 1));
  EXPECT_EQ(flags(small == -1000), Flags(3, 0));
  EXPECT_EQ(flags(1000 > small), Flags(3, 1));  // the scalar on the left
  EXPECT_EQ(flags(-1000 != small), Flags(3, 1));
  EXPECT_EQ(flags(small < 6), (Flags{0, 1, 1}));  // in range: as before
  const auto bytes = upload(queue(), {0, 255, 7}, u8);
  EXPECT_EQ(flags(bytes == -1), Flags(3, 0));
  EXPECT_EQ(flags(bytes != -1), Flags(3, 1));
  EXPECT_EQ(flags(bytes > -1), Flags(3, 1));
  EXPECT_EQ(flags(bytes <= 255), Flags(3, 1));
  EXPECT_EQ(flags(bytes < 256), Flags(3, 1));

  constexpr auto int64_max = std::numeric_limits<std::int64_t>::max();
  constexpr auto int64_min = std::numeric_limits<std::int64_t>::min();
  constexpr std::uint64_t two_63 = std::uint64_t{1} << 63;
  const std::vector<std::int64_t> signed_values = {-1, 0, int64_max, int64_min, 5, int64_max - 1};
  const std::vector<std::uint64_t> unsigned_values = {two_63, two_63 - 1, two_63 - 1,
                                                      0,      5,          two_63 - 1};
  const auto s = Array::from_host(queue(), HostArray::from_values(signed_values));
  const auto u = Array::from_host(queue(), HostArray::from_values(unsigned_values));
  EXPECT_EQ(flags(s < two_63), Flags(6, 1));  // int64 < 2**63: a uint64 scalar
  EXPECT_EQ(flags(s == two_63), Flags(6, 0));
  EXPECT_EQ(flags(u > -1), Flags(6, 1));  // uint64 > -1
  EXPECT_EQ(flags(u == -1), Flags(6, 0));
  // int64 against uint64, both ways round, every comparison, against C++20's exact ones.
  const auto expected = [&](auto compare, bool swapped) {
    Flags out;
    for (std::size_t k = 0; k < signed_values.size(); ++k) {
      out.push_back(swapped ? compare(unsigned_values[k], signed_values[k])
                            : compare(signed_values[k], unsigned_values[k]));
    }
    return out;
  };
  const auto lt = [](auto a, auto b) { return std::cmp_less(a, b); };
  const auto le = [](auto a, auto b) { return std::cmp_less_equal(a, b); };
  const auto eq = [](auto a, auto b) { return std::cmp_equal(a, b); };
  EXPECT_EQ(flags(s < u), (Flags{1, 1, 0, 1, 0, 1}));  // float64 gave 0 for the last
  EXPECT_EQ(flags(s < u), expected(lt, false));
  EXPECT_EQ(flags(s <= u), expected(le, false));
  EXPECT_EQ(flags(s == u), (Flags{0, 0, 1, 0, 1, 0}));  // float64 gave 1 for the last
  EXPECT_EQ(flags(s == u), expected(eq, false));
  EXPECT_EQ(flags(s != u),
            expected([](auto a, auto b) { return std::cmp_not_equal(a, b); }, false));
  EXPECT_EQ(flags(s > u), expected([](auto a, auto b) { return std::cmp_greater(a, b); }, false));
  EXPECT_EQ(flags(s >= u),
            expected([](auto a, auto b) { return std::cmp_greater_equal(a, b); }, false));
  EXPECT_EQ(flags(u < s), expected(lt, true));
  EXPECT_EQ(flags(u <= s), expected(le, true));
  EXPECT_EQ(flags(u == s), expected(eq, true));
  // A narrower signed integer against uint64 too.
  const auto narrow = upload(queue(), {-1, 3, 100}, i16);
  const auto wide = Array::from_host(
      queue(), HostArray::from_values(std::vector<std::uint64_t>{18446744073709551615u, 3, 99}));
  EXPECT_EQ(flags(narrow < wide), (Flags{1, 0, 0}));
  EXPECT_EQ(flags(narrow == wide), (Flags{0, 1, 0}));
  // Arithmetic still refuses such a scalar (numpy's OverflowError).
  EXPECT_NE(logic_error_message([&] { evaluate(queue(), small + 1000); }).find("out of the range"),
            std::string::npos);
}

TEST_P(ArrayMathTest, BroadcastingAndViews) {
  const std::size_t rows = 5, cols = 7;
  std::vector<C> rv(cols), cv(rows), mv(rows * cols);
  for (std::size_t k = 0; k < cols; ++k) rv[k] = static_cast<double>(k) * 10;
  for (std::size_t k = 0; k < rows; ++k) cv[k] = static_cast<double>(k);
  for (std::size_t k = 0; k < rows * cols; ++k) mv[k] = static_cast<double>(k) * 0.5;
  const auto row = upload(queue(), rv, f32, {1, cols});
  const auto column = upload(queue(), cv, f32, {rows, 1});
  const auto r = evaluate(queue(), row + column);
  EXPECT_EQ(r.shape(), (std::vector<std::size_t>{rows, cols}));
  std::vector<C> expected(rows * cols);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) expected[i * cols + j] = rv[j] + cv[i];
  }
  expect_values(queue(), r, expected);

  // A view with negative strides in both axes, times a 1-D array reversed.
  const auto m = upload(queue(), mv, f32, {rows, cols});
  const auto flipped =
      m.view({Slice(std::nullopt, std::nullopt, -1), Slice(std::nullopt, std::nullopt, -2)});
  const auto line = upload(queue(), std::vector<C>{1, 2, 3, 4}, f32);
  const auto reversed = line.view({Slice(std::nullopt, std::nullopt, -1)});
  const auto s = evaluate(queue(), flipped * reversed - 1);
  ASSERT_EQ(s.shape(), (std::vector<std::size_t>{rows, 4}));
  std::vector<C> sv(rows * 4);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      sv[i * 4 + j] =
          mv[(rows - 1 - i) * cols + (cols - 1 - 2 * j)] * C(4.0 - static_cast<double>(j)) - 1.0;
    }
  }
  expect_values(queue(), s, sv);

  // assign into a strided view of a bigger array: only the view changes.
  const auto big = upload(queue(), std::vector<C>(rows * cols, C(-1)), f32, {rows, cols});
  const auto target = big.view({Slice(1, 4), Slice(std::nullopt, std::nullopt, 3)});
  assign(queue(), target, row.view({0, Slice(std::nullopt, 3)}) + 0.5f);
  auto bv = download(queue(), big);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const bool in = i >= 1 && i < 4 && j % 3 == 0;
      EXPECT_EQ(bv[i * cols + j], in ? C(rv[j / 3].real() + 0.5) : C(-1)) << i << "," << j;
    }
  }
  // Overlapping in- and output: x[::-1] = x + 1 sees the old x (a temporary is made).
  const auto x = upload(queue(), {1, 2, 3, 4, 5}, i32);
  assign(queue(), x.view({Slice(std::nullopt, std::nullopt, -1)}), x + 1);
  expect_values(queue(), x, {6, 5, 4, 3, 2});
  // assign converts same_kind: float64 → float32 yes; float → int no.
  const auto ints = upload(queue(), {0, 0}, i32);
  EXPECT_NE(logic_error_message([&] {
              assign(queue(), ints, row.view({0, Slice(0, 2)}) * 1);
            }).find("same_kind"),
            std::string::npos);
  assign(queue(), ints, 7);  // a weak integer fits
  expect_values(queue(), ints, {7, 7});
}

TEST_P(ArrayMathTest, EmptyArraysAndZeroDimensions) {
  const auto empty = Array::empty(device(), {3, 0}, f32);
  const auto r = evaluate(queue(), sin(empty) * 2 + empty);
  EXPECT_EQ(r.shape(), (std::vector<std::size_t>{3, 0}));
  EXPECT_EQ(r.size(), 0u);
  assign(queue(), empty, empty + 1);
  fill(queue(), empty, 1.0f);
  EXPECT_EQ(copy(queue(), empty).shape(), empty.shape());
  // Broadcasting with an empty dimension against a non-empty one is checked.
  const auto row = Array::empty(device(), {1, 4}, f32);
  EXPECT_NE(logic_error_message([&] { static_cast<void>(row + empty); }).find("(1, 4) (3, 0)"),
            std::string::npos);
  // Zero-dimensional arrays and scalars only.
  const auto zero_d = upload(queue(), {2.5}, f32, std::vector<std::size_t>{});
  EXPECT_TRUE(zero_d.shape().empty());
  const auto z = evaluate(queue(), zero_d * 2);
  EXPECT_TRUE(z.shape().empty());
  expect_values(queue(), z, {5});
  const auto constant = evaluate(queue(), ArrayExpression(3) + 4);
  EXPECT_EQ(constant.dtype(), i64);
  expect_values(queue(), constant, {7});
}

TEST_P(ArrayMathTest, RealMathFunctions) {
  std::vector<DType> dtypes = {f32};
  if (device().params().supports_double) dtypes.push_back(f64);
  const std::size_t n = 1003;
  using F = std::function<double(double)>;
  struct Case {
    const char* name;
    std::function<ArrayExpression(const ArrayExpression&)> function;
    F reference;
    double lo, hi;  // the domain sampled
  };
  const std::vector<Case> cases = {
      {"sin", [](const ArrayExpression& a) { return sin(a); }, [](double v) { return std::sin(v); },
       -6, 6},
      {"cos", [](const ArrayExpression& a) { return cos(a); }, [](double v) { return std::cos(v); },
       -6, 6},
      {"tan", [](const ArrayExpression& a) { return tan(a); }, [](double v) { return std::tan(v); },
       -1.4, 1.4},
      {"asin", [](const ArrayExpression& a) { return asin(a); },
       [](double v) { return std::asin(v); }, -1, 1},
      {"acos", [](const ArrayExpression& a) { return acos(a); },
       [](double v) { return std::acos(v); }, -1, 1},
      {"atan", [](const ArrayExpression& a) { return atan(a); },
       [](double v) { return std::atan(v); }, -20, 20},
      {"sinh", [](const ArrayExpression& a) { return sinh(a); },
       [](double v) { return std::sinh(v); }, -5, 5},
      {"cosh", [](const ArrayExpression& a) { return cosh(a); },
       [](double v) { return std::cosh(v); }, -5, 5},
      {"tanh", [](const ArrayExpression& a) { return tanh(a); },
       [](double v) { return std::tanh(v); }, -5, 5},
      {"exp", [](const ArrayExpression& a) { return exp(a); }, [](double v) { return std::exp(v); },
       -10, 10},
      {"log", [](const ArrayExpression& a) { return log(a); }, [](double v) { return std::log(v); },
       0.01, 100},
      {"log10", [](const ArrayExpression& a) { return log10(a); },
       [](double v) { return std::log10(v); }, 0.01, 100},
      {"sqrt", [](const ArrayExpression& a) { return sqrt(a); },
       [](double v) { return std::sqrt(v); }, 0, 100},
      {"floor", [](const ArrayExpression& a) { return floor(a); },
       [](double v) { return std::floor(v); }, -5, 5},
      {"ceil", [](const ArrayExpression& a) { return ceil(a); },
       [](double v) { return std::ceil(v); }, -5, 5},
      {"fabs", [](const ArrayExpression& a) { return fabs(a); },
       [](double v) { return std::fabs(v); }, -5, 5},
  };
  for (const auto& dtype : dtypes) {
    for (const auto& c : cases) {
      SCOPED_TRACE(std::string(c.name) + " " + dtype.name());
      std::vector<C> values(n);
      for (std::size_t k = 0; k < n; ++k) {
        values[k] = round_to(c.lo + (c.hi - c.lo) * static_cast<double>(k) / (n - 1), dtype);
      }
      const auto a = upload(queue(), values, dtype);
      const auto r = evaluate(queue(), c.function(a));
      EXPECT_EQ(r.dtype(), dtype);
      expect_values(queue(), r, map1(values, [&](C v) { return C(c.reference(v.real())); }), 8);
    }
  }
  // Integers give floats: 16-bit ones float32, 32-bit ones float64.
  const auto shorts = upload(queue(), {0, 1, 4, 9}, i16);
  const auto roots = evaluate(queue(), sqrt(shorts));
  EXPECT_EQ(roots.dtype(), f32);
  expect_values(queue(), roots, {0, 1, 2, 3});
  if (device().params().supports_double) {
    const auto ints = upload(queue(), {0, 1, 4, 9}, i32);
    EXPECT_EQ(evaluate(queue(), exp(ints)).dtype(), f64);
  }
  // pow, fmod, where.
  const auto x = upload(queue(), {2, -3, 0.5, 9}, f32), y = upload(queue(), {3, 2, -1, 0.5}, f32);
  expect_values(queue(), evaluate(queue(), pow(x, y)), {8, 9, 2, 3});
  expect_values(queue(), evaluate(queue(), pow(x, 2)), {4, 9, 0.25, 81});
  expect_values(queue(), evaluate(queue(), fmod(x * 3, 2.5f)), {1, -1.5, 1.5, 2});
  expect_values(queue(), evaluate(queue(), where(x > 1, x, -y)), {2, -2, 1, 9});
  const auto ix = upload(queue(), {2, -3, 7, -7, 1, -1, 5}, i32);
  const auto iy = upload(queue(), {10, 3, 2, 2, -3, -3, 0}, i32);
  const auto ip = evaluate(queue(), pow(ix, iy));
  EXPECT_EQ(ip.dtype(), i32);
  expect_values(queue(), ip, {1024, -27, 49, 49, 1, -1, 1});
  expect_values(queue(), evaluate(queue(), fmod(ix, iy)), {2, 0, 1, -1, 1, -1, 0});
  expect_values(queue(), evaluate(queue(), abs(ix)), {2, 3, 7, 7, 1, 1, 5});
}

TEST_P(ArrayMathTest, ComplexMathFunctions) {
  std::vector<DType> dtypes = {c64};
  if (device().params().supports_double) dtypes.push_back(c128);
  std::vector<C> values;
  for (int re = -4; re <= 4; ++re) {
    for (int im = -3; im <= 3; ++im) values.emplace_back(re * 0.45 + 0.1, im * 0.55 - 0.05);
  }
  using G = std::function<C(C)>;
  const std::vector<
      std::tuple<const char*, std::function<ArrayExpression(const ArrayExpression&)>, G>>
      cases = {
          {"sin", [](const ArrayExpression& a) { return sin(a); }, [](C v) { return std::sin(v); }},
          {"cos", [](const ArrayExpression& a) { return cos(a); }, [](C v) { return std::cos(v); }},
          {"tan", [](const ArrayExpression& a) { return tan(a); }, [](C v) { return std::tan(v); }},
          {"sinh", [](const ArrayExpression& a) { return sinh(a); },
           [](C v) { return std::sinh(v); }},
          {"cosh", [](const ArrayExpression& a) { return cosh(a); },
           [](C v) { return std::cosh(v); }},
          {"tanh", [](const ArrayExpression& a) { return tanh(a); },
           [](C v) { return std::tanh(v); }},
          {"exp", [](const ArrayExpression& a) { return exp(a); }, [](C v) { return std::exp(v); }},
          {"log", [](const ArrayExpression& a) { return log(a); }, [](C v) { return std::log(v); }},
          {"log10", [](const ArrayExpression& a) { return log10(a); },
           [](C v) { return std::log10(v); }},
          {"sqrt", [](const ArrayExpression& a) { return sqrt(a); },
           [](C v) { return std::sqrt(v); }},
          {"asin", [](const ArrayExpression& a) { return asin(a); },
           [](C v) { return std::asin(v); }},
          {"acos", [](const ArrayExpression& a) { return acos(a); },
           [](C v) { return std::acos(v); }},
          {"atan", [](const ArrayExpression& a) { return atan(a); },
           [](C v) { return std::atan(v); }},
          {"conj", [](const ArrayExpression& a) { return conj(a); },
           [](C v) { return std::conj(v); }},
          {"pow", [](const ArrayExpression& a) { return pow(a, std::complex<double>(0.5, -1.25)); },
           [](C v) { return std::pow(v, C(0.5, -1.25)); }},
          {"a*a/(a+1)", [](const ArrayExpression& a) { return a * a / (a + 1); },
           [](C v) { return v * v / (v + 1.0); }},
      };
  for (const auto& dtype : dtypes) {
    const auto stored = map1(values, [&](C v) { return round_to(v, dtype); });
    const auto a = upload(queue(), stored, dtype);
    for (const auto& [name, function, reference] : cases) {
      SCOPED_TRACE(std::string(name) + " " + dtype.name());
      const auto r = evaluate(queue(), function(a));
      EXPECT_EQ(r.dtype(), dtype);
      expect_values(queue(), r, map1(stored, reference), 20);
    }
    const auto part = real_for(dtype);
    const auto re = evaluate(queue(), real(a)), im = evaluate(queue(), imag(a));
    const auto modulus = evaluate(queue(), abs(a));
    EXPECT_EQ(re.dtype(), part);
    EXPECT_EQ(im.dtype(), part);
    EXPECT_EQ(modulus.dtype(), part);
    expect_values(queue(), re, map1(stored, [](C v) { return C(v.real()); }));
    expect_values(queue(), im, map1(stored, [](C v) { return C(v.imag()); }));
    expect_values(queue(), modulus, map1(stored, [](C v) { return C(std::abs(v)); }));
    // 0^0 = 1, 0^z = 0.
    const auto zero = upload(queue(), {0, 0}, dtype);
    const auto exponent = upload(queue(), {0, C(2, 1)}, dtype);
    expect_values(queue(), evaluate(queue(), pow(zero, exponent)), {1, 0});
  }
}

// exp of a complex array follows C99 Annex G's special values, as numpy's (inf + 0j gives
// inf + 0j, not inf + NaNj), in complex64 and complex128; pow of a complex goes through the
// same exp.
TEST_P(ArrayMathTest, ComplexExpSpecialValuesOfAnnexG) {
  const auto cases = complex_exp_special_cases();
  std::vector<C> inputs;
  for (const auto& c : cases) inputs.push_back(c.z);
  std::vector<DType> dtypes{c64};
  if (device().params().supports_double) dtypes.push_back(c128);
  for (const auto& dtype : dtypes) {
    SCOPED_TRACE(dtype.name());
    const auto got = download(queue(), evaluate(queue(), exp(upload(queue(), inputs, dtype))));
    ASSERT_EQ(got.size(), cases.size());
    for (std::size_t k = 0; k < cases.size(); ++k) {
      EXPECT_TRUE(annex_g_equal(got[k], cases[k], dtype == c64 ? 1e-6 : 1e-15))
          << "exp" << cases[k].z << " gave " << got[k] << ", Annex G: " << cases[k].expected;
    }
  }
}

TEST_P(ArrayMathTest, AstypeBetweenEveryPairOfDtypes) {
  const auto dtypes = all_dtypes(device());
  // Values every dtype holds the integer part of (numpy's casts of out-of-range values are
  // undefined, as C's): non-negative, below 127, some with fractions (truncated).
  const std::vector<C> unsigned_values = {0, 1, 2.75, 100.5, 126, 7, 0.25};
  const std::vector<C> signed_values = {0, -1, -2.75, 100.5, -126, 7, -0.25};
  for (const auto& from : dtypes) {
    for (const auto& to : dtypes) {
      SCOPED_TRACE(from.name() + " to " + to.name());
      for (const auto* values : {&unsigned_values, &signed_values}) {
        const bool negative = values == &signed_values;
        if (negative && (from.kind() == DTypeKind::unsigned_integer || from == b8 ||
                         to.kind() == DTypeKind::unsigned_integer)) {
          continue;
        }
        auto stored = map1(*values, [&](C v) {
          return round_to(is_complex(from) ? C(v.real(), v.real() * 0.5) : v, from);
        });
        const auto a = upload(queue(), stored, from);
        if (is_complex(from) && !is_complex(to)) {
          EXPECT_NE(logic_error_message([&] { astype(queue(), a, to); }).find("imaginary"),
                    std::string::npos);
          continue;
        }
        const auto r = astype(queue(), a, to);
        EXPECT_EQ(r.dtype(), to);
        expect_values(queue(), r, stored);
      }
    }
  }
  // float16 to itself is a copy, bit for bit (float16_arithmetic_test.cpp converts it).
  const auto halves =
      Array::from_host(queue(), HostArray::from_bytes(pattern(8), {4}, DType::float16()));
  const auto same = astype(queue(), halves, DType::float16());
  EXPECT_EQ(bytes_of(same.get(queue())), bytes_of(halves.get(queue())));
}

TEST_P(ArrayMathTest, FillEveryDtypeAndViews) {
  for (const auto& dtype : all_dtypes(device())) {
    SCOPED_TRACE(dtype.name());
    const auto a = upload(queue(), std::vector<C>(11, C(0)), dtype);
    fill(queue(), a, 5);
    expect_values(queue(), a, std::vector<C>(11, C(5)));
    if (is_complex(dtype)) {
      fill(queue(), a, std::complex<float>(1.5f, -2));
      expect_values(queue(), a, std::vector<C>(11, C(1.5, -2)));
    } else {
      EXPECT_NE(logic_error_message([&] {
                  fill(queue(), a, std::complex<double>(1, 1));
                }).find("imaginary"),
                std::string::npos);
    }
  }
  const auto f = upload(queue(), std::vector<C>(3, C(0)), f32);
  fill(queue(), f, 0.1);
  EXPECT_EQ(f.get(queue()).to_vector<float>(), std::vector<float>(3, 0.1f));
  const auto i = upload(queue(), std::vector<C>(3, C(0)), i32);
  fill(queue(), i, -2.7);  // truncated, as astype
  expect_values(queue(), i, std::vector<C>(3, C(-2)));
  const auto s = upload(queue(), std::vector<C>(3, C(0)), i8);
  EXPECT_NE(logic_error_message([&] { fill(queue(), s, 1000); }).find("int8"), std::string::npos);
  // Only the view's elements change.
  const auto m = upload(queue(), std::vector<C>(12, C(1)), u16, {3, 4});
  fill(queue(), m.view({Slice(std::nullopt, std::nullopt, -2), Slice(1, 3)}), 9u);
  expect_values(queue(), m, {1, 9, 9, 1, 1, 1, 1, 1, 1, 9, 9, 1});
}

TEST_P(ArrayMathTest, CopyOfStridedViews) {
  const std::size_t d0 = 3, d1 = 4, d2 = 5;
  std::vector<C> v(d0 * d1 * d2);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>(k);
  for (const auto& dtype : {b8, i8, u64, f32, c64}) {
    SCOPED_TRACE(dtype.name());
    const auto stored = map1(v, [&](C x) { return round_to(x, dtype); });
    const auto a = upload(queue(), stored, dtype, {d0, d1, d2});
    const auto view = a.view({Slice(std::nullopt, std::nullopt, -1), Slice(1, 4, 2),
                              Slice(std::nullopt, std::nullopt, -2)});
    const auto c = copy(queue(), view);
    EXPECT_TRUE(c.is_contiguous());
    ASSERT_EQ(c.shape(), (std::vector<std::size_t>{3, 2, 3}));
    std::vector<C> expected;
    for (std::size_t i = 0; i < 3; ++i) {
      for (std::size_t j = 0; j < 2; ++j) {
        for (std::size_t k = 0; k < 3; ++k) {
          expected.push_back(stored[(2 - i) * d1 * d2 + (1 + 2 * j) * d2 + (4 - 2 * k)]);
        }
      }
    }
    expect_values(queue(), c, expected);
  }
  // Structs copy too.
  const auto point = DType::make_struct({{"x", f32}, {"y", i32}});
  const auto bytes = pattern(point.itemsize() * 6);
  const auto points = Array::from_host(queue(), HostArray::from_bytes(bytes, {6}, point));
  const auto odd = copy(queue(), points.view({Slice(1, std::nullopt, 2)}));
  const auto got = bytes_of(odd.get(queue()));
  ASSERT_EQ(got.size(), 3 * point.itemsize());
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(std::memcmp(got.data() + k * point.itemsize(),
                          bytes.data() + (2 * k + 1) * point.itemsize(), point.itemsize()),
              0);
  }
}

TEST_P(ArrayMathTest, MisuseIsALogicError) {
  const auto a = Array::empty(device(), {3, 4}, f32), b = Array::empty(device(), {5}, f32);
  EXPECT_NE(logic_error_message([&] {
              static_cast<void>(a + b);
            }).find("operands could not be broadcast together with shapes (3, 4) (5,)"),
            std::string::npos);
  const auto out = Array::empty(device(), {4}, f32);
  EXPECT_NE(logic_error_message([&] { assign(queue(), out, a * 2); }).find("(3, 4)"),
            std::string::npos);
  const auto flags = Array::empty(device(), {4}, b8);
  EXPECT_NE(logic_error_message([&] { static_cast<void>(flags - flags); }).find("bool"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { static_cast<void>(-flags); }).find("bool"),
            std::string::npos);
  const auto z = Array::empty(device(), {4}, c64);
  EXPECT_NE(logic_error_message([&] { static_cast<void>(fmod(z, 2)); }).find("complex"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { assign(queue(), out, z); }).find("same_kind"),
            std::string::npos);
}

TEST_P(ArrayMathMultiDeviceTest, ArraysOnAnotherDeviceAreRefused) {
  const auto devices = context().devices();
  const Queue first(devices[0]);
  const auto here = upload(first, {1, 2}, f32);
  const Queue second(devices[1]);
  const auto there = upload(second, {3, 4}, f32);
  EXPECT_NE(logic_error_message([&] { evaluate(first, here + there); }).find("device 1"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { assign(first, there, here * 2); }).find("the output array"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { copy(first, there); }).find("device 1"), std::string::npos);
  // Each device evaluates its own.
  expect_values(second, evaluate(second, there * there), {9, 16});
  expect_values(first, evaluate(first, here + 1), {2, 3});
}

TEST_P(ArrayMathMultiDeviceTest, AssignsMultiArraysOnEveryDevice) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = 2 * devices.size() + 1, cols = 33;
  std::vector<float> xs(rows * cols), ys(cols);
  for (std::size_t k = 0; k < xs.size(); ++k) xs[k] = static_cast<float>(k % 97) * 0.25f - 3;
  for (std::size_t k = 0; k < cols; ++k) ys[k] = static_cast<float>(k) - 10;
  const auto x = MultiArray::from_host(queues, HostArray::from_values(xs, {rows, cols}));
  // A row broadcast against every device's part: cloned to every device.
  const auto y = MultiArray::from_host(queues, HostArray::from_values(ys, {1, cols}),
                                       std::make_shared<CloneSplay>());
  const auto out = MultiArray::empty(devices, {rows, cols}, f32);
  assign(queues, out, x * 2.0 - y + abs(x));
  queues.synchronize();
  const auto got = out.get(queues).to_vector<float>();
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const float expected = xs[k] * 2.0f - ys[k % cols] + std::fabs(xs[k]);
    wrong += std::fabs(got[k] - expected) > 1e-5f * (1 + std::fabs(expected)) ? 1 : 0;
  }
  EXPECT_EQ(wrong, 0u);
  // An expression of MultiArrays does not run on one queue.
  const Queue first(devices[0]);
  EXPECT_NE(logic_error_message([&] { evaluate(first, x + 1); }).find("MultiQueue"),
            std::string::npos);
  // Parts that do not broadcast are named with their device.
  const auto column = MultiArray::from_host(queues, HostArray::from_values(xs, {rows * cols}));
  EXPECT_NE(logic_error_message([&] { assign(queues, out, column * 2); }).find("assign"),
            std::string::npos);
}

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayMathTest);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(ArrayMathMultiDeviceTest);

}  // namespace
}  // namespace array_math_test
}  // namespace plinth::conformance
