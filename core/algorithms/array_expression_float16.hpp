#pragma once

// float16 in the kernels of array arithmetic (array_expression_codegen.cpp), as numpy computes
// it: a float16 value is held in a `float` (which holds every float16 exactly), loaded from
// and stored as its bits (uint16) with the dialect's plinth_half_to_float and
// plinth_float_to_half_rte, and every operation whose result dtype is float16 is computed in
// float32 and rounded back to float16 (ties to even) at once, as numpy's float16 loops do.
// Exported for the unit tests (tests/core/algorithms/).

#include "algorithms/array_expression_node.hpp"

#include <plinth/dtype.hpp>
#include <plinth/export.hpp>

#include <string>

namespace plinth::detail {

/// The float value of the float16 bits `bits` (a C expression of unsigned short).
PLINTH_EXPORT std::string float16_load(const std::string& bits);

/// `value` (a C float expression) rounded to float16, as a float.
PLINTH_EXPORT std::string float16_round(const std::string& value);

/// `value` (a C expression of `from`'s type, real, integer or bool) converted to float16 as
/// numpy's astype does (a double rounded directly, not through float32), as a float.
PLINTH_EXPORT std::string float16_from(const std::string& value, const DType& from);

/// The float16 bits of `value` (a float expression holding a float16 value), for a store:
/// a value that is a conversion of bits already is stored as those bits.
PLINTH_EXPORT std::string float16_store(const std::string& value);

/// True if an operation `op` whose result dtype is float16 rounds its float32 result
/// (arithmetic, power, fmod, the math functions and numpy's other functions (a no-op for the
/// exact ones such as maximum); not negation, abs, where, real, imag, conj, casts, which are
/// exact or convert on their own).
PLINTH_EXPORT bool float16_rounds(ExpressionOp op) noexcept;

}  // namespace plinth::detail
