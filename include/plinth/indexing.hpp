#pragma once

/// \file
/// numpy's take, put and integer-array ("advanced") indexing, as copies:
///
///     Array rows = take(queue, x, idx, 0);                 // numpy.take(x, idx, axis=0)
///     put(queue, x, idx, values);                          // numpy.put(x, idx, values)
///     Array y = gather(queue, x, {Slice(), idx, 2});       // x[:, idx, 2]
///     scatter(queue, x, {mask}, values);                   // x[mask] = values
///
/// **Index modes** (numpy's `mode=`): `raise` (numpy's default; a negative index counts from
/// the end, one out of [-n, n) is an error), `wrap` (modulo the extent, as Python's %: -1 is
/// n - 1) and `clip` (clamped to [0, n - 1]: negative indices are not counted from the end, as
/// numpy). **raise waits for the queue**: the kernel notes an out-of-range index in a device
/// flag that the call reads back (a few bytes), then throws LogicError naming the index, the
/// axis and its extent, as numpy's IndexError does; the other modes never wait. An index into
/// an axis of extent 0 (with a nonempty result) is a LogicError in every mode, as numpy's
/// "cannot do a non-empty take from an empty axes".
///
/// **Indices** are arrays of any integer dtype (int8 … uint64; bool is read as 0 and 1 by
/// take and put, as numpy casts it) and any shape and view. Elements are any dtype (structs
/// and float16 too): they are copied as bytes.
///
/// **Views and temporaries.** The indexed array and the values are read from a contiguous
/// copy when they are not contiguous; index arrays of another shape than the broadcast one
/// are broadcast into a copy. put and scatter into a non-contiguous array work on a
/// contiguous copy of it (or of the indexed view) and copy it back (copy_into). Results are
/// new C-order arrays on the queue's device, written asynchronously.
///
/// **Duplicate indices** in put and scatter: numpy writes in order, so the last write wins;
/// on a device the writes race and which value a duplicated position ends with is
/// unspecified (one of them).
///
/// **Algorithm.** One generated kernel (per element size, index dtypes, mode and shape case,
/// cached in the device's Context) runs a grid-stride loop over the result's positions: the
/// source position is (outer position) * span + inner position + sum over the indexed
/// dimensions of index * stride.
///
/// Threads: any thread may call these at any time; a queue is still used by one thread at a
/// time (queue.hpp).

#include <plinth/array.hpp>
#include <plinth/export.hpp>
#include <plinth/queue.hpp>

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <type_traits>
#include <variant>

namespace plinth {

/// What an index out of range does (numpy's `mode=`; see the file comment).
enum class IndexMode { raise, wrap, clip };

/// One term of an integer-array index (gather, scatter): a Slice (keeps its dimension), an
/// integer, or an Array of integers (an index array) or of bools (a mask over as many
/// dimensions as it has). Converts implicitly from each. A value type.
class PLINTH_EXPORT ArrayIndex {
 public:
  ///@{
  /// A slice, an integer position (not a bool), or an index or mask array.
  ArrayIndex(const Slice& slice) : term_(slice) {}  // NOLINT(google-explicit-constructor)
  template <std::integral I>
    requires(!std::is_same_v<I, bool>)
  ArrayIndex(I position)  // NOLINT(google-explicit-constructor)
      : term_(Index(position)) {}
  ArrayIndex(const Array& array) : term_(array) {}  // NOLINT(google-explicit-constructor)
  ///@}

  /// The Slice or integer (as an Index), if the term is one.
  const Index* basic() const noexcept { return std::get_if<Index>(&term_); }
  /// The index or mask array, if the term is one.
  const Array* array() const noexcept { return std::get_if<Array>(&term_); }

 private:
  std::variant<Index, Array> term_;
};

/// numpy.take: the elements of flattened `a` at `indices` (without `axis`; the result has
/// indices' shape), or the slices of `a` along `axis` at them (negative counts from the end;
/// the result's shape is a's with that axis replaced by indices' shape). See the file
/// comment for `mode` (raise waits for the queue). Throws LogicError naming the problem: an
/// index out of range (raise), an index into an empty axis, indices not of an integer or bool
/// dtype, an axis out of range, an array on another device than the queue's.
PLINTH_EXPORT Array take(const Queue& queue, const Array& a, const Array& indices,
                         std::optional<std::ptrdiff_t> axis = std::nullopt,
                         IndexMode mode = IndexMode::raise);

/// numpy.put: a.flat[indices[k]] = values[k % values.size()] for every k (values repeated
/// cyclically, as numpy; nothing is written when values is empty), in place on `a` (any
/// view). `values` must have a's dtype (any shape, read flat in C order). Duplicate indices:
/// see the file comment. Throws LogicError as take, and for values of another dtype; with
/// raise, the positions of the indices in range may have been written when it throws.
PLINTH_EXPORT void put(const Queue& queue, const Array& a, const Array& indices,
                       const Array& values, IndexMode mode = IndexMode::raise);

/// numpy's `a[index]` with index arrays (advanced indexing), as a new array. numpy's rules
/// followed: missing trailing terms are `:`; a bool mask over k dimensions is the k index
/// arrays of its nonzero() (its shape must equal those dimensions' extents); once any term
/// is an array, integer terms are index arrays too (0-d); the index arrays broadcast together
/// to a shape B; where they (the integers included) index adjacent dimensions, B takes
/// their place in the result (`x[:, i, j]` has shape (x.shape[0], *B, *x.shape[3:])),
/// otherwise B comes first and the sliced dimensions follow in order (`x[i, :, j]` has shape
/// (*B, x.shape[1])). Without arrays it is basic indexing, copied (`copy(a.view(...))`).
/// Differences: no newaxis or ellipsis terms; a 0-d bool mask is refused; `mode` applies to
/// the index arrays (numpy always raises). A mask reads its count back (nonzero()), and
/// raise waits for the queue. Throws LogicError naming the problem: more terms than
/// dimensions, index arrays that do not broadcast, a mask of the wrong shape, an index array
/// not of an integer or bool dtype, an index out of range (raise), a slice step of 0, an
/// array on another device.
PLINTH_EXPORT Array gather(const Queue& queue, const Array& a, std::span<const ArrayIndex> index,
                           IndexMode mode = IndexMode::raise);
/// As above, with the terms listed: `gather(queue, x, {Slice(), idx})`.
PLINTH_EXPORT Array gather(const Queue& queue, const Array& a,
                           std::initializer_list<ArrayIndex> index,
                           IndexMode mode = IndexMode::raise);

/// numpy's `a[index] = values`: writes `values` (a's dtype, broadcast by numpy's rules to the
/// shape gather would give) at the positions gather reads, in place on `a` (any view).
/// Duplicate positions: see the file comment. Throws LogicError as gather, and for values of
/// another dtype or a shape that does not broadcast.
PLINTH_EXPORT void scatter(const Queue& queue, const Array& a, std::span<const ArrayIndex> index,
                           const Array& values, IndexMode mode = IndexMode::raise);
/// As above, with the terms listed.
PLINTH_EXPORT void scatter(const Queue& queue, const Array& a,
                           std::initializer_list<ArrayIndex> index, const Array& values,
                           IndexMode mode = IndexMode::raise);

}  // namespace plinth
