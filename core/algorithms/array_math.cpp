// The math functions of ArrayExpressions (PyCUDA's cumath): the nodes and their dtypes. The
// code they generate is in array_expression_codegen.cpp.

#include <plinth/array_expression.hpp>

#include "algorithms/array_expression_build.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

namespace plinth {

namespace {

using detail::ExpressionOp;
using detail::MathFunction;

ArrayExpression function(MathFunction f, const ArrayExpression& a, bool complex_allowed = true) {
  const auto type = detail::float_function_type(a.dtype());
  if (!complex_allowed && is_complex(type)) {
    throw LogicError(fmt::format("{}: not defined for complex numbers ({})",
                                 detail::math_function_name(f), a.dtype().name()));
  }
  auto node = detail::make_node(ExpressionOp::function, {detail::Access::impl(a)}, type, type);
  node->function = f;
  return detail::Access::make<ArrayExpression>(node);
}

// pow and fmod: the promoted type, with bools computed as int8 (numpy has no bool loops).
DType integer_or_promoted(const ArrayExpression& a, const ArrayExpression& b) {
  const auto type = detail::promote(detail::operand_type(detail::Access::impl(a)),
                                    detail::operand_type(detail::Access::impl(b)))
                        .dtype;
  return type == DType::boolean() ? DType::int8() : type;
}

}  // namespace

ArrayExpression sin(const ArrayExpression& a) { return function(MathFunction::sin, a); }
ArrayExpression cos(const ArrayExpression& a) { return function(MathFunction::cos, a); }
ArrayExpression tan(const ArrayExpression& a) { return function(MathFunction::tan, a); }
ArrayExpression asin(const ArrayExpression& a) { return function(MathFunction::asin, a); }
ArrayExpression acos(const ArrayExpression& a) { return function(MathFunction::acos, a); }
ArrayExpression atan(const ArrayExpression& a) { return function(MathFunction::atan, a); }
ArrayExpression sinh(const ArrayExpression& a) { return function(MathFunction::sinh, a); }
ArrayExpression cosh(const ArrayExpression& a) { return function(MathFunction::cosh, a); }
ArrayExpression tanh(const ArrayExpression& a) { return function(MathFunction::tanh, a); }
ArrayExpression exp(const ArrayExpression& a) { return function(MathFunction::exp, a); }
ArrayExpression log(const ArrayExpression& a) { return function(MathFunction::log, a); }
ArrayExpression log10(const ArrayExpression& a) { return function(MathFunction::log10, a); }
ArrayExpression sqrt(const ArrayExpression& a) { return function(MathFunction::sqrt, a); }
ArrayExpression fabs(const ArrayExpression& a) { return function(MathFunction::fabs, a, false); }

ArrayExpression abs(const ArrayExpression& a) {
  const auto& type = a.dtype();
  const auto out = is_complex(type) ? real_for(type) : type;
  return detail::Access::make<ArrayExpression>(
      detail::make_node(ExpressionOp::absolute, {detail::Access::impl(a)}, out, type));
}

ArrayExpression pow(const ArrayExpression& a, const ArrayExpression& b) {
  const auto type = integer_or_promoted(a, b);
  const auto* exponent = std::get_if<std::int64_t>(&detail::Access::impl(b)->scalar);
  if (is_integer(type) && b.is_weak_scalar() && exponent != nullptr && *exponent < 0) {
    throw LogicError(
        fmt::format("pow: integers to negative integer powers are not allowed ({} ** {}, as numpy)",
                    type.name(), *exponent));
  }
  return detail::Access::make<ArrayExpression>(detail::make_node(
      ExpressionOp::power, {detail::Access::impl(a), detail::Access::impl(b)}, type, type));
}

ArrayExpression fmod(const ArrayExpression& a, const ArrayExpression& b) {
  const auto type = integer_or_promoted(a, b);
  if (is_complex(type)) {
    throw LogicError(fmt::format("fmod: not defined for complex numbers ({})", type.name()));
  }
  return detail::Access::make<ArrayExpression>(detail::make_node(
      ExpressionOp::fmod, {detail::Access::impl(a), detail::Access::impl(b)}, type, type));
}

ArrayExpression real(const ArrayExpression& a) {
  const auto& type = a.dtype();
  const auto out = is_complex(type) ? real_for(type) : type;
  return detail::Access::make<ArrayExpression>(
      detail::make_node(ExpressionOp::real, {detail::Access::impl(a)}, out, type));
}

ArrayExpression imag(const ArrayExpression& a) {
  const auto& type = a.dtype();
  const auto out = is_complex(type) ? real_for(type) : type;
  return detail::Access::make<ArrayExpression>(
      detail::make_node(ExpressionOp::imag, {detail::Access::impl(a)}, out, type));
}

ArrayExpression conj(const ArrayExpression& a) {
  return detail::Access::make<ArrayExpression>(
      detail::make_node(ExpressionOp::conj, {detail::Access::impl(a)}, a.dtype(), a.dtype()));
}

ArrayExpression where(const ArrayExpression& condition, const ArrayExpression& a,
                      const ArrayExpression& b) {
  const auto type = detail::promote(detail::operand_type(detail::Access::impl(a)),
                                    detail::operand_type(detail::Access::impl(b)))
                        .dtype;
  return detail::Access::make<ArrayExpression>(detail::make_node(
      ExpressionOp::where,
      {detail::Access::impl(condition), detail::Access::impl(a), detail::Access::impl(b)}, type,
      type));
}

}  // namespace plinth
