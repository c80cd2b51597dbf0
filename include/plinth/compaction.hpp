#pragma once

/// \file
/// numpy's counting and selecting of nonzero elements: count_nonzero, nonzero, flatnonzero,
/// compress and extract (numpy's `a[mask]` for a boolean mask of a's shape).
///
///     Array picked = extract(queue, greater, x);        // x[x > 0.5] with greater = (x > 0.5)
///     std::vector<Array> where = nonzero(queue, m);     // one int64 array per dimension
///     Array n = count_nonzero(queue, m);                // shape (), int64
///
/// **Nonzero** means what numpy means, for any dtype but structs: an integer or bool other
/// than 0, a float other than ±0.0 (NaN is nonzero), a complex number with a nonzero part.
/// A condition or mask may be of any such dtype (bool arrays are read as their bytes).
///
/// **Algorithm** (stream compaction in three launches): each of a bounded number of groups
/// counts the nonzero flags of a contiguous run of the elements; one group turns the counts
/// into each group's first output position and the total; then each group walks its run
/// again, a tile of `local size x 4` elements at a time, scans its flags (sub-group scans,
/// then the sub-groups' totals in local memory) and writes its selected elements (or their
/// flat indices) in order. The traffic is the flags read twice and the values read once.
///
/// **Synchronisation**: the number of selected elements decides the result's size, so every
/// function here but count_nonzero reads it back to the host (8 bytes) before it allocates
/// the result and enqueues the last launch: the call waits for the queue's earlier work, as
/// CuPy's does. The results are new C-order arrays on the queue's device, written
/// asynchronously after that. count_nonzero never waits.
///
/// **Views**: inputs may be any view; one that is not contiguous is first copied into a
/// contiguous temporary (copy()). Temporaries: the group counts (a few thousand words) per
/// call.
///
/// Threads: any thread may call these at any time; a queue is still used by one thread at a
/// time (queue.hpp).

#include <plinth/array.hpp>
#include <plinth/export.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace plinth {

/// The number of nonzero elements of `a` (numpy.count_nonzero), over `axes` (all of them by
/// default): an int64 array of a's shape without those axes (shape `()` without axes), on
/// the device, computed asynchronously (a ReductionKernel). Throws LogicError for a struct
/// array, an axis out of range or repeated, an array on another device than the queue's.
PLINTH_EXPORT Array
count_nonzero(const Queue& queue, const Array& a,
              const std::optional<std::vector<std::size_t>>& axes = std::nullopt);

/// The indices of `a`'s nonzero elements (numpy.nonzero): one int64 array per dimension of
/// `a`, each of the number of nonzero elements, in C order of the elements. Reads the count
/// back (see the file comment). Throws LogicError for a 0-d array (numpy 2 refuses it too),
/// a struct array, an array on another device.
PLINTH_EXPORT std::vector<Array> nonzero(const Queue& queue, const Array& a);

/// The flat C-order indices of `a`'s nonzero elements (numpy.flatnonzero): a 1-D int64
/// array. Reads the count back. Throws LogicError for a struct array, an array on another
/// device.
PLINTH_EXPORT Array flatnonzero(const Queue& queue, const Array& a);

/// numpy.compress: the slices of `a` along `axis` at the positions where the 1-D
/// `condition` is nonzero, as a new array (a's shape with that axis's extent the number of
/// nonzero conditions); without an axis, the elements of flattened `a` likewise (1-D).
/// `condition` may be shorter than the extent (the rest is not selected, as numpy). Reads
/// the count back. Throws LogicError naming the argument: `condition` not 1-D, longer than
/// the extent, of a struct dtype; `axis` out of range (negative counts from the end); an
/// array on another device.
PLINTH_EXPORT Array compress(const Queue& queue, const Array& condition, const Array& a,
                             std::optional<std::ptrdiff_t> axis = std::nullopt);

/// numpy's `a[condition]` for a mask of a's shape (numpy.extract): the elements of `a`
/// where `condition` is nonzero, in C order, as a new 1-D array of a's dtype (any dtype,
/// structs included). Reads the count back. Throws LogicError naming the argument:
/// `condition` of another shape than `a` or of a struct dtype, an array on another device.
PLINTH_EXPORT Array extract(const Queue& queue, const Array& condition, const Array& a);

}  // namespace plinth
