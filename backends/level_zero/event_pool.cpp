#include "event_pool.hpp"

#include "context.hpp"
#include "error.hpp"

#include <plinth/errors.hpp>

#include <cstdio>
#include <string>

namespace plinth::level_zero {

SlotBook::SlotBook(std::uint32_t per_pool) : per_pool_(per_pool) {
  if (per_pool == 0) throw LogicError("an event pool needs at least one event");
}

std::size_t SlotBook::add_pool() {
  const std::size_t pool = state_.size();
  state_.emplace_back(per_pool_, State::free);
  free_.reserve(free_.size() + per_pool_);
  for (std::uint32_t i = per_pool_; i-- > 0;) free_.push_back({pool, i, false});
  return pool;
}

void SlotBook::mark(const Slot& slot, State from, State to) {
  if (slot.pool >= state_.size() || slot.index >= per_pool_ ||
      state_[slot.pool][slot.index] != from)
    throw LogicError("event slot " + std::to_string(slot.index) + " of pool " +
                     std::to_string(slot.pool) + " is not " +
                     (from == State::taken ? "taken" : "available") + " (given back twice?)");
  state_[slot.pool][slot.index] = to;
}

void SlotBook::give_back(const Slot& slot, bool pending) {
  mark(slot, State::taken, pending ? State::retired : State::free);
  --in_use_;
  if (pending) {
    retired_.push_back({slot.pool, slot.index, false});
  } else {
    free_.push_back({slot.pool, slot.index, false});
  }
}

EventSlot::~EventSlot() { pools_->give_back(slot_, recorded_); }

EventPools::EventPools(std::shared_ptr<ContextState> context, std::uint32_t per_pool)
    : context_(std::move(context)), book_(per_pool) {}

EventPools::~EventPools() {
  for (auto& pool : pools_) {
    for (ze_event_handle_t event : pool.events)
      if (event) PLINTH_CHECK_IN_DESTRUCTOR(zeEventDestroy(event));
    PLINTH_CHECK_IN_DESTRUCTOR(zeEventPoolDestroy(pool.pool));
    PLINTH_CHECK_IN_DESTRUCTOR(zeMemFree(context_->context(), pool.timestamps));
  }
}

void EventPools::add_pool() {
  Pool pool;
  pool.events.assign(book_.per_pool(), nullptr);
  ze_host_mem_alloc_desc_t host{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void* memory = nullptr;
  PLINTH_CHECK(zeMemAllocHost(context_->context(), &host, sizeof(std::uint64_t) * book_.per_pool(),
                              sizeof(std::uint64_t), &memory));
  pool.timestamps = static_cast<std::uint64_t*>(memory);
  ze_event_pool_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_HOST_VISIBLE, book_.per_pool()};
  // No device list: the pool is visible to every device of the context.
  const ze_result_t result = zeEventPoolCreate(context_->context(), &desc, 0, nullptr, &pool.pool);
  if (result != ZE_RESULT_SUCCESS) {
    PLINTH_CHECK_IN_DESTRUCTOR(zeMemFree(context_->context(), memory));
    backend::check(result, "zeEventPoolCreate");
  }
  pools_.push_back(std::move(pool));
  book_.add_pool();
}

std::shared_ptr<EventSlot> EventPools::take() {
  std::lock_guard lock(mutex_);
  auto signalled = [this](const SlotBook::Slot& slot) {
    const ze_event_handle_t event = pools_[slot.pool].events[slot.index];
    return event != nullptr && zeEventQueryStatus(event) == ZE_RESULT_SUCCESS;
  };
  auto slot = book_.take(signalled);
  if (!slot) {
    add_pool();
    slot = book_.take();
  }
  Pool& pool = pools_[slot->pool];
  ze_event_handle_t& event = pool.events[slot->index];
  try {
    if (event == nullptr) {
      ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, slot->index,
                           ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
      PLINTH_CHECK(zeEventCreate(pool.pool, &desc, &event));
    } else if (slot->reused) {
      PLINTH_CHECK(zeEventHostReset(event));
    }
  } catch (...) {
    book_.give_back(*slot, slot->reused);  // a reused slot stays retired: not reset
    throw;
  }
  pool.timestamps[slot->index] = 0;
  return std::make_shared<EventSlot>(shared_from_this(), *slot, event,
                                     &pool.timestamps[slot->index]);
}

void EventPools::give_back(const SlotBook::Slot& slot, bool pending) noexcept {
  std::lock_guard lock(mutex_);
  try {
    book_.give_back(slot, pending);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "plinth: Level Zero: %s\n", e.what());  // a bug of ours: say so
  }
}

}  // namespace plinth::level_zero
