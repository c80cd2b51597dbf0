#include "retirements.hpp"

#include <algorithm>
#include <new>
#include <utility>

namespace plinth::level_zero {

namespace {

// Destroys the handles of `entries` (outside the lock).
template <class Entries>
void destroy_all(Entries& entries) noexcept {
  for (auto& entry : entries) entry.destroy(entry.handle);
  entries.clear();
}

}  // namespace

Retirements::~Retirements() { destroy_all(entries_); }

std::uint64_t Retirements::add_queue(std::size_t device) {
  const std::lock_guard lock(mutex_);
  const std::uint64_t id = next_id_++;
  queues_.emplace(id, device);
  return id;
}

void Retirements::idle_locked(std::uint64_t id, std::vector<Entry>& ready) {
  // `ready` has room for every entry (reserved by the callers), so nothing here allocates.
  for (auto it = entries_.begin(); it != entries_.end();) {
    auto& waiting = it->waiting;
    waiting.erase(std::remove(waiting.begin(), waiting.end(), id), waiting.end());
    if (waiting.empty()) {
      ready.push_back(std::move(*it));
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
  pending_.store(entries_.size(), std::memory_order_relaxed);
}

void Retirements::queue_idle(std::uint64_t id) noexcept {
  // A handle retired after this load waits for this queue's next idle: never too early.
  if (pending_.load(std::memory_order_relaxed) == 0) return;
  std::vector<Entry> ready;
  {
    const std::lock_guard lock(mutex_);
    try {
      ready.reserve(entries_.size());
    } catch (const std::bad_alloc&) {
      return;  // they wait for the next idle
    }
    idle_locked(id, ready);
  }
  destroy_all(ready);
}

void Retirements::remove_queue(std::uint64_t id) noexcept {
  std::vector<Entry> ready;
  {
    const std::lock_guard lock(mutex_);
    queues_.erase(id);
    try {
      ready.reserve(entries_.size());
    } catch (const std::bad_alloc&) {
      // Without room to move them, take the id off in place; the empty lists are destroyed
      // by the next call that has room, or with this object.
      for (auto& entry : entries_)
        entry.waiting.erase(std::remove(entry.waiting.begin(), entry.waiting.end(), id),
                            entry.waiting.end());
      return;
    }
    idle_locked(id, ready);
  }
  destroy_all(ready);
}

void Retirements::retire(void* handle, Destroy destroy,
                         std::optional<std::size_t> device) noexcept {
  try {
    Entry entry{handle, destroy, {}};
    const std::lock_guard lock(mutex_);
    for (const auto& [id, queue_device] : queues_)
      if (!device || *device == queue_device) entry.waiting.push_back(id);
    if (!entry.waiting.empty()) {
      entries_.push_back(std::move(entry));
      pending_.store(entries_.size(), std::memory_order_relaxed);
      return;
    }
  } catch (const std::bad_alloc&) {
    // No record: nothing would ever destroy it. Destroying now is what Level Zero users
    // without this bookkeeping do.
  }
  destroy(handle);
}

std::size_t Retirements::pending() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

std::size_t Retirements::queue_count() const {
  const std::lock_guard lock(mutex_);
  return queues_.size();
}

}  // namespace plinth::level_zero
