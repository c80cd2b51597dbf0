#pragma once

/// \file
/// numpy's reductions over Arrays (and MultiArrays, on a MultiQueue) — sum, prod, min, max,
/// any, all, mean, var, std, nansum, nanmin, nanmax, dot, argmin and argmax (Arrays only) —
/// each a ReductionKernel (reduction.hpp) built once per process for its dtypes and kept in a
/// thread-safe cache. Results stay on the device (read them with Array::get):
///
///     Array total = sum(queue, x);                                 // shape ()
///     Array rows = max(queue, m, ReductionTarget{.axes = {{1}}});   // one per row
///     Array cols = mean(queue, m, {.axis = {{-2}}, .keepdims = true});  // shape (1, n)
///     double value = sum(queue, x).get(queue).to_vector<double>()[0];
///
/// **Axes.** Every reduction takes numpy's `axis`, `keepdims` and `out` as a ReductionAxes
/// (signed axes, negative ones counting from the end): a braced argument (`{}`,
/// `{.axis = {{0}}}`, `{.out = y}`) is a ReductionAxes. sum, min and max also take the
/// ReductionKernel's ReductionTarget (unsigned axes, no keepdims) when it is named as such
/// (`ReductionTarget{.axes = {{1}}}`). An axis out of range is a
/// LogicError worded as numpy's AxisError ("axis 3 is out of bounds for array of dimension
/// 2"), an axis given twice too ("duplicate value in 'axis'").
///
/// Result dtypes follow numpy on Linux: sum and prod of bool or of a signed integer narrower
/// than 64 bits give int64, of an unsigned one uint64, of anything else its own dtype; min,
/// max, nanmin and nanmax keep the dtype; any and all give bool; mean, var and std give
/// float64 for bools and integers, the dtype itself for float32/float64, and var/std of a
/// complex dtype its real dtype; dot gives result_type of its operands (int8 · int8 is int8,
/// as numpy.dot). Complex values are added and multiplied through the functions library.
/// Bool arrays are read as their bytes (0 or 1; any non-zero byte is true for any and all).
/// Arrays of float16 are refused (LogicError), as by every kernel argument.
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

#include <concepts>
#include <cstddef>
#include <optional>

namespace plinth {

/// numpy's `axis`, `keepdims` and `out` for the reductions of this file (ReductionTarget is
/// the ReductionKernel's unsigned form). Designated initializers name the members
/// (`{.axis = {{-1}}, .keepdims = true}`).
struct ReductionAxes {
  /// The axes to reduce, each at most once; negative ones count from the end (-1 the last).
  /// Nothing: all of them. An empty list reduces none (numpy's `axis=()`).
  std::optional<std::vector<std::ptrdiff_t>> axis{};
  /// Keep each reduced axis in the result with extent 1 (numpy's keepdims), so the result
  /// broadcasts against the input.
  bool keepdims = false;
  /// numpy's `out`: the array to write the result into, of the result's dtype and shape
  /// (with keepdims' axes of extent 1 where asked), on the queue's device, contiguous; the
  /// call returns it. Nothing: a new array. Not for the MultiQueue forms.
  std::optional<Array> out{};
};

/// numpy's result dtype of sum(x) for an array of `dtype` (int32 → int64, uint8 → uint64,
/// float32 → float32, complex64 → complex64...). Throws LogicError for a struct.
PLINTH_EXPORT DType sum_dtype(const DType& dtype);

namespace detail {
/// The ReductionTarget forms of sum, min and max (below).
PLINTH_EXPORT Array sum_over_target(const Queue& queue, const Array& x,
                                    const ReductionTarget& target,
                                    const std::optional<DType>& dtype);
PLINTH_EXPORT Array min_over_target(const Queue& queue, const Array& x,
                                    const ReductionTarget& target);
PLINTH_EXPORT Array max_over_target(const Queue& queue, const Array& x,
                                    const ReductionTarget& target);
}  // namespace detail

/// The sum of `x`'s elements over `target.axes` (all of them by default) into `target.out`
/// or a new array, accumulated in `dtype` (default: sum_dtype(x.dtype())) — each element is
/// converted to it first. The sum of no elements is 0. Floating-point sums are taken in
/// another order than a sequential loop (pairwise over groups), so they round differently.
/// Throws LogicError also if `dtype` cannot hold `x`'s values (a complex `x` summed as a
/// real).
/// Only a ReductionTarget named as such takes this form (a braced argument is a
/// ReductionAxes, below), so `sum(queue, x, {}, dtype)` is not ambiguous.
template <std::same_as<ReductionTarget> Target>
Array sum(const Queue& queue, const Array& x, const Target& target,
          const std::optional<DType>& dtype = std::nullopt) {
  return detail::sum_over_target(queue, x, target, dtype);
}

/// The smallest element of `x` over `target.axes` (all by default), of x's dtype. A NaN
/// among the elements gives NaN (numpy's minimum). Throws LogicError for complex or struct
/// arrays (not ordered), and when an output would reduce no elements (numpy: no identity).
template <std::same_as<ReductionTarget> Target>
Array min(const Queue& queue, const Array& x, const Target& target) {
  return detail::min_over_target(queue, x, target);
}

/// As min, the largest element.
template <std::same_as<ReductionTarget> Target>
Array max(const Queue& queue, const Array& x, const Target& target) {
  return detail::max_over_target(queue, x, target);
}

/// sum, min and max with numpy's axis, keepdims and out (see ReductionAxes). Throw also as
/// the ReductionTarget forms do, and LogicError for a bad axis or an `out` of another dtype or
/// shape or not contiguous.
PLINTH_EXPORT Array sum(const Queue& queue, const Array& x, const ReductionAxes& axes = {},
                        const std::optional<DType>& dtype = std::nullopt);
/// As above, min.
PLINTH_EXPORT Array min(const Queue& queue, const Array& x, const ReductionAxes& axes = {});
/// As above, max.
PLINTH_EXPORT Array max(const Queue& queue, const Array& x, const ReductionAxes& axes = {});

/// The product of `x`'s elements over `axes` (numpy.prod), accumulated in `dtype` (default:
/// sum_dtype(x.dtype()): int64 for bool and narrower signed integers, uint64 for unsigned
/// ones). The product of no elements is 1. Integer products wrap around as numpy's.
/// Throws LogicError as sum does.
PLINTH_EXPORT Array prod(const Queue& queue, const Array& x, const ReductionAxes& axes = {},
                         const std::optional<DType>& dtype = std::nullopt);

/// Whether any element of `x` over `axes` is true (numpy.any): non-zero, for a complex either
/// part non-zero; NaN is true, -0.0 false. bool; any of no elements is false. Any dtype but
/// float16 and structs (LogicError).
PLINTH_EXPORT Array any(const Queue& queue, const Array& x, const ReductionAxes& axes = {});

/// As any, whether every element is true (numpy.all); all of no elements is true.
PLINTH_EXPORT Array all(const Queue& queue, const Array& x, const ReductionAxes& axes = {});

/// The arithmetic mean of `x` over `axes` (numpy.mean): the sum (as sum, in float64 for bools
/// and integers, in float32 for float32 as numpy — the reduction's tree keeps the rounding
/// error near log(n) ulps rather than n) divided by the count, in a second small kernel. The
/// mean of no elements is NaN (numpy warns). Throws LogicError as sum does.
PLINTH_EXPORT Array mean(const Queue& queue, const Array& x, const ReductionAxes& axes = {});

/// The variance of `x` over `axes` (numpy.var): the mean of |x - mean(x)|^2, divided by
/// max(count - ddof, 0) instead of count: a divisor of 0 gives inf, or NaN where the sum of
/// squares is 0 (numpy warns); of no elements, NaN. The dtype is mean's, the real one for a
/// complex `x`.
///
/// **Method: shifted sums in one pass, combined as Chan et al.'s.** One ReductionKernel reads
/// `x` once; its value is a struct (count n, shift K, Σd, Σ|d|^2) of deviations d = x - K
/// from a shift K that is a data element (the first one each work item meets), in the
/// precision of the result. Adding an element is a subtraction, a multiply and three
/// additions (as cheap as sum, read the same way: vector loads, every layout); combining two
/// partial results moves b's sums to a's shift (Σd + n_b δ, Σ|d|^2 + 2 δ Σd + n_b δ^2 with
/// δ = K_b - K_a, a difference of two data elements) without a division. A small elementwise
/// kernel then gives (Σ|d|^2 - |Σd|^2 / n) / max(n - ddof, 0), clamped at 0. Why: the naive
/// Σx^2 - (Σx)^2/n loses every digit when the mean is large against the spread (1e4 + noise
/// in float32); sums of deviations from a data element are of the spread's size, so the
/// cancellation is gone. Welford's update (a division per element) costs more, and a
/// two-pass method reads the data twice. Throws LogicError as sum does.
PLINTH_EXPORT Array var(const Queue& queue, const Array& x, const ReductionAxes& axes = {},
                        double ddof = 0);

/// The standard deviation, sqrt(var) (numpy.std): as var.
PLINTH_EXPORT Array std(const Queue& queue, const Array& x, const ReductionAxes& axes = {},
                        double ddof = 0);

/// As sum, treating NaNs as 0 (numpy.nansum; a complex element with a NaN part counts as 0).
/// Integers and bools sum as sum does.
PLINTH_EXPORT Array nansum(const Queue& queue, const Array& x, const ReductionAxes& axes = {},
                           const std::optional<DType>& dtype = std::nullopt);

/// As min, ignoring NaNs (numpy.nanmin): an output whose elements are all NaN is NaN (numpy
/// warns). Integers and bools behave as min. Throws LogicError as min does (complex, nothing
/// to reduce).
PLINTH_EXPORT Array nanmin(const Queue& queue, const Array& x, const ReductionAxes& axes = {});

/// As nanmin, the largest element (numpy.nanmax).
PLINTH_EXPORT Array nanmax(const Queue& queue, const Array& x, const ReductionAxes& axes = {});

/// The index of the first smallest element of `x` (numpy.argmin): without `axis`, the flat
/// C-order index over all elements, shape `()`; with `axis` (negative counts from the end),
/// the index along that axis for each position of the others, x's shape without that axis.
/// int64, on the device, asynchronous (without `axis`, a shape-`()` view of the index in the
/// reduction's (value, index) result: no copy). A NaN counts as smaller than anything (the first
/// NaN wins, as numpy); -0.0 and +0.0 are equal (the first wins). One ReductionKernel over (value,
/// index) pairs, then a copy of the indices out of the pairs. Throws LogicError for complex,
/// float16 and struct arrays, an `axis` out of range, nothing to reduce (an empty array or axis:
/// numpy's "empty sequence"), an array on another device.
/// With `keepdims`, the reduced axis (every axis without `axis`) stays with extent 1, as
/// numpy's.
PLINTH_EXPORT Array argmin(const Queue& queue, const Array& x,
                           std::optional<std::ptrdiff_t> axis = std::nullopt,
                           bool keepdims = false);

/// As argmin, the first largest element (a NaN counts as larger than anything).
PLINTH_EXPORT Array argmax(const Queue& queue, const Array& x,
                           std::optional<std::ptrdiff_t> axis = std::nullopt,
                           bool keepdims = false);

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
/// As above, the product (see the single-queue prod; `axes.keepdims` and `axes.out` must be
/// unset: LogicError).
PLINTH_EXPORT MultiArray prod(const MultiQueue& queues, const MultiArray& x,
                              const ReductionAxes& axes = {},
                              const std::optional<DType>& dtype = std::nullopt);
/// As above, the inner product of two 1-D MultiArrays split alike (see the single-queue
/// dot): shape `()` on every device.
PLINTH_EXPORT MultiArray dot(const MultiQueue& queues, const MultiArray& a, const MultiArray& b);

}  // namespace plinth
