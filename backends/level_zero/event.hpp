#pragma once

#include <plinth/backend/event.hpp>

#include <cstdint>
#include <memory>

namespace plinth::level_zero {

class EventSlot;

/// A host-visible event of the context's event pools (event_pool.hpp), recorded by a queue
/// with the device's global timestamp written next to it. It holds its slot, which holds the
/// pools and the context: the event may outlive its queue.
class Event final : public backend::EventAdapter {
 public:
  /// `ns_per_tick` and `mask`: the recording device's timer (DeviceEntry).
  Event(std::shared_ptr<EventSlot> slot, double ns_per_tick, std::uint64_t mask)
      : slot_(std::move(slot)), ns_per_tick_(ns_per_tick), mask_(mask) {}

  /// zeEventHostSynchronize. Throws BackendError.
  void wait() override;
  /// The difference of the two recordings' global timestamps, in milliseconds.
  double elapsed_ms_since(backend::EventAdapter& start) override;
  /// The ze_event_handle_t.
  backend::NativeHandle native_handle() const override;

  const std::shared_ptr<EventSlot>& slot() const { return slot_; }

 private:
  std::shared_ptr<EventSlot> slot_;
  double ns_per_tick_;
  std::uint64_t mask_;
};

}  // namespace plinth::level_zero
