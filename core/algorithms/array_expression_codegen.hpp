#pragma once

// The ElementwiseKernel an ArrayExpression runs as: its declaration, its operation and
// preamble (the helper functions complex numbers and integers need), the arrays and scalar
// values of the call, and the key the kernel is cached by. Generated from the expression's
// tree without a device.

#include "algorithms/array_expression_node.hpp"

#include <plinth/dtype.hpp>
#include <plinth/elementwise.hpp>

#include <string>
#include <vector>

namespace plinth::detail {

struct GeneratedExpression {
  /// The declaration: the output `o` first, then one input `a<k>` per distinct array, then
  /// one scalar `s<k>` per scalar leaf. Bool arrays and scalars are declared uint8.
  std::vector<ElementwiseArg> args;
  /// `o[i] = ...;`
  std::string operation;
  /// Helper functions, each defined once.
  std::string preamble;
  /// The arrays `a<k>`, bool arrays already seen as uint8.
  std::vector<Array> arrays;
  /// The values of `s<k>`, converted to their declared dtypes.
  std::vector<ElementwiseValue> scalars;
  /// Whether some value is computed in double precision.
  bool needs_double = false;
  /// What the kernel is cached by: the declaration's dtypes and the operation.
  std::string key;
};

/// The kernel that computes `root` and stores it converted to `out_dtype` (a C conversion;
/// the caller checks that it is allowed). Throws LogicError if an integer scalar does not fit
/// the type it is used in.
GeneratedExpression generate_expression(const ExpressionNode& root, const DType& out_dtype);

/// A conversion as astype() makes it, for kernels other than the expression's (the tiled
/// copy): the C types values of the two dtypes are kept in, the expression and the helper
/// functions it calls.
struct GeneratedConversion {
  std::string from_type;
  std::string to_type;
  /// The value converted (a C expression of `value`).
  std::string expression;
  std::string preamble;
  bool needs_double = false;
};

/// `value` (a C expression of `from`'s type) converted to `to` as astype() converts it;
/// both dtypes are arithmetic (no float16 or struct). Throws LogicError for complex to real
/// (astype refuses it first).
GeneratedConversion generate_conversion(const std::string& value, const DType& from,
                                        const DType& to);

/// `array` seen as the dtype the kernel declares for it (bool arrays as uint8 over the same
/// memory; others as they are).
Array kernel_view(const Array& array);

}  // namespace plinth::detail
