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

/// Whether `dtype` is a signed integer (int8 to int64).
bool is_signed_int(const DType& dtype);

struct GeneratedExpression {
  /// The declaration: the output `o` first, then one input `a<k>` per distinct array, then
  /// one scalar `s<k>` per scalar leaf. Bool arrays and scalars are declared uint8, float16
  /// arrays uint16 (their bits), float16 scalars float32.
  std::vector<ElementwiseArg> args;
  /// `o[i] = ...;`
  std::string operation;
  /// Helper functions, each defined once.
  std::string preamble;
  /// The arrays `a<k>`, bool arrays already seen as uint8, float16 ones as uint16.
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
/// both dtypes are arithmetic (no struct). A float16 is read and written as its bits
/// (`from_type`/`to_type` unsigned short). Throws LogicError for complex to real
/// (astype refuses it first).
GeneratedConversion generate_conversion(const std::string& value, const DType& from,
                                        const DType& to);

/// What the code of a Ufunc asks of the generator (array_ufunc_codegen.cpp).
class CodeHelpers {
 public:
  virtual ~CodeHelpers() = default;
  /// Defines the helper function `name` by `definition` once in the preamble; returns `name`.
  virtual std::string define_helper(const std::string& name, const std::string& definition) = 0;
  /// Defines the complex helper `_ax_<op>_<dtype>` of `arity` (1 or 2) complex arguments `a`
  /// and `b` returning `returns` (empty: the complex type), with `body` in which {C}, {R} and
  /// {make} stand for the complex type, its component type and the helper making one from
  /// two components; returns its name.
  virtual std::string define_complex(const std::string& op, const DType& dtype, int arity,
                                     const std::string& body, const std::string& returns) = 0;
};

/// The C code of `ufunc` over `args` (C expressions of the node's compute dtype `t`), of the
/// C type of the node's result (bools as `unsigned char` 0 or 1). Throws LogicError for a
/// dtype the ufunc has no code for (the builders refuse those first).
std::string ufunc_code(Ufunc ufunc, const DType& t, const std::vector<std::string>& args,
                       CodeHelpers& helpers);

/// The C type values of `dtype` are kept in by expression kernels (`unsigned char` for bool).
std::string expression_c_type(const DType& dtype);

/// `array` seen as the dtype the kernel declares for it (bool arrays as uint8, float16 ones as
/// uint16, over the same memory; others as they are).
Array kernel_view(const Array& array);

}  // namespace plinth::detail
