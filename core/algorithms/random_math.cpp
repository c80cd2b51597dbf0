#include "algorithms/random_math.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

namespace plinth::detail {

namespace {

// What differs between the float32 and the float64 text.
struct Real {
  bool is_double;
  std::string type;                               // C type
  std::string bits;                               // the unsigned integer type of the same width
  std::string complex;                            // the complex type of the prelude
  std::string mul, add, sub, as_bits, from_bits;  // CUDA intrinsics
  std::string cl_as_bits, cl_from_bits;           // OpenCL reinterpretations
  int recip_iterations, rsqrt_iterations;
  int log_terms, sin_terms, cos_terms;
};

Real float32() {
  return {false,
          "float",
          "unsigned int",
          "plinth_complex64",
          "__fmul_rn",
          "__fadd_rn",
          "__fsub_rn",
          "__float_as_uint",
          "__uint_as_float",
          "as_uint",
          "as_float",
          4,
          4,
          5,
          5,
          6};
}

Real float64() {
  return {true,
          "double",
          "${prefix}u64",
          "plinth_complex128",
          "__dmul_rn",
          "__dadd_rn",
          "__dsub_rn",
          "(${prefix}u64)__double_as_longlong",
          "__longlong_as_double",
          "as_ulong",
          "as_double",
          5,
          5,
          11,
          8,
          10};
}

// A literal that every conforming compiler reads as exactly `value` in the real type (nine
// or seventeen significant digits round-trip; the exponent form is always a valid literal).
std::string literal(const Real& r, double value) {
  if (r.is_double) return fmt::format("{:.16e}", value);
  return fmt::format("{:.8e}f", static_cast<float>(value));
}

// The coefficients of the series. Computed in double and rounded once to the real type; the
// conformance test computes them in the same way.
std::vector<double> inverse_odd(int terms) {  // 1/3, 1/5, ...
  std::vector<double> c;
  for (int k = 1; k <= terms; ++k) c.push_back(1.0 / (2.0 * k + 1.0));
  return c;
}

std::vector<double> inverse_factorials(int terms, int first) {  // ±1/first!, ∓1/(first+2)!, ...
  std::vector<double> c;
  double factorial = 1.0;
  int n = 1;
  for (int k = 1; k <= terms; ++k) {
    const int target = first + 2 * (k - 1);
    while (n < target) factorial *= ++n;
    c.push_back((k % 2 == 1 ? -1.0 : 1.0) / factorial);
  }
  return c;
}

// Statements computing `out` = 1 + z (c1 + z (c2 + ... )) into `acc` (declared here).
std::string horner(const Real& r, const std::string& acc, const std::string& z,
                   const std::vector<double>& c) {
  std::string text = fmt::format("    {} {} = {};\n", r.type, acc, literal(r, c.back()));
  for (std::size_t k = c.size() - 1; k-- > 0;) {
    text += fmt::format("    {0} = ${{prefix}}ADD(${{prefix}}MUL({0}, {1}), {2});\n", acc, z,
                        literal(r, c[k]));
  }
  return text;
}

std::string arithmetic(const Real& r) {
  // NO_CONTRACT opens every function body: OpenCL C and HIP contract a * b + c into a fused
  // multiply-add unless told not to; CUDA's _rn intrinsics are never contracted.
  return fmt::format(
      R"~(#if defined(PLINTH_CUDA_API)
#define ${{prefix}}MUL(a, b) {0}((a), (b))
#define ${{prefix}}ADD(a, b) {1}((a), (b))
#define ${{prefix}}SUB(a, b) {2}((a), (b))
#define ${{prefix}}AS_BITS(x) {3}(x)
#define ${{prefix}}FROM_BITS(u) {4}(u)
#define ${{prefix}}NO_CONTRACT
#else
#define ${{prefix}}MUL(a, b) ((a) * (b))
#define ${{prefix}}ADD(a, b) ((a) + (b))
#define ${{prefix}}SUB(a, b) ((a) - (b))
#if defined(PLINTH_HIP_API)
#define ${{prefix}}AS_BITS(x) {3}(x)
#define ${{prefix}}FROM_BITS(u) {4}(u)
#define ${{prefix}}NO_CONTRACT _Pragma("clang fp contract(off)")
#else
#define ${{prefix}}AS_BITS(x) {5}(x)
#define ${{prefix}}FROM_BITS(u) {6}(u)
#define ${{prefix}}NO_CONTRACT _Pragma("OPENCL FP_CONTRACT OFF")
#endif
#endif
)~",
      r.mul, r.add, r.sub, r.as_bits, r.from_bits, r.cl_as_bits, r.cl_from_bits);
}

std::string uniforms(const Real& r) {
  if (!r.is_double) {
    return R"(
// [0, 1): the top 24 bits of w0 times 2^-24 (exact).
FUNCTION float ${prefix}uniform(unsigned int w0)
{
    ${prefix}NO_CONTRACT
    return ${prefix}MUL((float)(w0 >> 8), 5.96046448e-08f);
}

// (0, 1]: (top 24 bits + 1) times 2^-24 (exact).
FUNCTION float ${prefix}uniform_open0(unsigned int w0)
{
    ${prefix}NO_CONTRACT
    return ${prefix}MUL((float)((w0 >> 8) + 1u), 5.96046448e-08f);
}
)";
  }
  return R"(
// 53 bits: the top 27 of w0 and the top 26 of w1.
FUNCTION ${prefix}u64 ${prefix}bits53(unsigned int w0, unsigned int w1)
{
    return ((${prefix}u64)(w0 >> 5) << 26) | (${prefix}u64)(w1 >> 6);
}

// [0, 1): 53 bits times 2^-53 (exact).
FUNCTION double ${prefix}uniform(unsigned int w0, unsigned int w1)
{
    ${prefix}NO_CONTRACT
    return ${prefix}MUL((double)${prefix}bits53(w0, w1), 1.1102230246251565e-16);
}

// (0, 1]: (53 bits + 1) times 2^-53 (exact).
FUNCTION double ${prefix}uniform_open0(unsigned int w0, unsigned int w1)
{
    ${prefix}NO_CONTRACT
    return ${prefix}MUL((double)(${prefix}bits53(w0, w1) + 1u), 1.1102230246251565e-16);
}
)";
}

std::string log(const Real& r) {
  // x = 2^e m with m in [sqrt(1/2), sqrt(2)]; ln m = 2 atanh(s), s = (m - 1) / (m + 1), the
  // division as a product with a Newton reciprocal; e ln 2 in two parts (hi has trailing
  // zeros, so e * hi is exact).
  const int mantissa_bits = r.is_double ? 52 : 23;
  const int bias = r.is_double ? 1023 : 127;
  const std::string mantissa_mask =
      r.is_double ? "(${prefix}u64)0x000fffffffffffff" : "0x007fffffu";
  const std::string one_bits = r.is_double ? "(${prefix}u64)0x3ff0000000000000" : "0x3f800000u";
  const double ln2_hi = r.is_double ? 6.93147180369123816490e-01 : 0.693359375;
  const double ln2_lo = r.is_double ? 1.90821492927058770002e-10 : -2.12194440e-4;
  std::string text = fmt::format(
      R"(
// ln x for x in (0, 1], a normal number.
FUNCTION {0} ${{prefix}}log({0} x)
{{
    ${{prefix}}NO_CONTRACT
    const {1} b = ${{prefix}}AS_BITS(x);
    int e = (int)(b >> {2}) - {3};
    {0} m = ${{prefix}}FROM_BITS((b & {4}) | {5});
    if (m > {6}) {{
        m = ${{prefix}}MUL(m, {7});
        e += 1;
    }}
    const {0} f = ${{prefix}}SUB(m, {8});
    const {0} y = ${{prefix}}ADD({9}, f);
    {0} q = ${{prefix}}SUB({10}, ${{prefix}}MUL({11}, y));
)",
      r.type, r.bits, mantissa_bits, bias, mantissa_mask, one_bits, literal(r, std::sqrt(2.0)),
      literal(r, 0.5), literal(r, 1.0), literal(r, 2.0), literal(r, 0.9937), literal(r, 0.2431));
  for (int k = 0; k < r.recip_iterations; ++k) {
    text += fmt::format("    q = ${{prefix}}MUL(q, ${{prefix}}SUB({}, ${{prefix}}MUL(y, q)));\n",
                        literal(r, 2.0));
  }
  text += "    const " + r.type + " s = ${prefix}MUL(f, q);\n";
  text += "    const " + r.type + " z = ${prefix}MUL(s, s);\n";
  auto c = inverse_odd(r.log_terms);
  text += horner(r, "p", "z", c);
  text += fmt::format(
      R"(    p = ${{prefix}}ADD(${{prefix}}MUL(p, z), {1});
    const {0} ln_m = ${{prefix}}MUL(${{prefix}}ADD(s, s), p);
    const {0} fe = ({0})e;
    return ${{prefix}}ADD(${{prefix}}MUL(fe, {2}), ${{prefix}}ADD(${{prefix}}MUL(fe, {3}), ln_m));
}}
)",
      r.type, literal(r, 1.0), literal(r, ln2_hi), literal(r, ln2_lo));
  return text;
}

std::string sqrt(const Real& r) {
  // x * rsqrt(x), rsqrt by Newton's iteration from the bit-trick estimate; x = 0 gives 0.
  const std::string magic = r.is_double ? "(${prefix}u64)0x5fe6eb50c7b537a9" : "0x5f3759dfu";
  std::string text = fmt::format(
      R"(
// sqrt x for x = 0 or a normal number below 2^60.
FUNCTION {0} ${{prefix}}sqrt({0} x)
{{
    ${{prefix}}NO_CONTRACT
    const {0} h = ${{prefix}}MUL(x, {1});
    {0} y = ${{prefix}}FROM_BITS({2} - (${{prefix}}AS_BITS(x) >> 1));
)",
      r.type, literal(r, 0.5), magic);
  for (int k = 0; k < r.rsqrt_iterations; ++k) {
    text += fmt::format(
        "    y = ${{prefix}}MUL(y, ${{prefix}}SUB({}, ${{prefix}}MUL(${{prefix}}MUL(h, y), y)));\n",
        literal(r, 1.5));
  }
  text += "    return ${prefix}MUL(x, y);\n}\n";
  return text;
}

std::string normal_pair(const Real& r) {
  // The angle 2 pi u2, u2 = k / 2^n (n = 24 or 53): the quadrant nearest to it from the
  // integer k exactly, then theta in [-pi/4, pi/4) and the Taylor series of sin and cos.
  const int n = r.is_double ? 53 : 24;
  const std::string params = r.is_double ? "unsigned int w0, unsigned int w1, unsigned int w2, "
                                           "unsigned int w3"
                                         : "unsigned int w0, unsigned int w1";
  const std::string radius_args = r.is_double ? "w0, w1" : "w0";
  const std::string k_expr = r.is_double ? "${prefix}bits53(w2, w3)" : "(unsigned int)(w1 >> 8)";
  const std::string kt = r.is_double ? "${prefix}u64" : "unsigned int";
  const std::string st = r.is_double ? "${prefix}s64" : "int";
  const std::string one = r.is_double ? "(${prefix}u64)1" : "1u";
  std::string text = fmt::format(
      R"(
// Box-Muller: sqrt(-2 ln u1) (cos 2 pi u2, sin 2 pi u2).
FUNCTION {0} ${{prefix}}normal_pair({1})
{{
    ${{prefix}}NO_CONTRACT
    const {2} radius = ${{prefix}}sqrt(${{prefix}}MUL({3}, ${{prefix}}log(${{prefix}}uniform_open0({4}))));
    const {5} k = {6} + ({7} << {8});
    const unsigned int quadrant = (unsigned int)(k >> {9}) & 3u;
    const {10} r = ({10})(k & (({7} << {9}) - {7})) - ({10})({7} << {8});
    const {2} theta = ${{prefix}}MUL(${{prefix}}MUL(({2})r, {11}), {12});
    const {2} z = ${{prefix}}MUL(theta, theta);
)",
      r.complex, params, r.type, literal(r, -2.0), radius_args, kt, k_expr, one, n - 3, n - 2, st,
      literal(r, std::ldexp(1.0, -(n - 2))), literal(r, 1.5707963267948966));
  text += horner(r, "ps", "z", inverse_factorials(r.sin_terms, 3));
  text += horner(r, "pc", "z", inverse_factorials(r.cos_terms, 2));
  text += fmt::format(
      R"(    const {0} s = ${{prefix}}ADD(theta, ${{prefix}}MUL(${{prefix}}MUL(theta, z), ps));
    const {0} c = ${{prefix}}ADD({2}, ${{prefix}}MUL(z, pc));
    {1} result;
    if (quadrant == 0u) {{ result.x = c; result.y = s; }}
    else if (quadrant == 1u) {{ result.x = -s; result.y = c; }}
    else if (quadrant == 2u) {{ result.x = -c; result.y = -s; }}
    else {{ result.x = s; result.y = -c; }}
    result.x = ${{prefix}}MUL(radius, result.x);
    result.y = ${{prefix}}MUL(radius, result.y);
    return result;
}}
)",
      r.type, r.complex, literal(r, 1.0));
  return text;
}

}  // namespace

Module random_math(const DType& real) {
  if (real != DType::float32() && real != DType::float64()) {
    throw LogicError(fmt::format("random_math: dtype {} is not float32 or float64", real.name()));
  }
  const Real r = real == DType::float64() ? float64() : float32();
  std::string text;
  if (r.is_double) {
    text += R"(#if defined(PLINTH_OPENCL_API) || defined(PLINTH_LEVEL_ZERO_API)
typedef ulong ${prefix}u64;
typedef long ${prefix}s64;
#else
typedef unsigned long long ${prefix}u64;
typedef long long ${prefix}s64;
#endif
)";
  }
  text += arithmetic(r) + uniforms(r) + log(r) + sqrt(r) + normal_pair(r);
  text += fmt::format(R"(
// shift + scale * x, rounded twice (never fused).
FUNCTION {0} ${{prefix}}scale_shift({0} x, {0} scale, {0} shift)
{{
    ${{prefix}}NO_CONTRACT
    return ${{prefix}}ADD(shift, ${{prefix}}MUL(scale, x));
}}
)",
                      r.type);
  return Module::from_string(std::move(text), r.is_double ? "random_math64" : "random_math32");
}

}  // namespace plinth::detail
