#pragma once

/// \file
/// Sorting and searching (numpy's sort, argsort, unique, searchsorted, partition, and a
/// top-k), on the device, through one stable LSD radix sort.
///
///     Array s = sort(queue, x);                      // each row (last axis) sorted
///     Array order = argsort(queue, x);               // int64 indices into each row, stable
///     auto [k, v] = sort_by_key(queue, keys, values);
///     auto u = unique(queue, x, {.return_inverse = true, .return_counts = true});
///     Array where = searchsorted(queue, s, probes, Side::right);
///     auto [top, at] = topk(queue, x, 10);           // the 10 largest of each row
///
/// **Keys and their order.** Every integer dtype (8 to 64 bits, signed and unsigned), float32
/// and float64 (on any device: keys move as bits, no double arithmetic is needed); bool keys
/// are sorted as uint8 (false before true) and come back as bool. float16, complex and
/// struct keys are refused (LogicError): float16 is no kernel type on every backend, and
/// numpy's lexicographic order of complex numbers is not implemented. Floats are ordered as
/// numpy orders them: -inf, ..., -0.0, +0.0, ..., inf, then every NaN (whatever its sign and
/// payload; NaNs keep their bits and their order among themselves). -0.0 sorts before +0.0
/// (numpy's sort leaves them in input order, as equal): the keys are sorted as the unsigned
/// integers of the usual bit transform (sign set: all bits flipped; sign clear: the sign bit
/// set; NaN: all ones). unique and searchsorted compare values as numpy does instead: -0.0
/// equals +0.0 (unique keeps the first in sorted order, -0.0 if present), NaNs equal each
/// other (numpy >= 1.21's equal_nan=True: one NaN in unique's result).
///
/// **Arrays.** Inputs may be any views (offsets, gaps, negative strides): a view that is
/// not C-contiguous is first copied into a contiguous array (copy(), one more pass). Results
/// are new C-order arrays on the queue's device, computed asynchronously on the queue (they
/// are valid for later work on it), except unique, which waits for its count of unique values
/// (one small read) before it allocates its results. sort and argsort work along any axis:
/// the last (the default) directly, each row sorted independently; another axis by moving it
/// last (a transposed copy), sorting, and copying back (two more passes). Sizes 0 and 1 work;
/// more than 2^32 elements work (indices and offsets are 64-bit).
///
/// **Algorithm.** Least-significant-digit radix sort with 8-bit digits, one pass per byte of
/// the key (4 for 32-bit keys, 8 for 64-bit). Each pass: (1) a histogram kernel counts the
/// digits of each tile of keys in local memory (`atomic_add_local_uint`); (2) ScanKernel's
/// exclusive scan of the counts, laid out digit-major per row, gives where each tile's keys of
/// each digit go; (3) a scatter kernel ranks each key among the equal digits before it in its
/// tile — within a sub-group by ballots on the digit's bits (`sub_group_ballot`, where
/// sub-groups are native: warps on CUDA), across sub-groups through per-sub-group counters in
/// local memory (where sub-groups are emulated, with size 1 as on PoCL and NVIDIA's OpenCL,
/// every work item is its own sub-group and the same code ranks serially) — reorders the tile
/// by digit in local memory, and writes each digit's run of keys with coalesced stores.
/// Stability follows from the ranking. Tiles never cross a row, so the rows of an n-D array
/// come out sorted independently from the same passes. argsort carries 32-bit indices (64-bit
/// for rows of 2^32 or more keys) and writes int64 in the last pass. The programs (one per key
/// kind, width and payload) are built once per device and kept in the Context's kernel
/// store; the scratch (counts, offsets, ping-pong buffers) comes from the queue's memory pool.
/// Passes whose digit is the same for every key are not skipped (the check needs a host
/// synchronisation). Not implemented: a one-sweep (decoupled look-back) variant; MultiArray
/// forms other than sort and argsort along the last axis.
///
/// **partition and topk** sort fully (numpy's partition only promises the kth element in place
/// with no larger ones before it and no smaller ones after; a full sort keeps that promise).
///
/// Threads: any thread may call these at any time; a queue is still used by one thread at a
/// time (queue.hpp). Every function throws LogicError naming the argument for misuse (another
/// device than the queue's, a dtype that is not sorted, an axis out of range), CompileError,
/// OutOfMemoryError, BackendError.

#include <plinth/array.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <optional>

namespace plinth {

/// The sorted copy of `a` along `axis` (numpy.sort; negative axes count from the end): a new
/// C-order array of a's shape and dtype. Stable. Throws LogicError for a zero-dimensional
/// array, an axis out of range, a key dtype that is not sorted (see the file comment).
PLINTH_EXPORT Array sort(const Queue& queue, const Array& a, std::ptrdiff_t axis = -1);

/// The indices that sort `a` along `axis` (numpy.argsort with kind='stable'): a new int64
/// array of a's shape, each entry an index along the axis; equal keys keep their order.
/// Throws as sort.
PLINTH_EXPORT Array argsort(const Queue& queue, const Array& a, std::ptrdiff_t axis = -1);

/// The MultiQueue forms: sort (argsort) along the last axis of the whole array a MultiArray
/// stands for, split along another axis (EqualSplay's rows of a 2-D array, say) or cloned:
/// each device sorts its part's rows on its queue (then copies them into the result's part:
/// one more pass); the result (int64 for argsort) is split like `a`. Throws LogicError naming
/// 'a' for a zero-dimensional array or one split along its last axis (its rows are cut: resplay
/// it), if `queues` lacks a device of `a`, and as the single-queue forms for each part (every
/// part checked before anything is enqueued).
PLINTH_EXPORT MultiArray sort(const MultiQueue& queues, const MultiArray& a);
/// As above, the indices that sort each row (see the single-queue argsort).
PLINTH_EXPORT MultiArray argsort(const MultiQueue& queues, const MultiArray& a);

/// What sort_by_key returns.
struct SortedPairs {
  Array keys;    ///< the keys, sorted along their last axis
  Array values;  ///< the values, moved with their keys
};

/// `keys` sorted along the last axis (stable) and `values` (any dtype: float16, complex,
/// structs too) permuted alike: both of their input's shape. Throws LogicError naming
/// 'values' if its shape differs from the keys', and as sort for the keys.
PLINTH_EXPORT SortedPairs sort_by_key(const Queue& queue, const Array& keys, const Array& values);

/// Which of unique's optional results to compute (numpy.unique's flags).
struct UniqueOptions {
  bool return_index = false;    ///< each unique value's first index in the flattened input
  bool return_inverse = false;  ///< for each input element, the index of its unique value
  bool return_counts = false;   ///< how often each unique value occurs
};

/// What unique returns; the optional arrays are there when asked for.
struct UniqueResult {
  Array values;                  ///< the sorted unique values, 1-D
  std::optional<Array> index;    ///< int64, as values
  std::optional<Array> inverse;  ///< int64, the input's shape (numpy 2's unique_inverse)
  std::optional<Array> counts;   ///< int64, as values
};

/// The sorted unique elements of the flattened `a` (numpy.unique with equal_nan=True: NaNs
/// collapse into one, last; -0.0 and +0.0 are one value), and what `options` asks for.
/// Waits for the queue's work up to the count of unique values (read to size the results).
/// Throws as sort for the dtype.
PLINTH_EXPORT UniqueResult unique(const Queue& queue, const Array& a,
                                  const UniqueOptions& options = {});

/// Which index searchsorted returns among equal elements.
enum class Side {
  left,   ///< the first suitable index: a[i-1] < v <= a[i]
  right,  ///< the last: a[i-1] <= v < a[i]
};

/// Where `values` would be inserted into the 1-D ascending `sorted_a` to keep it sorted
/// (numpy.searchsorted): an int64 array of values' shape (any shape, 0-d too). NaN sorts
/// after everything (numpy's order), -0.0 equals +0.0. Arrays of different dtypes are both
/// compared in their result_type. Throws LogicError naming 'sorted_a' if it is not 1-D, and
/// as sort for the dtype.
PLINTH_EXPORT Array searchsorted(const Queue& queue, const Array& sorted_a, const Array& values,
                                 Side side = Side::left);

/// numpy.partition along `axis`: the kth element (negative counts from the end) in its sorted
/// place, none larger before it, none smaller after; here the whole axis sorted (see the file
/// comment). Throws LogicError naming 'kth' if it is out of range, and as sort.
PLINTH_EXPORT Array partition(const Queue& queue, const Array& a, std::ptrdiff_t kth,
                              std::ptrdiff_t axis = -1);

/// What topk returns.
struct TopK {
  Array values;   ///< the k chosen elements of each row, sorted (largest first if largest)
  Array indices;  ///< their int64 indices in the row
};

/// The `k` largest (or smallest) elements along the last axis of `a`, sorted, and their
/// indices: arrays of a's shape with the last extent k. Equal elements come in index order;
/// NaNs count as the largest (numpy's order). Throws LogicError naming 'k' if it exceeds the
/// last extent, for a zero-dimensional array, and as sort.
PLINTH_EXPORT TopK topk(const Queue& queue, const Array& a, std::size_t k, bool largest = true);

}  // namespace plinth
