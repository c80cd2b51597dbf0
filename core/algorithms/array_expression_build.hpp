#pragma once

// Making the nodes of an ArrayExpression (array_expression.cpp; the math functions in
// array_math.cpp use them too).

#include "algorithms/array_expression_node.hpp"
#include "algorithms/array_expression_rules.hpp"

#include <vector>

namespace plinth::detail {

/// Throws LogicError, naming `what`, for dtypes that have no arithmetic (structs).
void check_arithmetic_dtype(const DType& dtype, const char* what);

/// The node's type as promotion sees it.
OperandType operand_type(const NodePtr& node);

/// A node of `op` over `operands`, of result `dtype`, whose operands are converted to
/// `compute`; its shape is the operands' broadcast. Throws LogicError if they do not
/// broadcast.
std::shared_ptr<ExpressionNode> make_node(ExpressionOp op, std::vector<NodePtr> operands,
                                          const DType& dtype, const DType& compute);

}  // namespace plinth::detail
