// ReductionKernel's MultiQueue call (include/plinth/reduction.hpp): each device reduces its
// part of a MultiArray; a reduction across the split axis combines the partial results on one
// device and copies the result back to every device.

#include <plinth/reduction.hpp>

#include "algorithms/kit/multi_parts.hpp"
#include "algorithms/reduction_multi.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace plinth {

namespace {

using detail::Box;
using detail::PartLayout;

/// The reduced axes of an array of rank `rank` (all of them by default), sorted. Throws
/// LogicError for an axis out of range or given twice.
std::vector<std::size_t> reduced_axes(const std::string& what, std::size_t rank,
                                      const ReductionTarget& target) {
  std::vector<std::size_t> axes;
  if (!target.axes) {
    for (std::size_t d = 0; d < rank; ++d) axes.push_back(d);
    return axes;
  }
  axes = *target.axes;
  std::sort(axes.begin(), axes.end());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    if (axes[a] >= rank) {
      throw LogicError(fmt::format("{}: axis {} is out of range for the iteration shape of rank {}",
                                   what, axes[a], rank));
    }
    if (a > 0 && axes[a] == axes[a - 1]) {
      throw LogicError(fmt::format("{}: axis {} is given twice", what, axes[a]));
    }
  }
  return axes;
}

/// The blocks of argument `value` (an Array: the whole of it on every device) in the order
/// of `devices`. Throws LogicError naming the argument if a MultiArray lacks a device.
std::vector<Box> boxes_of(const std::string& what, const std::string& name,
                          const ElementwiseValue& value, const BoundMultiDevice& devices) {
  if (const auto* array = std::get_if<Array>(&detail::Access::impl(value))) {
    Box whole;
    for (const auto extent : array->shape()) whole.emplace_back(0, extent);
    return std::vector<Box>(devices.size(), whole);
  }
  const auto& multi = std::get<MultiArray>(detail::Access::impl(value));
  const auto layout = detail::part_layout(fmt::format("{}: argument '{}'", what, name), multi);
  std::vector<Box> boxes;
  for (const auto& device : devices) {
    const auto& own = multi.devices();
    const auto found = std::find(own.begin(), own.end(), device);
    if (found == own.end()) {
      throw LogicError(
          fmt::format("{}: argument '{}': the MultiArray has no part on device {} "
                      "('{}'), where the first array has one",
                      what, name, device.index(), device.name()));
    }
    boxes.push_back(layout.boxes[static_cast<std::size_t>(found - own.begin())]);
  }
  return boxes;
}

/// A MultiQueue call, checked: the devices (the first array's), the layout of its parts and
/// their queues, the reduced axes and the result's shape, and whether the reduction crosses
/// the split axis.
struct MultiReduction {
  BoundMultiDevice devices;
  PartLayout layout;
  std::vector<Queue> queues;
  std::vector<std::size_t> axes, out_shape;
  bool across = false;
};

/// Checks a MultiQueue call of the kernel described by `what` (see ReductionKernel's
/// MultiQueue launch). Throws LogicError.
MultiReduction plan_multi_reduction(const std::string& what,
                                    std::span<const ElementwiseArg> declared,
                                    const MultiQueue& queues,
                                    std::span<const ElementwiseValue> args,
                                    const ReductionTarget& target) {
  if (args.size() != declared.size()) {
    throw LogicError(
        fmt::format("{}: expects {} argument(s), got {}", what, declared.size(), args.size()));
  }
  const auto first = static_cast<std::size_t>(
      std::find_if(declared.begin(), declared.end(), [](const auto& a) { return a.is_array(); }) -
      declared.begin());
  const auto* whole = std::get_if<MultiArray>(&detail::Access::impl(args[first]));
  if (whole == nullptr) {
    throw LogicError(fmt::format(
        "{}: argument '{}': a MultiQueue call takes a MultiArray for the first array argument "
        "(its whole shape is the iteration shape)",
        what, declared[first].name()));
  }
  if (target.out) {
    throw LogicError(fmt::format(
        "{}: a MultiQueue call makes its result MultiArray: ReductionTarget::out is not taken",
        what));
  }
  const auto& shape = whole->shape();
  MultiReduction call{
      whole->devices(),
      detail::part_layout(fmt::format("{}: argument '{}'", what, declared[first].name()), *whole),
      detail::part_queues(what, queues, whole->devices()),
      reduced_axes(what, shape.size(), target),
      {},
      false};
  for (std::size_t k = first + 1; k < declared.size(); ++k) {
    const auto& value = detail::Access::impl(args[k]);
    if (!declared[k].is_array() ||
        !(std::holds_alternative<Array>(value) || std::holds_alternative<MultiArray>(value))) {
      continue;  // scalars, and what the per-device checks refuse
    }
    const auto& name = declared[k].name();
    const auto& other_shape = std::holds_alternative<Array>(value)
                                  ? std::get<Array>(value).shape()
                                  : std::get<MultiArray>(value).shape();
    detail::check_parts_aligned(what, name, other_shape,
                                boxes_of(what, name, args[k], call.devices), shape, call.layout);
  }
  const auto& axes = call.axes;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (!std::binary_search(axes.begin(), axes.end(), d)) call.out_shape.push_back(shape[d]);
  }
  const auto& layout = call.layout;
  call.across =
      !layout.whole && (!layout.axis || std::binary_search(axes.begin(), axes.end(), *layout.axis));
  if (call.across && !layout.axis) {
    throw LogicError(fmt::format(
        "{}: argument '{}': the MultiArray's parts are blocks along more than one axis, which "
        "a reduction cannot combine (split it along one axis, e.g. by EqualSplay)",
        what, declared[first].name()));
  }
  return call;
}

/// The splay of the result of a call that does not cross the split axis: a clone where the
/// input is one, else the input's ranges along the split axis, now among the kept axes.
std::shared_ptr<const BaseSplay> kept_splay(const MultiReduction& call) {
  const auto& layout = call.layout;
  if (layout.whole) return std::make_shared<const CloneSplay>();
  std::size_t kept_axis = *layout.axis;
  for (const auto axis : call.axes) kept_axis -= axis < *layout.axis ? 1 : 0;
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const auto& box : layout.boxes) ranges.push_back(box[*layout.axis]);
  return std::make_shared<const detail::AxisRangeSplay>(kept_axis, std::move(ranges));
}

}  // namespace

MultiArray ReductionKernel::launch(const MultiQueue& queues, std::span<const ElementwiseValue> args,
                                   const ReductionTarget& target) const {
  const std::string what = fmt::format("ReductionKernel '{}'", name());
  const auto& declared = arguments();
  const auto call = plan_multi_reduction(what, declared, queues, args, target);
  const auto& devices = call.devices;
  const auto& queue_of = call.queues;
  const auto& axes = call.axes;

  // Every device's call (and the combination) planned before anything is enqueued.
  std::vector<detail::PlannedReduction> planned;
  planned.reserve(devices.size() + 1);
  if (!call.across) {
    auto result = MultiArray::empty(devices, call.out_shape, output_dtype(), {}, kept_splay(call));
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const auto values = detail::values_on(what, declared, args, devices[i]);
      planned.push_back(detail::plan_reduction(
          *impl_, queue_of[i], values, ReductionTarget{.axes = axes, .out = result[devices[i]]}));
    }
    for (const auto& planned_call : planned) planned_call.enqueue();
    return result;
  }

  // Across the split axis: device 0's partial goes straight into row 0 of the stack the
  // combination reads; the others' are copied into their rows once computed.
  const Queue& home = queue_of.front();
  std::vector<std::size_t> stacked_shape{devices.size()};
  stacked_shape.insert(stacked_shape.end(), call.out_shape.begin(), call.out_shape.end());
  const Array stacked = Array::empty(home, stacked_shape, output_dtype());
  auto result = MultiArray::empty(devices, call.out_shape, output_dtype(), {},
                                  std::make_shared<CloneSplay>());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto values = detail::values_on(what, declared, args, devices[i]);
    const std::vector<Index> row{Index(i)};
    planned.push_back(detail::plan_reduction(
        *impl_, queue_of[i], values,
        ReductionTarget{.axes = axes,
                        .out = i == 0 ? std::optional<Array>(stacked.view(row)) : std::nullopt}));
  }
  const ElementwiseValue stack_value(stacked);
  const auto combine = detail::plan_reduction(
      *detail::reduction_combiner(*impl_).impl_, home, std::span(&stack_value, 1),
      ReductionTarget{.axes = std::vector<std::size_t>{0}, .out = result[devices[0]]});

  for (const auto& planned_call : planned) planned_call.enqueue();
  for (std::size_t i = 1; i < devices.size(); ++i) {
    home.wait_for(queue_of[i].record_event());
    const std::vector<Index> row{Index(i)};
    stacked.view(row).set(home, planned[i].result);
  }
  combine.enqueue();
  if (devices.size() > 1) {
    const Event combined = home.record_event();
    for (std::size_t i = 1; i < devices.size(); ++i) {
      queue_of[i].wait_for(combined);
      result[devices[i]].set(queue_of[i], result[devices[0]]);
    }
  }
  return result;
}

}  // namespace plinth
