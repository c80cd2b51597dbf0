#pragma once

// What the array reductions (array_reductions.hpp) share: their kernel cache, numpy's axes
// (signed, keepdims, out) turned into a ReductionTarget, bool arrays read as uint8, and the
// checks of min/max-like reductions.

#include <plinth/array.hpp>
#include <plinth/array_reductions.hpp>
#include <plinth/dtype.hpp>
#include <plinth/queue.hpp>
#include <plinth/reduction.hpp>

#include "algorithms/array_expression_rules.hpp"
#include "algorithms/kit/recipe_cache.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace plinth::detail {

/// The kernel cached under `key` in the recipe cache, made by `make` the first time.
template <class Make>
ReductionKernel cached_reduction(const std::string& key, Make make) {
  return recipe_cache().get<ReductionKernel>("reduction", key, make);
}

/// numpy's axes of a reduction of an array of `shape`, resolved.
struct ResolvedAxes {
  /// The ReductionTarget's axes (nothing: all).
  std::optional<std::vector<std::size_t>> axes;
  /// Per axis of the input, whether it is reduced.
  std::vector<bool> reduced;
  /// The result's shape without and with keepdims.
  std::vector<std::size_t> shape, kept_shape;
  /// How many elements each output reduces.
  std::size_t count = 1;
};

/// Resolves `axis` (signed, as numpy's) for an array of `shape`. Throws LogicError as numpy's
/// AxisError words it ("{function}: axis 3 is out of bounds for array of dimension 2"), and for
/// an axis given twice.
ResolvedAxes resolve_axes(const char* function, const std::vector<std::size_t>& shape,
                          const std::optional<std::vector<std::ptrdiff_t>>& axis);

/// As resolve_axes for the ReductionKernel's unsigned axes (unchecked: the kernel checks them).
ResolvedAxes resolve_target(const std::vector<std::size_t>& shape, const ReductionTarget& target);

/// `array`'s elements as `dtype` of the same itemsize (bool as uint8 and back), same layout.
Array retyped(const Array& array, const DType& dtype);

/// The contiguous `array` seen with another `shape` of as many elements (keepdims' axes of 1).
Array reshaped(const Array& array, const DType& dtype, const std::vector<std::size_t>& shape);

/// `out` checked for a result of `result_dtype` along `resolved` (with `keepdims` or not),
/// seen as `kernel_dtype` in the shape without keepdims. Throws LogicError naming `function`
/// for another dtype or shape or a non-contiguous `out`.
Array checked_out(const char* function, const Array& out, const DType& result_dtype,
                  const ResolvedAxes& resolved, bool keepdims, const DType& kernel_dtype);

/// Runs `kernel` with `values` along `resolved` into `axes.out` or a new array of
/// `result_dtype` (bool results are the kernel's uint8 seen as bool), in the shape keepdims
/// asks for. Throws LogicError for an `out` of another dtype or shape or not contiguous.
Array run_reduction(const char* function, const Queue& queue, const ReductionKernel& kernel,
                    std::span<const ElementwiseValue> values, const ResolvedAxes& resolved,
                    const ReductionAxes& axes, const DType& result_dtype);

/// Runs `kernel` with `values` along the ReductionKernel's `target` (bool results as for
/// run_reduction; the kernel checks the rest).
Array run_target(const Queue& queue, const ReductionKernel& kernel,
                 std::span<const ElementwiseValue> values, const ReductionTarget& target,
                 const DType& result_dtype);

/// Refuses a struct dtype (LogicError naming `function`).
void check_plain(const char* function, const DType& dtype);

/// Refuses float16 and structs (LogicError naming `function`).
void check_reducible(const char* function, const DType& dtype);

/// Refuses what min and max cannot order or reduce: structs, complex numbers, float16, and an
/// output reducing no elements (`count` 0 while the result has elements; numpy: no identity).
void check_ordered(const char* function, const DType& dtype, const std::vector<std::size_t>& shape,
                   const ResolvedAxes& resolved);

/// The C constant 0 (`one`: 1) of `dtype`.
std::string constant_of(const DType& dtype, bool one);

/// `a + b` for the output dtype (through the functions library for complex values).
std::pair<std::string, RenderGlobals> addition(const DType& dtype);

/// The map converting `x[i]` of dtype `in` to `out` (through functions::cast where they
/// differ, into `globals["cast"]`). Throws LogicError naming `function` if it cannot.
std::string converting_map(const char* function, const DType& in, const DType& out,
                           RenderGlobals& globals);

}  // namespace plinth::detail
