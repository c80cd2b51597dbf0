#pragma once

/// \file
/// Array arithmetic (PyCUDA's GPUArray operators and `cumath`, CuPy's `fuse`): operators and
/// math functions over Arrays and C++ scalars build a lazy ArrayExpression, which runs as one
/// generated ElementwiseKernel when it is evaluated on a queue.
///
///     #include <plinth/array_expression.hpp>
///     Array result = evaluate(queue, gpu_array * 2.0);        // PyCUDA's first example
///     ArrayExpression e = x * 2.0f + y;                       // nothing runs yet
///     assign(queue, out, e);                                  // into an existing array or view
///     Array s = evaluate(queue, sin(x) * exp(-x));            // one kernel, no temporaries
///
/// **Dtypes** follow numpy 2 (NEP 50). Arrays combine by result_type(). C++ scalars are
/// *weak*, like Python scalars: only their kind counts (bool < integer < real < complex), so
/// `float32 * 2.0` is float32, `int8 + 1` is int8, `int32 * 2.5` is float64, `float32 * 1i`
/// is complex64, `bool + 1` is int64; a scalar of a higher kind than the array gives the
/// default type of its kind at the array's precision where that applies (float64, int64,
/// complex64 for float32 arrays, complex128 otherwise). A real or complex scalar used as
/// float32 or complex64 is rounded to float32 (`complex64 * 0.1` multiplies by 0.1f; beyond
/// float32's range it is inf), as numpy's. An integer scalar must fit the type it is used in
/// by arithmetic: `int8 + 1000` or `uint8 + -1` throws LogicError at evaluation (numpy's
/// OverflowError). Two weak scalars combine to the default type of their higher kind (bool,
/// int64, float64, complex128), no longer weak. Comparisons give bool (compared in the
/// promoted type; complex numbers compare lexicographically, as numpy's), and integers
/// compare exactly, as numpy 2's: a scalar out of the array's range compares as its value
/// (`int8 < 1000` is all true, `uint8 == -1` all false, `int64 < 2**63` all true), and a
/// signed integer against a uint64 compares by sign first, not through float64. True division `/`
/// of integers or bools gives float64 (int8 too). Math functions of bool and 8-bit integers
/// give float16, of 16-bit integers float32, of wider integers float64, as numpy's. `abs` of a
/// complex is its real type. `pow` and `fmod` of bools compute in int8.
/// Integer arithmetic wraps around as numpy's does. An integer `pow` with a negative weak
/// scalar exponent throws LogicError (numpy raises); with a negative exponent from an array
/// (which a kernel cannot refuse) it gives 0, or ±1 for a base of ±1. Integer `fmod`, `%`
/// and floor_divide() by 0 give 0 (numpy warns and gives 0 too).
///
/// **float16** is computed as numpy computes it, bit for bit: each operation whose result
/// dtype is float16 (`+ - * /`, pow, fmod, the math functions) is computed in float32 and
/// rounded back to float16 at once (to nearest, ties to even; beyond 65504 ±inf; subnormals
/// kept), so `x * y + z` is `round(round(x * y) + z)`, as numpy's. float16 with int8, uint8 or
/// bool is float16, with 16-bit integers or float32 float32 (numpy 2's result_type); a weak
/// real or integer scalar used as float16 is rounded to float16 from the double directly
/// (`float16 * 0.1` multiplies by 0.0999755859375; `float16 + 100000` is inf), a weak complex
/// gives complex64. Conversions to float16 round once, from float64 too. Math functions may
/// differ from numpy's in the last float16 bit where the device's float32 function and
/// numpy's round differently (sqrt, floor, ceil, fabs, fmod are exact).
///
/// **Shapes** broadcast by numpy's rules when the expression is built (LogicError naming
/// both shapes otherwise). Arrays may be any view (negative strides, offsets, broadcast
/// extents), of any scalar dtype (float16 included) but structs; bool arrays are stored one
/// byte per element (0 or 1), float16 ones as IEEE binary16.
///
/// **Evaluation** generates one ElementwiseKernel per expression *structure*: the operations,
/// the dtypes, which leaves are scalars and the type each scalar is used in. Scalar values are
/// kernel arguments, so `x * 2` and `x * 3` share one kernel; an array used twice (`x * x`) is
/// passed once. The kernels are kept in a process-wide cache (thread-safe, least recently used
/// dropped beyond 256), and each keeps its compiled programs (ElementwiseKernel). Every array
/// of an expression must be on the queue's device. An expression holds its arrays (shared
/// handles), so it may outlive the variables it was built from; it reads them when it runs.
///
/// Note that `==` and `!=` on Arrays and ArrayExpressions build expressions (elementwise
/// comparisons, as numpy's), so they do not compare handles. The math functions are named as
/// the C library's (`sin`, `exp`, `abs`, ...) in namespace plinth: inside that namespace,
/// call the C++ ones as `std::sin`.

#include <plinth/array.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>

#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace plinth {

namespace detail {
struct ExpressionNode;
/// A C++ scalar as an expression keeps it: exactly, integers as 64 bits, reals as double.
using ScalarValue = std::variant<bool, std::int64_t, std::uint64_t, double, std::complex<double>>;
PLINTH_EXPORT std::shared_ptr<const ExpressionNode> array_leaf(const Array& array);
PLINTH_EXPORT std::shared_ptr<const ExpressionNode> multi_array_leaf(const MultiArray& array);
PLINTH_EXPORT std::shared_ptr<const ExpressionNode> scalar_leaf(const ScalarValue& value);
PLINTH_EXPORT std::shared_ptr<const ExpressionNode> typed_scalar_leaf(const ScalarValue& value,
                                                                      const DType& dtype);
template <class T>
ScalarValue to_scalar_value(T value) {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return value;
  } else if constexpr (std::is_integral_v<U>) {
    if constexpr (std::is_signed_v<U>) {
      return static_cast<std::int64_t>(value);
    } else {
      return static_cast<std::uint64_t>(value);
    }
  } else if constexpr (std::is_floating_point_v<U>) {
    return static_cast<double>(value);
  } else {
    return std::complex<double>(value);
  }
}
}  // namespace detail

/// The C++ scalar types an ArrayExpression takes: bool, integers up to 64 bits (char types
/// included), float, double, std::complex<float> and std::complex<double>.
template <class T>
concept ExpressionScalar =
    std::integral<std::remove_cvref_t<T>> || std::same_as<std::remove_cvref_t<T>, float> ||
    std::same_as<std::remove_cvref_t<T>, double> ||
    std::same_as<std::remove_cvref_t<T>, std::complex<float>> ||
    std::same_as<std::remove_cvref_t<T>, std::complex<double>>;

/// A lazy elementwise expression over Arrays and scalars (see the file comment): built by the
/// operators and functions below, run by evaluate() or assign(). Arrays and C++ scalars
/// convert to it implicitly. A value type, cheap to copy (copies share an immutable tree);
/// any thread may use it.
class PLINTH_EXPORT ArrayExpression {
 public:
  /// The array as an expression leaf. Throws LogicError for struct dtypes.
  ArrayExpression(const Array& array);  // NOLINT(google-explicit-constructor)
  /// A MultiArray leaf: such an expression runs only by assign() on a MultiQueue, where each
  /// device uses its part (its shape in broadcasting is the whole array's, and each device's
  /// part's when it runs). Throws LogicError for struct dtypes.
  ArrayExpression(const MultiArray& array);  // NOLINT(google-explicit-constructor)
  /// A weak scalar leaf (its kind counts, not its C++ type). Throws nothing but bad_alloc.
  template <ExpressionScalar T>
  ArrayExpression(T value)  // NOLINT(google-explicit-constructor)
      : node_(detail::scalar_leaf(detail::to_scalar_value(value))) {}

  /// The dtype the expression evaluates to (for a weak scalar: the default type of its kind,
  /// bool, int64, float64 or complex128).
  const DType& dtype() const noexcept;
  /// The broadcast shape of its arrays (empty, zero dimensions, for scalars only).
  const std::vector<std::size_t>& shape() const noexcept;
  /// True for a C++ scalar leaf (weak: it takes the type of what it is combined with).
  bool is_weak_scalar() const noexcept;

 private:
  friend struct detail::Access;

  explicit ArrayExpression(std::shared_ptr<const detail::ExpressionNode> node)
      : node_(std::move(node)) {}
  const std::shared_ptr<const detail::ExpressionNode>& impl() const noexcept { return node_; }

  std::shared_ptr<const detail::ExpressionNode> node_;
};

/// A *strong* scalar of `dtype` (numpy's scalars, such as `np.float32(2)`, and 0-d arrays):
/// unlike a weak C++ scalar, it takes part in promotion as an array of `dtype` does, so
/// `float32_array * typed_scalar(2.0, float64)` is float64 and `int8_array +
/// typed_scalar(1, int16)` is int16; `typed_scalar(1, int8) + 1` is int8. `value` is taken as
/// `dtype` holds it: a real is rounded to float32 or float16 (once, to nearest even), a
/// complex to complex64, for those dtypes. Its value is a kernel argument, as a weak
/// scalar's. Throws LogicError for a struct dtype, for a value of a higher kind than the
/// dtype's (a real for an integer dtype, a complex for a real one, anything but a bool for
/// bool; convert with astype() instead) and for an integer out of the dtype's range.
template <ExpressionScalar T>
ArrayExpression typed_scalar(T value, const DType& dtype) {
  return detail::Access::make<ArrayExpression>(
      detail::typed_scalar_leaf(detail::to_scalar_value(value), dtype));
}

// --- Operators (numpy's ufuncs); they throw LogicError when the shapes do not broadcast ---

/// `a + b` (for bools: logical or).
PLINTH_EXPORT ArrayExpression operator+(const ArrayExpression& a, const ArrayExpression& b);
/// `a - b`. Throws LogicError for two bool operands (as numpy).
PLINTH_EXPORT ArrayExpression operator-(const ArrayExpression& a, const ArrayExpression& b);
/// `a * b` (for bools: logical and).
PLINTH_EXPORT ArrayExpression operator*(const ArrayExpression& a, const ArrayExpression& b);
/// True division (numpy's `/`): integers and bools give float64.
PLINTH_EXPORT ArrayExpression operator/(const ArrayExpression& a, const ArrayExpression& b);
/// `-a`. Throws LogicError for bool (as numpy). Unsigned integers wrap around.
PLINTH_EXPORT ArrayExpression operator-(const ArrayExpression& a);
///@{
/// Elementwise comparisons, giving bool.
PLINTH_EXPORT ArrayExpression operator==(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression operator!=(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression operator<(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression operator<=(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression operator>(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression operator>=(const ArrayExpression& a, const ArrayExpression& b);
///@}

// --- Math functions (PyCUDA's cumath); real and complex unless said otherwise ---

///@{
/// The trigonometric, inverse trigonometric and hyperbolic functions (radians), in the float
/// type of the math functions (see the file comment: integers and bools give floats).
PLINTH_EXPORT ArrayExpression sin(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression cos(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression tan(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression asin(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression acos(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression atan(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression sinh(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression cosh(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression tanh(const ArrayExpression& a);
///@}
/// e^a; of a complex, with C99 Annex G's special values, as numpy's (`inf + 0j` gives
/// `inf + 0j`, `nan + 0j` gives `nan + 0j`).
PLINTH_EXPORT ArrayExpression exp(const ArrayExpression& a);
///@{
/// The natural and decimal logarithms, in the float type of the math functions (0 gives
/// -inf, a negative real NaN; use a complex dtype for complex results).
PLINTH_EXPORT ArrayExpression log(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression log10(const ArrayExpression& a);
///@}
/// The principal square root (a negative real gives NaN, as numpy's; use a complex dtype
/// for complex roots).
PLINTH_EXPORT ArrayExpression sqrt(const ArrayExpression& a);
///@{
/// Rounding down / up / toward zero, in the operand's dtype (numpy >= 2.1: integers and bools
/// keep their dtype and value). Throws LogicError for complex.
PLINTH_EXPORT ArrayExpression floor(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression ceil(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression trunc(const ArrayExpression& a);
///@}
/// The absolute value in the same dtype (integers stay integers); the modulus, in the real
/// type, for complex.
PLINTH_EXPORT ArrayExpression abs(const ArrayExpression& a);
/// The absolute value as a float (numpy's fabs). Throws LogicError for complex.
PLINTH_EXPORT ArrayExpression fabs(const ArrayExpression& a);
/// `a` to the power `b` in their promoted dtype (see the file comment for integers; a complex
/// base of 0 gives 1 for an exponent of 0 and 0 otherwise).
PLINTH_EXPORT ArrayExpression pow(const ArrayExpression& a, const ArrayExpression& b);
/// The remainder of truncated division, with the sign of `a` (C's fmod, `%` for integers).
/// Throws LogicError for complex operands.
PLINTH_EXPORT ArrayExpression fmod(const ArrayExpression& a, const ArrayExpression& b);
/// The real part (the value itself for a real dtype), in the real type.
PLINTH_EXPORT ArrayExpression real(const ArrayExpression& a);
/// The imaginary part, in the real type (0 of the same dtype for a real dtype).
PLINTH_EXPORT ArrayExpression imag(const ArrayExpression& a);
/// The complex conjugate (the value itself for a real dtype).
PLINTH_EXPORT ArrayExpression conj(const ArrayExpression& a);

// --- numpy's operators and functions beyond C's (issue 30); elementwise, fusable as above ---

/// numpy's remainder (Python's `%`): the result has the sign of the divisor (`-7 % 3` is 2).
/// Reals as numpy's np.remainder: `x % 0` is NaN, `x % ±inf` is x (or ±inf where the signs
/// differ), `inf % y` is NaN, a zero result has the divisor's sign. Integers: `x % 0` is 0
/// (numpy warns and gives 0). Bools compute as int8. Throws LogicError for complex.
PLINTH_EXPORT ArrayExpression operator%(const ArrayExpression& a, const ArrayExpression& b);
/// The same as `a % b`.
PLINTH_EXPORT ArrayExpression remainder(const ArrayExpression& a, const ArrayExpression& b);
/// numpy's floor_divide (Python's `//`): the quotient rounded toward -inf, in the promoted
/// dtype (bools as int8). Reals as numpy's (`x // 0` is x / 0: ±inf or NaN; `inf // y` is
/// NaN). Integers: `x // 0` is 0 and `INT_MIN // -1` wraps to INT_MIN, as numpy's. Throws
/// LogicError for complex.
PLINTH_EXPORT ArrayExpression floor_divide(const ArrayExpression& a, const ArrayExpression& b);
/// numpy's divmod: {floor_divide(a, b), a % b}. Throws as those.
PLINTH_EXPORT std::pair<ArrayExpression, ArrayExpression> divmod(const ArrayExpression& a,
                                                                 const ArrayExpression& b);
///@{
/// Bitwise and / or / exclusive or of integers and bools (bool with bool gives bool), in the
/// promoted dtype. Throws LogicError naming the dtype for reals and complex (and for an int64
/// with a uint64, which numpy promotes to float64).
PLINTH_EXPORT ArrayExpression operator&(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression operator|(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression operator^(const ArrayExpression& a, const ArrayExpression& b);
///@}
///@{
/// Shifts of integers (bools as int8), in the promoted dtype, as numpy's: a shift by the bit
/// width or more, or by a negative count, gives 0 (-1 shifting a negative value right); a
/// left shift wraps around. Throws LogicError naming the dtype for reals and complex.
PLINTH_EXPORT ArrayExpression operator<<(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression operator>>(const ArrayExpression& a, const ArrayExpression& b);
///@}
/// Bitwise not of an integer; logical not of a bool. Throws LogicError for reals and complex.
PLINTH_EXPORT ArrayExpression operator~(const ArrayExpression& a);
///@{
/// numpy's logical functions: bool, for operands of any dtype (non-zero is true; a complex
/// is true where either part is non-zero; NaN is true).
PLINTH_EXPORT ArrayExpression logical_and(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression logical_or(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression logical_xor(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression logical_not(const ArrayExpression& a);
///@}
///@{
/// The larger / smaller of `a` and `b` in the promoted dtype, NaN if either is NaN (numpy's
/// maximum/minimum; complex numbers compare lexicographically, a NaN in either part
/// propagates). Between -0.0 and 0.0 they pick as numpy's loops: maximum(-0.0, 0.0) is 0.0,
/// maximum(0.0, -0.0) is -0.0.
PLINTH_EXPORT ArrayExpression maximum(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression minimum(const ArrayExpression& a, const ArrayExpression& b);
///@}
///@{
/// As maximum/minimum, but a NaN loses to a number (numpy's fmax/fmin; NaN only if both are).
PLINTH_EXPORT ArrayExpression fmax(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression fmin(const ArrayExpression& a, const ArrayExpression& b);
///@}
/// numpy's clip: minimum(maximum(a, lo), hi), so NaN propagates and lo > hi gives hi.
PLINTH_EXPORT ArrayExpression clip(const ArrayExpression& a, const ArrayExpression& lo,
                                   const ArrayExpression& hi);
/// Rounding to the nearest integer, halves to even (numpy's rint): in the float type of the
/// math functions (integers give floats, as numpy's); complex rounds both parts.
PLINTH_EXPORT ArrayExpression rint(const ArrayExpression& a);
/// numpy's round/around to `decimals` places: rint(a * 10^d) / 10^d (negative d: rint(a /
/// 10^-d) * 10^-d, the factor in a's precision, as numpy's); integers keep their dtype (the
/// value itself for d >= 0; for d < 0 computed in float64 and converted back, a result out of
/// the dtype's range wrapping around, as numpy's int8 and int16 do, where numpy's own
/// conversion of wider ones is platform-defined); bools give the float type, as numpy's.
PLINTH_EXPORT ArrayExpression round(const ArrayExpression& a, int decimals = 0);
///@{
/// 2^a, log2, e^a - 1 and log(1 + a) (accurate near 0), in the float type of the math
/// functions; complex as numpy's (exp2 as exp(a ln 2)).
PLINTH_EXPORT ArrayExpression exp2(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression log2(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression expm1(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression log1p(const ArrayExpression& a);
///@}
/// The real cube root, in the float type of the math functions. Throws LogicError for complex.
PLINTH_EXPORT ArrayExpression cbrt(const ArrayExpression& a);
/// -1, 0 or 1 in a's dtype (NaN for NaN; 0 for -0.0); of a complex, numpy 2's a / |a| (0 for
/// 0; NaN + NaN i for a NaN part or two infinite parts; ±1 or ±i along one infinite part).
/// Throws LogicError for bool (as numpy).
PLINTH_EXPORT ArrayExpression sign(const ArrayExpression& a);
/// a * a in a's dtype (bools as int8; integers wrap around).
PLINTH_EXPORT ArrayExpression square(const ArrayExpression& a);
/// 1 / a in a's dtype (bools as int8). Integers divide as integers (1 for 1, -1 for -1, 0
/// otherwise) and 1 / 0 gives 0 (numpy's gives 0, or INT_MIN for 64-bit integers).
PLINTH_EXPORT ArrayExpression reciprocal(const ArrayExpression& a);
///@{
/// Bool predicates of any dtype (integers and bools are finite, never NaN or infinite; a
/// complex is NaN or infinite where either part is).
PLINTH_EXPORT ArrayExpression isnan(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression isinf(const ArrayExpression& a);
PLINTH_EXPORT ArrayExpression isfinite(const ArrayExpression& a);
///@}
/// True where the sign bit is set (-0.0 and -NaN included; negative integers). Throws
/// LogicError for complex.
PLINTH_EXPORT ArrayExpression signbit(const ArrayExpression& a);
///@{
/// atan2(y, x), hypot and copysign, in the float type of the math functions of the promoted
/// dtype. Throw LogicError for complex.
PLINTH_EXPORT ArrayExpression arctan2(const ArrayExpression& y, const ArrayExpression& x);
PLINTH_EXPORT ArrayExpression hypot(const ArrayExpression& a, const ArrayExpression& b);
PLINTH_EXPORT ArrayExpression copysign(const ArrayExpression& a, const ArrayExpression& b);
///@}
/// The argument of a complex, in its real type; of a real, arctan2(0, a) as numpy's (0, or pi
/// for negative values and -0.0; the float type of arctan2 with a weak 0: bool gives float64).
PLINTH_EXPORT ArrayExpression angle(const ArrayExpression& a);
/// numpy 2's isclose: bool, |a - b| <= atol + rtol * |b| where b is finite, or a == b (so
/// infinities are close only to the same infinity); NaNs are close to each other only with
/// `equal_nan`. b is first converted to result_type(b, 1.0) (integers to float64), as numpy's.
PLINTH_EXPORT ArrayExpression isclose(const ArrayExpression& a, const ArrayExpression& b,
                                      double rtol = 1e-5, double atol = 1e-8,
                                      bool equal_nan = false);
/// True if isclose() holds for every element (numpy's allclose): evaluates on `queue` and
/// waits for it. Throws as isclose() and evaluate().
PLINTH_EXPORT bool allclose(const Queue& queue, const ArrayExpression& a, const ArrayExpression& b,
                            double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false);
/// True if `a` and `b` have the same shape and equal elements (numpy's array_equal; NaNs
/// equal each other only with `equal_nan`); false, without running anything, for different
/// shapes. Evaluates on `queue` and waits for it. Throws as evaluate().
PLINTH_EXPORT bool array_equal(const Queue& queue, const ArrayExpression& a,
                               const ArrayExpression& b, bool equal_nan = false);

/// numpy's `where`: `a` where `condition` is true (non-zero), `b` elsewhere, in the promoted
/// dtype of `a` and `b`; the three shapes broadcast together.
PLINTH_EXPORT ArrayExpression where(const ArrayExpression& condition, const ArrayExpression& a,
                                    const ArrayExpression& b);
/// `a` converted to `dtype` as numpy's `astype` (C's conversions: reals to integers
/// truncate; anything to bool is `!= 0`; to float16 rounded to nearest even, once). Throws
/// LogicError for a complex `a` with a non-complex `dtype` (take real() explicitly), and for
/// struct dtypes.
PLINTH_EXPORT ArrayExpression astype(const ArrayExpression& a, const DType& dtype);

// --- Evaluation ---

/// Runs `expression` on `queue` into a new C-order array of its shape and dtype on the
/// queue's device. Asynchronous, as a kernel launch. Throws LogicError if an array of the
/// expression is on another device, if the expression holds a MultiArray (use the MultiQueue
/// assign()), if an integer scalar does not fit the type it is used in, or if a
/// double-precision type is needed on a device without doubles; CompileError, BackendError,
/// OutOfMemoryError.
PLINTH_EXPORT Array evaluate(const Queue& queue, const ArrayExpression& expression);

/// Runs `expression` on `queue` into `out` (any view; on the queue's device), converting
/// to out's dtype as numpy's ufuncs do with `out=` (`casting='same_kind'`: safe conversions,
/// or conversions within a kind order bool < unsigned < signed < real < complex, such as
/// float64 → float32 or int64 → int8, but not float → integer or int → unsigned).
/// The expression's shape must broadcast to out's. Where `out` overlaps an array of the
/// expression other than element for element (the same view), the expression is evaluated
/// into a temporary array first. Throws LogicError for a shape that does not broadcast, a
/// cast that same_kind does not allow, a struct `out`, and as evaluate().
PLINTH_EXPORT void assign(const Queue& queue, const Array& out, const ArrayExpression& expression);

/// Runs `expression` on every queue of `queues` into that device's part of `out`, each
/// MultiArray of the expression replaced by its part on the device (as a MultiQueue call of
/// an ElementwiseKernel; Arrays and scalars are used as they are, so an Array works only on
/// its own device). Every device's part is checked before anything is enqueued.
/// Throws LogicError if `out` or a MultiArray of the expression has no part on a device of
/// `queues`, if a device's parts do not broadcast, and as the single-queue assign().
PLINTH_EXPORT void assign(const MultiQueue& queues, const MultiArray& out,
                          const ArrayExpression& expression);

/// A new C-order array with the elements of `array` converted to `dtype` (see astype() of an
/// expression; a struct array may be "converted" to its own dtype only, which copies it).
/// Throws as astype() and evaluate().
PLINTH_EXPORT Array astype(const Queue& queue, const Array& array, const DType& dtype);

namespace detail {
PLINTH_EXPORT void fill(const Queue& queue, const Array& array, const ScalarValue& value);
}  // namespace detail

/// Sets every element of `array` (any view) to `value`, converted as astype() converts, on
/// `queue` (asynchronous). Throws LogicError if an integer value does not fit an integer
/// dtype, for a complex value with a real dtype, for struct arrays, for an array on another
/// device. A float16 array gets the value rounded to float16 (as numpy's `fill`).
template <ExpressionScalar T>
void fill(const Queue& queue, const Array& array, T value) {
  detail::fill(queue, array, detail::to_scalar_value(value));
}

/// A new C-order array with a copy of the elements of `array` (any view, any dtype including
/// float16 and structs), copied by a kernel on `queue` (asynchronous).
/// Throws LogicError for an array on another device than the queue's.
PLINTH_EXPORT Array copy(const Queue& queue, const Array& array);

/// Copies the elements of `src` into `dest` (any views of the same shape and dtype, any dtype)
/// by a kernel on `queue` (through a local-memory tile where the dimensions the two move
/// fastest along differ, as in a copy of a transposed view; copy() and transpose() too). The two
/// may share memory in any way (views or sub-regions of one allocation): `dest` then gets `src`'s
/// elements as they were before the copy, as memmove gives (through a temporary copy of `src`).
/// Throws LogicError for a shape or dtype mismatch or another device.
PLINTH_EXPORT void copy_into(const Queue& queue, const Array& dest, const Array& src);

/// The process-wide cache of kernel recipes, which expression kernels share with plinth's
/// other generated kernels (sum, copy, cumsum...; see kernel_caches.hpp).
struct ExpressionCacheInfo {
  std::size_t kernels = 0;   ///< recipes held now (of every kind)
  std::size_t capacity = 0;  ///< recipes held at most
  std::size_t hits = 0;      ///< expression evaluations that found their kernel
  std::size_t misses = 0;    ///< expression evaluations that made a new kernel
};
/// The cache's state. Any thread may call it. Throws nothing.
PLINTH_EXPORT ExpressionCacheInfo expression_cache_info() noexcept;

}  // namespace plinth
