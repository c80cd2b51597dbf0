#pragma once

// Level Zero events live in event pools of a fixed size. A context keeps its pools here
// (EventPools): a recorded event takes a free slot, gives it back when its last holder goes,
// and a new pool is added when every slot is taken. The bookkeeping of slots is SlotBook, a
// plain class without any Level Zero call, so that it is unit-tested without a driver
// (tests/backends/level_zero/event_pool_test.cpp); EventPools makes the Level Zero calls.
//
// A slot given back is "retired", not free: the device may still have to signal it (the
// event was dropped right after its recording). It becomes usable again only once it is
// signalled (take() asks), and it is reset then, on the host, which is safe because nothing
// holds it any more: the event adapter is gone, and every queue that was told to wait for it
// (QueueAdapter::wait_for) holds it until that queue's next synchronize() (queue.hpp), so no
// command still waits for the old recording when the slot is reset.

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace plinth::level_zero {

class ContextState;

/// The slots of a growing list of pools of `per_pool` events each: which are free, in use or
/// retired. Not thread-safe (EventPools locks around it). Throws LogicError for misuse.
class SlotBook {
 public:
  /// One event slot: its pool and its index within the pool.
  struct Slot {
    std::size_t pool = 0;
    std::uint32_t index = 0;
    bool reused = false;  ///< taken from the retired slots: it must be reset before use
    friend bool operator==(const Slot& a, const Slot& b) {
      return a.pool == b.pool && a.index == b.index;
    }
  };

  /// Throws LogicError for per_pool == 0.
  explicit SlotBook(std::uint32_t per_pool);

  std::uint32_t per_pool() const { return per_pool_; }
  std::size_t pool_count() const { return state_.size(); }
  /// Slots taken and not yet given back.
  std::size_t in_use() const { return in_use_; }
  /// Slots given back whose last recording may still be pending.
  std::size_t retired() const { return retired_.size(); }

  /// A free slot (lowest pool first, never used since its pool was added or since it was
  /// given back without a pending recording); else the oldest retired slot for which
  /// `done(slot)` says its recording has completed (reused = true); else nullopt: the caller
  /// adds a pool. `done` may throw: the book is then unchanged.
  template <class Done>
  std::optional<Slot> take(Done&& done);
  std::optional<Slot> take() {
    return take([](const Slot&) { return false; });
  }
  /// Adds a pool whose slots are all free; returns its index.
  std::size_t add_pool();
  /// Gives a taken slot back: free again at once when `pending` is false (it was never
  /// recorded, or its recording is known to be complete and it need not be reset), retired
  /// otherwise. Throws LogicError for a slot that is not taken (given back twice, unknown).
  void give_back(const Slot& slot, bool pending);

 private:
  enum class State : std::uint8_t { free, taken, retired };
  void mark(const Slot& slot, State from, State to);

  std::uint32_t per_pool_;
  std::vector<std::vector<State>> state_;  // per pool, per slot
  std::vector<Slot> free_;                 // a stack; pools' slots pushed highest index first
  std::vector<Slot> retired_;              // oldest first
  std::size_t in_use_ = 0;
};

template <class Done>
std::optional<SlotBook::Slot> SlotBook::take(Done&& done) {
  if (!free_.empty()) {
    Slot slot = free_.back();
    mark(slot, State::free, State::taken);
    free_.pop_back();
    slot.reused = false;
    ++in_use_;
    return slot;
  }
  for (auto it = retired_.begin(); it != retired_.end(); ++it) {
    if (!done(*it)) continue;
    Slot slot = *it;
    mark(slot, State::retired, State::taken);
    retired_.erase(it);
    slot.reused = true;
    ++in_use_;
    return slot;
  }
  return std::nullopt;
}

class EventPools;

/// One taken event slot: a host-visible event and the host memory its recording writes the
/// device's global timestamp to. Shared by the event adapter and the queues that wait for it;
/// the last holder gives the slot back (and keeps the pools, and so the context, alive).
class EventSlot {
 public:
  EventSlot(std::shared_ptr<EventPools> pools, SlotBook::Slot slot, ze_event_handle_t event,
            std::uint64_t* timestamp) noexcept
      : pools_(std::move(pools)), slot_(slot), event_(event), timestamp_(timestamp) {}
  ~EventSlot();
  EventSlot(const EventSlot&) = delete;
  EventSlot& operator=(const EventSlot&) = delete;

  ze_event_handle_t event() const { return event_; }
  /// The timestamp (device timer ticks) the last recording wrote, once it is signalled.
  std::uint64_t timestamp() const {
    return *static_cast<volatile const std::uint64_t*>(timestamp_);
  }
  std::uint64_t* timestamp_address() const { return timestamp_; }
  /// Called by the queue that appended a signal of this event (so that giving it back
  /// retires it rather than freeing it).
  void mark_recorded() { recorded_ = true; }

 private:
  std::shared_ptr<EventPools> pools_;
  SlotBook::Slot slot_;
  ze_event_handle_t event_;
  std::uint64_t* timestamp_;
  bool recorded_ = false;
};

/// A context's event pools: pools of `per_pool` host-visible events
/// (ZE_EVENT_POOL_FLAG_HOST_VISIBLE, visible to every device of the context) and, per pool, as
/// many 64-bit timestamps in host memory (zeMemAllocHost). Any thread may call take().
class EventPools : public std::enable_shared_from_this<EventPools> {
 public:
  explicit EventPools(std::shared_ptr<ContextState> context, std::uint32_t per_pool = 64);
  /// Destroys the events and pools and frees the timestamps (every slot has been given back:
  /// the slots keep this object alive).
  ~EventPools();
  EventPools(const EventPools&) = delete;
  EventPools& operator=(const EventPools&) = delete;

  /// An unsignalled event slot, adding a pool when all are taken. Throws BackendError
  /// (OutOfMemoryError when the driver is out of memory).
  std::shared_ptr<EventSlot> take();

 private:
  friend class EventSlot;
  struct Pool {
    ze_event_pool_handle_t pool = nullptr;
    std::uint64_t* timestamps = nullptr;
    std::vector<ze_event_handle_t> events;  // created on first use
  };
  void give_back(const SlotBook::Slot& slot, bool pending) noexcept;
  void add_pool();  // with mutex_ held

  std::shared_ptr<ContextState> context_;
  std::mutex mutex_;
  SlotBook book_;
  std::vector<Pool> pools_;
};

}  // namespace plinth::level_zero
