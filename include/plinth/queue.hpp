#pragma once

#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/event.hpp>
#include <plinth/export.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace plinth {

namespace backend {
class QueueAdapter;
}

namespace detail {
struct QueueImpl;
}

/// An in-order queue of work on one device. Cheap to copy (shared handle).
///
/// Threads: one thread at a time may enqueue work on a queue (through any of its copies):
/// transfers use the queue's own staging memory. Different queues, even of one device, may be
/// used from different threads at once. synchronize() and record_event() follow the same rule.
class PLINTH_EXPORT Queue {
 public:
  /// A new queue on `device`.
  explicit Queue(const BoundDevice& device);
  /// Wraps a native queue (cl_command_queue, CUstream...) of `device`.
  static Queue from_backend_queue(const BoundDevice& device, std::uintptr_t native_queue,
                                  bool take_ownership = false);

  /// The device the queue runs on.
  const BoundDevice& device() const;
  /// Blocks until all work enqueued so far is done, and releases the host arrays that
  /// asynchronous transfers kept alive. Throws BackendError.
  void synchronize() const;
  /// Marks the current end of this queue's work. The queue reuses the vendor events of
  /// Events that no handle holds any more (plugins of SDK 1.2 and later), so that recording
  /// allocates nothing once a few have been made: an Event's native_handle() is valid only
  /// while an Event handle to it lives. Throws BackendError.
  Event record_event() const;
  /// Makes work enqueued later wait for `event` (from any queue of the same context).
  void wait_for(const Event& event) const;
  /// Records the interprocess event `event` (Event::create_interprocess() on this queue's
  /// device) at the current end of this queue's work, replacing its previous recording:
  /// processes that opened its handle and wait for it afterwards wait for this work. Throws
  /// LogicError for an event that is not interprocess, was opened from a handle (only the
  /// exporter records), or is of another device; BackendError.
  void record(const Event& event) const;
  /// cl_command_queue, CUstream, ... as an integer.
  std::uintptr_t native_handle() const;

  friend bool operator==(const Queue& a, const Queue& b) { return a.impl_ == b.impl_; }

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Queue still refers to its object and every call on it is defined.
  Queue(const Queue&) = default;
  Queue& operator=(const Queue&) = default;
  ~Queue() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit Queue(std::shared_ptr<detail::QueueImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::QueueImpl>& impl() const { return impl_; }
  backend::QueueAdapter& adapter() const;

  std::shared_ptr<detail::QueueImpl> impl_;
};

/// One queue on each of several devices of a context.
class PLINTH_EXPORT MultiQueue {
 public:
  /// Takes queues of distinct devices of one context. Throws LogicError otherwise.
  explicit MultiQueue(std::vector<Queue> queues);
  /// A new queue on each of `devices`.
  static MultiQueue on_devices(const BoundMultiDevice& devices);

  /// The queues, in the order given.
  const std::vector<Queue>& queues() const { return queues_; }
  /// The queues' devices, in order.
  BoundMultiDevice devices() const;
  /// The queue of `device`. Throws LogicError if this MultiQueue has none on it.
  const Queue& operator[](const BoundDevice& device) const;
  /// Synchronizes every queue.
  void synchronize() const;

 private:
  std::vector<Queue> queues_;
};

}  // namespace plinth

namespace std {

/// Hashes a Queue by identity, consistently with operator==: copies of one queue hash alike.
/// For unordered containers keyed by Queue. Never throws.
template <>
struct hash<plinth::Queue> {
  /// The hash of the queue `queue` refers to.
  std::size_t operator()(const plinth::Queue& queue) const noexcept {
    return std::hash<const void*>{}(plinth::detail::Access::impl(queue).get());
  }
};

}  // namespace std
