#pragma once

#include <plinth/backend/types.hpp>

namespace plinth::backend {

/// A point in a queue's work, for ordering and timing. Created by QueueAdapter::record_event().
class EventAdapter {
 public:
  virtual ~EventAdapter() = default;
  /// Blocks the calling thread until the work before the event is done.
  virtual void wait() = 0;
  /// Milliseconds between `start` and this event (both done). Throws BackendError.
  virtual double elapsed_ms_since(EventAdapter& start) = 0;
  virtual NativeHandle native_handle() const = 0;
};

}  // namespace plinth::backend
