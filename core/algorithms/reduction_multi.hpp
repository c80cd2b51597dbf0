#pragma once

// What ReductionKernel's MultiQueue call (reduction_multi.cpp) needs of a kernel's internals
// (reduction.cpp): a call planned apart from its launch, and the kernel combining partial
// results.

#include <plinth/array.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/queue.hpp>
#include <plinth/reduction.hpp>

#include <functional>
#include <span>

namespace plinth::detail {

struct ReductionData;

/// A call checked and its programs built, nothing enqueued yet: its result, and what
/// enqueues it.
struct PlannedReduction {
  Array result;
  std::function<void()> enqueue;
};

/// Plans a call of `data`'s kernel on `queue` as ReductionKernel::launch does before it
/// enqueues. Throws what that throws.
PlannedReduction plan_reduction(ReductionData& data, const Queue& queue,
                                std::span<const ElementwiseValue> values,
                                const ReductionTarget& target);

/// The kernel combining `data`'s partial results: one input array of the output dtype, the
/// map its element `i`, and the kernel's own reduce expression, neutral element, preamble
/// and options. Made once per kernel (shared by its copies). Throws nothing but
/// std::bad_alloc.
ReductionKernel reduction_combiner(ReductionData& data);

}  // namespace plinth::detail
