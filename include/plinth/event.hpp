#pragma once

#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>

#include <cstdint>
#include <memory>

namespace plinth {

namespace backend {
class EventAdapter;
}

class IpcEventHandle;  // ipc.hpp

namespace detail {
/// Where an Event comes from: Queue::record_event(), Event::create_interprocess(), or
/// Event::from_ipc_handle().
enum class EventKind { local, interprocess, imported };
}  // namespace detail

/// A point in a queue's work (Queue::record_event): wait for it, order another queue of the
/// same context after it, or time the work between two events of one device. Cheap to copy.
///
/// An interprocess event (create_interprocess(), from_ipc_handle()) orders work across
/// processes: one process records it (Queue::record()), others that opened its handle wait
/// for it. Such events cannot time (CUDA makes them with CU_EVENT_DISABLE_TIMING, which
/// CU_EVENT_INTERPROCESS requires): elapsed_ms() refuses them.
class PLINTH_EXPORT Event {
 public:
  /// A new interprocess event on `device`, not yet recorded (waiting for it returns at once
  /// until Queue::record() records it). Throws LogicError where the backend has no
  /// interprocess events (OpenCL; plugins of SDK 1.5 and older; see ipc_support()),
  /// BackendError. Any thread.
  static Event create_interprocess(const BoundDevice& device);
  /// Opens in this process, on `device`, the interprocess event that `handle` (another
  /// process's ipc_handle()) names. Queue::wait_for() on it waits for the exporter's latest
  /// Queue::record() before the wait was enqueued; wait() blocks the host likewise. Throws
  /// LogicError for a handle of another API or where the backend has no interprocess
  /// events, BackendError when the vendor refuses the handle. Any thread.
  static Event from_ipc_handle(const BoundDevice& device, const IpcEventHandle& handle);
  /// The handle other processes open this event with. Throws LogicError for an event that is
  /// not interprocess or that was itself opened from a handle (re-export the original's
  /// handle instead), BackendError.
  IpcEventHandle ipc_handle() const;
  /// True for events from create_interprocess() and from_ipc_handle().
  bool interprocess() const noexcept { return kind_ != Kind::local; }

  /// Blocks until the work recorded before this event is done.
  void wait() const;
  /// cl_event, CUevent, ... as an integer.
  std::uintptr_t native_handle() const;
  /// The device (and so the context) of the queue that recorded the event.
  const BoundDevice& device() const noexcept { return device_; }

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Event still refers to its object and every call on it is defined.
  Event(const Event&) = default;
  Event& operator=(const Event&) = default;
  ~Event() = default;
  ///@}

 private:
  friend struct detail::Access;

  using Kind = detail::EventKind;
  Event(std::shared_ptr<backend::EventAdapter> adapter, BoundDevice device, Kind kind = Kind::local)
      : device_(std::move(device)), adapter_(std::move(adapter)), kind_(kind) {}
  backend::EventAdapter& adapter() const { return *adapter_; }
  Kind kind() const noexcept { return kind_; }

  // In this order: the adapter is destroyed before the context that device_ keeps alive
  // (the SDK's event lifetime rule).
  BoundDevice device_;
  std::shared_ptr<backend::EventAdapter> adapter_;
  Kind kind_ = Kind::local;
};

/// Milliseconds of device time between `start` and `end` (waits for `end`). Throws LogicError
/// if the events were recorded on different devices (or contexts): their clocks are not
/// comparable, or if either is interprocess (such events cannot time); BackendError if the
/// backend cannot time them (e.g. `end` before `start`).
PLINTH_EXPORT double elapsed_ms(const Event& start, const Event& end);

}  // namespace plinth
