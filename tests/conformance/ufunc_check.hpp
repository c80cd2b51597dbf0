#pragma once

// Helpers of the numpy-function conformance tests (array_ufuncs_*_test.cpp): host vectors
// of any C++ type to and from arrays of a dtype, edge values per type, and the comparison of
// a device result with a host reference for every element (exactly, with signed zeros and
// NaNs matched, or within a relative tolerance).

#include "fixture.hpp"

#include <plinth/array_expression.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace plinth::conformance::ufunc {

/// A bool element as stored (0 or 1), so that vectors of it are plain bytes.
struct Bool {
  std::uint8_t value = 0;
  friend bool operator==(Bool a, Bool b) { return a.value == b.value; }
};

template <class T>
DType dtype_of() {
  if constexpr (std::is_same_v<T, Bool>) return DType::boolean();
  if constexpr (std::is_same_v<T, std::int8_t>) return DType::int8();
  if constexpr (std::is_same_v<T, std::uint8_t>) return DType::uint8();
  if constexpr (std::is_same_v<T, std::int16_t>) return DType::int16();
  if constexpr (std::is_same_v<T, std::uint16_t>) return DType::uint16();
  if constexpr (std::is_same_v<T, std::int32_t>) return DType::int32();
  if constexpr (std::is_same_v<T, std::uint32_t>) return DType::uint32();
  if constexpr (std::is_same_v<T, std::int64_t>) return DType::int64();
  if constexpr (std::is_same_v<T, std::uint64_t>) return DType::uint64();
  if constexpr (std::is_same_v<T, float>) return DType::float32();
  if constexpr (std::is_same_v<T, double>) return DType::float64();
  if constexpr (std::is_same_v<T, std::complex<float>>) return DType::complex64();
  if constexpr (std::is_same_v<T, std::complex<double>>) return DType::complex128();
}

template <class T>
Array upload(const Queue& queue, const std::vector<T>& values) {
  auto host = HostArray::empty({values.size()}, dtype_of<T>());
  if (!values.empty()) std::memcpy(host.data(), values.data(), values.size() * sizeof(T));
  return Array::from_host(queue, host);
}

template <class T>
std::vector<T> download(const Queue& queue, const Array& array) {
  EXPECT_EQ(array.dtype(), dtype_of<T>());
  const auto host = array.get(queue);
  std::vector<T> values(array.size());
  if (!values.empty()) std::memcpy(values.data(), host.data(), values.size() * sizeof(T));
  return values;
}

/// Edge values of an integer type: 0, ±1, small values, the extremes and their neighbours.
template <class T>
std::vector<T> integer_edges() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {0, 1, 2, 3, 5, 7, 10, 64, L::max(), static_cast<T>(L::max() - 1)};
  if constexpr (std::is_signed_v<T>) {
    for (T x : {T(-1), T(-2), T(-3), T(-7), T(-10), L::min(), T(L::min() + 1)}) v.push_back(x);
  }
  return v;
}

/// Edge values of a real type: ±0, ±inf, NaN, denormals, extremes, halves (rounding ties).
template <class T>
std::vector<T> real_edges() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {
      T(0),     T(-0.0),       T(1),           T(-1),          T(0.5),          T(-0.5),
      T(1.5),   T(2.5),        T(-2.5),        T(3),           T(-7.25),        T(7),
      T(1e-3),  L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(), -L::denorm_min(),
      L::min(), L::max(),      L::lowest(),    T(123456.75)};
  return v;
}

template <class T>
bool same_value(T got, T want, double rtol) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(want)) return std::isnan(got);
    // With a tolerance, a denormal result may be flushed to zero (PoCL's log1p does).
    if (rtol != 0 && std::fabs(want) < std::numeric_limits<T>::min() && got == 0) return true;
    if (rtol == 0 || std::isinf(want) || want == 0) {
      return got == want && std::signbit(got) == std::signbit(want);
    }
    return std::fabs(static_cast<double>(got) - want) <=
           rtol * std::fabs(static_cast<double>(want));
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    return same_value(got.real(), want.real(), rtol) && same_value(got.imag(), want.imag(), rtol);
  } else {
    return got == want;
  }
}

template <class T>
std::string text(T value) {
  if constexpr (std::is_same_v<T, Bool>) {
    return std::to_string(value.value);
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    return "(" + text(value.real()) + "," + text(value.imag()) + ")";
  } else if constexpr (std::is_floating_point_v<T>) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", static_cast<double>(value));
    return buffer;
  } else {
    return std::to_string(value);
  }
}

/// Checks `result` (of dtype R) against `want` element for element (within `rtol` where it is
/// not 0: a denormal may then be flushed to zero, as device math libraries may); `what(k)` names
/// the operands of element k. Reports at most a few mismatches.
template <class R>
void expect_results(const Queue& queue, const Array& result, const std::vector<R>& want,
                    const std::function<std::string(std::size_t)>& what, double rtol = 0) {
  const auto got = download<R>(queue, result);
  ASSERT_EQ(got.size(), want.size());
  int reported = 0;
  for (std::size_t k = 0; k < got.size() && reported < 8; ++k) {
    if (!same_value(got[k], want[k], rtol)) {
      ADD_FAILURE() << what(k) << ": got " << text(got[k]) << ", want " << text(want[k]);
      ++reported;
    }
  }
}

/// `function` of each of `xs` on the device against `reference` on the host.
template <class T, class R>
void check_unary(const Queue& queue, const std::string& name, const std::vector<T>& xs,
                 const std::function<ArrayExpression(const ArrayExpression&)>& function,
                 const std::function<R(T)>& reference, double rtol = 0) {
  SCOPED_TRACE(name + " of " + dtype_of<T>().name());
  const auto result = evaluate(queue, function(upload(queue, xs)));
  std::vector<R> want;
  for (const auto& x : xs) want.push_back(reference(x));
  expect_results<R>(
      queue, result, want, [&](std::size_t k) { return name + "(" + text(xs[k]) + ")"; }, rtol);
}

/// `function` of every pair of `xs` and `ys` on the device against `reference` on the host.
template <class T, class R>
void check_binary(
    const Queue& queue, const std::string& name, const std::vector<T>& xs, const std::vector<T>& ys,
    const std::function<ArrayExpression(const ArrayExpression&, const ArrayExpression&)>& function,
    const std::function<R(T, T)>& reference, double rtol = 0) {
  SCOPED_TRACE(name + " of " + dtype_of<T>().name());
  std::vector<T> as, bs;
  std::vector<R> want;
  for (const auto& x : xs) {
    for (const auto& y : ys) {
      as.push_back(x);
      bs.push_back(y);
      want.push_back(reference(x, y));
    }
  }
  const auto result = evaluate(queue, function(upload(queue, as), upload(queue, bs)));
  expect_results<R>(
      queue, result, want,
      [&](std::size_t k) { return name + "(" + text(as[k]) + ", " + text(bs[k]) + ")"; }, rtol);
}

/// Calls `body.template operator()<T>()` for every integer type.
template <class Body>
void for_integers(Body&& body) {
  body.template operator()<std::int8_t>();
  body.template operator()<std::uint8_t>();
  body.template operator()<std::int16_t>();
  body.template operator()<std::uint16_t>();
  body.template operator()<std::int32_t>();
  body.template operator()<std::uint32_t>();
  body.template operator()<std::int64_t>();
  body.template operator()<std::uint64_t>();
}

/// Calls `body` for float, and for double where the device has doubles.
template <class Body>
void for_reals(const BoundDevice& device, Body&& body) {
  body.template operator()<float>();
  if (device.params().supports_double) body.template operator()<double>();
}

}  // namespace plinth::conformance::ufunc
