#pragma once

/// Shape operations on Arrays (pygpu's and numpy's): joining arrays (concatenate, stack,
/// hstack, vstack), splitting them (split, array_split) and transposing them (transpose).
///
///     Array c = concatenate(queue, {a, b}, 1);    // a new array; the inputs are copied
///     Array s = stack(queue, {a, b});             // a new leading axis of extent 2
///     std::vector<Array> parts = split(c, 2, 1);  // two views of c, no copy
///     Array t = transpose(queue, x);              // a C-order copy with the axes reversed
///
/// Joins and transposes copy with generated kernels on the queue (asynchronous) into new
/// C-order arrays on the queue's device (through a local-memory tile where the input moves
/// fastest along another dimension than the output, so reads and writes both coalesce); the
/// inputs may be any views (negative strides, offsets) of any dtype, structs and float16
/// included. Splits return views sharing the input's memory, as numpy's do. Axes may be
/// negative (counted from the end). Errors are LogicErrors naming the problem: an axis out of
/// range, shapes that differ other than in the joined axis (naming both shapes), an array on
/// another device, no arrays, sections that do not divide the axis.

#include <plinth/array.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace plinth {

/// The arrays joined along the existing axis `axis` (numpy's concatenate): every array has
/// the same number of dimensions (at least one) and the same extents but in `axis`. The
/// result's dtype is result_type of theirs (each converted as astype() converts; structs
/// and float16 must all be the same dtype). Throws LogicError for no arrays, zero-dimensional
/// arrays, an axis out of range, mismatched shapes or dtypes, an array on another device.
PLINTH_EXPORT Array concatenate(const Queue& queue, std::span<const Array> arrays,
                                std::ptrdiff_t axis = 0);
PLINTH_EXPORT Array concatenate(const Queue& queue, std::initializer_list<Array> arrays,
                                std::ptrdiff_t axis = 0);

/// The arrays joined along a new axis `axis` of the result (numpy's stack): every array has
/// the same shape; `axis` is in [-(ndim + 1), ndim]. Dtypes as concatenate. Throws as
/// concatenate.
PLINTH_EXPORT Array stack(const Queue& queue, std::span<const Array> arrays,
                          std::ptrdiff_t axis = 0);
PLINTH_EXPORT Array stack(const Queue& queue, std::initializer_list<Array> arrays,
                          std::ptrdiff_t axis = 0);

/// numpy's hstack: concatenate along axis 1, or axis 0 for one-dimensional arrays.
PLINTH_EXPORT Array hstack(const Queue& queue, std::span<const Array> arrays);
/// numpy's vstack: concatenate along axis 0, one-dimensional arrays taken as rows (1, n).
PLINTH_EXPORT Array vstack(const Queue& queue, std::span<const Array> arrays);

/// `sections` views of equal extent along `axis` (numpy's split). Throws LogicError for
/// sections == 0, a zero-dimensional array, an axis out of range, or an extent that
/// `sections` does not divide.
PLINTH_EXPORT std::vector<Array> split(const Array& array, std::size_t sections,
                                       std::ptrdiff_t axis = 0);
/// Views between the `indices` along `axis` (numpy's split with indices): [0, i0), [i0, i1),
/// ..., [ilast, end), each a Python slice as numpy takes it: a negative index counts from the
/// end, each bound is clamped to the extent on its own, and a part whose end is not after its
/// start is empty (so [5, 2] of 7 elements gives [0, 5), an empty part, and [2, 7)).
/// Throws LogicError for a zero-dimensional array or an axis out of range.
PLINTH_EXPORT std::vector<Array> split(const Array& array, std::span<const std::ptrdiff_t> indices,
                                       std::ptrdiff_t axis = 0);
/// `sections` views along `axis` whose extents differ by one at most, the first ones the
/// longer (numpy's array_split). Throws LogicError for sections == 0, and as split.
PLINTH_EXPORT std::vector<Array> array_split(const Array& array, std::size_t sections,
                                             std::ptrdiff_t axis = 0);

/// The array with its axes permuted (result dimension d is `array`'s axes[d]), as a view
/// sharing its memory (numpy's transpose); without `axes`, reversed. Throws LogicError if
/// `axes` is not a permutation of the dimensions (negative ones counted from the end).
PLINTH_EXPORT Array transposed_view(const Array& array,
                                    std::optional<std::vector<std::ptrdiff_t>> axes = std::nullopt);
/// A C-order copy of transposed_view(array, axes), made on `queue`. Throws as transposed_view
/// and copy().
PLINTH_EXPORT Array transpose(const Queue& queue, const Array& array,
                              std::optional<std::vector<std::ptrdiff_t>> axes = std::nullopt);

}  // namespace plinth
