// MultiArray::resplay: the same elements split among the same devices by another splay.

#include <plinth/multi_array.hpp>

#include "arrays/splay_box.hpp"
#include "diagnostics/debug.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace plinth {

namespace {

using detail::Box;
using detail::extents;
using detail::is_empty;
using detail::plain_box;

Box intersect(const Box& a, const Box& b) {
  Box result;
  for (std::size_t d = 0; d < a.size(); ++d) {
    result.emplace_back(std::max(a[d].first, b[d].first), std::min(a[d].second, b[d].second));
  }
  return result;
}

/// `box` less `inner` (a non-empty block inside it), as at most two blocks per dimension.
std::vector<Box> subtract(Box box, const Box& inner) {
  std::vector<Box> pieces;
  for (std::size_t d = 0; d < box.size(); ++d) {
    if (box[d].first < inner[d].first) {
      Box below = box;
      below[d].second = inner[d].first;
      pieces.push_back(std::move(below));
    }
    if (inner[d].second < box[d].second) {
      Box above = box;
      above[d].first = inner[d].second;
      pieces.push_back(std::move(above));
    }
    box[d] = inner[d];
  }
  return pieces;
}

/// The view of a part that holds `region` of the whole array, the part holding `part`.
std::vector<Index> relative_view(const Box& region, const Box& part) {
  std::vector<Index> view;
  for (std::size_t d = 0; d < region.size(); ++d) {
    view.emplace_back(Slice(static_cast<std::ptrdiff_t>(region[d].first - part[d].first),
                            static_cast<std::ptrdiff_t>(region[d].second - part[d].first)));
  }
  return view;
}

/// The blocks of every part, if all are plain (see plain_box) and agree with the parts'
/// shapes.
std::optional<std::vector<Box>> plain_boxes(const std::vector<std::vector<Index>>& parts,
                                            const MultiArray& array) {
  std::vector<Box> boxes;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    auto box = plain_box(parts[i], array.shape());
    if (!box || extents(*box) != array[array.devices()[i]].shape()) {
      return std::nullopt;
    }
    boxes.push_back(std::move(*box));
  }
  return boxes;
}

/// One copy: the elements of `region` from old part `from` into new part `to`.
struct Copy {
  std::size_t to;
  std::size_t from;
  Box region;
};

/// Which elements each new part takes from which old part: from its own device's old part
/// first, then from the others in the devices' order, each element once.
std::vector<Copy> plan(const std::vector<Box>& new_boxes, const std::vector<Box>& old_boxes) {
  std::vector<Copy> copies;
  for (std::size_t to = 0; to < new_boxes.size(); ++to) {
    std::vector<Box> remaining;
    if (!is_empty(new_boxes[to])) remaining.push_back(new_boxes[to]);
    std::vector<std::size_t> order{to};
    for (std::size_t from = 0; from < old_boxes.size(); ++from) {
      if (from != to) order.push_back(from);
    }
    for (const auto from : order) {
      std::vector<Box> left;
      for (const auto& box : remaining) {
        auto shared = intersect(box, old_boxes[from]);
        if (is_empty(shared)) {
          left.push_back(box);
          continue;
        }
        for (auto& piece : subtract(box, shared)) left.push_back(std::move(piece));
        copies.push_back({to, from, std::move(shared)});
      }
      remaining = std::move(left);
      if (remaining.empty()) break;
    }
  }
  return copies;
}

}  // namespace

MultiArray MultiArray::resplay(const MultiQueue& queues, std::shared_ptr<const BaseSplay> splay,
                               bool no_async) const {
  const auto& all = devices();
  std::vector<const Queue*> queue_of;
  for (const auto& device : all) {
    const auto found = std::find_if(queues.queues().begin(), queues.queues().end(),
                                    [&](const Queue& q) { return q.device() == device; });
    if (found == queues.queues().end()) {
      throw LogicError(fmt::format(
          "MultiArray::resplay: the MultiQueue has no queue on device {} ('{}') of the array",
          device.index(), device.name()));
    }
    queue_of.push_back(&*found);
  }
  auto result = empty(all, shape(), dtype(), {}, std::move(splay));

  const auto old_boxes = plain_boxes(this->splay().split(shape(), all), *this);
  const auto new_boxes = plain_boxes(result.splay().split(shape(), all), result);
  if (!old_boxes || !new_boxes) {
    detail::debug(detail::DebugTopic::transfer,
                  "MultiArray::resplay: {} bytes through the host (a part of a splay is not a "
                  "range of step 1 in every dimension)",
                  ArrayMetadata(shape(), dtype()).nbytes());
    result.set(queues, get(queues), true);
    return result;
  }

  const auto copies = plan(*new_boxes, *old_boxes);
  // Each old part that another device copies from may still be being written in its
  // device's queue: those queues wait for an event recorded there, before any copy is
  // enqueued.
  std::vector<std::optional<Event>> written(all.size());
  std::vector<std::vector<bool>> waited(all.size(), std::vector<bool>(all.size(), false));
  for (const auto& copy : copies) {
    if (copy.from != copy.to && !written[copy.from]) {
      written[copy.from] = queue_of[copy.from]->record_event();
    }
  }
  for (const auto& copy : copies) {
    const Queue& queue = *queue_of[copy.to];
    if (copy.from != copy.to && !waited[copy.to][copy.from]) {
      queue.wait_for(*written[copy.from]);
      waited[copy.to][copy.from] = true;
    }
    const auto& dst_part = result[all[copy.to]];
    const auto& src_part = (*this)[all[copy.from]];
    const auto dst = dst_part.view(relative_view(copy.region, (*new_boxes)[copy.to]));
    const auto src = src_part.view(relative_view(copy.region, (*old_boxes)[copy.from]));
    if (copy.from != copy.to && !(dst.is_contiguous() && src.is_contiguous())) {
      detail::debug(detail::DebugTopic::transfer,
                    "MultiArray::resplay: {} bytes from device {} to device {} through the host "
                    "(the elements are not contiguous in both parts)",
                    dst.nbytes(), all[copy.from].index(), all[copy.to].index());
    }
    dst.set(queue, src);
  }
  if (no_async) {
    for (const auto* queue : queue_of) queue->synchronize();
  }
  return result;
}

}  // namespace plinth
