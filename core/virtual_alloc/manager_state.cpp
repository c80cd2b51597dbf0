#include "virtual_alloc/manager_state.hpp"

#include "runtime/impl.hpp"
#include "virtual_alloc/sub_regions.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace plinth::detail {

namespace {

/// The deleter of a virtual buffer's BufferImpl: tells the manager's state (if it is still
/// there) that the buffer is gone. `id` is 0 until the buffer is recorded.
struct VirtualBufferDeleter {
  std::weak_ptr<VirtualManagerState> state;
  VirtualId id = 0;

  void operator()(BufferImpl* impl) const noexcept {
    if (id != 0) {
      if (const auto locked = state.lock()) locked->release(id);
    }
    delete impl;
  }
};

/// The bytes [0, size) of `real` as an adapter of their own, keeping `real` alive.
std::shared_ptr<backend::BufferAdapter> view_of(const Buffer& real, std::size_t size) {
  struct Holder {
    Buffer real;  // declared first: outlives the view (and keeps the plugin loaded)
    std::unique_ptr<backend::BufferAdapter> view;
  };
  auto holder =
      std::make_shared<Holder>(Holder{real, detail::Access::adapter(real).sub_region(0, size)});
  backend::BufferAdapter* view = holder->view.get();
  return {std::move(holder), view};
}

}  // namespace

std::vector<VirtualId> VirtualManagerState::resolve(const VirtualDependencies& dependencies,
                                                    const char* what) const {
  std::vector<VirtualId> ids;
  const std::lock_guard lock(mutex_);
  const auto& buffers = dependencies.buffers();
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& buffer = buffers[i];
    const auto found = by_adapter_.find(&detail::Access::adapter(buffer));
    if (found == by_adapter_.end()) {
      throw LogicError(fmt::format(
          "{} {} (a buffer of {} bytes at offset {} on device {} ('{}')) is not a live "
          "virtual buffer of this manager{}",
          what, i, buffer.size(), buffer.offset(), buffer.device().index(), buffer.device().name(),
          buffer.offset() != 0 ? " (a sub-region: name the virtual buffer or its Array)"
                               : " (a plain Buffer, or another manager's)"));
    }
    ids.push_back(found->second);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

Buffer VirtualManagerState::allocate(const BoundDevice& requested, std::size_t size,
                                     std::span<const VirtualId> dependencies) {
  if (!(requested == device)) {
    throw LogicError(
        fmt::format("virtual allocator: {}",
                    describe_mismatch("manager", device, "requested buffer", requested)));
  }
  if (size == 0) throw LogicError("virtual allocator: size must be greater than 0");
  // Made before the lock: if it dies on a failure below, its deleter must not find the
  // lock taken (nor anything recorded: its id is set last).
  std::shared_ptr<BufferImpl> impl(
      new BufferImpl{device, nullptr, nullptr, 0, size, nullptr, nullptr},
      VirtualBufferDeleter{weak_from_this(), 0});
  impl->sub_regions = std::make_shared<SubRegionRecord>();
  {
    const std::lock_guard lock(mutex_);
    const auto place = book_.place(size, dependencies);
    std::optional<Buffer> fresh;
    if (!place) fresh = Buffer::allocate(device, size);
    auto adapter = view_of(fresh ? *fresh : reals_.at(*place), size);
    const auto [id, real] = book_.add(size, dependencies, place);
    try {
      if (fresh) reals_.emplace(real, *fresh);
      records_.emplace(id, Record{impl, adapter.get()});
      by_adapter_.emplace(adapter.get(), id);
    } catch (...) {
      by_adapter_.erase(adapter.get());
      records_.erase(id);
      if (const auto empty = book_.remove(id)) reals_.erase(*empty);
      throw;
    }
    impl->adapter = std::move(adapter);
    std::get_deleter<VirtualBufferDeleter>(impl)->id = id;
  }
  return detail::Access::make<Buffer>(std::move(impl));
}

void VirtualManagerState::release(VirtualId id) noexcept {
  const std::lock_guard lock(mutex_);
  if (const auto found = records_.find(id); found != records_.end()) {
    by_adapter_.erase(found->second.adapter);
    records_.erase(found);
  }
  // The real allocation goes when no virtual buffer is in it (a real Buffer's end calls
  // nothing back, so it may happen under the lock).
  if (const auto empty = book_.remove(id)) reals_.erase(*empty);
}

void VirtualManagerState::pack(const Queue& queue, const VirtualDependencies& keep_buffers) {
  if (!(queue.device() == device)) {
    throw LogicError(fmt::format("VirtualManager::pack: {}",
                                 describe_mismatch("queue", queue.device(), "manager", device)));
  }
  const auto keep = resolve(keep_buffers, "VirtualManager::pack: keep item");
  const auto& api = loaded(device.context().api());
  // Handles taken under the lock are dropped after it: a virtual buffer's last handle
  // runs its deleter, which takes the lock.
  std::vector<std::shared_ptr<BufferImpl>> held;
  const std::lock_guard lock(mutex_);
  if (!book_.shares()) return;
  const auto plan = book_.plan(keep);
  if (!book_.improves(plan, keep)) return;
  const auto reuse = book_.reusable(plan);

  // New real allocations first: if one fails, nothing has changed.
  std::vector<std::optional<Buffer>> fresh(plan.size());
  for (std::size_t p = 0; p < plan.size(); ++p) {
    if (!reuse[p]) fresh[p] = Buffer::allocate(device, plan[p].size);
  }

  // Move the data: into each new real allocation, from every real allocation its members
  // were in, the bytes of the largest of them there; the group holding a kept buffer last,
  // so that the kept buffer's bytes are what remains.
  const std::set<VirtualId> kept(keep.begin(), keep.end());
  for (std::size_t p = 0; p < plan.size(); ++p) {
    if (!fresh[p]) continue;
    std::map<RealId, std::size_t> bytes;
    std::optional<RealId> last;
    for (const VirtualId member : plan[p].members) {
      const auto& v = book_.virtuals().at(member);
      auto& n = bytes[v.real];
      n = std::max(n, v.size);
      if (kept.contains(member)) last = v.real;
    }
    const auto copy = [&](RealId from, std::size_t n) {
      detail::Access::adapter(queue).copy(detail::Access::adapter(*fresh[p]), 0,
                                          detail::Access::adapter(reals_.at(from)), 0, n);
    };
    for (const auto& [from, n] : bytes) {
      if (from != last) copy(from, n);
    }
    if (last) copy(*last, bytes[*last]);
  }
  // The copies are done before any old memory is let go or re-pointed away from.
  queue.synchronize();

  // New adapters for the moved virtual buffers and their sub-regions (nothing changes yet).
  struct Move {
    Record* record;
    BufferImpl* impl;
    std::shared_ptr<backend::BufferAdapter> adapter;
    std::vector<std::pair<BufferImpl*, std::shared_ptr<backend::BufferAdapter>>> regions;
  };
  std::vector<Move> moves;
  auto by_adapter = by_adapter_;
  for (std::size_t p = 0; p < plan.size(); ++p) {
    if (!fresh[p]) continue;
    for (const VirtualId member : plan[p].members) {
      auto& record = records_.at(member);
      auto impl = record.impl.lock();
      if (!impl) continue;  // dying: its deleter is waiting for the lock to forget it
      held.push_back(impl);
      Move move{&record, impl.get(), view_of(*fresh[p], impl->size), {}};
      for (auto& region : impl->sub_regions->alive()) {
        move.regions.emplace_back(
            region.get(), api.adopt(move.adapter->sub_region(region->offset, region->size)));
        held.push_back(std::move(region));
      }
      by_adapter.erase(record.adapter);
      by_adapter.emplace(move.adapter.get(), member);
      moves.push_back(std::move(move));
    }
  }
  std::map<RealId, Buffer> reals;
  RealId next = book_.next_real_id();
  for (std::size_t p = 0; p < plan.size(); ++p) {
    if (reuse[p]) {
      reals.emplace(*reuse[p], reals_.at(*reuse[p]));
    } else {
      reals.emplace(next++, *fresh[p]);
    }
  }

  // Commit: only install() may throw (std::bad_alloc, leaving the book as it was).
  book_.install(plan, reuse);
  reals_.swap(reals);  // the old real allocations go at the end of this function
  by_adapter_.swap(by_adapter);
  for (auto& move : moves) {
    move.record->adapter = move.adapter.get();
    move.impl->adapter = std::move(move.adapter);
    for (auto& [region, adapter] : move.regions) region->adapter = std::move(adapter);
  }
}

VirtualAllocationStatistics VirtualManagerState::statistics() const {
  const std::lock_guard lock(mutex_);
  return book_.statistics();
}

}  // namespace plinth::detail
