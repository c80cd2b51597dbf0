#pragma once

#include <plinth/export.hpp>

#include <cstdint>
#include <memory>

namespace plinth {

namespace backend {
class EventAdapter;
}

/// A point in a queue's work (Queue::record_event): wait for it, order another queue after it,
/// or time the work between two events. Cheap to copy.
class PLINTH_EXPORT Event {
 public:
  /// Blocks until the work recorded before this event is done.
  void wait() const;
  /// cl_event, CUevent, ... as an integer.
  std::uintptr_t native_handle() const;

  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Event still refers to its object and every call on it is defined.
  Event(const Event&) = default;
  Event& operator=(const Event&) = default;
  ~Event() = default;

  /// For the implementation.
  explicit Event(std::shared_ptr<backend::EventAdapter> adapter) : adapter_(std::move(adapter)) {}
  backend::EventAdapter& adapter() const { return *adapter_; }

 private:
  std::shared_ptr<backend::EventAdapter> adapter_;
};

/// Milliseconds of device time between `start` and `end` (waits for `end`).
/// Throws BackendError if the events are not comparable.
PLINTH_EXPORT double elapsed_ms(const Event& start, const Event& end);

}  // namespace plinth
