#pragma once

// When a dropped image or sampler may be destroyed. Level Zero leaves it to the application
// to "ensure the device is not currently referencing the image [sampler] before it is
// deleted" (zeImageDestroy, zeSamplerDestroy), and Intel's driver frees an image's memory at
// once, while the core drops an Image when its last handle goes, possibly with commands still
// queued that use it (a copy, a kernel reading it): the SDK leaves that safety to the backend.
//
// So a dropped image or sampler is retired here, and destroyed only once every queue that
// could have used it has been idle since: the queues alive when it was retired, of its device
// (an image) or of every device (a sampler). A queue is idle after each wait for all of its
// earlier commands (Queue::synchronize(), a synchronous transfer, its destruction: queue.cpp
// calls queue_idle() and remove_queue()). A queue that is never synchronized keeps what was
// retired meanwhile until it goes; the last holder of this object (the context adapter, its
// queues, images and samplers) destroys whatever is left.
//
// No Level Zero call here: the destroy functions are given, so the bookkeeping is unit-tested
// without a driver (tests/backends/level_zero/retirements_test.cpp). Any thread may call any
// method: one lock guards the state, and destroy functions run outside it.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace plinth::level_zero {

/// The queues of a context and the handles retired until those queues have been idle.
class Retirements {
 public:
  /// Destroys one handle (zeImageDestroy, zeSamplerDestroy), reporting failures itself.
  using Destroy = void (*)(void* handle) noexcept;

  /// `keep`: what the destroy functions need alive (the context's state), held until the last
  /// retired handle has been destroyed.
  explicit Retirements(std::shared_ptr<const void> keep = nullptr) : keep_(std::move(keep)) {}
  /// Destroys every handle still retired (no queue is left to use them).
  ~Retirements();
  Retirements(const Retirements&) = delete;
  Retirements& operator=(const Retirements&) = delete;

  /// Registers a new queue of `device`; returns its id. Throws std::bad_alloc.
  std::uint64_t add_queue(std::size_t device);
  /// Every command queue `id` was given before this call has completed: destroys what waited
  /// for it alone. Cheap when nothing is retired (no lock). Never throws.
  void queue_idle(std::uint64_t id) noexcept;
  /// Queue `id` has completed its work and goes (queue_idle(), and it is forgotten). Never
  /// throws.
  void remove_queue(std::uint64_t id) noexcept;
  /// Destroys `handle` with `destroy` once every queue now alive of `device` (nullopt: of
  /// every device) has been idle: at once when there is none. Where the record cannot be
  /// made (out of host memory) it destroys at once too. Never throws.
  void retire(void* handle, Destroy destroy, std::optional<std::size_t> device) noexcept;

  /// Handles retired and not yet destroyed.
  std::size_t pending() const;
  /// Queues registered and not removed.
  std::size_t queue_count() const;

 private:
  struct Entry {
    void* handle;
    Destroy destroy;
    std::vector<std::uint64_t> waiting;  // the queues that must be idle first
  };
  // Takes `id` off every entry's list (the lock held); moves the entries left waiting for
  // nothing into `ready`.
  void idle_locked(std::uint64_t id, std::vector<Entry>& ready);

  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::size_t> queues_;  // id -> device
  std::uint64_t next_id_ = 1;
  std::vector<Entry> entries_;
  std::atomic<std::size_t> pending_{0};  // entries_.size(), read without the lock
  std::shared_ptr<const void> keep_;
};

}  // namespace plinth::level_zero
