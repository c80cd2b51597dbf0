#pragma once

// What the shape and creation functions share: numpy's axis arguments (one axis or a tuple of
// them, negative ones counted from the end: normalize_axis_index, normalize_axis_tuple), the
// device check, and the storage dtypes copy and fill kernels declare.

#include <plinth/array.hpp>
#include <plinth/dtype.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace plinth::detail {

/// `axis` of an array of `ndim` dimensions, in [0, ndim). Throws LogicError naming `what` if
/// it is outside [-ndim, ndim).
std::size_t normalize_axis(std::ptrdiff_t axis, std::size_t ndim, const char* what);

/// Each of `axes` normalized as normalize_axis(). Throws LogicError as it, and for an axis
/// given twice.
std::vector<std::size_t> normalize_axes(std::span<const std::ptrdiff_t> axes, std::size_t ndim,
                                        const char* what);

/// Throws LogicError naming `what` if `array` is not on `queue`'s device.
void check_device(const Queue& queue, const Array& array, const char* what);

/// The dtype a copy or fill kernel declares: kernels take no bool or float16 arguments, so
/// those are stored as the unsigned integers of their size.
DType storage_dtype(const DType& dtype);

/// `array`'s memory seen as storage_dtype() (itself where that is its dtype).
Array as_storage(const Array& array);

}  // namespace plinth::detail
