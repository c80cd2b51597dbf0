// ScanKernel's MultiQueue call (include/plinth/scan.hpp): each device scans its part of a
// MultiArray; the parts' totals, gathered on one device and scanned there, are carried into
// the later parts.

#include <plinth/scan.hpp>

#include "algorithms/kit/multi_parts.hpp"
#include "algorithms/scan_multi.hpp"

#include <plinth/array_metadata.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plinth {

namespace {

/// A part's run of the whole array's elements in C order.
struct Run {
  std::size_t start = 0;
  std::size_t count = 0;
};

/// The runs of `array`'s parts in the order of `devices`. Throws LogicError naming
/// `argument` if the array has no part on one of them or a part is not a run.
std::vector<Run> runs_of(const std::string& what, const char* argument, const MultiArray& array,
                         const BoundMultiDevice& devices) {
  const auto described = fmt::format("{}: argument '{}'", what, argument);
  const auto layout = detail::part_layout(described, array);
  const auto& own = array.devices();
  std::vector<Run> runs;
  for (const auto& device : devices) {
    const auto found = std::find(own.begin(), own.end(), device);
    if (found == own.end()) {
      throw LogicError(
          fmt::format("{}: the MultiArray has no part on device {} ('{}'), where "
                      "the input has one",
                      described, device.index(), device.name()));
    }
    const auto& box = layout.boxes[static_cast<std::size_t>(found - own.begin())];
    const auto start = detail::flat_run_start(box, array.shape());
    if (!start) {
      throw LogicError(fmt::format(
          "{}: its part on device {} ('{}') is not a run of consecutive elements of the whole "
          "array in C order (split it along its first axis, e.g. by EqualSplay)",
          described, device.index(), device.name()));
    }
    const auto extents = detail::extents(box);
    runs.push_back({*start, std::accumulate(extents.begin(), extents.end(), std::size_t{1},
                                            std::multiplies<>())});
  }
  return runs;
}

/// `array` (C-contiguous) as a one-dimensional array of its elements.
Array flat(const Array& array) {
  const ArrayMetadata metadata({array.size()}, array.dtype(), std::nullopt,
                               array.first_element_offset(), array.base_buffer().size());
  return Array::from_buffer(array.base_buffer(), metadata);
}

/// The last element of `array` in C order, as a view of shape (). `array` is not empty.
Array last_element(const Array& array) {
  std::vector<Index> position;
  for (const auto extent : array.shape()) position.emplace_back(Index(extent - 1));
  return array.view(position);
}

/// A MultiQueue call's parts, checked: per device of the input, its queue and parts; the
/// devices holding elements, in the order of their runs; whether every device holds the whole
/// array.
struct MultiScan {
  std::vector<Queue> queues;
  std::vector<Array> in, out;
  std::vector<std::size_t> order;
  bool whole = false;
};

/// Checks how `input` and `output` lie on the devices (see ScanKernel's MultiQueue call).
/// Throws LogicError.
MultiScan plan_multi_scan(const std::string& what, const MultiQueue& queues,
                          const MultiArray& input, const MultiArray& output) {
  const auto& devices = input.devices();
  MultiScan scan;
  scan.queues = detail::part_queues(what, queues, devices);
  const auto in_runs = runs_of(what, "input", input, devices);
  const auto out_runs = runs_of(what, "output", output, devices);
  std::size_t total = 1, out_total = 1;
  for (const auto extent : input.shape()) total *= extent;
  for (const auto extent : output.shape()) out_total *= extent;
  if (out_total != total) {
    throw LogicError(fmt::format("{}: argument 'output': has {} elements, the input {}", what,
                                 out_total, total));
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (in_runs[i].start != out_runs[i].start || in_runs[i].count != out_runs[i].count) {
      throw LogicError(fmt::format(
          "{}: argument 'output': its part on device {} ('{}') holds its elements [{}, {}) in C "
          "order, the input's part there [{}, {})",
          what, devices[i].index(), devices[i].name(), out_runs[i].start,
          out_runs[i].start + out_runs[i].count, in_runs[i].start,
          in_runs[i].start + in_runs[i].count));
    }
    scan.in.push_back(input[devices[i]]);
    scan.out.push_back(output[devices[i]]);
    if (in_runs[i].count > 0) scan.order.push_back(i);
  }
  // The parts must follow each other, unless every device holds the whole array.
  std::sort(scan.order.begin(), scan.order.end(),
            [&](std::size_t a, std::size_t b) { return in_runs[a].start < in_runs[b].start; });
  scan.whole = std::all_of(in_runs.begin(), in_runs.end(),
                           [&](const Run& run) { return run.start == 0 && run.count == total; });
  std::size_t next = 0;
  for (const auto i : scan.order) {
    if (scan.whole) break;
    if (in_runs[i].start != next) {
      throw LogicError(fmt::format(
          "{}: argument 'input': its parts overlap or leave gaps (the part on device {} starts "
          "at element {}, after {} elements)",
          what, devices[i].index(), in_runs[i].start, next));
    }
    next += in_runs[i].count;
  }
  return scan;
}

}  // namespace

void ScanKernel::operator()(const MultiQueue& queues, const MultiArray& input,
                            const MultiArray& output) const {
  const auto scan = plan_multi_scan(fmt::format("ScanKernel '{}'", name()), queues, input, output);
  const auto devices = scan.queues.size();
  for (std::size_t i = 0; i < devices; ++i) {
    detail::check_scan(*impl_, scan.queues[i], scan.in[i], scan.out[i]);
  }
  const std::size_t parts = scan.order.size();
  if (scan.whole || parts <= 1) {
    for (std::size_t i = 0; i < devices; ++i) {
      detail::run_scan(*impl_, scan.queues[i], scan.in[i], scan.out[i]);
    }
    return;
  }

  // Each part's total: its last output, combined for an exclusive scan with its last input
  // (kept before an in-place scan overwrites it). Gathered on the first part's device as
  // [last output, last input] per part but the last, then one entry whose exclusive scan
  // is the combination of all of them: the last part's carry.
  const bool exclusive = kind() == ScanKind::exclusive;
  const std::size_t stride = exclusive ? 2 : 1;
  const Queue& home = scan.queues[scan.order.front()];  // its program is built
  const Array totals = Array::empty(home, {stride * (parts - 1) + 1}, dtype());
  // Every part's small arrays made, and the kernels built, before anything is enqueued.
  const bool converts = input_dtype() != dtype();
  std::optional<ElementwiseKernel> convert;
  if (converts) convert = detail::scan_convert_kernel(*impl_);
  const auto carry_kernel = detail::scan_carry_kernel(*impl_);
  std::vector<Array> saved, carries;
  for (std::size_t k = 0; k < parts; ++k) {
    const auto i = scan.order[k];
    if (k + 1 < parts && exclusive) {
      saved.push_back(Array::empty(scan.queues[i], {}, dtype()));
      if (converts) {
        const ElementwiseValue values[] = {saved.back(), last_element(scan.in[i])};
        static_cast<void>(convert->program(scan.queues[i], values));
      }
    }
    if (k > 0) {
      carries.push_back(Array::empty(scan.queues[i], {1}, dtype()));
      const ElementwiseValue values[] = {flat(scan.out[i]), carries.back()};
      static_cast<void>(carry_kernel.program(scan.queues[i], values));
    }
  }

  for (std::size_t k = 0; k < saved.size(); ++k) {
    const auto i = scan.order[k];
    if (converts) {
      (*convert)(scan.queues[i], saved[k], last_element(scan.in[i]));
    } else {
      saved[k].set(scan.queues[i], last_element(scan.in[i]));
    }
  }
  for (std::size_t i = 0; i < devices; ++i) {
    detail::run_scan(*impl_, scan.queues[i], scan.in[i], scan.out[i]);
  }
  for (std::size_t k = 0; k + 1 < parts; ++k) {
    const auto i = scan.order[k];
    if (!(scan.queues[i].device() == home.device())) home.wait_for(scan.queues[i].record_event());
    const std::vector<Index> at{Index(stride * k)};
    totals.view(at).set(home, last_element(scan.out[i]));
    if (exclusive) {
      const std::vector<Index> next{Index(stride * k + 1)};
      totals.view(next).set(home, saved[k]);
    }
  }
  const std::vector<Index> zero{Index(0)}, padding{Index(stride * (parts - 1))};
  totals.view(padding).set(home, totals.view(zero));  // any value: only its prefix is used
  detail::scan_exclusive_in_place(*impl_, home, totals);

  const Event carried = home.record_event();
  for (std::size_t k = 1; k < parts; ++k) {
    const auto i = scan.order[k];
    const Queue& queue = scan.queues[i];
    if (!(queue.device() == home.device())) queue.wait_for(carried);
    const std::vector<Index> at{Index(stride * k)};
    carries[k - 1].view(zero).set(queue, totals.view(at));
    carry_kernel(queue, flat(scan.out[i]), carries[k - 1]);
  }
}

void ScanKernel::operator()(const MultiQueue& queues, const MultiArray& array) const {
  (*this)(queues, array, array);
}

namespace {

MultiArray scan_multi_new(std::string_view function, const ScanKernel& kernel,
                          const MultiQueue& queues, const MultiArray& array) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const auto& run : runs_of(std::string(function), "array", array, array.devices())) {
    ranges.emplace_back(run.start, run.start + run.count);
  }
  std::size_t total = 1;
  for (const auto extent : array.shape()) total *= extent;
  auto result = MultiArray::empty(array.devices(), {total}, kernel.dtype(), {},
                                  std::make_shared<detail::AxisRangeSplay>(0, std::move(ranges)));
  kernel(queues, array, result);
  return result;
}

}  // namespace

MultiArray cumsum(const MultiQueue& queues, const MultiArray& array) {
  return scan_multi_new("cumsum", detail::cumsum_kernel(array.dtype()), queues, array);
}

MultiArray cumprod(const MultiQueue& queues, const MultiArray& array) {
  return scan_multi_new("cumprod", detail::cumprod_kernel(array.dtype()), queues, array);
}

}  // namespace plinth
