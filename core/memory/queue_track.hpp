#pragma once

// What the memory pool knows of a queue's progress without asking the device. Internal.

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>

namespace plinth::detail {

/// Shared by a queue and the pool blocks it used, and outliving the queue: `epoch` counts the
/// times the queue was known idle (synchronize(), a blocking read), so work enqueued
/// before an epoch was read is done once the epoch has grown. A destroyed queue that the pool
/// knew of was synchronized first and its epoch set to `finished`.
struct QueueTrack {
  static constexpr std::uint64_t finished = std::numeric_limits<std::uint64_t>::max();

  std::atomic<std::uint64_t> epoch{0};
  /// Set once a pool block was used on the queue: its destruction then waits for its work.
  std::atomic<bool> used_by_pool{false};
  /// Orders the points at which blocks were released with claims by this queue: a claim with
  /// a larger point covers the work of one with a smaller (queue order). Taken around
  /// recording a claim's event, so that the points follow the events' order in the queue.
  std::mutex points_mutex;
  std::uint64_t points = 0;

  /// The next release point (with `points_mutex` held by the caller).
  std::uint64_t next_point() noexcept { return ++points; }

  /// After a wait that covered everything enqueued so far.
  void idle() noexcept {
    std::uint64_t now = epoch.load(std::memory_order_relaxed);
    while (now != finished &&
           !epoch.compare_exchange_weak(now, now + 1, std::memory_order_acq_rel)) {
    }
  }
  /// Whether the work enqueued before `then` was read is done (as far as the host knows).
  bool passed(std::uint64_t then) const noexcept {
    return epoch.load(std::memory_order_acquire) > then;
  }
};

}  // namespace plinth::detail
