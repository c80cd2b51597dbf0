// The code of the numpy functions of array expressions (ExpressionOp::ufunc): numpy's
// remainder and floor division, the bitwise operators, maximum/minimum/fmax/fmin, the
// rounding functions, the float functions exp2..cbrt, sign, square, reciprocal, the
// predicates, arctan2/hypot/copysign. Each follows numpy's loops at the edge values
// (division by zero, NaN, -0.0, shifts by the bit width or more); the header
// include/plinth/array_expression.hpp says where plinth defines what numpy leaves undefined.

#include "algorithms/array_expression_codegen.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

namespace plinth::detail {

namespace {

std::string unsigned_c_type(const DType& t) {
  switch (t.itemsize()) {
    case 1: return expression_c_type(DType::uint8());
    case 2: return expression_c_type(DType::uint16());
    case 4: return expression_c_type(DType::uint32());
    default: return expression_c_type(DType::uint64());
  }
}

// A helper `_ax_<op>_<t>` of `arity` arguments `a` (and `b`) of t's C type, returning
// `returns` (empty: t's C type), with `body` in which {T} is t's C type, {U} the unsigned
// type of its size and {W} an unsigned type of at least 32 bits (no promotion to int).
std::string function(CodeHelpers& h, const char* op, const DType& t, int arity,
                     const std::string& body, const std::string& returns = {}) {
  const auto c = expression_c_type(t);
  const auto u = unsigned_c_type(t);
  const auto w = t.itemsize() <= 4 ? expression_c_type(DType::uint32()) : u;
  const auto name = fmt::format("_ax_{}_{}", op, t.name());
  const auto params = arity == 1 ? fmt::format("{} a", c) : fmt::format("{0} a, {0} b", c);
  return h.define_helper(name, fmt::format("FUNCTION INLINE {} {}({}) {{ {} }}",
                                           returns.empty() ? c : returns, name, params,
                                           fmt::format(fmt::runtime(body), fmt::arg("T", c),
                                                       fmt::arg("U", u), fmt::arg("W", w))));
}

std::string call(const std::string& name, const std::vector<std::string>& args) {
  return args.size() == 1 ? fmt::format("{}({})", name, args[0])
                          : fmt::format("{}({}, {})", name, args[0], args[1]);
}

bool is_int_or_bool(const DType& t) { return is_integer(t) || t == DType::boolean(); }

[[noreturn]] void refuse(Ufunc f, const DType& t) {
  throw LogicError(fmt::format("{}: no code for {}", ufunc_name(f), t.name()));
}

std::string remainder(CodeHelpers& h, const DType& t, const std::vector<std::string>& args) {
  if (is_real(t)) {
    // numpy's npy_remainder: fmod, moved to the divisor's sign; a zero result takes the
    // divisor's sign; x % 0 is fmod's NaN.
    return call(function(h, "remainder", t, 2,
                         "{T} m = fmod(a, b); if (b == 0) return m; if (m != 0) {{ if ((b < 0) != "
                         "(m < 0)) m += b; }} else {{ m = copysign(({T})0, b); }} return m;"),
                args);
  }
  return call(function(h, "remainder", t, 2,
                       is_signed_int(t)
                           ? "if (b == 0 || b == ({T})-1) return ({T})0; {T} r = ({T})(a % b); if "
                             "(r != 0 && ((r < 0) != (b < 0))) r = ({T})(r + b); return r;"
                           : "return b == 0 ? ({T})0 : ({T})(a % b);"),
              args);
}

std::string floor_divide(CodeHelpers& h, const DType& t, const std::vector<std::string>& args) {
  if (is_real(t)) {
    // numpy's npy_floor_divide (through npy_divmod): x // 0 is x / 0.
    return call(function(h, "floor_divide", t, 2,
                         "if (b == 0) return a / b; const {T} m = fmod(a, b); {T} d = (a - m) / b; "
                         "if (m != 0 && (b < 0) != (m < 0)) d -= 1; if (d == 0) return "
                         "copysign(({T})0, a / b); {T} f = floor(d); if (d - f > ({T})0.5) f += 1; "
                         "return f;"),
                args);
  }
  return call(
      function(h, "floor_divide", t, 2,
               is_signed_int(t)
                   ? "if (b == 0) return ({T})0; if (b == ({T})-1) return ({T})(({U})0 - ({U})a); "
                     "{T} q = ({T})(a / b); if (({T})(a % b) != 0 && ((a < 0) != (b < 0))) q = "
                     "({T})(q - 1); return q;"
                   : "return b == 0 ? ({T})0 : ({T})(a / b);"),
      args);
}

std::string shift(CodeHelpers& h, bool left, const DType& t, const std::vector<std::string>& args) {
  // numpy's npy_lshift/npy_rshift: a shift by the bit width or more (or by a negative
  // count, which numpy reads as a huge unsigned one) gives 0, or -1 shifting a negative
  // value right. Left shifts shift the unsigned bits (no signed overflow).
  const auto bits = std::to_string(t.itemsize() * 8);
  const std::string out_of_range =
      is_signed_int(t) ? "if (b < 0 || b >= " + bits + ") " : "if (b >= " + bits + ") ";
  const auto body =
      left ? out_of_range + "return ({T})0; return ({T})(({W})a << b);"
           : out_of_range +
                 (is_signed_int(t) ? "return a < 0 ? ({T})-1 : ({T})0; " : "return ({T})0; ") +
                 "return ({T})(a >> b);";
  return call(function(h, left ? "left_shift" : "right_shift", t, 2, body), args);
}

// maximum/minimum (NaN-propagating) and fmax/fmin (NaN-ignoring), as numpy's loops pick
// between -0.0 and 0.0; complex numbers compare lexicographically.
std::string extremum(CodeHelpers& h, Ufunc f, const DType& t,
                     const std::vector<std::string>& args) {
  const bool max = f == Ufunc::maximum || f == Ufunc::fmax;
  const bool propagate = f == Ufunc::maximum || f == Ufunc::minimum;
  const char* op = ufunc_name(f);
  if (is_complex(t)) {
    const std::string cmp = max ? "(a.x > b.x || (a.x == b.x && a.y >= b.y))"
                                : "(a.x < b.x || (a.x == b.x && a.y <= b.y))";
    const std::string nan_first =
        propagate
            ? "if (isnan(a.x) || isnan(a.y)) return a; if (isnan(b.x) || isnan(b.y)) return b;"
            : "if (isnan(b.x) || isnan(b.y)) return a; if (isnan(a.x) || isnan(a.y)) return b;";
    return call(h.define_complex(op, t, 2, nan_first + " return " + cmp + " ? a : b;", ""), args);
  }
  const std::string rel = max ? (propagate ? ">" : ">=") : (propagate ? "<" : "<=");
  if (!is_real(t)) return call(function(h, op, t, 2, "return a " + rel + " b ? a : b;"), args);
  return call(
      function(h, op, t, 2,
               "return (a " + rel + " b || isnan(" + (propagate ? "a" : "b") + ")) ? a : b;"),
      args);
}

// The rounding functions: integers and bools are their own floor, ceil, trunc.
std::string rounding(CodeHelpers& h, Ufunc f, const DType& t,
                     const std::vector<std::string>& args) {
  const char* name = ufunc_name(f);
  if (is_int_or_bool(t)) return args[0];
  if (is_complex(t) && f == Ufunc::rint) {
    return call(h.define_complex("rint", t, 1, "return {make}(rint(a.x), rint(a.y));", ""), args);
  }
  if (!is_real(t)) refuse(f, t);
  return call(name, args);
}

std::string complex_float_function(CodeHelpers& h, Ufunc f, const DType& t,
                                   const std::vector<std::string>& args) {
  const char* body = nullptr;
  switch (f) {
    case Ufunc::exp2:  // exp(z ln 2)
      body =
          "const {R} k = ({R})0.6931471805599453; if (a.y == 0) return {make}(exp2(a.x), a.y); "
          "const {R} e = exp2(a.x); return {make}(e * cos(a.y * k), e * sin(a.y * k));";
      break;
    case Ufunc::log2:
      body =
          "const {R} k = ({R})1.4426950408889634; return {make}(log2(hypot(a.x, a.y)), atan2(a.y, "
          "a.x) * k);";
      break;
    case Ufunc::expm1:  // numpy's nc_expm1
      body =
          "const {R} s = sin(a.y / 2); return {make}(expm1(a.x) * cos(a.y) - 2 * s * s, exp(a.x) "
          "* sin(a.y));";
      break;
    case Ufunc::log1p:  // numpy's nc_log1p
      body = "return {make}(log(hypot(a.x + 1, a.y)), atan2(a.y, a.x + 1));";
      break;
    default: refuse(f, t);
  }
  return call(h.define_complex(ufunc_name(f), t, 1, body, ""), args);
}

std::string sign(CodeHelpers& h, const DType& t, const std::vector<std::string>& args) {
  if (is_complex(t)) {
    // numpy 2's z / |z|: 0 for 0; NaN + NaN i for a NaN part or two infinite parts; ±1 along
    // the one infinite part.
    return call(
        h.define_complex(
            "sign", t, 1,
            "if (a.x == 0 && a.y == 0) return {make}(({R})0, ({R})0); if (isnan(a.x) || "
            "isnan(a.y) || (isinf(a.x) && isinf(a.y))) {{ const {R} n = (a.x - a.x) * (a.y - "
            "a.y); return {make}(n, n); }} if (isinf(a.x)) return {make}(a.x > 0 ? ({R})1 : "
            "({R})-1, ({R})0); if (isinf(a.y)) return {make}(({R})0, a.y > 0 ? ({R})1 : ({R})-1); "
            "const {R} m = hypot(a.x, a.y); return {make}(a.x / m, a.y / m);",
            ""),
        args);
  }
  if (is_real(t)) {
    return call(function(h, "sign", t, 1,
                         "return a > 0 ? ({T})1 : (a < 0 ? ({T})-1 : (a == 0 ? ({T})0 : a));"),
                args);
  }
  return call(function(h, "sign", t, 1,
                       is_signed_int(t) ? "return ({T})((a > 0) - (a < 0));"
                                        : "return ({T})(a > 0 ? 1 : 0);"),
              args);
}

std::string square(CodeHelpers& h, const DType& t, const std::vector<std::string>& args) {
  if (is_complex(t)) {
    return call(
        h.define_complex("square", t, 1,
                         "return {make}(a.x * a.x - a.y * a.y, a.x * a.y + a.y * a.x);", ""),
        args);
  }
  if (is_real(t)) return call(function(h, "square", t, 1, "return a * a;"), args);
  return call(function(h, "square", t, 1, "return ({T})(({W})a * ({W})a);"), args);
}

std::string reciprocal(CodeHelpers& h, const DType& t, const std::vector<std::string>& args) {
  if (is_complex(t)) {  // numpy's Smith division of 1 by z
    return call(h.define_complex("reciprocal", t, 1,
                                 "if (fabs(a.y) <= fabs(a.x)) {{ const {R} r = a.y / a.x; const "
                                 "{R} d = a.x + a.y * r; return {make}(1 / d, -r / d); }} const "
                                 "{R} r = a.x / a.y; const {R} d = a.x * r + a.y; return "
                                 "{make}(r / d, -1 / d);",
                                 ""),
                args);
  }
  if (is_real(t)) return fmt::format("(({})1 / ({}))", expression_c_type(t), args[0]);
  return call(function(h, "reciprocal", t, 1, "return a == 0 ? ({T})0 : ({T})(1 / a);"), args);
}

std::string predicate(CodeHelpers& h, Ufunc f, const DType& t,
                      const std::vector<std::string>& args) {
  const char* name = ufunc_name(f);
  if (is_int_or_bool(t)) {
    if (f == Ufunc::signbit && is_signed_int(t)) {
      return fmt::format("((unsigned char)(({}) < 0))", args[0]);
    }
    return f == Ufunc::isfinite ? "((unsigned char)1)" : "((unsigned char)0)";
  }
  if (is_complex(t)) {
    const char* body = f == Ufunc::isnan ? "return (unsigned char)(isnan(a.x) || isnan(a.y));"
                       : f == Ufunc::isinf
                           ? "return (unsigned char)(isinf(a.x) || isinf(a.y));"
                           : "return (unsigned char)(isfinite(a.x) && isfinite(a.y));";
    if (f == Ufunc::signbit) refuse(f, t);
    return call(h.define_complex(name, t, 1, body, "unsigned char"), args);
  }
  return fmt::format("((unsigned char)({}({}) ? 1 : 0))", name, args[0]);
}

}  // namespace

std::string ufunc_code(Ufunc f, const DType& t, const std::vector<std::string>& args,
                       CodeHelpers& h) {
  const auto c = expression_c_type(t);
  switch (f) {
    case Ufunc::remainder: return remainder(h, t, args);
    case Ufunc::floor_divide: return floor_divide(h, t, args);
    case Ufunc::bitwise_and:
    case Ufunc::bitwise_or:
    case Ufunc::bitwise_xor: {
      const char op = f == Ufunc::bitwise_and ? '&' : (f == Ufunc::bitwise_or ? '|' : '^');
      return fmt::format("(({})(({}) {} ({})))", c, args[0], op, args[1]);
    }
    case Ufunc::left_shift: return shift(h, true, t, args);
    case Ufunc::right_shift: return shift(h, false, t, args);
    case Ufunc::invert:
      if (t == DType::boolean()) return fmt::format("((unsigned char)(({}) == 0))", args[0]);
      return fmt::format("(({})(~({})))", c, args[0]);
    case Ufunc::maximum:
    case Ufunc::minimum:
    case Ufunc::fmax:
    case Ufunc::fmin: return extremum(h, f, t, args);
    case Ufunc::floor:
    case Ufunc::ceil:
    case Ufunc::trunc:
    case Ufunc::rint: return rounding(h, f, t, args);
    case Ufunc::exp2:
    case Ufunc::log2:
    case Ufunc::expm1:
    case Ufunc::log1p:
    case Ufunc::cbrt:
      if (is_complex(t)) return complex_float_function(h, f, t, args);
      return call(ufunc_name(f), args);
    case Ufunc::sign: return sign(h, t, args);
    case Ufunc::square: return square(h, t, args);
    case Ufunc::reciprocal: return reciprocal(h, t, args);
    case Ufunc::isnan:
    case Ufunc::isinf:
    case Ufunc::isfinite:
    case Ufunc::signbit: return predicate(h, f, t, args);
    case Ufunc::arctan2: return call("atan2", args);
    case Ufunc::hypot:
      // CUDA's double hypot overflows to inf where the result is finite (hypot(1, DBL_MAX)):
      // such a result is taken again, scaled by the larger operand.
      return call(function(h, "hypot", t, 2,
                           "{T} r = hypot(a, b); if (!isinf(r) || isinf(a) || isinf(b)) return r; "
                           "{T} x = fabs(a), y = fabs(b); {T} m = x > y ? x : y, n = x > y ? y : "
                           "x; {T} q = n / m; return m * sqrt(({T})1 + q * q);"),
                  args);
    case Ufunc::copysign: return call(ufunc_name(f), args);
  }
  refuse(f, t);
}

const char* ufunc_name(Ufunc f) noexcept {
  switch (f) {
    case Ufunc::remainder: return "remainder";
    case Ufunc::floor_divide: return "floor_divide";
    case Ufunc::bitwise_and: return "bitwise_and";
    case Ufunc::bitwise_or: return "bitwise_or";
    case Ufunc::bitwise_xor: return "bitwise_xor";
    case Ufunc::left_shift: return "left_shift";
    case Ufunc::right_shift: return "right_shift";
    case Ufunc::invert: return "invert";
    case Ufunc::maximum: return "maximum";
    case Ufunc::minimum: return "minimum";
    case Ufunc::fmax: return "fmax";
    case Ufunc::fmin: return "fmin";
    case Ufunc::floor: return "floor";
    case Ufunc::ceil: return "ceil";
    case Ufunc::trunc: return "trunc";
    case Ufunc::rint: return "rint";
    case Ufunc::exp2: return "exp2";
    case Ufunc::log2: return "log2";
    case Ufunc::expm1: return "expm1";
    case Ufunc::log1p: return "log1p";
    case Ufunc::cbrt: return "cbrt";
    case Ufunc::sign: return "sign";
    case Ufunc::square: return "square";
    case Ufunc::reciprocal: return "reciprocal";
    case Ufunc::isnan: return "isnan";
    case Ufunc::isinf: return "isinf";
    case Ufunc::isfinite: return "isfinite";
    case Ufunc::signbit: return "signbit";
    case Ufunc::arctan2: return "arctan2";
    case Ufunc::hypot: return "hypot";
    case Ufunc::copysign: return "copysign";
  }
  return "?";
}

}  // namespace plinth::detail
