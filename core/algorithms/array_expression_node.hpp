#pragma once

// The tree behind an ArrayExpression (include/plinth/array_expression.hpp): immutable nodes,
// shared between the expressions built from them, each with its result dtype and shape
// computed when it is made.

#include <plinth/array.hpp>
#include <plinth/array_expression.hpp>
#include <plinth/dtype.hpp>
#include <plinth/multi_array.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace plinth::detail {

enum class ExpressionOp {
  array,        // a leaf: `array`
  multi_array,  // a leaf: `multi_array`, replaced by its part on a device before it runs
  scalar,       // a leaf: `scalar`, weak
  add,
  subtract,
  multiply,
  divide,
  equal,
  not_equal,
  less,
  less_equal,
  greater,
  greater_equal,
  negative,
  absolute,
  power,
  fmod,
  real,
  imag,
  conj,
  where,
  cast,      // to `dtype`
  function,  // the math function `function`
};

enum class MathFunction {
  sin,
  cos,
  tan,
  asin,
  acos,
  atan,
  sinh,
  cosh,
  tanh,
  exp,
  log,
  log10,
  sqrt,
  floor,
  ceil,
  fabs
};

/// The C name of a math function ("sin", ...).
const char* math_function_name(MathFunction function) noexcept;

struct ExpressionNode {
  ExpressionOp op = ExpressionOp::scalar;
  MathFunction function = MathFunction::sin;
  std::vector<std::shared_ptr<const ExpressionNode>> operands;
  std::optional<Array> array;
  std::optional<MultiArray> multi_array;
  ScalarValue scalar = false;
  /// The result's dtype (a weak scalar's: its kind's default).
  DType dtype = DType::boolean();
  /// The dtype the operands are converted to before the operation (for comparisons
  /// comparison_type(): the promoted type, or int64 for a signed integer against a uint64,
  /// which the code compares exactly; for real/imag/conj/abs/cast the operand's).
  DType compute = DType::boolean();
  bool weak = false;
  std::vector<std::size_t> shape;
};

using NodePtr = std::shared_ptr<const ExpressionNode>;

}  // namespace plinth::detail
