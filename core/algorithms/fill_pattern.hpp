#pragma once

// The fill kernel's side of fills (runtime/buffer_fill.hpp): a fill value's bytes, and the
// kernel fill of an Array (the one fill() and array creation use) without the backend's fill.

#include <plinth/array.hpp>
#include <plinth/array_expression.hpp>
#include <plinth/elementwise.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace plinth::detail {

/// The bytes one element of `dtype` holds for `value` (a kernel argument from
/// scalar_argument() for that dtype): bool, the integers, float32, float64, complex64 and
/// complex128; nullopt for other dtypes. Throws nothing but std::bad_alloc.
std::optional<std::vector<std::byte>> fill_value_bytes(const ElementwiseValue& value,
                                                       const DType& dtype);

/// fill() by its kernel only, never the backend's fill. Throws as fill().
void fill_by_kernel(const Queue& queue, const Array& array, const ScalarValue& value);

}  // namespace plinth::detail
