// Checks a collective's arguments (devices, dtypes, layouts, sizes, root, overlap, the dtype
// and op rules) and turns them into what the engines run: flat arrays of the working dtype.

#include "collectives/communicator_impl.hpp"
#include "runtime/impl.hpp"

#include <plinth/array_metadata.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <string>

namespace plinth::detail {

namespace {

std::string device_list(const BoundMultiDevice& devices) {
  std::string text;
  for (const auto& device : devices) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{} ('{}')", device.index(), device.name());
  }
  return text;
}

bool is_reduction(backend::CollectiveKind kind) {
  return kind == backend::CollectiveKind::all_reduce || kind == backend::CollectiveKind::reduce ||
         kind == backend::CollectiveKind::reduce_scatter;
}

const char* op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::prod: return "prod";
    case ReduceOp::min: return "min";
    case ReduceOp::max: return "max";
    case ReduceOp::avg: return "avg";
  }
  return "?";
}

backend::CollectiveOp collective_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return backend::CollectiveOp::sum;
    case ReduceOp::prod: return backend::CollectiveOp::prod;
    case ReduceOp::min: return backend::CollectiveOp::min;
    case ReduceOp::max: return backend::CollectiveOp::max;
    case ReduceOp::avg: return backend::CollectiveOp::avg;
  }
  throw LogicError("Communicator: unknown ReduceOp");
}

struct Working {
  backend::CollectiveType type;
  DType dtype;
  std::size_t factor;  // working elements per element
};

// The working dtype a reduction of `dtype` by `op` runs in, or a LogicError.
Working reduction_type(const CommunicatorImpl& comm, const char* collective, const DType& dtype,
                       ReduceOp op) {
  using T = backend::CollectiveType;
  const auto& name = dtype.name();
  const std::pair<const char*, T> reals[] = {
      {"int8", T::int8},       {"uint8", T::uint8},     {"int32", T::int32},
      {"uint32", T::uint32},   {"int64", T::int64},     {"uint64", T::uint64},
      {"float32", T::float32}, {"float64", T::float64}, {"float16", T::float16}};
  for (const auto& [real, type] : reals) {
    if (name != real) continue;
    if (type == T::float16 && !comm.engine->reduces(dtype)) {
      throw LogicError(fmt::format(
          "Communicator::{}: float16 reductions need a collectives library; this communicator "
          "runs on {} (use float32)",
          collective, comm.engine_name));
    }
    return {type, dtype, 1};
  }
  if (name == "complex64" || name == "complex128") {
    if (op != ReduceOp::sum && op != ReduceOp::avg) {
      throw LogicError(fmt::format("Communicator::{}: {} takes only the ops sum and avg, not {}",
                                   collective, name, op_name(op)));
    }
    if (name == "complex64") return {T::float32, DType::float32(), 2};
    return {T::float64, DType::float64(), 2};
  }
  throw LogicError(fmt::format(
      "Communicator::{}: cannot reduce dtype {} with {} (reductions take int8, uint8, int32, "
      "uint32, int64, uint64, float32, float64, float16 with a collectives library, and "
      "complex64 and complex128 for sum and avg)",
      collective, name, op_name(op)));
}

// The elements of `array` seen as `count` elements of `dtype` (contiguous, checked).
Array flat(const Array& array, const DType& dtype, std::size_t count) {
  const auto& base = array.base_buffer();
  return Array::from_buffer(
      base, ArrayMetadata({count}, dtype, std::nullopt, array.first_element_offset(), base.size()));
}

// The byte range of `array`'s elements in its root allocation.
std::size_t start_in_root(const Array& array) {
  return array.base_buffer().offset() + array.first_element_offset();
}

bool share_memory(const Array& a, const Array& b) {
  if (a.nbytes() == 0 || b.nbytes() == 0) return false;
  if (!a.base_buffer().overlaps(b.base_buffer())) return false;
  const std::size_t a0 = start_in_root(a);
  const std::size_t b0 = start_in_root(b);
  return a0 < b0 + b.nbytes() && b0 < a0 + a.nbytes();
}

}  // namespace

bool same_elements(const Array& a, const Array& b) {
  return share_memory(a, b) && start_in_root(a) == start_in_root(b) && a.nbytes() == b.nbytes();
}

std::vector<const Array*> rank_parts(const CommunicatorImpl& comm, const char* collective,
                                     const char* name, const MultiArray& array) {
  const auto& queues = comm.queues.queues();
  const auto& parts = array.subarrays();
  bool same = array.devices().size() == queues.size();
  for (const auto& queue : queues) same = same && parts.contains(queue.device());
  if (!same) {
    throw LogicError(fmt::format(
        "Communicator::{}: {} is on devices {}{} but the communicator's ranks are on {}: a "
        "MultiArray needs a part on each rank's device and none elsewhere",
        collective, name, device_list(array.devices()),
        array.devices().context() == comm.queues.devices().context() ? "" : " of another context",
        device_list(comm.queues.devices())));
  }
  std::vector<const Array*> arrays;
  arrays.reserve(queues.size());
  for (const auto& queue : queues) arrays.push_back(&parts[queue.device()]);
  return arrays;
}

std::vector<const Array*> rank_parts(const CommunicatorImpl& comm, const char* collective,
                                     const Array& array) {
  if (comm.queues.queues().size() != 1) {
    throw LogicError(fmt::format(
        "Communicator::{}: the Array form needs a communicator with one rank in this process; "
        "this one has {} (pass MultiArrays)",
        collective, comm.queues.queues().size()));
  }
  return {&array};
}

std::optional<CheckedCollective> check_collective(const CommunicatorImpl& comm,
                                                  const CollectiveArgs& args) {
  using K = backend::CollectiveKind;
  const char* const collective = args.collective;
  const auto& queues = comm.queues.queues();
  const std::size_t ranks = comm.size;
  const DType& dtype = args.src.front()->dtype();
  for (std::size_t i = 0; i < queues.size(); ++i) {
    const auto& device = queues[i].device();
    for (const auto& [name, array] : {std::pair<const char*, const Array&>{"src", *args.src[i]},
                                      std::pair<const char*, const Array&>{"dst", *args.dst[i]}}) {
      if (array.device() != device) {
        throw LogicError(
            fmt::format("Communicator::{}: {} of rank {}: {}", collective, name, comm.ranks[i],
                        describe_mismatch("the rank's queue", device, name, array.device())));
      }
      if (!(array.dtype() == dtype)) {
        throw LogicError(fmt::format(
            "Communicator::{}: {} of rank {} has dtype {}, but the first src {}: every array "
            "of a collective has one dtype",
            collective, name, comm.ranks[i], array.dtype().name(), dtype.name()));
      }
      if (!array.is_contiguous()) {
        throw LogicError(fmt::format(
            "Communicator::{}: {} of rank {} is not C-contiguous (copy it into a contiguous "
            "array first)",
            collective, name, comm.ranks[i]));
      }
    }
  }
  const std::size_t count = args.src.front()->size();
  for (std::size_t i = 0; i < queues.size(); ++i) {
    const std::size_t src = args.src[i]->size();
    const std::size_t dst = args.dst[i]->size();
    const std::size_t rank = comm.ranks[i];
    if (args.kind == K::all_gather) {
      if (src != count) {
        throw LogicError(fmt::format(
            "Communicator::{}: src of rank {} has {} elements but that of rank {} has {}: "
            "every rank sends as many",
            collective, rank, src, comm.ranks[0], count));
      }
      if (dst != ranks * src) {
        throw LogicError(fmt::format(
            "Communicator::{}: dst of rank {} has {} elements; it must hold size() ({}) times "
            "src's {}",
            collective, rank, dst, ranks, src));
      }
    } else if (args.kind == K::reduce_scatter) {
      if (src != count) {
        throw LogicError(fmt::format(
            "Communicator::{}: src of rank {} has {} elements but that of rank {} has {}: "
            "every rank sends as many",
            collective, rank, src, comm.ranks[0], count));
      }
      if (src != ranks * dst) {
        throw LogicError(fmt::format(
            "Communicator::{}: src of rank {} has {} elements; it must hold size() ({}) times "
            "dst's {}",
            collective, rank, src, ranks, dst));
      }
    } else {
      if (src != count) {
        throw LogicError(fmt::format(
            "Communicator::{}: src of rank {} has {} elements but that of rank {} has {}: "
            "every rank's arrays have as many",
            collective, rank, src, comm.ranks[0], count));
      }
      if (dst != src) {
        throw LogicError(fmt::format(
            "Communicator::{}: dst of rank {} has {} elements but its src {}: they must be "
            "the same size",
            collective, rank, dst, src));
      }
    }
    if (args.kind == K::all_gather || args.kind == K::reduce_scatter) {
      if (share_memory(*args.src[i], *args.dst[i])) {
        throw LogicError(fmt::format(
            "Communicator::{}: src and dst of rank {} overlap; {} needs separate arrays",
            collective, rank, collective));
      }
    } else if (share_memory(*args.src[i], *args.dst[i]) &&
               !same_elements(*args.src[i], *args.dst[i])) {
      throw LogicError(fmt::format(
          "Communicator::{}: src and dst of rank {} overlap partly; dst must be src itself or "
          "not share its memory",
          collective, rank));
    }
  }
  if ((args.kind == K::reduce || args.kind == K::broadcast) && args.root >= ranks) {
    throw LogicError(
        fmt::format("Communicator::{}: root {} is not a rank (the communicator has {})", collective,
                    args.root, ranks));
  }

  CheckedCollective checked;
  checked.call.kind = args.kind;
  checked.call.root = args.root;
  Working working{backend::CollectiveType::uint8, DType::uint8(), dtype.itemsize()};
  if (is_reduction(args.kind)) {
    working = reduction_type(comm, collective, dtype, *args.op);
    checked.call.op = collective_op(*args.op);
  }
  checked.call.type = working.type;
  checked.dtype = working.dtype;
  // NCCL's count: elements per rank sent (all_gather) or received (reduce_scatter).
  const std::size_t per_rank = args.kind == K::reduce_scatter ? args.dst.front()->size() : count;
  checked.call.count = per_rank * working.factor;
  if (checked.call.count == 0) return std::nullopt;
  checked.ranks.reserve(queues.size());
  for (std::size_t i = 0; i < queues.size(); ++i)
    checked.ranks.push_back({args.src[i], args.dst[i]});
  return checked;
}

std::vector<CollectiveArrays> flat_parts(const CheckedCollective& collective) {
  const std::size_t itemsize = collective.dtype.itemsize();
  std::vector<CollectiveArrays> parts;
  parts.reserve(collective.ranks.size());
  for (const auto& [src, dst] : collective.ranks) {
    parts.push_back({flat(*src, collective.dtype, src->nbytes() / itemsize),
                     flat(*dst, collective.dtype, dst->nbytes() / itemsize)});
  }
  return parts;
}

}  // namespace plinth::detail
