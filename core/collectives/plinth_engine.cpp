// plinth's own collectives, within one process: the ranks' data gathered on one rank with
// copies between devices (peer copies where the backend has them), reduced there with
// elementwise kernels, and copied back out. Every read of another device's buffer waits for
// an event of the rank that wrote it, and the call ends with every rank's queue waiting for
// every other's, so later work on any rank's queue sees the results (and cannot overwrite an
// array another rank still reads).

#include "collectives/engine.hpp"
#include "runtime/peer_copy.hpp"

#include <plinth/array_metadata.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>
#include <plinth/event.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plinth::detail {

namespace {

using backend::CollectiveKind;
using backend::CollectiveOp;

const char* kind_name(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::all_reduce: return "all_reduce";
    case CollectiveKind::reduce: return "reduce";
    case CollectiveKind::broadcast: return "broadcast";
    case CollectiveKind::all_gather: return "all_gather";
    case CollectiveKind::reduce_scatter: return "reduce_scatter";
  }
  return "collective";
}

// The statement combining x and y into z, in C, for `op` (avg sums; run() divides after).
std::string combine_operation(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::sum:
    case CollectiveOp::avg: return "z[i] = x[i] + y[i];";
    case CollectiveOp::prod: return "z[i] = x[i] * y[i];";
    case CollectiveOp::min: return "z[i] = y[i] < x[i] ? y[i] : x[i];";
    case CollectiveOp::max: return "z[i] = x[i] < y[i] ? y[i] : x[i];";
  }
  throw LogicError("Communicator: unknown reduction op");
}

class PlinthEngine final : public CollectiveEngine {
 public:
  explicit PlinthEngine(MultiQueue queues)
      : queues_(std::move(queues)), scratch_(queues_.queues().size()) {}

  // Kernels take no float16; complex arrives as pairs of reals.
  bool reduces(const DType& dtype) const override { return dtype.name() != "float16"; }

  void run(const CheckedCollective& collective) override {
    const auto& call = collective.call;
    if (collective.dtype == DType::float64()) {
      for (const auto& queue : queues_.queues()) {
        if (!queue.device().params().supports_double) {
          throw LogicError(fmt::format(
              "Communicator::{}: device {} ('{}') has no double-precision arithmetic for a "
              "{} reduction",
              kind_name(call.kind), queue.device().index(), queue.device().name(),
              collective.dtype.name()));
        }
      }
    }
    const std::size_t ranks = queues_.queues().size();
    const auto parts = flat_parts(collective);
    const std::size_t count = call.count;
    switch (call.kind) {
      case CollectiveKind::all_reduce:
        reduce_onto(collective, parts, 0, parts[0].dst);
        distribute(0, parts[0].dst, 0, parts, 0, count);
        break;
      case CollectiveKind::reduce:
        reduce_onto(collective, parts, call.root, parts[call.root].dst);
        break;
      case CollectiveKind::broadcast:
        distribute(call.root, parts[call.root].src, 0, parts, 0, count);
        if (!same_elements(parts[call.root].src, parts[call.root].dst)) {
          copy(call.root, parts[call.root].dst, 0, call.root, parts[call.root].src, 0, count);
        }
        break;
      case CollectiveKind::all_gather: {
        const auto written = events();
        for (std::size_t r = 0; r < ranks; ++r) {
          for (std::size_t k = 0; k < ranks; ++k) {
            if (k != r) queue(r).wait_for(written[k]);
            copy(r, parts[r].dst, k * count, k, parts[k].src, 0, count);
          }
        }
        break;
      }
      case CollectiveKind::reduce_scatter: {
        const Array total = scratch(0, ranks - 1, collective.dtype, ranks * count);
        reduce_onto(collective, parts, 0, total);
        const auto reduced = queue(0).record_event();
        for (std::size_t r = 0; r < ranks; ++r) {
          if (r != 0) queue(r).wait_for(reduced);
          copy(r, parts[r].dst, 0, 0, total, r * count, count);
        }
        break;
      }
    }
    barrier();
  }

 private:
  const Queue& queue(std::size_t rank) const { return queues_.queues()[rank]; }

  std::vector<Event> events() const {
    std::vector<Event> recorded;
    recorded.reserve(queues_.queues().size());
    for (const auto& q : queues_.queues()) recorded.push_back(q.record_event());
    return recorded;
  }

  // Every rank's queue waits for the work enqueued so far on every other.
  void barrier() const {
    if (queues_.queues().size() < 2) return;
    const auto recorded = events();
    for (std::size_t r = 0; r < recorded.size(); ++r) {
      for (std::size_t k = 0; k < recorded.size(); ++k) {
        if (k != r) queue(r).wait_for(recorded[k]);
      }
    }
  }

  // Copies `count` elements of `src` (on rank `from`'s device) from element `src_at` into
  // `dst` (on rank `to`'s) at `dst_at`, ordered on rank `to`'s queue.
  void copy(std::size_t to, const Array& dst, std::size_t dst_at, std::size_t from,
            const Array& src, std::size_t src_at, std::size_t count) const {
    const std::size_t item = dst.dtype().itemsize();
    copy_buffer_region(queue(to), dst.base_buffer(), dst.first_element_offset() + dst_at * item,
                       src.base_buffer(), src.first_element_offset() + src_at * item, count * item,
                       &queue(from));
  }

  // `count` elements of `from`'s array copied into every other rank's dst at element 0,
  // after the work enqueued so far on `from`.
  void distribute(std::size_t from, const Array& array, std::size_t at,
                  const std::vector<CollectiveArrays>& parts, std::size_t dst_at,
                  std::size_t count) const {
    if (parts.size() < 2) return;
    const auto ready = queue(from).record_event();
    for (std::size_t r = 0; r < parts.size(); ++r) {
      if (r == from) continue;
      queue(r).wait_for(ready);
      copy(r, parts[r].dst, dst_at, from, array, at, count);
    }
  }

  // Scratch slot `slot` of rank `rank`'s device as `count` elements of `dtype`. A slot is
  // written and read only on that rank's queue, so reusing it in the next call is ordered.
  Array scratch(std::size_t rank, std::size_t slot, const DType& dtype, std::size_t count) {
    auto& slots = scratch_[rank];
    if (slots.size() <= slot) slots.resize(slot + 1);
    const std::size_t bytes = count * dtype.itemsize();
    if (!slots[slot] || slots[slot]->size() < bytes) {
      // Work enqueued by earlier calls may still use the smaller buffer: let it finish
      // before freeing it (some vendors' frees do not wait).
      if (slots[slot]) queue(rank).synchronize();
      slots[slot] = Buffer::allocate(queue(rank).device(), bytes);
    }
    return Array::from_buffer(*slots[slot], ArrayMetadata({count}, dtype));
  }

  // `acc` (on rank `root`'s device, as many elements as each src) gets the reduction of every
  // rank's src, ordered on the root's queue.
  void reduce_onto(const CheckedCollective& collective, const std::vector<CollectiveArrays>& parts,
                   std::size_t root, const Array& acc) {
    const std::size_t ranks = parts.size();
    const std::size_t elements = parts[root].src.size();
    if (ranks == 1) {
      if (!same_elements(acc, parts[root].src))
        copy(root, acc, 0, root, parts[root].src, 0, elements);
      return;
    }
    const auto written = events();
    std::vector<Array> gathered;
    for (std::size_t r = 0; r < ranks; ++r) {
      if (r == root) continue;
      gathered.push_back(scratch(root, gathered.size(), collective.dtype, elements));
      queue(root).wait_for(written[r]);
      copy(root, gathered.back(), 0, r, parts[r].src, 0, elements);
    }
    const auto& combine = combine_kernel(collective.dtype, collective.call.op);
    combine(queue(root), acc, parts[root].src, gathered[0]);
    for (std::size_t k = 1; k < gathered.size(); ++k) combine(queue(root), acc, acc, gathered[k]);
    if (collective.call.op == CollectiveOp::avg) {
      divide_kernel(collective.dtype)(queue(root), acc, static_cast<std::int32_t>(ranks));
    }
  }

  const ElementwiseKernel& combine_kernel(const DType& dtype, CollectiveOp op) {
    const auto key = std::make_pair(dtype.name(), op);
    auto found = combine_.find(key);
    if (found == combine_.end()) {
      found = combine_
                  .emplace(key, ElementwiseKernel({ElementwiseArg::output("z", dtype),
                                                   ElementwiseArg::input("x", dtype),
                                                   ElementwiseArg::input("y", dtype)},
                                                  combine_operation(op),
                                                  {.name = "plinth_collective_combine"}))
                  .first;
    }
    return found->second;
  }

  // z /= n, in the element type (integers divide as C does).
  const ElementwiseKernel& divide_kernel(const DType& dtype) {
    auto found = divide_.find(dtype.name());
    if (found == divide_.end()) {
      found =
          divide_
              .emplace(dtype.name(),
                       ElementwiseKernel({ElementwiseArg::inout("z", dtype),
                                          ElementwiseArg::scalar("n", DType::int32())},
                                         "z[i] = z[i] / n;", {.name = "plinth_collective_average"}))
              .first;
    }
    return found->second;
  }

  MultiQueue queues_;
  std::vector<std::vector<std::optional<Buffer>>> scratch_;  // per rank, per slot
  std::map<std::pair<std::string, CollectiveOp>, ElementwiseKernel> combine_;
  std::map<std::string, ElementwiseKernel> divide_;
};

}  // namespace

std::unique_ptr<CollectiveEngine> make_plinth_engine(MultiQueue queues) {
  return std::make_unique<PlinthEngine>(std::move(queues));
}

}  // namespace plinth::detail
