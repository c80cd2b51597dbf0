#pragma once

#include <plinth/backend/types.hpp>

namespace plinth::backend {

/// A point in a queue's work, for ordering and timing. Created by QueueAdapter::record_event().
///
/// Lifetime: the core destroys every event before the context adapter it came from, but
/// possibly after the queue that recorded it. An event that depends on other state (Level
/// Zero events live in event pools; CUDA events in a context) keeps that state alive itself,
/// e.g. through a shared_ptr to its pool. The core hands an event only to queues and events
/// of the same context (it refuses others with a LogicError), so casting it to the backend's
/// own type is safe.
class EventAdapter {
 public:
  virtual ~EventAdapter() = default;
  /// Blocks the calling thread until the work before the event is done.
  virtual void wait() = 0;
  /// Milliseconds between `start` and this event; the core has waited for both, and `start`
  /// was recorded on the same device (possibly on another queue). Throws BackendError.
  virtual double elapsed_ms_since(EventAdapter& start) = 0;
  virtual NativeHandle native_handle() const = 0;
};

}  // namespace plinth::backend
