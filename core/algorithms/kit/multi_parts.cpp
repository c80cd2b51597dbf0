#include "algorithms/kit/multi_parts.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace plinth::detail {

namespace {

bool covers(const Box& box, std::span<const std::size_t> shape, std::size_t d) {
  return box[d].first == 0 && box[d].second == shape[d];
}

/// Whether the boxes divide dimension `axis` of `shape` and hold the whole of the others.
bool divide_along(const std::vector<Box>& boxes, std::span<const std::size_t> shape,
                  std::size_t axis) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const auto& box : boxes) {
    for (std::size_t d = 0; d < shape.size(); ++d) {
      if (d != axis && !covers(box, shape, d)) return false;
    }
    if (box[axis].first < box[axis].second) ranges.push_back(box[axis]);
  }
  std::sort(ranges.begin(), ranges.end());
  std::size_t next = 0;
  for (const auto& [start, stop] : ranges) {
    if (start != next) return false;
    next = stop;
  }
  return next == shape[axis];
}

}  // namespace

PartLayout part_layout(std::string_view what, const MultiArray& array) {
  const auto& devices = array.devices();
  const auto& shape = array.shape();
  const auto views = array.splay().split(shape, devices);
  PartLayout layout;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    auto box = i < views.size() ? plain_box(views[i], shape) : std::nullopt;
    if (!box || extents(*box) != array[devices[i]].shape()) {
      throw LogicError(fmt::format(
          "{}: the MultiArray's part on device {} ('{}') is not a block of the whole array "
          "(its splay's view has an integer index or a step): split it by EqualSplay, "
          "CloneSplay or blocks of slices",
          what, devices[i].index(), devices[i].name()));
    }
    layout.boxes.push_back(std::move(*box));
  }
  layout.whole = std::all_of(layout.boxes.begin(), layout.boxes.end(), [&](const Box& box) {
    for (std::size_t d = 0; d < shape.size(); ++d) {
      if (!covers(box, shape, d)) return false;
    }
    return true;
  });
  if (!layout.whole) {
    for (std::size_t axis = 0; axis < shape.size() && !layout.axis; ++axis) {
      if (divide_along(layout.boxes, shape, axis)) layout.axis = axis;
    }
  }
  return layout;
}

std::optional<std::size_t> flat_run_start(const Box& box, std::span<const std::size_t> shape) {
  // The innermost dimension the box does not hold whole; every one outside it must have a
  // single position.
  std::size_t partial = 0;
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (!covers(box, shape, d)) {
      partial = d;
      break;
    }
  }
  std::size_t start = 0, stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (d < partial && box[d].second - box[d].first != 1 && !is_empty(box)) return std::nullopt;
    start += box[d].first * stride;
    stride *= shape[d];
  }
  return start;
}

std::vector<Queue> part_queues(std::string_view what, const MultiQueue& queues,
                               const BoundMultiDevice& devices) {
  std::vector<Queue> result;
  result.reserve(devices.size());
  for (const auto& device : devices) {
    const auto& all = queues.queues();
    const auto found =
        std::find_if(all.begin(), all.end(), [&](const Queue& q) { return q.device() == device; });
    if (found == all.end()) {
      throw LogicError(fmt::format(
          "{}: the MultiQueue has no queue on device {} ('{}'), which holds a part of the array",
          what, device.index(), device.name()));
    }
    result.push_back(*found);
  }
  for (const auto& queue : queues.queues()) {
    if (std::none_of(devices.begin(), devices.end(),
                     [&](const BoundDevice& device) { return queue.device() == device; })) {
      throw LogicError(
          fmt::format("{}: the MultiQueue has a queue on device {} ('{}'), where the array has "
                      "no part",
                      what, queue.device().index(), queue.device().name()));
    }
  }
  return result;
}

void check_parts_aligned(std::string_view what, std::string_view name,
                         std::span<const std::size_t> shape, const std::vector<Box>& boxes,
                         std::span<const std::size_t> iteration, const PartLayout& first) {
  const auto fail = [&](const std::string& problem) {
    throw LogicError(fmt::format("{}: argument '{}': {}", what, name, problem));
  };
  if (shape.size() > iteration.size() || boxes.size() != first.boxes.size()) {
    fail(fmt::format(
        "its shape ({}) on {} device(s) does not broadcast to the iteration shape "
        "({}) on {}",
        fmt::join(shape, ", "), boxes.size(), fmt::join(iteration, ", "), first.boxes.size()));
  }
  const std::size_t lead = iteration.size() - shape.size();
  for (std::size_t part = 0; part < boxes.size(); ++part) {
    for (std::size_t e = 0; e < shape.size(); ++e) {
      const std::size_t d = e + lead;
      const auto& range = boxes[part][e];
      if (shape[e] == 1 && range.first == 0 && range.second == 1) continue;
      if (shape[e] == iteration[d] && range == first.boxes[part][d]) continue;
      fail(
          fmt::format("its part {} holds [{}, {}) of dimension {} (extent {}), where the first "
                      "array's holds [{}, {}) of extent {}: split the arrays alike, or give "
                      "every device the whole of a broadcast one (CloneSplay)",
                      part, range.first, range.second, e, shape[e], first.boxes[part][d].first,
                      first.boxes[part][d].second, iteration[d]));
    }
  }
}

std::vector<ElementwiseValue> values_on(std::string_view what, std::span<const ElementwiseArg> args,
                                        std::span<const ElementwiseValue> values,
                                        const BoundDevice& device) {
  std::vector<ElementwiseValue> result;
  result.reserve(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto* multi = std::get_if<MultiArray>(&detail::Access::impl(values[k]));
    if (multi == nullptr) {
      result.push_back(values[k]);
      continue;
    }
    try {
      result.emplace_back((*multi)[device]);
    } catch (const LogicError& error) {
      throw LogicError(fmt::format("{}: argument '{}': {}", what,
                                   k < args.size() ? args[k].name() : "?", error.what()));
    }
  }
  return result;
}

std::vector<std::vector<Index>> AxisRangeSplay::split(const std::vector<std::size_t>& shape,
                                                      const BoundMultiDevice& devices) const {
  if (ranges_.size() != devices.size() || axis_ >= shape.size()) {
    throw LogicError(fmt::format(
        "AxisRangeSplay: {} range(s) along axis {} for {} device(s) and an array of shape ({})",
        ranges_.size(), axis_, devices.size(), fmt::join(shape, ", ")));
  }
  std::vector<std::vector<Index>> parts;
  for (const auto& [start, stop] : ranges_) {
    if (start > stop || stop > shape[axis_]) {
      throw LogicError(fmt::format("AxisRangeSplay: the range [{}, {}) is outside axis {} of ({})",
                                   start, stop, axis_, fmt::join(shape, ", ")));
    }
    std::vector<Index> view(axis_, Index(Slice::all()));
    view.emplace_back(Slice(static_cast<std::ptrdiff_t>(start), static_cast<std::ptrdiff_t>(stop)));
    parts.push_back(std::move(view));
  }
  return parts;
}

}  // namespace plinth::detail
