#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>
#include <plinth/functions.hpp>

#include <fmt/format.h>

#include <string>

namespace plinth::functions {

namespace {

// Functions generate the source of one C function with C++ rather than a template language:
// the text depends only on the dtypes. Complex values are float2/double2 (`.x`, `.y`) on
// every backend, built member by member because OpenCL C and CUDA C++ share no constructor
// syntax.

std::string c(const DType& dtype) { return ctype(dtype).as_string(); }

void check_dtype(const char* factory, const DType& dtype, bool allow_bool = false) {
  const bool supported = !dtype.is_struct() &&
                         !(dtype.kind() == DTypeKind::floating && dtype.itemsize() == 2) &&
                         (allow_bool || dtype.kind() != DTypeKind::boolean);
  if (!supported)
    throw LogicError(
        fmt::format("functions::{}: {} is not supported (integer, float32, float64, complex64 and "
                    "complex128 are{})",
                    factory, dtype.name(), allow_bool ? ", and bool" : ""));
}

// Integers narrower than 32 bits take part in C arithmetic as int (grunnur's result_type
// promotes them likewise).
DType promote(const DType& dtype) {
  if (dtype.itemsize() < 4 && dtype.kind() == DTypeKind::signed_integer) return DType::int32();
  if (dtype.itemsize() < 4 && dtype.kind() == DTypeKind::unsigned_integer) return DType::uint32();
  return dtype;
}

DType component(const DType& dtype) { return is_complex(dtype) ? real_for(dtype) : dtype; }

// The type an operation on `a` and `b` is computed in: their promoted result type, in single
// precision unless `out` is double (so that double appears only where a dtype asks for it).
DType operation_type(const DType& a, const DType& b, const DType& out) {
  const auto type = promote(result_type(a, b));
  if (is_double(type) && !is_double(out))
    return is_complex(type) ? DType::complex64() : DType::float32();
  return type;
}

// A named value in the generated code.
struct Operand {
  std::string name;
  DType dtype;
};

// `expr` (of component type `from`) converted to the component type of `to`.
std::string converted(const std::string& expr, const DType& from, const DType& to) {
  if (component(from) == component(to)) return expr;
  return fmt::format("({}){}", c(component(to)), expr);
}

// The real part of `op` as the component type of `to`.
std::string re(const Operand& op, const DType& to) {
  return converted(is_complex(op.dtype) ? op.name + ".x" : op.name, op.dtype, to);
}

// The imaginary part of `op` as the component type of `to`; empty for a real `op`.
std::string im(const Operand& op, const DType& to) {
  return is_complex(op.dtype) ? converted(op.name + ".y", op.dtype, to) : std::string();
}

// Statements that return `op` converted to `out`.
std::string return_as(const Operand& op, const DType& out) {
  if (!is_complex(out)) return fmt::format("    return {};\n", re(op, out));
  if (op.dtype == out) return fmt::format("    return {};\n", op.name);
  const auto imag = im(op, out);
  return fmt::format("    {} result;\n    result.x = {};\n    result.y = {};\n    return result;\n",
                     c(out), re(op, out), imag.empty() ? "0" : imag);
}

// The body of one C function: `out ${prefix}(params) { body }`. Not INLINE: OpenCL's `inline`
// alone is a C99 inline definition, which emits no symbol, so a call the compiler does not
// inline (at -cl-opt-disable, say) fails to link; compilers inline small functions anyway.
std::string function(const DType& out, const std::string& params, const std::string& body) {
  return fmt::format("FUNCTION {} ${{prefix}}({})\n{{\n{}}}\n", c(out), params, body);
}

Module module(const char* name, std::string text, RenderGlobals globals = {}) {
  return Module::from_string(std::move(text), name, std::move(globals));
}

// Statements that declare `result` = a + b or a * b in `type`.
std::string add_or_mul_step(bool is_mul, const Operand& a, const Operand& b,
                            const std::string& result, const DType& type) {
  if (!is_complex(type)) {
    return fmt::format("    const {} {} = {} {} {};\n", c(type), result, re(a, type),
                       is_mul ? '*' : '+', re(b, type));
  }
  const auto ar = re(a, type), ai = im(a, type), br = re(b, type), bi = im(b, type);
  std::string x, y;
  if (!is_mul) {
    x = fmt::format("{} + {}", ar, br);
    y = ai.empty() ? bi : bi.empty() ? ai : fmt::format("{} + {}", ai, bi);
  } else if (!ai.empty() && !bi.empty()) {
    x = fmt::format("{} * {} - {} * {}", ar, br, ai, bi);
    y = fmt::format("{} * {} + {} * {}", ar, bi, ai, br);
  } else if (!ai.empty()) {
    x = fmt::format("{} * {}", ar, br);
    y = fmt::format("{} * {}", ai, br);
  } else {
    x = fmt::format("{} * {}", ar, br);
    y = fmt::format("{} * {}", ar, bi);
  }
  return fmt::format("    {0} {1};\n    {1}.x = {2};\n    {1}.y = {3};\n", c(type), result, x, y);
}

Module add_or_mul(const char* factory, const std::vector<DType>& in,
                  const std::optional<DType>& out_dtype) {
  if (in.empty())
    throw LogicError(fmt::format("functions::{}: needs at least one input dtype", factory));
  for (const auto& dtype : in) check_dtype(factory, dtype);
  const DType out = out_dtype ? *out_dtype : promote(result_type(std::span<const DType>(in)));
  check_dtype(factory, out);
  const bool is_mul = std::string_view(factory) == "mul";

  std::string params;
  for (std::size_t i = 0; i < in.size(); ++i)
    params += fmt::format("{}{} a{}", i == 0 ? "" : ", ", c(in[i]), i);

  // From the last argument to the first, as grunnur does.
  std::string body;
  Operand last{fmt::format("a{}", in.size() - 1), in.back()};
  for (std::size_t i = in.size() - 1; i-- > 0;) {
    const Operand a{fmt::format("a{}", i), in[i]};
    const auto type = operation_type(a.dtype, last.dtype, out);
    const auto name = fmt::format("t{}", i);
    body += add_or_mul_step(is_mul, a, last, name, type);
    last = Operand{name, type};
  }
  body += return_as(last, out);
  return module(factory, function(out, params, body));
}

}  // namespace

Module cast(const DType& in, const DType& out) {
  check_dtype("cast", in, true);
  check_dtype("cast", out, true);
  if (is_complex(in) && !is_complex(out))
    throw LogicError(fmt::format(
        "functions::cast: from {} to {} would drop the imaginary part; take `.x` explicitly",
        in.name(), out.name()));
  return module("cast", function(out, c(in) + " x", return_as(Operand{"x", in}, out)));
}

Module add(const std::vector<DType>& in, const std::optional<DType>& out) {
  return add_or_mul("add", in, out);
}

Module mul(const std::vector<DType>& in, const std::optional<DType>& out) {
  return add_or_mul("mul", in, out);
}

Module div(const DType& dividend, const DType& divisor, const std::optional<DType>& out_dtype) {
  check_dtype("div", dividend);
  check_dtype("div", divisor);
  const DType out = out_dtype ? *out_dtype : promote(result_type(dividend, divisor));
  check_dtype("div", out);
  const auto type = operation_type(dividend, divisor, out);
  const Operand a{"a", dividend}, b{"b", divisor};
  std::string body;
  if (!is_complex(type)) {
    body = fmt::format("    const {} t = {} / {};\n", c(type), re(a, type), re(b, type));
  } else {
    const auto real = c(real_for(type));
    const auto ar = re(a, type), ai = im(a, type);
    body = fmt::format("    const {} br = {};\n", real, re(b, type));
    std::string x, y;
    if (!is_complex(divisor)) {
      x = fmt::format("{} / br", ar);
      y = fmt::format("{} / br", ai);
    } else {
      body += fmt::format("    const {0} bi = {1};\n    const {0} d = br * br + bi * bi;\n", real,
                          im(b, type));
      if (ai.empty()) {
        x = fmt::format("{} * br / d", ar);
        y = fmt::format("-{} * bi / d", ar);
      } else {
        x = fmt::format("({0} * br + {1} * bi) / d", ar, ai);
        y = fmt::format("({1} * br - {0} * bi) / d", ar, ai);
      }
    }
    body += fmt::format("    {} t;\n    t.x = {};\n    t.y = {};\n", c(type), x, y);
  }
  body += return_as(Operand{"t", type}, out);
  return module("div", function(out, fmt::format("{} a, {} b", c(dividend), c(divisor)), body));
}

Module conj(const DType& dtype) {
  check_dtype("conj", dtype);
  const auto body = is_complex(dtype)
                        ? fmt::format(
                              "    {} result;\n    result.x = a.x;\n    result.y = -a.y;\n"
                              "    return result;\n",
                              c(dtype))
                        : std::string("    return a;\n");
  return module("conj", function(dtype, c(dtype) + " a", body));
}

Module norm(const DType& dtype) {
  check_dtype("norm", dtype);
  if (is_complex(dtype))
    return module(
        "norm", function(real_for(dtype), c(dtype) + " a", "    return a.x * a.x + a.y * a.y;\n"));
  // Narrow integers: C computes in int; the function returns the input type, as grunnur's.
  const auto body = promote(dtype) == dtype ? std::string("    return a * a;\n")
                                            : fmt::format("    return ({})(a * a);\n", c(dtype));
  return module("norm", function(dtype, c(dtype) + " a", body));
}

Module exp(const DType& dtype) {
  check_dtype("exp", dtype);
  if (is_integer(dtype))
    throw LogicError(fmt::format(
        "functions::exp: {} is an integer dtype; cast it to a real or complex one first",
        dtype.name()));
  if (is_real(dtype))
    return module("exp", function(dtype, c(dtype) + " a", "    return exp(a);\n"));
  // C99 Annex G's special values first (numpy's too): an imaginary part of ±0 is kept
  // (inf + 0i is inf + 0i, NaN + 0i is NaN + 0i, where rho * sin(0) would be NaN); an
  // infinite real part with an imaginary part that is not finite gives ±0 (for -inf) or
  // inf + NaN i.
  const auto body = fmt::format(
      "    {0} result;\n"
      "    if (a.y == 0) {{\n        result.x = exp(a.x);\n        result.y = a.y;\n"
      "        return result;\n    }}\n"
      "    if (isinf(a.x) && !isfinite(a.y)) {{\n"
      "        result.x = a.x < 0 ? ({1})0 : a.x;\n"
      "        result.y = a.x < 0 ? copysign(({1})0, a.y) : a.y - a.y;\n"
      "        return result;\n    }}\n"
      "    result = ${{polar_unit_}}(a.y);\n    const {1} rho = exp(a.x);\n"
      "    result.x *= rho;\n    result.y *= rho;\n    return result;\n",
      c(dtype), c(real_for(dtype)));
  return module("exp", function(dtype, c(dtype) + " a", body),
                {{"polar_unit_", polar_unit(real_for(dtype))}});
}

Module polar_unit(const DType& dtype) {
  if (!is_real(dtype) || dtype.itemsize() == 2)
    throw LogicError(fmt::format("functions::polar_unit: theta must be float32 or float64, not {}",
                                 dtype.name()));
  const auto real = c(dtype);
  std::string body = fmt::format("    {} s, c;\n", real);
  if (is_double(dtype)) {
    body += R"(#if defined(PLINTH_CUDA_API) || defined(PLINTH_HIP_API)
    sincos(theta, &s, &c);
#else
    s = sincos(theta, &c);
#endif
)";
  } else {
    // Fast intrinsics exist for single precision only. grunnur tested a macro that no
    // prelude defines; PLINTH_FAST_MATH is the prelude's own (ProgramOptions::fast_math).
    body += R"(#if defined(PLINTH_CUDA_API) || defined(PLINTH_HIP_API)
#if defined(PLINTH_FAST_MATH)
    __sincosf(theta, &s, &c);
#else
    sincosf(theta, &s, &c);
#endif
#else
#if defined(PLINTH_FAST_MATH)
    s = native_sin(theta);
    c = native_cos(theta);
#else
    s = sincos(theta, &c);
#endif
#endif
)";
  }
  body += fmt::format("    {} result;\n    result.x = c;\n    result.y = s;\n    return result;\n",
                      c(complex_for(dtype)));
  return module("polar_unit", function(complex_for(dtype), real + " theta", body));
}

Module polar(const DType& dtype) {
  if (!is_real(dtype) || dtype.itemsize() == 2)
    throw LogicError(fmt::format(
        "functions::polar: rho and theta must be float32 or float64, not {}", dtype.name()));
  const auto complex = complex_for(dtype);
  const auto body = fmt::format(
      "    {} result = ${{polar_unit_}}(theta);\n    result.x *= rho;\n    result.y *= rho;\n"
      "    return result;\n",
      c(complex));
  return module("polar", function(complex, fmt::format("{0} rho, {0} theta", c(dtype)), body),
                {{"polar_unit_", polar_unit(dtype)}});
}

Module pow(const DType& base, const std::optional<DType>& exponent_dtype,
           const std::optional<DType>& out_dtype) {
  check_dtype("pow", base);
  DType exponent = exponent_dtype ? *exponent_dtype : base;
  const DType out = out_dtype ? *out_dtype : base;
  check_dtype("pow", exponent);
  check_dtype("pow", out);
  if (is_complex(exponent))
    throw LogicError(
        fmt::format("functions::pow: the exponent cannot be complex ({})", exponent.name()));
  if (is_real(exponent)) {
    if (is_integer(out))
      throw LogicError(fmt::format(
          "functions::pow: a real exponent ({}) with the integer output {} is not supported",
          exponent.name(), out.name()));
    exponent = component(out);  // as grunnur: a real exponent takes the output's precision
  }

  RenderGlobals globals;
  std::string body;
  if (base != out) {
    globals.insert_or_assign("cast_", cast(base, out));
    body += fmt::format("    const {} base = ${{cast_}}(orig_base);\n", c(out));
  } else {
    body += fmt::format("    const {} base = orig_base;\n", c(out));
  }
  if (is_complex(out)) {
    body += fmt::format(
        "    if (base.x == 0 && base.y == 0 && e != 0)\n    {{\n        {} zero;\n"
        "        zero.x = 0;\n        zero.y = 0;\n        return zero;\n    }}\n",
        c(out));
  } else {
    body += "    if (base == 0 && e != 0)\n        return 0;\n";
  }

  if (is_integer(exponent) && is_real(out)) {
    body += R"(#if defined(PLINTH_CUDA_API) || defined(PLINTH_HIP_API)
    return pow(base, (int)e);
#else
    return pown(base, (int)e);
#endif
)";
  } else if (is_integer(exponent)) {
    // Repeated squaring: |e| costs O(log |e|) multiplications.
    globals.insert_or_assign("mul_", mul({out, out}, out));
    const bool is_signed = exponent.kind() == DTypeKind::signed_integer;
    body += fmt::format("    const {} one = {};\n    {} result = one;\n    {} factor = base;\n",
                        c(out), c_constant(1, out), c(out), c(out));
    body += is_signed ? "    unsigned long n = e < 0 ? 0UL - (unsigned long)e : (unsigned long)e;\n"
                      : "    unsigned long n = e;\n";
    body += R"(    while (n > 0)
    {
        if (n & 1)
            result = ${mul_}(result, factor);
        n >>= 1;
        if (n > 0)
            factor = ${mul_}(factor, factor);
    }
)";
    if (is_signed) {
      globals.insert_or_assign("div_", div(out, out, out));
      body += "    return e < 0 ? ${div_}(one, result) : result;\n";
    } else {
      body += "    return result;\n";
    }
  } else if (is_real(out)) {
    body += "    return pow(base, e);\n";
  } else {
    globals.insert_or_assign("polar_", polar(real_for(out)));
    body += fmt::format(
        "    const {0} base_squared = base.x * base.x + base.y * base.y;\n"
        "    const {0} angle = atan2(base.y, base.x);\n"
        "    return ${{polar_}}(pow(base_squared, e / 2), angle * e);\n",
        c(real_for(out)));
  }
  return module("pow", function(out, fmt::format("{} orig_base, {} e", c(base), c(exponent)), body),
                std::move(globals));
}

}  // namespace plinth::functions
