#pragma once

// The special values of the complex exponential that C99 Annex G (G.6.3.1, cexp) specifies,
// which numpy's exp follows too: shared by the tests of functions::exp and of the array
// expressions' exp, which check them on the device and against the host's std::exp.

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

namespace plinth::conformance {

/// One input of cexp and what Annex G says it gives; where Annex G leaves a sign open, that
/// part's sign is not compared.
struct ComplexExpCase {
  std::complex<double> z;
  std::complex<double> expected;
  bool real_sign_free = false;
  bool imag_sign_free = false;
};

inline std::vector<ComplexExpCase> complex_exp_special_cases() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  using C = std::complex<double>;
  const double c2 = std::cos(2.0), s2 = std::sin(2.0);  // cis(2): (-0.416..., 0.909...)
  return {
      {C(0.0, 0.0), C(1, 0.0)},  // cexp(±0 + i0) = 1 + i0
      {C(-0.0, 0.0), C(1, 0.0)},
      {C(0.0, -0.0), C(1, -0.0)},  // cexp(conj(z)) = conj(cexp(z))
      {C(0.5, 0.0), C(std::exp(0.5), 0.0)},
      {C(1.5, inf), C(nan, nan)},  // x + i∞, x finite: NaN + iNaN
      {C(1.5, nan), C(nan, nan)},  // x + iNaN, x finite: NaN + iNaN
      {C(inf, 0.0), C(inf, 0.0)},  // +∞ + i0: +∞ + i0
      {C(inf, -0.0), C(inf, -0.0)},
      {C(-inf, 0.0), C(0.0, 0.0)},  // -∞ + iy: +0 cis(y)
      {C(-inf, 2.0), C(0.0 * c2, 0.0 * s2)},
      {C(inf, 2.0), C(inf * c2, inf * s2)},     // +∞ + iy, y finite nonzero: +∞ cis(y)
      {C(-inf, inf), C(0.0, 0.0), true, true},  // -∞ + i∞: ±0 ± i0
      {C(inf, inf), C(inf, nan), true, false},  // +∞ + i∞: ±∞ + iNaN
      {C(-inf, nan), C(0.0, 0.0), true, true},  // -∞ + iNaN: ±0 ± i0
      {C(inf, nan), C(inf, nan), true, false},  // +∞ + iNaN: ±∞ + iNaN
      {C(nan, 0.0), C(nan, 0.0)},               // NaN + i0: NaN + i0
      {C(nan, -0.0), C(nan, -0.0)},
      {C(nan, 2.0), C(nan, nan)},  // NaN + iy, y nonzero: NaN + iNaN
      {C(nan, nan), C(nan, nan)},
  };
}

/// True if `got` is what `c` expects: NaN for NaN, infinities and zeros with their sign (where
/// Annex G gives one), finite values within `tolerance` relative.
inline bool annex_g_equal(std::complex<double> got, const ComplexExpCase& c, double tolerance) {
  const auto part = [&](double g, double e, bool sign_free) {
    if (std::isnan(e)) return std::isnan(g);
    if (!sign_free && std::signbit(g) != std::signbit(e)) return false;
    if (std::isinf(e) || e == 0) return std::fabs(g) == std::fabs(e);
    return std::fabs(g - e) <= tolerance * std::fabs(e);
  };
  return part(got.real(), c.expected.real(), c.real_sign_free) &&
         part(got.imag(), c.expected.imag(), c.imag_sign_free);
}

}  // namespace plinth::conformance
