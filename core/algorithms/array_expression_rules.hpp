#pragma once

// The pure rules of array arithmetic (include/plinth/array_expression.hpp), with no device:
// numpy's type promotion with weak C++ scalars (NEP 50), the result types of true division
// and of the math functions, same_kind casting, broadcasting, and converting a scalar to the
// type it is used in. Exported for the unit tests (tests/core/algorithms/).

#include <plinth/array_expression.hpp>
#include <plinth/dtype.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace plinth::detail {

/// An operand's type as promotion sees it: a dtype, or (weak) only the kind of a C++ scalar,
/// whose `dtype` is then the default type of that kind.
struct OperandType {
  DType dtype;
  bool weak = false;
};

/// The default type of a scalar kind: bool, int64 (for both integer kinds), float64,
/// complex128. Throws LogicError for structs.
PLINTH_EXPORT DType default_dtype(DTypeKind kind);

/// The type of a weak scalar `value`: default_dtype of its kind.
PLINTH_EXPORT DType scalar_default_dtype(const ScalarValue& value) noexcept;

/// numpy 2's result type of a binary operation on `a` and `b`: result_type of two dtypes;
/// a weak operand of a kind not above the other's takes the other's type, one of a higher
/// kind gives the default type of its kind (complex64 for a float32 or float16 partner);
/// two weak operands give the default type of the higher kind, not weak. Throws LogicError
/// for structs.
PLINTH_EXPORT OperandType promote(const OperandType& a, const OperandType& b);

/// True for a comparison of a signed integer dtype with uint64: numpy's promotion gives
/// float64, which is not exact beyond 2^53, so such pairs compare exactly as 64-bit integers
/// (the signed value's sign first, then as uint64), as numpy 2 does.
PLINTH_EXPORT bool compares_by_sign(const DType& a, const DType& b) noexcept;

/// The type a comparison of `a` and `b` computes in: promote(), except int64 for a strong
/// signed integer against a strong uint64 (compares_by_sign). An integer weak scalar outside
/// that type's range is compared exactly too (int8 < 1000 is true, as numpy 2): see
/// integer_fits. Throws LogicError for structs.
PLINTH_EXPORT DType comparison_type(const OperandType& a, const OperandType& b);

/// True if `value` is a bool or an integer within the range of the integer or bool `dtype`
/// (a bool only for bool); false for reals, complex values and other dtypes. Throws nothing.
PLINTH_EXPORT bool integer_fits(const ScalarValue& value, const DType& dtype) noexcept;

/// The type of numpy's true division: promote(), then float64 for bools and integers.
PLINTH_EXPORT DType true_divide_type(const OperandType& a, const OperandType& b);

/// The type a math function (sin, exp, ...) computes in for an operand of `dtype`: the dtype
/// itself for reals and complex, float16 for bool and integers of 1 byte, float32 for those of
/// 2 bytes, float64 for wider integers (numpy's).
PLINTH_EXPORT DType float_function_type(const DType& dtype);

/// numpy's `can_cast(from, to, 'same_kind')` for scalar dtypes: a safe cast, or a cast to a
/// kind not lower in the order bool < unsigned < signed < real < complex.
PLINTH_EXPORT bool can_cast_same_kind(const DType& from, const DType& to);

/// numpy's broadcast of two shapes. Throws LogicError naming both shapes if they do not
/// broadcast.
PLINTH_EXPORT std::vector<std::size_t> broadcast_shapes(std::span<const std::size_t> a,
                                                        std::span<const std::size_t> b);

/// "(2, 3)" ("()" for zero dimensions, "(5,)" for one, as numpy).
PLINTH_EXPORT std::string shape_text(std::span<const std::size_t> shape);

/// The dtype a kernel declares for arrays of `dtype`: uint8 for bool (kernels take no bool
/// arguments), uint16 for float16 (its bits: kernels have no float16 type), the dtype itself
/// otherwise.
PLINTH_EXPORT DType kernel_dtype(const DType& dtype);

/// The dtype a kernel declares for scalars of `dtype`: kernel_dtype(), except float32 for
/// float16 (a value float16 holds exactly, as the kernel computes float16 in float32).
PLINTH_EXPORT DType kernel_scalar_dtype(const DType& dtype);

/// `value` as a kernel argument of kernel_dtype(`dtype`) (the type a weak scalar is used in):
/// bools as 0 or 1; integers checked against an integer dtype's range; reals rounded to
/// float32 where `dtype` is float32 or complex64, to float16 where it is float16 (numpy's
/// rounding, from the double directly; beyond 65504 ±inf). Throws LogicError for an integer that
/// does not fit an integer `dtype` (numpy's OverflowError), a real for an integer or bool `dtype`,
/// a complex value for a non-complex one.
PLINTH_EXPORT ElementwiseValue scalar_argument(const ScalarValue& value, const DType& dtype);

/// The value as text ("true", "-3", "2.5", "(1+2j)").
PLINTH_EXPORT std::string scalar_text(const ScalarValue& value);

}  // namespace plinth::detail
