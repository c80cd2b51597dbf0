#pragma once

/// \file
/// Shape operations on Arrays (pygpu's and numpy's): joining arrays (concatenate, stack,
/// hstack, vstack, dstack), splitting them (split, array_split, hsplit, vsplit, dsplit),
/// transposing them (transpose, swapaxes, moveaxis), new shapes of the same elements (reshape,
/// ravel, flatten, squeeze, expand_dims, broadcast_to), memory orders (asfortranarray,
/// ascontiguousarray) and may_share_memory.
///
///     Array c = concatenate(queue, {a, b}, 1);    // a new array; the inputs are copied
///     Array s = stack(queue, {a, b});             // a new leading axis of extent 2
///     std::vector<Array> parts = split(c, 2, 1);  // two views of c, no copy
///     Array t = transpose(queue, x);              // a C-order copy with the axes reversed
///     Array r = reshape(queue, x, {4, -1});       // a view where the layout allows it
///     Array f = asfortranarray(queue, x);         // x itself if it is Fortran-ordered already
///
/// Joins and transposes copy with generated kernels on the queue (asynchronous) into new
/// C-order arrays on the queue's device (through a local-memory tile where the input moves
/// fastest along another dimension than the output, so reads and writes both coalesce); the
/// inputs may be any views (negative strides, offsets) of any dtype, structs and float16
/// included. Splits return views sharing the input's memory, as numpy's do. Axes may be
/// negative (counted from the end). Errors are LogicErrors naming the problem: an axis out of
/// range, shapes that differ other than in the joined axis (naming both shapes), an array on
/// another device, no arrays, sections that do not divide the axis.
///
/// Fortran-order arrays (Order::F, array_metadata.hpp) are strided views like any other: every
/// function of plinth that takes an Array takes them.

#include <plinth/array.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace plinth {

///@{
/// The arrays joined along the existing axis `axis` (numpy's concatenate): every array has
/// the same number of dimensions (at least one) and the same extents but in `axis`. The
/// result's dtype is result_type of theirs (each converted as astype() converts; structs
/// and float16 must all be the same dtype). Throws LogicError for no arrays, zero-dimensional
/// arrays, an axis out of range, mismatched shapes or dtypes, an array on another device.
PLINTH_EXPORT Array concatenate(const Queue& queue, std::span<const Array> arrays,
                                std::ptrdiff_t axis = 0);
PLINTH_EXPORT Array concatenate(const Queue& queue, std::initializer_list<Array> arrays,
                                std::ptrdiff_t axis = 0);
///@}

///@{
/// The arrays joined along a new axis `axis` of the result (numpy's stack): every array has
/// the same shape; `axis` is in [-(ndim + 1), ndim]. Dtypes as concatenate. Throws as
/// concatenate.
PLINTH_EXPORT Array stack(const Queue& queue, std::span<const Array> arrays,
                          std::ptrdiff_t axis = 0);
PLINTH_EXPORT Array stack(const Queue& queue, std::initializer_list<Array> arrays,
                          std::ptrdiff_t axis = 0);
///@}

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

// --- pygpu's and numpy's named splits and dstack ---

///@{
/// numpy's hsplit: split() along axis 1, or axis 0 for one-dimensional arrays. Throws
/// LogicError for a zero-dimensional array, and as split().
PLINTH_EXPORT std::vector<Array> hsplit(const Array& array, std::size_t sections);
PLINTH_EXPORT std::vector<Array> hsplit(const Array& array,
                                        std::span<const std::ptrdiff_t> indices);
///@}
///@{
/// numpy's vsplit: split() along axis 0 of an array of at least two dimensions. Throws
/// LogicError for fewer dimensions, and as split().
PLINTH_EXPORT std::vector<Array> vsplit(const Array& array, std::size_t sections);
PLINTH_EXPORT std::vector<Array> vsplit(const Array& array,
                                        std::span<const std::ptrdiff_t> indices);
///@}
///@{
/// numpy's dsplit: split() along axis 2 of an array of at least three dimensions. Throws
/// LogicError for fewer dimensions, and as split().
PLINTH_EXPORT std::vector<Array> dsplit(const Array& array, std::size_t sections);
PLINTH_EXPORT std::vector<Array> dsplit(const Array& array,
                                        std::span<const std::ptrdiff_t> indices);
///@}
/// numpy's dstack: concatenate along axis 2, each array first taken as at least
/// three-dimensional as numpy's atleast_3d does ((n,) as (1, n, 1), (m, n) as (m, n, 1), a
/// zero-dimensional one as (1, 1, 1)). Throws as concatenate().
PLINTH_EXPORT Array dstack(const Queue& queue, std::span<const Array> arrays);

// --- New shapes of the same elements (views unless said otherwise) ---

/// The elements of `array` read in `order` (C: the last index fastest; F: the first) and laid
/// out in `shape` in the same order (numpy's reshape): a view sharing `array`'s memory where
/// the strides allow it (numpy's rules: an array contiguous in `order`, the same shape, or
/// numpy's _attempt_nocopy_reshape, which merges groups of dimensions that step through
/// memory as one), otherwise a new array (C-contiguous for Order::C, F-contiguous for
/// Order::F) copied on `queue`. One extent may be negative (numpy: -1), inferred from the
/// size. Throws LogicError naming both shapes when the sizes differ, for two negative
/// extents, for an array on another device than the queue's (even when no copy is made).
PLINTH_EXPORT Array reshape(const Queue& queue, const Array& array,
                            const std::vector<std::ptrdiff_t>& shape, Order order = Order::C);
/// As reshape(), but only ever a view (numpy's `a.shape = ...`, or reshape with
/// `copy=False`). Throws LogicError, saying a copy is needed, where reshape() would copy,
/// and as reshape().
PLINTH_EXPORT Array reshape_view(const Array& array, const std::vector<std::ptrdiff_t>& shape,
                                 Order order = Order::C);
/// The elements as one dimension in `order` (numpy's ravel): a view when `array` is contiguous
/// in `order` (numpy's rule: a strided one-dimensional array is copied too), a new array
/// copied on `queue` otherwise. Throws as reshape().
PLINTH_EXPORT Array ravel(const Queue& queue, const Array& array, Order order = Order::C);
/// The elements as one dimension in `order`, always a new array copied on `queue` (numpy's
/// flatten). Throws LogicError for an array on another device.
PLINTH_EXPORT Array flatten(const Queue& queue, const Array& array, Order order = Order::C);
/// The view without the dimensions of extent 1 (numpy's squeeze): all of them, or those of
/// `axes` (negative ones counted from the end). Throws LogicError for an axis out of range,
/// repeated, or of another extent than 1 (as numpy's "cannot select an axis to squeeze out
/// which has size not equal to one").
PLINTH_EXPORT Array squeeze(const Array& array,
                            const std::optional<std::vector<std::ptrdiff_t>>& axes = std::nullopt);
///@{
/// The view with new dimensions of extent 1 at `axes` of the result (numpy's expand_dims: the
/// axes count in the result's ndim() + axes.size() dimensions, negative ones from its end).
/// Throws LogicError for an axis out of range or repeated.
PLINTH_EXPORT Array expand_dims(const Array& array, const std::vector<std::ptrdiff_t>& axes);
PLINTH_EXPORT Array expand_dims(const Array& array, std::ptrdiff_t axis);
///@}
/// The view with axes `axis1` and `axis2` exchanged (numpy's swapaxes). Throws LogicError for
/// an axis out of range.
PLINTH_EXPORT Array swapaxes(const Array& array, std::ptrdiff_t axis1, std::ptrdiff_t axis2);
///@{
/// The view with the axes `source` moved to the positions `destination`, the others keeping
/// their order (numpy's moveaxis). Throws LogicError for lists of different lengths, an axis
/// out of range or repeated.
PLINTH_EXPORT Array moveaxis(const Array& array, const std::vector<std::ptrdiff_t>& source,
                             const std::vector<std::ptrdiff_t>& destination);
PLINTH_EXPORT Array moveaxis(const Array& array, std::ptrdiff_t source, std::ptrdiff_t destination);
///@}
/// The view of `array` broadcast to `shape` by numpy's rules (numpy's broadcast_to): the
/// shapes aligned at their last dimensions, each extent of `array` equal to `shape`'s or 1 (a
/// stride of 0 then repeats it). numpy's result is read-only; plinth's is an ordinary view, so
/// writing to it writes each repeated element several times (do not). Throws LogicError,
/// naming both shapes, when `array` does not broadcast to `shape`.
PLINTH_EXPORT Array broadcast_to(const Array& array, const std::vector<std::size_t>& shape);

// --- Memory orders ---

/// `array` itself where it is F-contiguous (ArrayMetadata::is_f_contiguous), otherwise a new
/// F-contiguous array with its elements, copied on `queue` (numpy's asfortranarray). A
/// zero-dimensional array becomes one of shape (1,), as numpy's. Throws LogicError for an
/// array on another device.
PLINTH_EXPORT Array asfortranarray(const Queue& queue, const Array& array);
/// `array` itself where it is C-contiguous, otherwise a new C-contiguous copy made on `queue`
/// (numpy's ascontiguousarray); a zero-dimensional array becomes one of shape (1,), as
/// numpy's. Throws LogicError for an array on another device.
PLINTH_EXPORT Array ascontiguousarray(const Queue& queue, const Array& array);

/// True if `a` and `b` may share memory (numpy's may_share_memory, its default bounds check):
/// both lie in one allocation (Buffer::overlaps: sub-regions, views and pool blocks of one
/// allocation count as one) and the byte ranges that hold their elements (from the lowest
/// byte of an element to the end of the highest) overlap. Not exact: interleaved views (the
/// even and the odd elements) may share no element yet give true. Arrays without elements
/// share nothing. Throws nothing.
PLINTH_EXPORT bool may_share_memory(const Array& a, const Array& b) noexcept;

}  // namespace plinth
