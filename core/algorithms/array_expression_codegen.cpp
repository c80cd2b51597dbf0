#include "algorithms/array_expression_codegen.hpp"

#include "algorithms/array_expression_float16.hpp"
#include "algorithms/array_expression_rules.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <set>
#include <string_view>

namespace plinth::detail {

namespace {

// The generated code keeps every value in the C type of its dtype, bools as `unsigned char`
// holding 0 or 1 (as they are stored). Complex values are float2/double2 on every backend,
// so every complex operation is a helper function, built member by member (OpenCL C and
// CUDA C++ share no constructor syntax). float16 values are floats (array_expression_float16.hpp).
// Helper names start with `_ax_` and end with the
// dtype's name, so one helper serves every use in a kernel.

std::string c_type(const DType& dtype) {
  if (dtype == DType::boolean()) return "unsigned char";
  if (dtype == DType::float16()) return "float";  // see array_expression_float16.hpp
  return ctype(dtype).as_string();
}

DType unsigned_like(const DType& dtype) {
  switch (dtype.itemsize()) {
    case 1: return DType::uint8();
    case 2: return DType::uint16();
    case 4: return DType::uint32();
    default: return DType::uint64();
  }
}

class Generator final : public CodeHelpers {
 public:
  GeneratedExpression result;

  std::string define_helper(const std::string& name, const std::string& definition) override {
    return helper(name, definition);
  }
  std::string define_complex(const std::string& op, const DType& dtype, int arity,
                             const std::string& body, const std::string& returns) override {
    return complex_helper(op, dtype, arity, body, returns);
  }

  std::string emit_root(const ExpressionNode& root, const DType& out) {
    note(out);
    return emit_as(root, out);
  }

  /// `expr` (a value of `from`) converted to `to` as astype() converts it.
  std::string convert(const std::string& expr, const DType& from, const DType& to) {
    return cast(expr, from, to);
  }

  std::string preamble() const {
    std::string text;
    for (const auto& helper : helpers_) text += helper + "\n";
    return text;
  }

 private:
  std::vector<std::string> helpers_;
  std::set<std::string> helper_names_;
  std::vector<const Buffer*> array_ids_;

  void note(const DType& dtype) {
    if (is_double(dtype)) result.needs_double = true;
  }

  // Defines helper `name` with `definition` (a function) once.
  const std::string& helper(const std::string& name, const std::string& definition) {
    if (helper_names_.insert(name).second) helpers_.push_back(definition);
    return *helper_names_.find(name);
  }

  // --- complex helpers ---

  struct Complex {
    std::string c, r, s;  // the complex type, its component type, the dtype's name
  };
  static Complex names(const DType& dtype) {
    return {c_type(dtype), c_type(real_for(dtype)), dtype.name()};
  }

  std::string make(const DType& dtype) {
    const auto n = names(dtype);
    return helper(
        "_ax_make_" + n.s,
        fmt::format("FUNCTION INLINE {0} _ax_make_{2}({1} re, {1} im) {{ {0} r; r.x = re; "
                    "r.y = im; return r; }}",
                    n.c, n.r, n.s));
  }

  // A complex helper `_ax_<op>_<dtype>` of one or two complex arguments `a`, `b` returning
  // `returns` (empty: the complex type), with `body`; {C}, {R}, {make} are substituted.
  std::string complex_helper(const std::string& op, const DType& dtype, int arity,
                             const std::string& body, const std::string& returns = {}) {
    const auto n = names(dtype);
    const auto mk = make(dtype);
    const auto name = fmt::format("_ax_{}_{}", op, n.s);
    if (helper_names_.count(name) != 0) return name;
    const auto text = fmt::format(fmt::runtime(body), fmt::arg("C", n.c), fmt::arg("R", n.r),
                                  fmt::arg("make", mk), fmt::arg("s", n.s));
    const auto params = arity == 1 ? fmt::format("{} a", n.c) : fmt::format("{0} a, {0} b", n.c);
    return helper(name, fmt::format("FUNCTION INLINE {} {}({}) {{ {} }}",
                                    returns.empty() ? n.c : returns, name, params, text));
  }

  std::string complex_log(const DType& d) {
    return complex_helper("log", d, 1, "return {make}(log(hypot(a.x, a.y)), atan2(a.y, a.x));");
  }
  std::string complex_exp(const DType& d) {
    // C99 Annex G's special values (numpy's too): an imaginary part of ±0 is kept (inf + 0i
    // is inf + 0i, NaN + 0i is NaN + 0i, where e * sin(0) would be NaN); an infinite real
    // part with an imaginary part that is not finite gives ±0 (for -inf) or inf + NaN i.
    return complex_helper(
        "exp", d, 1,
        "if (a.y == 0) return {make}(exp(a.x), a.y); if (isinf(a.x) && !isfinite(a.y)) return "
        "a.x < 0 ? {make}(({R})0, copysign(({R})0, a.y)) : {make}(a.x, a.y - a.y); const {R} e "
        "= exp(a.x); return {make}(e * cos(a.y), e * sin(a.y));");
  }
  std::string complex_div(const DType& d) {
    // Smith's algorithm, as numpy's.
    return complex_helper(
        "div", d, 2,
        "if (fabs(b.x) >= fabs(b.y)) {{ if (b.x == 0 && b.y == 0) return {make}(a.x / "
        "fabs(b.x), a.y / fabs(b.y)); const {R} r = b.y / b.x; const {R} d = b.x + b.y * r; "
        "return {make}((a.x + a.y * r) / d, (a.y - a.x * r) / d); }} const {R} r = b.x / b.y; "
        "const {R} d = b.x * r + b.y; return {make}((a.x * r + a.y) / d, (a.y * r - a.x) / d);");
  }
  std::string complex_mul(const DType& d) {
    return complex_helper("mul", d, 2,
                          "return {make}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);");
  }
  std::string complex_sqrt(const DType& d) {
    return complex_helper(
        "sqrt", d, 1,
        "const {R} r = hypot(a.x, a.y); if (r == 0) return {make}(({R})0, a.y); const {R} t = "
        "sqrt((r + fabs(a.x)) / ({R})2); if (a.x >= 0) return {make}(t, a.y / (({R})2 * t)); "
        "return {make}(fabs(a.y) / (({R})2 * t), copysign(t, a.y));");
  }
  std::string complex_asin(const DType& d) {
    const auto sq = complex_sqrt(d), lg = complex_log(d);
    return complex_helper(
        "asin", d, 1,
        fmt::format("const {{C}} s = {}({{make}}(({{R}})1 - (a.x * a.x - a.y * a.y), "
                    "-(({{R}})2 * a.x * a.y))); const {{C}} l = {}({{make}}(s.x - a.y, s.y + "
                    "a.x)); return {{make}}(l.y, -l.x);",
                    sq, lg));
  }

  std::string complex_function(MathFunction f, const DType& d) {
    switch (f) {
      case MathFunction::exp: return complex_exp(d);
      case MathFunction::log: return complex_log(d);
      case MathFunction::sqrt: return complex_sqrt(d);
      case MathFunction::log10: {
        const auto lg = complex_log(d);
        return complex_helper("log10", d, 1,
                              fmt::format("const {{C}} l = {}(a); const {{R}} k = log(({{R}})10); "
                                          "return {{make}}(l.x / k, l.y / k);",
                                          lg));
      }
      case MathFunction::sin:
        return complex_helper("sin", d, 1,
                              "return {make}(sin(a.x) * cosh(a.y), cos(a.x) * sinh(a.y));");
      case MathFunction::cos:
        return complex_helper("cos", d, 1,
                              "return {make}(cos(a.x) * cosh(a.y), -sin(a.x) * sinh(a.y));");
      case MathFunction::sinh:
        return complex_helper("sinh", d, 1,
                              "return {make}(sinh(a.x) * cos(a.y), cosh(a.x) * sin(a.y));");
      case MathFunction::cosh:
        return complex_helper("cosh", d, 1,
                              "return {make}(cosh(a.x) * cos(a.y), sinh(a.x) * sin(a.y));");
      case MathFunction::tan: {
        const auto s = complex_function(MathFunction::sin, d);
        const auto c = complex_function(MathFunction::cos, d);
        const auto dv = complex_div(d);
        return complex_helper("tan", d, 1, fmt::format("return {}({}(a), {}(a));", dv, s, c));
      }
      case MathFunction::tanh: {
        const auto s = complex_function(MathFunction::sinh, d);
        const auto c = complex_function(MathFunction::cosh, d);
        const auto dv = complex_div(d);
        return complex_helper("tanh", d, 1, fmt::format("return {}({}(a), {}(a));", dv, s, c));
      }
      case MathFunction::asin: return complex_asin(d);
      case MathFunction::acos: {
        const auto as = complex_asin(d);
        return complex_helper(
            "acos", d, 1,
            fmt::format("const {{C}} w = {}(a); return {{make}}(({{R}})1.5707963267948966{} - w.x, "
                        "-w.y);",
                        as, d == DType::complex64() ? "f" : ""));
      }
      case MathFunction::atan: {
        const auto lg = complex_log(d), dv = complex_div(d);
        return complex_helper(
            "atan", d, 1,
            fmt::format("const {{C}} l = {}({}({{make}}(a.x, ({{R}})1 + a.y), {{make}}(-a.x, "
                        "({{R}})1 - a.y))); return {{make}}(-l.y / ({{R}})2, l.x / ({{R}})2);",
                        lg, dv));
      }
      default: break;
    }
    throw LogicError(
        fmt::format("array arithmetic: {} has no complex version", math_function_name(f)));
  }

  // --- conversions ---

  std::string cast(const std::string& expr, const DType& from, const DType& to) {
    note(from);
    note(to);
    if (from == to) return expr;
    if (to == DType::boolean()) {
      if (is_complex(from)) {
        return fmt::format(
            "{}({})",
            complex_helper("nonzero", from, 1, "return (unsigned char)(a.x != 0 || a.y != 0);",
                           "unsigned char"),
            expr);
      }
      return fmt::format("((unsigned char)(({}) != 0))", expr);
    }
    if (is_complex(to)) {
      const auto n = names(to);
      const auto mk = make(to);
      const auto name = fmt::format("_ax_cast_{}_{}", from.name(), to.name());
      const auto body = is_complex(from) ? fmt::format("return {}(({})a.x, ({})a.y);", mk, n.r, n.r)
                                         : fmt::format("return {}(({})a, ({})0);", mk, n.r, n.r);
      helper(name,
             fmt::format("FUNCTION INLINE {} {}({} a) {{ {} }}", n.c, name, c_type(from), body));
      return fmt::format("{}({})", name, expr);
    }
    if (is_complex(from)) {
      throw LogicError(fmt::format(
          "array arithmetic: converting {} to {} would drop the imaginary part (take real())",
          from.name(), to.name()));
    }
    if (to == DType::float16()) return float16_from(expr, from);
    return fmt::format("(({})({}))", c_type(to), expr);
  }

  // `node` as a value of `dtype`: a weak scalar becomes a kernel argument of that type.
  std::string emit_as(const ExpressionNode& node, const DType& dtype) {
    if (node.op == ExpressionOp::scalar) {
      const auto k = result.scalars.size();
      result.scalars.push_back(scalar_argument(node.scalar, dtype));
      const auto name = fmt::format("s{}", k);
      result.args.push_back(ElementwiseArg::scalar(name, kernel_scalar_dtype(dtype)));
      note(dtype);
      return name;
    }
    return cast(emit(node), node.dtype, dtype);
  }

  std::string array_leaf(const Array& array) {
    const Buffer* id = &array.first_element_buffer();
    std::size_t k = 0;
    while (k < array_ids_.size() && array_ids_[k] != id) ++k;
    if (k == array_ids_.size()) {
      array_ids_.push_back(id);
      result.arrays.push_back(kernel_view(array));
      result.args.push_back(
          ElementwiseArg::input(fmt::format("a{}", k), kernel_dtype(array.dtype())));
    }
    const auto element = fmt::format("a{}[i]", k);
    return array.dtype() == DType::float16() ? float16_load(element) : element;
  }

  std::string operand(const ExpressionNode& node, std::size_t k, const DType& dtype) {
    return emit_as(*node.operands[k], dtype);
  }

  std::string arithmetic(const ExpressionNode& node, char op) {
    const auto& t = node.compute;
    const auto a = operand(node, 0, t), b = operand(node, 1, t);
    if (is_complex(t)) {
      switch (op) {
        case '+':
          return fmt::format("{}({}, {})",
                             complex_helper("add", t, 2, "return {make}(a.x + b.x, a.y + b.y);"), a,
                             b);
        case '-':
          return fmt::format("{}({}, {})",
                             complex_helper("sub", t, 2, "return {make}(a.x - b.x, a.y - b.y);"), a,
                             b);
        case '*': return fmt::format("{}({}, {})", complex_mul(t), a, b);
        default: return fmt::format("{}({}, {})", complex_div(t), a, b);
      }
    }
    if (t == DType::boolean()) {
      return fmt::format("((unsigned char)(({}) {} ({})))", a, op == '+' ? '|' : '&', b);
    }
    return fmt::format("(({})(({}) {} ({})))", c_type(t), a, op, b);
  }

  // True if the operand is a weak integer scalar outside the range of `dtype`.
  static bool out_of_range(const ExpressionNode& operand, const DType& dtype) {
    return operand.op == ExpressionOp::scalar && !integer_fits(operand.scalar, dtype);
  }

  // The 64-bit type an operand of an exact integer comparison is compared in: uint64 for
  // uint64 arrays and for scalars above int64's range, int64 for everything else.
  static DType exact_type(const ExpressionNode& operand) {
    if (operand.op == ExpressionOp::scalar) {
      const auto* u = std::get_if<std::uint64_t>(&operand.scalar);
      return u != nullptr && !integer_fits(operand.scalar, DType::int64()) ? DType::uint64()
                                                                           : DType::int64();
    }
    return operand.dtype == DType::uint64() ? DType::uint64() : DType::int64();
  }

  // An integer comparison whose operands the compute type `t` does not hold both exactly (a
  // signed integer against a uint64, or a weak scalar out of t's range), as numpy 2: each
  // operand in int64 or uint64, an int64 against a uint64 by its sign first.
  std::string exact_integer_comparison(const ExpressionNode& node, std::string_view op) {
    const auto& x = *node.operands[0];
    const auto& y = *node.operands[1];
    const auto tx = exact_type(x), ty = exact_type(y);
    const auto a = emit_as(x, tx), b = emit_as(y, ty);
    if (tx == ty) return fmt::format("((unsigned char)(({}) {} ({})))", a, op, b);
    const auto& signed_c = c_type(DType::int64());
    const auto& unsigned_c = c_type(DType::uint64());
    const auto& three_way =
        helper("_ax_cmp_int64_uint64",
               fmt::format("FUNCTION INLINE int _ax_cmp_int64_uint64({0} a, {1} b) {{ if (a < 0) "
                           "return -1; return ({1})a < b ? -1 : (({1})a > b ? 1 : 0); }}",
                           signed_c, unsigned_c));
    const auto order = tx == DType::int64() ? fmt::format("{}({}, {})", three_way, a, b)
                                            : fmt::format("(-{}({}, {}))", three_way, b, a);
    return fmt::format("((unsigned char)({} {} 0))", order, op);
  }

  std::string comparison(const ExpressionNode& node, std::string_view op,
                         std::string_view complex_rule) {
    const auto& t = node.compute;
    const auto& x = *node.operands[0];
    const auto& y = *node.operands[1];
    if (is_integer(t) && ((!x.weak && !y.weak && compares_by_sign(x.dtype, y.dtype)) ||
                          out_of_range(x, t) || out_of_range(y, t))) {
      return exact_integer_comparison(node, op);
    }
    const auto a = operand(node, 0, t), b = operand(node, 1, t);
    if (is_complex(t)) {
      const auto name = fmt::format("{}", complex_rule.substr(0, complex_rule.find(':')));
      const auto rule = complex_rule.substr(complex_rule.find(':') + 1);
      return fmt::format(
          "{}({}, {})",
          complex_helper(name, t, 2, fmt::format("return (unsigned char)({});", rule),
                         "unsigned char"),
          a, b);
    }
    return fmt::format("((unsigned char)(({}) {} ({})))", a, op, b);
  }

  std::string integer_helper(const std::string& op, const DType& t, const std::string& body) {
    const auto name = fmt::format("_ax_{}_{}", op, t.name());
    const auto c = c_type(t);
    return helper(name, fmt::format("FUNCTION INLINE {0} {1}({0} a, {0} b) {{ {2} }}", c, name,
                                    fmt::format(fmt::runtime(body), fmt::arg("T", c),
                                                fmt::arg("U", c_type(unsigned_like(t))))));
  }

  // `a ** b` in the compute type (integers by squaring; see the header for negative
  // exponents).
  std::string power(const ExpressionNode& node) {
    const auto& t = node.compute;
    const auto a = operand(node, 0, t), b = operand(node, 1, t);
    if (is_complex(t)) {
      const auto ex = complex_exp(t), lg = complex_log(t), mu = complex_mul(t);
      const auto name = complex_helper(
          "pow", t, 2,
          fmt::format("if (a.x == 0 && a.y == 0) return (b.x == 0 && b.y == 0) ? "
                      "{{make}}(({{R}})1, ({{R}})0) : {{make}}(({{R}})0, ({{R}})0); return "
                      "{}({}(b, {}(a)));",
                      ex, mu, lg));
      return fmt::format("{}({}, {})", name, a, b);
    }
    if (is_real(t)) return fmt::format("pow({}, {})", a, b);
    const std::string negative =
        is_signed_int(t)
            ? "if (b < 0) return a == 1 ? ({T})1 : (a == ({T})-1 ? ((b & 1) ? ({T})-1 : "
              "({T})1) : ({T})0); "
            : "";
    const auto name = integer_helper(
        "ipow", t,
        negative +
            "{U} base = ({U})a; {U} result = 1; while (b > 0) {{ if (b & 1) result = "
            "({U})(result * base); base = ({U})(base * base); b = ({T})(b >> 1); }} "
            "return ({T})result;");
    return fmt::format("{}({}, {})", name, a, b);
  }

  // `node`'s value; a float16 result of an operation computed in float32 rounded back at once.
  std::string emit(const ExpressionNode& node) {
    auto value = emit_operation(node);
    if (node.dtype == DType::float16() && float16_rounds(node.op)) return float16_round(value);
    return value;
  }

  std::string emit_operation(const ExpressionNode& node) {
    note(node.dtype);
    note(node.compute);
    const auto& t = node.compute;
    switch (node.op) {
      case ExpressionOp::array: return array_leaf(*node.array);
      case ExpressionOp::multi_array:
        throw LogicError(
            "array arithmetic: an expression of MultiArrays runs only by assign() on a "
            "MultiQueue");
      case ExpressionOp::scalar: return emit_as(node, node.dtype);
      case ExpressionOp::add: return arithmetic(node, '+');
      case ExpressionOp::subtract: return arithmetic(node, '-');
      case ExpressionOp::multiply: return arithmetic(node, '*');
      case ExpressionOp::divide: return arithmetic(node, '/');
      case ExpressionOp::equal: return comparison(node, "==", "eq:a.x == b.x && a.y == b.y");
      case ExpressionOp::not_equal: return comparison(node, "!=", "ne:a.x != b.x || a.y != b.y");
      case ExpressionOp::less:
        return comparison(node, "<", "lt:a.x < b.x || (a.x == b.x && a.y < b.y)");
      case ExpressionOp::less_equal:
        return comparison(node, "<=", "le:a.x < b.x || (a.x == b.x && a.y <= b.y)");
      case ExpressionOp::greater:
        return comparison(node, ">", "gt:a.x > b.x || (a.x == b.x && a.y > b.y)");
      case ExpressionOp::greater_equal:
        return comparison(node, ">=", "ge:a.x > b.x || (a.x == b.x && a.y >= b.y)");
      case ExpressionOp::negative: {
        const auto a = operand(node, 0, t);
        if (is_complex(t)) {
          return fmt::format("{}({})", complex_helper("neg", t, 1, "return {make}(-a.x, -a.y);"),
                             a);
        }
        return fmt::format("(({})(-({})))", c_type(t), a);
      }
      case ExpressionOp::absolute: {
        const auto a = operand(node, 0, t);
        if (is_complex(t)) {
          return fmt::format(
              "{}({})", complex_helper("abs", t, 1, "return hypot(a.x, a.y);", c_type(real_for(t))),
              a);
        }
        if (is_real(t)) return fmt::format("fabs({})", a);
        if (!is_signed_int(t)) return a;
        const auto name = fmt::format("_ax_abs_{}", t.name());
        helper(name,
               fmt::format("FUNCTION INLINE {0} {1}({0} a) {{ return a < 0 ? ({0})(-a) : a; }}",
                           c_type(t), name));
        return fmt::format("{}({})", name, a);
      }
      case ExpressionOp::function: {
        const auto a = operand(node, 0, t);
        if (is_complex(t)) return fmt::format("{}({})", complex_function(node.function, t), a);
        return fmt::format("{}({})", math_function_name(node.function), a);
      }
      case ExpressionOp::power: return power(node);
      case ExpressionOp::fmod: {
        const auto a = operand(node, 0, t), b = operand(node, 1, t);
        if (is_real(t)) return fmt::format("fmod({}, {})", a, b);
        const auto name = integer_helper(
            "fmod", t,
            is_signed_int(t) ? "if (b == 0 || b == ({T})-1) return ({T})0; return ({T})(a % b);"
                             : "if (b == 0) return ({T})0; return ({T})(a % b);");
        return fmt::format("{}({}, {})", name, a, b);
      }
      case ExpressionOp::real: {
        const auto a = operand(node, 0, t);
        return is_complex(t) ? fmt::format("({}).x", a) : a;
      }
      case ExpressionOp::imag: {
        const auto a = operand(node, 0, t);
        return is_complex(t) ? fmt::format("({}).y", a) : fmt::format("(({})0)", c_type(t));
      }
      case ExpressionOp::conj: {
        const auto a = operand(node, 0, t);
        if (!is_complex(t)) return a;
        return fmt::format("{}({})", complex_helper("conj", t, 1, "return {make}(a.x, -a.y);"), a);
      }
      case ExpressionOp::where: {
        const auto c = operand(node, 0, DType::boolean());
        const auto a = operand(node, 1, t), b = operand(node, 2, t);
        return fmt::format("(({}) ? ({}) : ({}))", c, a, b);
      }
      case ExpressionOp::cast: return cast(operand(node, 0, t), t, node.dtype);
      case ExpressionOp::ufunc: {
        std::vector<std::string> args;
        for (std::size_t k = 0; k < node.operands.size(); ++k) args.push_back(operand(node, k, t));
        return ufunc_code(node.ufunc, t, args, *this);
      }
    }
    throw LogicError("array arithmetic: unknown operation");
  }
};

}  // namespace

bool is_signed_int(const DType& dtype) { return dtype.kind() == DTypeKind::signed_integer; }

const char* math_function_name(MathFunction function) noexcept {
  switch (function) {
    case MathFunction::sin: return "sin";
    case MathFunction::cos: return "cos";
    case MathFunction::tan: return "tan";
    case MathFunction::asin: return "asin";
    case MathFunction::acos: return "acos";
    case MathFunction::atan: return "atan";
    case MathFunction::sinh: return "sinh";
    case MathFunction::cosh: return "cosh";
    case MathFunction::tanh: return "tanh";
    case MathFunction::exp: return "exp";
    case MathFunction::log: return "log";
    case MathFunction::log10: return "log10";
    case MathFunction::sqrt: return "sqrt";
    case MathFunction::fabs: return "fabs";
  }
  return "?";
}

std::string expression_c_type(const DType& dtype) { return c_type(dtype); }

Array kernel_view(const Array& array) {
  const auto dtype = kernel_dtype(array.dtype());
  if (dtype == array.dtype()) return array;
  const auto& m = array.metadata();
  return Array::from_buffer(
      array.base_buffer(),
      ArrayMetadata(m.shape(), dtype, m.strides(), m.first_element_offset(), m.buffer_size()));
}

GeneratedExpression generate_expression(const ExpressionNode& root, const DType& out_dtype) {
  Generator generator;
  generator.result.args.push_back(ElementwiseArg::output("o", kernel_dtype(out_dtype)));
  const auto value = generator.emit_root(root, out_dtype);
  auto result = std::move(generator.result);
  result.operation =
      fmt::format("o[i] = {};", out_dtype == DType::float16() ? float16_store(value) : value);
  result.preamble = generator.preamble();
  for (const auto& arg : result.args) {
    result.key +=
        fmt::format("{}{}:{},", arg.is_array() ? "a" : "s", arg.name(), arg.dtype().name());
  }
  result.key += "|" + result.operation;
  return result;
}

GeneratedConversion generate_conversion(const std::string& value, const DType& from,
                                        const DType& to) {
  Generator generator;
  GeneratedConversion result;
  // float16 is read and written as its bits, converted as in an expression.
  const auto loaded = from == DType::float16() ? float16_load(value) : value;
  const auto converted = generator.convert(loaded, from, to);
  result.expression = to == DType::float16() ? float16_store(converted) : converted;
  result.preamble = generator.preamble();
  result.from_type = c_type(kernel_dtype(from));
  result.to_type = c_type(kernel_dtype(to));
  result.needs_double = generator.result.needs_double;
  return result;
}

}  // namespace plinth::detail
