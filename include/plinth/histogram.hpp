#pragma once

/// \file
/// numpy's histogram and bincount on the device.
///
///     auto [counts, edges] = histogram(queue, x, 256, {{0.0, 1.0}});  // int64, float32 edges
///     Array tally = bincount(queue, labels);                          // int64, max(labels) + 1
///
/// **Edges as numpy's.** histogram's `bins` equal-width bins over `range` are numpy's: the
/// edges are numpy.linspace(lo, hi, bins + 1) computed in float64 and stored in the bin
/// dtype (float32 for a float32 array, float64 for float64 and integer arrays, as numpy's
/// result_type); bin k holds edges[k] <= x < edges[k + 1], the last bin also x == hi; values
/// outside [lo, hi] and NaN are not counted. An element's bin is found as numpy finds it:
/// the index int((x - lo) * (bins / (hi - lo))) in the bin dtype (numpy divides, then
/// multiplies: the index may differ by one where that rounds otherwise), then one step down
/// or up where the stored edges disagree, so the counts are numpy's, values at the edges
/// included (only where float32 edges repeat, bins narrower than float32's spacing, may an
/// element land in another of the equal edges' bins than numpy's).
///
/// **Algorithm.** A bounded number of groups (4 per compute unit) each count their share of
/// the elements (a grid-stride loop, four elements at a time with vload4; equal-width bins'
/// edges copied into local memory) into a histogram of 32-bit counts in local memory
/// (`atomic_add_local_uint`), or, when the bins do not fit in local memory (more than 8192),
/// into the group's row of a global array (`atomic_add_global_uint`); each group then writes
/// its counts to its row of a partial-counts array (rows x bins, 32-bit), and a second launch
/// sums each bin's column into the int64 result. The rows need no zeroing, no 64-bit atomics
/// and give the same sums on every device; a group counts fewer than 2^31 elements (the
/// number of groups grows with the input), so no 32-bit count overflows. bincount's weighted
/// sums are double-precision atomic additions into the result (the order of additions is the
/// device's: sums may round differently from numpy's sequential ones).
///
/// **Synchronisation.** histogram without a range reads min and max back (as numpy, it needs
/// them to make the edges), bincount reads back min and max of `x` (to refuse negative values
/// and size the result); otherwise the calls are asynchronous. Temporaries: the partial
/// counts (rows x bins x 4 bytes) per call.
///
/// Threads: any thread may call these at any time; a queue is still used by one thread at a
/// time (queue.hpp).

#include <plinth/array.hpp>
#include <plinth/export.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <utility>

namespace plinth {

/// What histogram gives: the counts (int64, one per bin) and the bin edges (bins + 1, of the
/// bin dtype), both new arrays on the queue's device.
struct HistogramResult {
  Array counts;  ///< int64, one per bin
  Array edges;   ///< bins + 1 edges, of the bin dtype
};

/// numpy.histogram(a, bins, range) of `a`'s elements (any shape, any view; real or integer
/// dtype), with `bins` equal-width bins over `range` (lo, hi), by default a's min and max
/// (0 and 1 for an empty array; lo - 0.5 and hi + 0.5 when they are equal). Throws LogicError
/// naming the argument: `bins` 0; `range` with lo > hi or not finite; no range and a's min
/// or max not finite (NaN or ±inf among the elements, as numpy); `a` of dtype bool, float16,
/// complex or struct; a double-precision bin dtype (float64 or integer `a`) on a device
/// without doubles; `a` on another device.
PLINTH_EXPORT HistogramResult
histogram(const Queue& queue, const Array& a, std::size_t bins = 10,
          std::optional<std::pair<double, double>> range = std::nullopt);

/// numpy.histogram(a, bins=edges): the bins between consecutive `edges` (at least two,
/// nondecreasing), bin k holding edges[k] <= x < edges[k + 1] and the last one also x ==
/// edges.back(); a binary search per element. The edges are compared with the elements in
/// float64 where `a` is float64 or an integer, float32 for float32 `a` (values rounded so).
/// Throws LogicError naming the argument: fewer than two edges, edges not nondecreasing or
/// NaN, and as histogram above.
PLINTH_EXPORT HistogramResult histogram(const Queue& queue, const Array& a,
                                        std::span<const double> edges);

/// numpy.bincount: the number of occurrences of each value 0 .. n - 1 in the 1-D array `x`
/// of non-negative integers (bool, int8 .. int64, uint8 .. uint32: numpy refuses uint64), n
/// = max(max(x) + 1, minlength): int64; with `weights` (1-D, x's length, a real or integer
/// dtype) the sums of the weights of each value instead, float64. Reads min and max of `x`
/// back. Throws LogicError naming the argument: `x` not 1-D, of another dtype, with a
/// negative value (numpy's ValueError); `weights` of another length or dtype; weights on a
/// device without doubles or double atomics (DeviceFeatures::double_atomics); an array on
/// another device.
PLINTH_EXPORT Array bincount(const Queue& queue, const Array& x,
                             const std::optional<Array>& weights = std::nullopt,
                             std::size_t minlength = 0);

}  // namespace plinth
