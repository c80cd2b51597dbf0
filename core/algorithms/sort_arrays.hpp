#pragma once

// What the functions of sorting.hpp share: argument checks, keys as the radix sort takes
// them, reinterpreting contiguous arrays, and the small generated programs of unique and
// searchsorted (built once per device and kept in the Context's kernel store).

#include "algorithms/sort_codegen.hpp"

#include <plinth/array.hpp>
#include <plinth/program.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace plinth::detail {

/// Throws LogicError "<function>: argument '<argument>': <problem>".
[[noreturn]] void sort_fail(std::string_view function, std::string_view argument,
                            const std::string& problem);

/// Checks that `a` is on the queue's device and of a dtype sorted here (integers, bool,
/// float32, float64). Throws LogicError naming `argument`.
void check_sort_array(const Queue& queue, const Array& a, std::string_view function,
                      std::string_view argument);

/// Checks that `dtype` is sorted here. Throws LogicError naming `argument`.
void check_sort_dtype(const DType& dtype, std::string_view function, std::string_view argument);

/// `axis` (negative from the end) as an index into `ndim` dimensions; throws LogicError
/// naming 'axis' for a zero-dimensional array or an axis out of range.
std::size_t sort_axis(std::string_view function, std::size_t ndim, std::ptrdiff_t axis);

/// A C-contiguous `array` whose first element is a whole number of `dtype` items into its
/// buffer, seen as `dtype` (same itemsize) with `shape`. Throws LogicError otherwise.
Array reinterpret(const Array& array, const DType& dtype, std::vector<std::size_t> shape);

/// `a` (checked) as C-contiguous keys of a radix key dtype (bool seen as uint8), copied first
/// if it is not contiguous.
Array sort_keys(const Queue& queue, const Array& a);

/// The radix key spec of a radix key dtype.
RadixKeySpec key_spec(const DType& dtype);

/// A kernel of a helper program (unique's, searchsorted's): `source(spec)` built for the
/// queue's device once per `family` and key spec. Throws CompileError.
Kernel helper_kernel(const Queue& queue, std::string_view family, const RadixKeySpec& spec,
                     std::string (*source)(const RadixKeySpec&), std::string_view name);

/// Launches the grid-stride kernel `kernel` over `count` items on `queue`.
void launch_items(const Queue& queue, const Kernel& kernel, std::size_t count,
                  std::span<const KernelArg> args);

}  // namespace plinth::detail
