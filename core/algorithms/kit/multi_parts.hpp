#pragma once

// What the kernel families' MultiQueue calls share: which queue runs each part of a
// MultiArray, how the parts lie in the whole array (the blocks its splay gives them), whether
// another argument's parts line up with them, each device's argument values, and the splay
// of a result split like its input.

#include "arrays/splay_box.hpp"

#include <plinth/context.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>
#include <plinth/splay.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace plinth::detail {

/// How a MultiArray's parts lie in the whole array, in the order of its devices.
struct PartLayout {
  /// The block each part holds.
  std::vector<Box> boxes;
  /// Every part holds the whole array (CloneSplay, or one device).
  bool whole = false;
  /// The axis the parts divide among themselves when they are not whole: each part whole in
  /// every other dimension, their ranges along it disjoint and covering it (EqualSplay: 0).
  std::optional<std::size_t> axis;
};

/// The layout of `array`'s parts. Throws LogicError, after `what` ("ReductionKernel 'sum':
/// argument 'x'"), if a part is not a block of the whole array (its splay's view has an
/// integer index or a step) or its shape is not the block's.
PartLayout part_layout(std::string_view what, const MultiArray& array);

/// The flat C-order index in an array of `shape` of the first element of `box`, if the
/// block's elements are consecutive in C order there (true of any block of an array split
/// along its first axis); nothing otherwise. Throws nothing but std::bad_alloc.
std::optional<std::size_t> flat_run_start(const Box& box, std::span<const std::size_t> shape);

/// The queue of `queues` on each of `devices`, in their order. Throws LogicError, after
/// `what`, if `queues` has no queue on one of them or has one on a device outside them (the
/// call would miss a part, or find none there).
std::vector<Queue> part_queues(std::string_view what, const MultiQueue& queues,
                               const BoundMultiDevice& devices);

/// Checks that on every device an argument of whole shape `shape` split as `boxes` holds
/// the elements that broadcast to the first array's part there (`first`, of the iteration
/// shape `iteration`): in each of its dimensions (aligned to the right) the first's range, or
/// the whole of a dimension of extent 1. Throws LogicError naming argument `name` (after
/// `what`) and the dimension otherwise.
void check_parts_aligned(std::string_view what, std::string_view name,
                         std::span<const std::size_t> shape, const std::vector<Box>& boxes,
                         std::span<const std::size_t> iteration, const PartLayout& first);

/// `values` with each MultiArray replaced by its part on `device` (other values as they
/// are). Throws LogicError naming the argument (from `args`, after `what`) if a MultiArray has
/// no part there.
std::vector<ElementwiseValue> values_on(std::string_view what, std::span<const ElementwiseArg> args,
                                        std::span<const ElementwiseValue> values,
                                        const BoundDevice& device);

/// Gives part i the range ranges[i] of dimension `axis` and the whole of every other one: the
/// splay of a result split like its input (a reduction's output along the kept axes).
class AxisRangeSplay : public BaseSplay {
 public:
  AxisRangeSplay(std::size_t axis, std::vector<std::pair<std::size_t, std::size_t>> ranges)
      : axis_(axis), ranges_(std::move(ranges)) {}
  /// Throws LogicError if there is not one range per device or the shape has no such axis or
  /// too few elements along it.
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override;

 private:
  std::size_t axis_;
  std::vector<std::pair<std::size_t, std::size_t>> ranges_;
};

}  // namespace plinth::detail
