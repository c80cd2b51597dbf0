// Communicator: which engine runs the collectives (the backend's library or plinth's own),
// joining across processes, and the public collective calls.

#include "collectives/communicator_impl.hpp"
#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace plinth {

namespace detail {

CommunicatorImpl::~CommunicatorImpl() {
  try {
    queues.synchronize();
  } catch (...) {
    // A destructor does not throw; the engine is destroyed all the same.
  }
  engine.reset();
}

namespace {

std::shared_ptr<CommunicatorImpl> make_local(const MultiQueue& queues) {
  if (queues.queues().empty()) {
    throw LogicError("Communicator: the MultiQueue has no queue; a communicator needs a rank");
  }
  const auto devices = queues.devices();
  const Context& context = devices.context();
  const auto& api = loaded(context.api());
  std::vector<std::size_t> ranks(queues.queues().size());
  for (std::size_t i = 0; i < ranks.size(); ++i) ranks[i] = i;
  const auto library = collectives_library(api);
  std::unique_ptr<CollectiveEngine> engine;
  std::string name;
  if (library.available) {
    std::vector<std::size_t> indices;
    for (const auto& device : devices) indices.push_back(device.index());
    auto library_comm = api.adopt(adapter(context).create_communicator(indices));
    engine = make_library_engine(std::move(library_comm), queues);
    name = library.description;
    debug(DebugTopic::transfer, "communicator of {} ranks on devices {}: {}", ranks.size(),
          fmt::join(indices, ", "), name);
  } else {
    engine = make_plinth_engine(queues);
    name = "plinth copies and kernels";
    debug(DebugTopic::transfer, "communicator of {} ranks: plinth copies and kernels, because {}",
          ranks.size(), library.description);
  }
  return std::make_shared<CommunicatorImpl>(queues, ranks.size(), std::move(ranks), std::move(name),
                                            std::move(engine));
}

}  // namespace

}  // namespace detail

Communicator::Communicator(const MultiQueue& queues) : impl_(detail::make_local(queues)) {}

Communicator Communicator::join(const Queue& queue, const CommunicatorId& id,
                                std::size_t rank_count, std::size_t rank) {
  if (rank_count == 0) throw LogicError("Communicator::join: rank_count must be at least 1");
  if (rank >= rank_count) {
    throw LogicError(
        fmt::format("Communicator::join: rank {} is not below rank_count {} (ranks count from 0)",
                    rank, rank_count));
  }
  const auto& device = queue.device();
  const auto& api = detail::loaded(device.context().api());
  if (id.api_shortcut() != api.id.shortcut) {
    throw LogicError(
        fmt::format("Communicator::join: the id is of API '{}' but the queue of API '{}'",
                    id.api_shortcut(), api.id.shortcut));
  }
  const auto library = detail::collectives_library(api);
  if (!library.available) {
    throw LogicError(detail::no_collectives_library_message("Communicator::join", api, library));
  }
  auto library_comm =
      api.adopt(detail::adapter(device.context())
                    .join_communicator(device.index(), id.bytes(), rank_count, rank));
  MultiQueue queues({queue});
  detail::debug(detail::DebugTopic::transfer,
                "joined a communicator of {} ranks as rank {} on device {} "
                "('{}'): {}",
                rank_count, rank, device.index(), device.name(), library.description);
  return Communicator(std::make_shared<detail::CommunicatorImpl>(
      queues, rank_count, std::vector<std::size_t>{rank}, library.description,
      detail::make_library_engine(std::move(library_comm), queues)));
}

std::size_t Communicator::size() const noexcept { return impl_->size; }
const std::vector<std::size_t>& Communicator::ranks() const noexcept { return impl_->ranks; }
const MultiQueue& Communicator::queues() const noexcept { return impl_->queues; }
const std::string& Communicator::engine() const noexcept { return impl_->engine_name; }

namespace {

using backend::CollectiveKind;

void run(const detail::CommunicatorImpl& comm, const detail::CollectiveArgs& args) {
  if (auto checked = detail::check_collective(comm, args)) comm.engine->run(*checked);
}

detail::CollectiveArgs multi(const detail::CommunicatorImpl& comm, const char* collective,
                             CollectiveKind kind, const MultiArray& src, const MultiArray& dst) {
  return {collective, kind, detail::rank_parts(comm, collective, "src", src),
          detail::rank_parts(comm, collective, "dst", dst)};
}

detail::CollectiveArgs single(const detail::CommunicatorImpl& comm, const char* collective,
                              CollectiveKind kind, const Array& src, const Array& dst) {
  return {collective, kind, detail::rank_parts(comm, collective, src),
          detail::rank_parts(comm, collective, dst)};
}

}  // namespace

void Communicator::all_reduce(const MultiArray& src, const MultiArray& dst, ReduceOp op) const {
  auto args = multi(*impl_, "all_reduce", CollectiveKind::all_reduce, src, dst);
  args.op = &op;
  run(*impl_, args);
}

void Communicator::all_reduce(const Array& src, const Array& dst, ReduceOp op) const {
  auto args = single(*impl_, "all_reduce", CollectiveKind::all_reduce, src, dst);
  args.op = &op;
  run(*impl_, args);
}

void Communicator::reduce(const MultiArray& src, const MultiArray& dst, ReduceOp op,
                          std::size_t root) const {
  auto args = multi(*impl_, "reduce", CollectiveKind::reduce, src, dst);
  args.op = &op;
  args.root = root;
  run(*impl_, args);
}

void Communicator::reduce(const Array& src, const Array& dst, ReduceOp op, std::size_t root) const {
  auto args = single(*impl_, "reduce", CollectiveKind::reduce, src, dst);
  args.op = &op;
  args.root = root;
  run(*impl_, args);
}

void Communicator::broadcast(const MultiArray& src, const MultiArray& dst, std::size_t root) const {
  auto args = multi(*impl_, "broadcast", CollectiveKind::broadcast, src, dst);
  args.root = root;
  run(*impl_, args);
}

void Communicator::broadcast(const Array& src, const Array& dst, std::size_t root) const {
  auto args = single(*impl_, "broadcast", CollectiveKind::broadcast, src, dst);
  args.root = root;
  run(*impl_, args);
}

void Communicator::all_gather(const MultiArray& src, const MultiArray& dst) const {
  run(*impl_, multi(*impl_, "all_gather", CollectiveKind::all_gather, src, dst));
}

void Communicator::all_gather(const Array& src, const Array& dst) const {
  run(*impl_, single(*impl_, "all_gather", CollectiveKind::all_gather, src, dst));
}

void Communicator::reduce_scatter(const MultiArray& src, const MultiArray& dst, ReduceOp op) const {
  auto args = multi(*impl_, "reduce_scatter", CollectiveKind::reduce_scatter, src, dst);
  args.op = &op;
  run(*impl_, args);
}

void Communicator::reduce_scatter(const Array& src, const Array& dst, ReduceOp op) const {
  auto args = single(*impl_, "reduce_scatter", CollectiveKind::reduce_scatter, src, dst);
  args.op = &op;
  run(*impl_, args);
}

}  // namespace plinth
