#pragma once

/// numpy's reductions over Arrays (and MultiArrays, on a MultiQueue) — sum, min, max, dot,
/// argmin and argmax (Arrays only) — each a
/// ReductionKernel (reduction.hpp) built once per process for its dtypes and kept in a thread-safe
/// cache. Results stay on the device (read them with Array::get):
///
///     Array total = sum(queue, x);                                 // shape ()
///     Array rows = max(queue, m, ReductionTarget{.axes = {{1}}});   // one per row
///     double value = sum(queue, x).get(queue).to_vector<double>()[0];
///
/// Result dtypes follow numpy on Linux: sum of a signed integer narrower than 64 bits gives
/// int64, of an unsigned one uint64, of anything else its own dtype; min and max keep the
/// dtype; dot gives result_type of its operands (int8 · int8 is int8, as numpy.dot). Complex
/// values are added and multiplied through the functions library. Like every kernel argument,
/// arrays of bool and float16 are refused (LogicError).
///
/// Threads: any thread may call these at any time; a queue is still used by one thread at a
/// time (queue.hpp). Every function throws as ReductionKernel::operator() does (device,
/// double precision, `target` misuse: LogicError), plus what is named below.

#include <plinth/array.hpp>
#include <plinth/dtype.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>
#include <plinth/reduction.hpp>

#include <cstddef>
#include <optional>

namespace plinth {

/// numpy's result dtype of sum(x) for an array of `dtype` (int32 → int64, uint8 → uint64,
/// float32 → float32, complex64 → complex64...). Throws LogicError for a struct.
PLINTH_EXPORT DType sum_dtype(const DType& dtype);

/// The sum of `x`'s elements over `target.axes` (all of them by default) into `target.out`
/// or a new array, accumulated in `dtype` (default: sum_dtype(x.dtype())) — each element is
/// converted to it first. The sum of no elements is 0. Floating-point sums are taken in
/// another order than a sequential loop (pairwise over groups), so they round differently.
/// Throws LogicError also if `dtype` cannot hold `x`'s values (a complex `x` summed as a
/// real).
PLINTH_EXPORT Array sum(const Queue& queue, const Array& x, const ReductionTarget& target = {},
                        const std::optional<DType>& dtype = std::nullopt);

/// The smallest element of `x` over `target.axes` (all by default), of x's dtype. A NaN
/// among the elements gives NaN (numpy's minimum). Throws LogicError for complex or struct
/// arrays (not ordered), and when an output would reduce no elements (numpy: no identity).
PLINTH_EXPORT Array min(const Queue& queue, const Array& x, const ReductionTarget& target = {});

/// As min, the largest element.
PLINTH_EXPORT Array max(const Queue& queue, const Array& x, const ReductionTarget& target = {});

/// The index of the first smallest element of `x` (numpy.argmin): without `axis`, the flat
/// C-order index over all elements, shape `()`; with `axis` (negative counts from the end),
/// the index along that axis for each position of the others, x's shape without that axis.
/// int64, on the device, asynchronous (without `axis`, a shape-`()` view of the index in the
/// reduction's (value, index) result: no copy). A NaN counts as smaller than anything (the first
/// NaN wins, as numpy); -0.0 and +0.0 are equal (the first wins). One ReductionKernel over (value,
/// index) pairs, then a copy of the indices out of the pairs. Throws LogicError for complex,
/// float16 and struct arrays, an `axis` out of range, nothing to reduce (an empty array or axis:
/// numpy's "empty sequence"), an array on another device.
PLINTH_EXPORT Array argmin(const Queue& queue, const Array& x,
                           std::optional<std::ptrdiff_t> axis = std::nullopt);

/// As argmin, the first largest element (a NaN counts as larger than anything).
PLINTH_EXPORT Array argmax(const Queue& queue, const Array& x,
                           std::optional<std::ptrdiff_t> axis = std::nullopt);

/// The inner product of two 1-D arrays of the same length, `sum(a[i] * b[i])` without
/// conjugation (numpy.dot), in result_type(a, b), into `out` (shape `()`) or a new array of
/// shape `()`. Throws LogicError, naming the argument, if an array is not 1-D or the lengths
/// differ.
PLINTH_EXPORT Array dot(const Queue& queue, const Array& a, const Array& b,
                        const std::optional<Array>& out = std::nullopt);

/// The MultiQueue forms: the same reductions of the whole array a MultiArray stands for, each
/// device reducing its part (ReductionKernel's MultiQueue call, whose result and throws they
/// share): over the axis the array is split along, the parts' results are combined and
/// every device gets the whole result (a CloneSplay MultiArray); along the other axes the
/// result is split like `x`. Throws also as the single-queue forms do.
PLINTH_EXPORT MultiArray sum(const MultiQueue& queues, const MultiArray& x,
                             const ReductionTarget& target = {},
                             const std::optional<DType>& dtype = std::nullopt);
/// As above, the smallest element (see the single-queue min).
PLINTH_EXPORT MultiArray min(const MultiQueue& queues, const MultiArray& x,
                             const ReductionTarget& target = {});
/// As above, the largest element (see the single-queue max).
PLINTH_EXPORT MultiArray max(const MultiQueue& queues, const MultiArray& x,
                             const ReductionTarget& target = {});
/// As above, the inner product of two 1-D MultiArrays split alike (see the single-queue
/// dot): shape `()` on every device.
PLINTH_EXPORT MultiArray dot(const MultiQueue& queues, const MultiArray& a, const MultiArray& b);

}  // namespace plinth
