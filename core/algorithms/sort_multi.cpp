#include <plinth/sorting.hpp>

#include "algorithms/kit/multi_parts.hpp"
#include "algorithms/sort_arrays.hpp"

#include <plinth/splay.hpp>

#include <fmt/format.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace plinth {

namespace {

/// sort or argsort of each part of `a` along the last axis, into a MultiArray split like `a`.
MultiArray sort_parts(const MultiQueue& queues, const MultiArray& a, bool indices,
                      std::string_view function) {
  if (a.shape().empty()) {
    detail::sort_fail(function, "a", "a zero-dimensional array has no axis to sort along");
  }
  const std::string what = fmt::format("{}: argument 'a'", function);
  const auto layout = detail::part_layout(what, a);
  const std::size_t last = a.shape().size() - 1;
  if (!layout.whole && layout.axis && *layout.axis == last) {
    detail::sort_fail(function, "a",
                      "the MultiArray is split along its last axis, the one sorted (resplay it "
                      "along another axis, or onto one device)");
  }
  const auto& devices = a.devices();
  const auto queue_of = detail::part_queues(what, queues, devices);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    detail::check_sort_array(queue_of[i], a[devices[i]], function, "a");
  }
  std::shared_ptr<const BaseSplay> splay;
  if (layout.whole) {
    splay = std::make_shared<const CloneSplay>();
  } else {
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (const auto& box : layout.boxes) ranges.push_back(box[*layout.axis]);
    splay = std::make_shared<const detail::AxisRangeSplay>(*layout.axis, std::move(ranges));
  }
  auto result =
      MultiArray::empty(devices, a.shape(), indices ? DType::int64() : a.dtype(), {}, splay);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const Queue& queue = queue_of[i];
    const Array part = a[devices[i]];
    const Array sorted = indices ? argsort(queue, part) : sort(queue, part);
    result[devices[i]].set(queue, sorted);
  }
  return result;
}

}  // namespace

MultiArray sort(const MultiQueue& queues, const MultiArray& a) {
  return sort_parts(queues, a, false, "sort");
}

MultiArray argsort(const MultiQueue& queues, const MultiArray& a) {
  return sort_parts(queues, a, true, "argsort");
}

}  // namespace plinth
