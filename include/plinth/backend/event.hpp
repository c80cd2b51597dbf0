#pragma once

#include <plinth/backend/types.hpp>

namespace plinth::backend {

/// A point in a queue's work, for ordering and timing.
///
/// Made by QueueAdapter::record_event(), or for other processes by
/// ContextAdapter::create_ipc_event() and import_event(). Any thread may call its methods,
/// several at once. The core hands an event only to queues and events of the same context
/// (it refuses others with a LogicError), so casting it to the backend's own type is safe.
///
/// Lifetime: the core destroys every event before the context adapter it came from, but
/// possibly after the queue that recorded it. An event that depends on other state (Level
/// Zero events live in event pools; CUDA events in a context) keeps that state alive itself,
/// through a shared_ptr to its pool for instance.
class EventAdapter {
 public:
  virtual ~EventAdapter() = default;
  /// Blocks the calling thread until the work before the event is done.
  ///
  /// Called by Event::wait(), and by elapsed_ms() on both events. Throws BackendError. Since
  /// SDK 1.0; required.
  virtual void wait() = 0;
  /// The milliseconds between `start` and this event.
  ///
  /// Called by elapsed_ms(start, end) on `end`, after start.wait() and end.wait(). `start` was
  /// recorded on the same device of the same context (the core checks), possibly on another
  /// queue; never an interprocess event. Throws BackendError when the events cannot be timed
  /// (`end` before `start`, say). Since SDK 1.0; required.
  virtual double elapsed_ms_since(EventAdapter& start) = 0;
  /// cl_event, CUevent, hipEvent_t, ze_event_handle_t.
  ///
  /// Called by Event::native_handle(), from any thread. Since SDK 1.0; required.
  virtual NativeHandle native_handle() const = 0;
};

}  // namespace plinth::backend
