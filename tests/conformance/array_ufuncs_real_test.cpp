// numpy's operators and functions on real and complex arrays (include/plinth/array_expression.hpp,
// issue 30) against host references over every pair of edge values (±0, ±inf, NaN, denormals,
// the extremes, rounding ties) in float32 and float64: numpy's remainder and floor division,
// maximum/minimum/fmax/fmin/clip with NaN and signed zeros, the rounding functions,
// exp2..cbrt, sign/square/reciprocal, the predicates, arctan2/hypot/copysign, angle,
// isclose/allclose/array_equal, a few values checked against numpy itself, the complex
// versions, and MultiArrays through the MultiQueue assign().

#include "ufunc_check.hpp"

#include <plinth/errors.hpp>

namespace plinth::conformance {
namespace array_ufuncs_real_test {
namespace {

using namespace ufunc;  // NOLINT(google-build-using-namespace)
using ArrayUfuncsRealTest = DeviceTest;
using ArrayUfuncsMultiDeviceTest = MultiDeviceTest;

template <class T>
double tolerance() {
  return sizeof(T) == 4 ? 2e-6 : 1e-14;
}

template <class T>
Bool truth(bool value) {
  return Bool{static_cast<std::uint8_t>(value ? 1 : 0)};
}

// numpy's npy_remainder and npy_floor_divide.
template <class T>
T remainder_ref(T a, T b) {
  T m = std::fmod(a, b);
  if (b == 0) return m;
  if (m != 0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = std::copysign(T(0), b);
  }
  return m;
}
template <class T>
T floor_divide_ref(T a, T b) {
  if (b == 0) return a / b;
  const T m = std::fmod(a, b);
  T d = (a - m) / b;
  if (m != 0 && (b < 0) != (m < 0)) d -= 1;
  if (d == 0) return std::copysign(T(0), a / b);
  T f = std::floor(d);
  if (d - f > T(0.5)) f += 1;
  return f;
}

template <class T>
T maximum_ref(T a, T b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return a > b ? a : b;
}
template <class T>
T minimum_ref(T a, T b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return a < b ? a : b;
}

using Binary = std::function<ArrayExpression(const ArrayExpression&, const ArrayExpression&)>;
using Unary = std::function<ArrayExpression(const ArrayExpression&)>;

TEST_P(ArrayUfuncsRealTest, RemainderFloorDivideAndExtrema) {
  for_reals(device(), [&]<class T>() {
    const auto e = real_edges<T>();
    check_binary<T, T>(queue(), "remainder", e, e, Binary([](auto& a, auto& b) { return a % b; }),
                       remainder_ref<T>);
    // OpenCL allows a float32 division 2.5 ulp (NVIDIA's OpenCL takes it: floor_divide(FLT_MAX,
    // 123456.75) is 1 ulp off there), so huge float32 quotients may differ by an ulp.
    check_binary<T, T>(queue(), "floor_divide", e, e,
                       Binary([](auto& a, auto& b) { return floor_divide(a, b); }),
                       floor_divide_ref<T>, sizeof(T) == 4 ? 4e-7 : 0.0);
    check_binary<T, T>(queue(), "maximum", e, e,
                       Binary([](auto& a, auto& b) { return maximum(a, b); }), maximum_ref<T>);
    check_binary<T, T>(queue(), "minimum", e, e,
                       Binary([](auto& a, auto& b) { return minimum(a, b); }), minimum_ref<T>);
    check_binary<T, T>(
        queue(), "fmax", e, e, Binary([](auto& a, auto& b) { return fmax(a, b); }),
        [](T a, T b) { return std::isnan(b) ? a : (std::isnan(a) || a < b ? b : a); });
    check_binary<T, T>(
        queue(), "fmin", e, e, Binary([](auto& a, auto& b) { return fmin(a, b); }),
        [](T a, T b) { return std::isnan(b) ? a : (std::isnan(a) || a > b ? b : a); });
    // clip(x, lo, 0.75): NaN propagates from x and lo; lo > hi gives hi.
    check_binary<T, T>(queue(), "clip", e, e,
                       Binary([](auto& a, auto& b) { return clip(a, b, 0.75); }),
                       [](T a, T lo) { return minimum_ref(maximum_ref(a, lo), T(0.75)); });
  });
}

TEST_P(ArrayUfuncsRealTest, EdgeValuesAsNumpyGivesThem) {
  // Values printed by numpy 2.4 (float64).
  if (!device().params().supports_double) GTEST_SKIP() << "no doubles";
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const std::vector<double> a = {-1, 1, 1, inf, inf, -0.0, 0.0, -7, 7};
  const std::vector<double> b = {inf, 0, 0, 1, 1, 1, -1, 2, -2};
  const auto x = upload(queue(), a), y = upload(queue(), b);
  const auto r = download<double>(queue(), evaluate(queue(), x % y));
  const std::vector<double> remainders = {inf, nan, nan, nan, nan, 0.0, -0.0, 1, -1};
  const auto q = download<double>(queue(), evaluate(queue(), floor_divide(x, y)));
  const std::vector<double> quotients = {-1, inf, inf, nan, nan, -0.0, -0.0, -4, -4};
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_TRUE(same_value(r[k], remainders[k], 0)) << a[k] << " % " << b[k] << " = " << r[k];
    EXPECT_TRUE(same_value(q[k], quotients[k], 0)) << a[k] << " // " << b[k] << " = " << q[k];
  }
  // maximum(-0.0, 0.0) is 0.0 and maximum(0.0, -0.0) is -0.0; fmax the other way round.
  const auto z = upload<double>(queue(), {-0.0, 0.0}), w = upload<double>(queue(), {0.0, -0.0});
  const auto mx = download<double>(queue(), evaluate(queue(), maximum(z, w)));
  const auto fx = download<double>(queue(), evaluate(queue(), fmax(z, w)));
  EXPECT_FALSE(std::signbit(mx[0]));
  EXPECT_TRUE(std::signbit(mx[1]));
  EXPECT_TRUE(std::signbit(fx[0]));
  EXPECT_FALSE(std::signbit(fx[1]));
}

TEST_P(ArrayUfuncsRealTest, RoundingAndSignFunctions) {
  for_reals(device(), [&]<class T>() {
    const auto e = real_edges<T>();
    check_unary<T, T>(queue(), "floor", e, Unary([](auto& a) { return floor(a); }),
                      [](T a) { return std::floor(a); });
    check_unary<T, T>(queue(), "ceil", e, Unary([](auto& a) { return ceil(a); }),
                      [](T a) { return std::ceil(a); });
    check_unary<T, T>(queue(), "trunc", e, Unary([](auto& a) { return trunc(a); }),
                      [](T a) { return std::trunc(a); });
    check_unary<T, T>(queue(), "rint", e, Unary([](auto& a) { return rint(a); }),
                      [](T a) { return std::nearbyint(a); });
    check_unary<T, T>(queue(), "round(2)", e, Unary([](auto& a) { return round(a, 2); }),
                      [](T a) { return std::nearbyint(a * T(100)) / T(100); });
    check_unary<T, T>(queue(), "round(-1)", e, Unary([](auto& a) { return round(a, -1); }),
                      [](T a) { return std::nearbyint(a / T(10)) * T(10); });
    check_unary<T, T>(queue(), "sign", e, Unary([](auto& a) { return sign(a); }),
                      [](T a) { return a > 0 ? T(1) : (a < 0 ? T(-1) : (a == 0 ? T(0) : a)); });
    check_unary<T, T>(queue(), "square", e, Unary([](auto& a) { return square(a); }),
                      [](T a) { return a * a; });
    check_unary<T, T>(queue(), "reciprocal", e, Unary([](auto& a) { return reciprocal(a); }),
                      [](T a) { return T(1) / a; });
    check_unary<T, Bool>(queue(), "isnan", e, Unary([](auto& a) { return isnan(a); }),
                         [](T a) { return truth<T>(std::isnan(a)); });
    check_unary<T, Bool>(queue(), "isinf", e, Unary([](auto& a) { return isinf(a); }),
                         [](T a) { return truth<T>(std::isinf(a)); });
    check_unary<T, Bool>(queue(), "isfinite", e, Unary([](auto& a) { return isfinite(a); }),
                         [](T a) { return truth<T>(std::isfinite(a)); });
    check_unary<T, Bool>(queue(), "signbit", e, Unary([](auto& a) { return signbit(a); }),
                         [](T a) { return truth<T>(std::signbit(a)); });
    check_unary<T, T>(queue(), "angle", e, Unary([](auto& a) { return angle(a); }),
                      [](T a) { return std::atan2(T(0), a); });
  });
}

TEST_P(ArrayUfuncsRealTest, FloatFunctions) {
  for_reals(device(), [&]<class T>() {
    const auto e = real_edges<T>();
    const auto t = tolerance<T>();
    // Each function against its <cmath> namesake, to the float type's tolerance.
    const auto unary = [&](const char* name, Unary apply, T (*reference)(T)) {
      check_unary<T, T>(queue(), name, e, std::move(apply), reference, t);
    };
    const auto binary = [&](const char* name, Binary apply, T (*reference)(T, T)) {
      check_binary<T, T>(queue(), name, e, e, std::move(apply), reference, t);
    };
    unary(
        "exp2", [](auto& a) { return exp2(a); }, [](T a) { return std::exp2(a); });
    unary(
        "log2", [](auto& a) { return log2(a); }, [](T a) { return std::log2(a); });
    unary(
        "expm1", [](auto& a) { return expm1(a); }, [](T a) { return std::expm1(a); });
    unary(
        "log1p", [](auto& a) { return log1p(a); }, [](T a) { return std::log1p(a); });
    unary(
        "cbrt", [](auto& a) { return cbrt(a); }, [](T a) { return std::cbrt(a); });
    binary(
        "arctan2", [](auto& a, auto& b) { return arctan2(a, b); },
        [](T a, T b) { return std::atan2(a, b); });
    binary(
        "hypot", [](auto& a, auto& b) { return hypot(a, b); },
        [](T a, T b) { return std::hypot(a, b); });
    check_binary<T, T>(queue(), "copysign", e, e,
                       Binary([](auto& a, auto& b) { return copysign(a, b); }),
                       [](T a, T b) { return std::copysign(a, b); });
  });
  // Integers give the float type of the math functions (int16: float32).
  check_unary<std::int16_t, float>(
      queue(), "exp2", {0, 1, -1, 10, -32768}, Unary([](auto& a) { return exp2(a); }),
      [](std::int16_t a) { return std::exp2(static_cast<float>(a)); }, tolerance<float>());
}

TEST_P(ArrayUfuncsRealTest, IscloseAllcloseAndArrayEqual) {
  for_reals(device(), [&]<class T>() {
    const auto e = real_edges<T>();
    const T rtol = T(1e-5), atol = T(1e-8);
    const auto close = [&](T x, T y) {
      return (std::fabs(x - y) <= atol + rtol * std::fabs(y) && std::isfinite(y)) || x == y;
    };
    check_binary<T, Bool>(queue(), "isclose", e, e,
                          Binary([](auto& a, auto& b) { return isclose(a, b); }),
                          [&](T x, T y) { return truth<T>(close(x, y)); });
    check_binary<T, Bool>(
        queue(), "isclose equal_nan", e, e,
        Binary([](auto& a, auto& b) { return isclose(a, b, 1e-5, 1e-8, true); }),
        [&](T x, T y) { return truth<T>(close(x, y) || (std::isnan(x) && std::isnan(y))); });
  });
  const auto x = upload<float>(queue(), {1, 2, std::nanf(""), 1e10f});
  const auto y = upload<float>(queue(), {1.000001f, 2, std::nanf(""), 1.000001e10f});
  EXPECT_FALSE(allclose(queue(), x, y));
  EXPECT_TRUE(allclose(queue(), x, y, 1e-5, 1e-8, true));
  EXPECT_FALSE(array_equal(queue(), x, y));
  EXPECT_TRUE(array_equal(queue(), x, x, true));
  EXPECT_FALSE(array_equal(queue(), x, x));  // NaN != NaN
  const auto shorter = upload<float>(queue(), {1, 2});
  EXPECT_FALSE(array_equal(queue(), x, shorter));  // different shapes: false, no throw
  EXPECT_TRUE(array_equal(queue(), shorter, upload<std::int32_t>(queue(), {1, 2})));
  EXPECT_TRUE(allclose(queue(), upload<float>(queue(), {}), upload<float>(queue(), {})));
  // Integers: b as float64 (a weak int as a float); angle of an int16 in float32 (an int8's is
  // float16, as numpy's).
  if (device().params().supports_double) {
    const auto ints = upload<std::int32_t>(queue(), {1, 2, -3});
    const auto near = evaluate(queue(), isclose(ints, 2));
    EXPECT_EQ(download<Bool>(queue(), near), (std::vector<Bool>{{0}, {1}, {0}}));
    EXPECT_TRUE(allclose(queue(), ints, upload<double>(queue(), {1.000001, 2, -3})));
  }
  check_unary<std::int16_t, float>(
      queue(), "angle", {-1, 0, 1, -32768}, Unary([](auto& a) { return angle(a); }),
      [](std::int16_t a) { return std::atan2(0.0f, float(a)); }, tolerance<float>());
  EXPECT_EQ(evaluate(queue(), angle(upload<std::int8_t>(queue(), {-1}))).dtype(), DType::float16());
  // round of complex: both parts, halves to even.
  using C = std::complex<float>;
  check_unary<C, C>(queue(), "round(1)", {C(0.25f, -0.35f), C(1.05f, 2.5f)},
                    Unary([](auto& a) { return round(a, 1); }), [](C z) {
                      const float f = 10;
                      return C(std::nearbyint(z.real() * f) / f, std::nearbyint(z.imag() * f) / f);
                    });
}

// complex64, and complex128 where the device has doubles.
template <class R>
void check_complex_functions(const Queue& queue) {
  using C = std::complex<R>;
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  const std::vector<C> zs = {C(0, 0),   C(3, 4),    C(-1.5f, 2.5f), C(0.5f, -0.25f),
                             C(inf, 1), C(1, -inf), C(nan, 0),      C(2.5f, -0.5f)};
  const auto t = tolerance<R>();
  check_unary<C, C>(
      queue, "sign", zs, Unary([](auto& a) { return sign(a); }),
      [](C z) {
        if (z == C(0, 0)) return C(0, 0);
        if (std::isnan(z.real()) || std::isnan(z.imag()))
          return C(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
        if (std::isinf(z.real())) return C(z.real() > 0 ? R(1) : R(-1), 0);
        if (std::isinf(z.imag())) return C(0, z.imag() > 0 ? R(1) : R(-1));
        return z / std::abs(z);
      },
      t);
  const std::vector<C> finite = {C(0, 0), C(3, 4), C(-1.5f, 2.5f), C(0.5f, -0.25f), C(2.5f, -0.5f)};
  check_unary<C, C>(
      queue, "square", finite, Unary([](auto& a) { return square(a); }), [](C z) { return z * z; },
      t);
  check_unary<C, C>(
      queue, "reciprocal", {C(3, 4), C(-1.5f, 2.5f), C(0.5f, -0.25f)},
      Unary([](auto& a) { return reciprocal(a); }), [](C z) { return C(1) / z; }, t);
  check_unary<C, C>(queue, "rint", finite, Unary([](auto& a) { return rint(a); }),
                    [](C z) { return C(std::nearbyint(z.real()), std::nearbyint(z.imag())); });
  check_unary<C, C>(
      queue, "exp2", finite, Unary([](auto& a) { return exp2(a); }),
      [](C z) { return std::pow(C(2), z); }, 1e-5);
  check_unary<C, C>(
      queue, "expm1", {C(3, 4), C(-1.5f, 2.5f)}, Unary([](auto& a) { return expm1(a); }),
      [](C z) { return std::exp(z) - C(1); }, 1e-5);
  check_unary<C, C>(
      queue, "log1p", {C(3, 4), C(-1.5f, 2.5f), C(0.5f, -0.25f)},
      Unary([](auto& a) { return log1p(a); }), [](C z) { return std::log(C(1) + z); }, 1e-5);
  check_unary<C, C>(
      queue, "log2", {C(3, 4), C(-1.5f, 2.5f)}, Unary([](auto& a) { return log2(a); }),
      [](C z) { return std::log(z) / std::log(R(2)); }, 1e-5);
  check_unary<C, Bool>(queue, "isnan", zs, Unary([](auto& a) { return isnan(a); }),
                       [](C z) { return truth<R>(std::isnan(z.real()) || std::isnan(z.imag())); });
  check_unary<C, Bool>(queue, "isinf", zs, Unary([](auto& a) { return isinf(a); }),
                       [](C z) { return truth<R>(std::isinf(z.real()) || std::isinf(z.imag())); });
  check_unary<C, R>(
      queue, "angle", finite, Unary([](auto& a) { return angle(a); }),
      [](C z) { return std::arg(z); }, t);
  // Lexicographic maximum; a NaN in either part propagates (maximum) or loses (fmax).
  const std::vector<C> ms = {C(1, 2), C(1, 3), C(2, -5), C(nan, 0), C(1, nan)};
  const auto has_nan = [](C z) { return std::isnan(z.real()) || std::isnan(z.imag()); };
  const auto greater_equal = [](C a, C b) {
    return a.real() > b.real() || (a.real() == b.real() && a.imag() >= b.imag());
  };
  check_binary<C, C>(queue, "maximum", ms, ms,
                     Binary([](auto& a, auto& b) { return maximum(a, b); }), [&](C a, C b) {
                       if (has_nan(a)) return a;
                       if (has_nan(b)) return b;
                       return greater_equal(a, b) ? a : b;
                     });
  check_binary<C, C>(queue, "fmax", ms, ms, Binary([](auto& a, auto& b) { return fmax(a, b); }),
                     [&](C a, C b) {
                       if (has_nan(b)) return a;
                       if (has_nan(a)) return b;
                       return greater_equal(a, b) ? a : b;
                     });
  EXPECT_NE(logic_error_message([&] {
              static_cast<void>(cbrt(upload(queue, zs)));
            }).find(dtype_of<C>().name()),
            std::string::npos);
}

TEST_P(ArrayUfuncsRealTest, ComplexFunctions) {
  check_complex_functions<float>(queue());
  if (device().params().supports_double) check_complex_functions<double>(queue());
}

TEST_P(ArrayUfuncsMultiDeviceTest, AssignsOnEveryDevice) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t n = 64 * devices.size() + 3;
  std::vector<float> xs(n), ys(n);
  for (std::size_t k = 0; k < n; ++k) {
    xs[k] = static_cast<float>(k % 17) / 16.0f;
    ys[k] = static_cast<float>((k * 5) % 13) / 12.0f;
  }
  const auto x = MultiArray::from_host(queues, HostArray::from_values(xs, {n}));
  const auto y = MultiArray::from_host(queues, HostArray::from_values(ys, {n}));
  const auto out = MultiArray::empty(devices, {n}, DType::float32());
  assign(queues, out, clip(x, 0.25, 0.75) + maximum(x, y) % 0.5f);
  queues.synchronize();
  const auto host = out.get(queues);
  std::vector<float> got(n);
  std::memcpy(got.data(), host.data(), n * sizeof(float));
  for (std::size_t k = 0; k < n; ++k) {
    const float want = std::min(std::max(xs[k], 0.25f), 0.75f) +
                       remainder_ref<float>(std::max(xs[k], ys[k]), 0.5f);
    EXPECT_EQ(got[k], want) << k;
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayUfuncsRealTest);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(ArrayUfuncsMultiDeviceTest);

}  // namespace
}  // namespace array_ufuncs_real_test
}  // namespace plinth::conformance
