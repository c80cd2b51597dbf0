#pragma once

#include <plinth/context.hpp>
#include <plinth/export.hpp>

#include <cstdint>
#include <memory>

namespace plinth {

namespace backend {
class EventAdapter;
}

/// A point in a queue's work (Queue::record_event): wait for it, order another queue of the
/// same context after it, or time the work between two events of one device. Cheap to copy.
class PLINTH_EXPORT Event {
 public:
  /// Blocks until the work recorded before this event is done.
  void wait() const;
  /// cl_event, CUevent, ... as an integer.
  std::uintptr_t native_handle() const;
  /// The device (and so the context) of the queue that recorded the event.
  const BoundDevice& device() const noexcept { return device_; }

  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Event still refers to its object and every call on it is defined.
  Event(const Event&) = default;
  Event& operator=(const Event&) = default;
  ~Event() = default;

  /// For the implementation.
  Event(std::shared_ptr<backend::EventAdapter> adapter, BoundDevice device)
      : device_(std::move(device)), adapter_(std::move(adapter)) {}
  backend::EventAdapter& adapter() const { return *adapter_; }

 private:
  // In this order: the adapter is destroyed before the context that device_ keeps alive
  // (the SDK's event lifetime rule).
  BoundDevice device_;
  std::shared_ptr<backend::EventAdapter> adapter_;
};

/// Milliseconds of device time between `start` and `end` (waits for `end`). Throws LogicError
/// if the events were recorded on different devices (or contexts): their clocks are not
/// comparable; BackendError if the backend cannot time them (e.g. `end` before `start`).
PLINTH_EXPORT double elapsed_ms(const Event& start, const Event& end);

}  // namespace plinth
