#pragma once

/// \file
/// Module factories for arithmetic that the kernel dialect cannot write with operators
/// (grunnur's `functions`): complex numbers are `float2`/`double2` vectors or structs, so
/// `a * b` is wrong or does not compile for them, and mixed types need explicit conversions.
/// Each factory returns a Module with one function, `${prefix}(...)`, for the given dtypes;
/// the text is the same on every backend and differs only where a backend's math library
/// does (polar_unit, pow).
///
///     auto mul = functions::mul({DType::complex64(), DType::float32()});
///     Program program(context, R"(
///     KERNEL void scale(GLOBAL_MEM plinth_complex64 *z, GLOBAL_MEM const float *k)
///     {
///         const SIZE_T i = get_global_id(0);
///         z[i] = ${mul}(z[i], k[i]);
///     })", {.render_globals = {{"mul", mul}}});
///
/// Types follow numpy's rules (result_type), with integers narrower than 32 bits promoted
/// to 32 bits as arithmetic in C promotes them; every operand is converted to the type of the
/// operation before it is used, so `int32 * float32` is computed in double precision (numpy's
/// float64), not in C's float. double appears in the text only where a dtype needs it.
///
/// Every factory throws LogicError for struct, bool and float16 dtypes (cast accepts bool),
/// and for the other misuse named below.

#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/module.hpp>

#include <optional>
#include <vector>

namespace plinth::functions {

/// `out ${prefix}(in x)`: `x` converted to `out` as C converts (a real or integer becomes
/// the real part of a complex; complex64 ↔ complex128 part by part).
/// Throws LogicError for a complex `in` with a non-complex `out` (no silent loss of the
/// imaginary part), or a struct or float16 dtype.
PLINTH_EXPORT Module cast(const DType& in, const DType& out);

/// `out ${prefix}(in0 a0, in1 a1, ...)`: the sum of the arguments. `out` defaults to the
/// promoted result_type of `in`. The sum is taken from the last argument to the first, each
/// step in the result_type of its two operands — in single precision where `out` is not
/// double. A complex sum for a real `out` keeps the real part.
/// Throws LogicError for an empty `in`.
PLINTH_EXPORT Module add(const std::vector<DType>& in,
                         const std::optional<DType>& out = std::nullopt);

/// As add, for the product.
PLINTH_EXPORT Module mul(const std::vector<DType>& in,
                         const std::optional<DType>& out = std::nullopt);

/// `out ${prefix}(dividend a, divisor b)`: `a / b`, in the promoted result_type of both (so
/// integers divide as C's `/`, rounding towards zero). `out` defaults to that type.
PLINTH_EXPORT Module div(const DType& dividend, const DType& divisor,
                         const std::optional<DType>& out = std::nullopt);

/// `dtype ${prefix}(dtype a)`: the complex conjugate; other values unchanged.
PLINTH_EXPORT Module conj(const DType& dtype);

/// `${prefix}(dtype a)`: `|a|²` — `a.x² + a.y²` as the real type for a complex, `a * a` for
/// others.
PLINTH_EXPORT Module norm(const DType& dtype);

/// `dtype ${prefix}(dtype a)`: `e^a` for a real or complex `a`; a complex `a` gives C99
/// Annex G's special values, as numpy's exp (`inf + 0i` gives `inf + 0i`, `NaN + 0i` gives
/// `NaN + 0i`, `-inf + i inf` gives `0 + 0i`, `inf + i inf` gives `inf + NaN i`).
/// Throws LogicError for an integer dtype (the output type would be ambiguous).
PLINTH_EXPORT Module exp(const DType& dtype);

/// `complex ${prefix}(dtype theta)`: `e^(i theta)` = `(cos theta, sin theta)` for a real
/// (float32 or float64) `theta`. With PLINTH_FAST_MATH (ProgramOptions::fast_math) single
/// precision uses the backend's fast intrinsics (OpenCL native_sin/native_cos, CUDA and HIP
/// __sincosf); otherwise sincos.
/// Throws LogicError for a non-real dtype.
PLINTH_EXPORT Module polar_unit(const DType& dtype);

/// `complex ${prefix}(dtype rho, dtype theta)`: `rho e^(i theta)` for real `rho` and `theta`.
/// Throws LogicError for a non-real dtype.
PLINTH_EXPORT Module polar(const DType& dtype);

/// `out ${prefix}(base b, exponent e)`: `b` to the power `e`. `exponent` and `out` default
/// to `base`; `b` is converted to `out` first (as cast). An integer `e` raises by repeated
/// squaring (an integer or complex `out`; a negative `e` divides 1 by the power, so integers
/// give 0 unless `|b|` is 1) or with the backend's `pown`, whose exponent is an `int` (a real
/// `out`). A real exponent parameter takes `out`'s real type whatever real `exponent` says
/// (as grunnur: `pow(complex64, float64)` takes a float) and uses `pow` (complex `b`: the
/// principal value, `|b|^e e^(i e arg b)`). As in grunnur, `0^e` is 0 for every `e` but 0 (also
/// negative), and `b^0` is 1. Throws LogicError for a complex exponent, a real exponent with an
/// integer `out`, a complex `base` with a non-complex `out`.
PLINTH_EXPORT Module pow(const DType& base, const std::optional<DType>& exponent = std::nullopt,
                         const std::optional<DType>& out = std::nullopt);

}  // namespace plinth::functions
