#pragma once

// The caching pool of one device of a context (memory_pool.hpp says what it promises), and
// the lease through which a pooled Buffer holds its block. Internal to the core.

#include "memory/queue_track.hpp"

#include <plinth/backend/sdk.hpp>
#include <plinth/memory_pool.hpp>

#include <boost/container/small_vector.hpp>
#include <boost/intrusive/set.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace plinth::detail {

struct QueueImpl;

/// A queue's claim on a released block: the work it had enqueued when the block was released.
/// That work is done once `track` has passed `epoch`; another queue may also order itself
/// after it by waiting for `event` (null for the queue the block belonged to, which queue
/// order protects).
struct QueueClaim {
  std::shared_ptr<QueueTrack> track;
  std::uint64_t epoch = 0;
  std::shared_ptr<backend::EventAdapter> event;
  /// The release point (QueueTrack::points): of two claims by one queue, the later covers both.
  std::uint64_t point = 0;
};

/// The claims on one block: most blocks have one (their queue's), so none allocates.
using QueueClaims = boost::container::small_vector<QueueClaim, 2>;

struct PoolSegment;

/// A piece of a segment: in use (leased) or free (in the pool's free set, with the claims of
/// the queues that used it last). Free blocks are linked into the free set in place, so that
/// taking and returning a block allocates nothing.
struct PoolBlock : boost::intrusive::set_base_hook<> {
  PoolSegment* segment = nullptr;
  std::size_t offset = 0;
  std::size_t size = 0;
  bool in_use = false;
  PoolBlock* prev = nullptr;  // the neighbours in the segment, by address
  PoolBlock* next = nullptr;
  QueueClaims claims;
};

/// One allocation from the driver, cut into blocks.
struct PoolSegment {
  std::shared_ptr<backend::BufferAdapter> adapter;
  std::size_t size = 0;
  bool small = false;  // serves requests of up to 1 MiB
  std::size_t blocks_in_use = 0;
  PoolBlock* first = nullptr;
};

/// What a pooled allocation returns: the block and the segment's memory to cut it from.
struct PoolAllocation {
  PoolBlock* block = nullptr;
  std::shared_ptr<backend::BufferAdapter> segment;
};

/// The pool of one device. Every member may be called from any thread.
class DevicePool : public std::enable_shared_from_this<DevicePool> {
 public:
  /// A pool over device `device_index` of `context`; `plugin` keeps the backend loaded for the
  /// events the pool records; `limit` as MemoryPool::set_limit().
  DevicePool(std::shared_ptr<backend::ContextAdapter> context, std::size_t device_index,
             std::size_t alignment, std::shared_ptr<const void> plugin,
             std::optional<std::size_t> limit);
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;
  /// Gives every segment back; every block is free by then (each holds the context).
  ~DevicePool();

  /// A block of at least `size` bytes (size > 0) for `queue` (null: for the first queue that
  /// uses it, so only memory no queue still uses). Enqueues waits on `queue` for the events of
  /// other queues' claims. Throws OutOfMemoryError, BackendError.
  PoolAllocation allocate(const std::shared_ptr<QueueImpl>& queue, std::size_t size);
  /// Returns a block with the claims of the queues that used it.
  void release(PoolBlock* block, QueueClaims claims) noexcept;

  MemoryPoolStats stats() const;
  void free_all_blocks() noexcept;
  std::optional<std::size_t> limit() const;
  void set_limit(std::optional<std::size_t> bytes);

  /// Events the pool records on queues for claims come from the backend: adopted with this.
  const std::shared_ptr<const void>& plugin() const noexcept { return plugin_; }

 private:
  struct BySize {
    bool operator()(const PoolBlock& a, const PoolBlock& b) const noexcept {
      if (a.size != b.size) return a.size < b.size;
      if (a.segment != b.segment) return a.segment < b.segment;
      return a.offset < b.offset;
    }
  };
  using FreeSet = boost::intrusive::set<PoolBlock, boost::intrusive::compare<BySize>>;

  FreeSet& free_set(bool small) { return small ? small_free_ : large_free_; }
  using EventWaits = boost::container::small_vector<backend::EventAdapter*, 4>;
  /// The best-fitting free block `queue` may take, or null; `waits` gets the events to wait for.
  PoolBlock* find(bool small, std::size_t size, const QueueTrack* queue, EventWaits& waits);
  PoolBlock* new_segment(std::size_t request, bool small);
  void free_segment(PoolSegment* segment) noexcept;
  /// Frees every segment with no block in use; returns the bytes given back.
  std::size_t free_idle_segments() noexcept;
  /// Merges `block` with its free neighbours; returns the merged block.
  PoolBlock* merge_neighbours(PoolBlock* block);
  /// A block record, recycled from `spare_` when there is one. Throws std::bad_alloc.
  PoolBlock* new_block();
  /// Keeps a record no segment uses any more (unlinked) for new_block().
  void recycle(PoolBlock* block) noexcept;

  std::shared_ptr<backend::ContextAdapter> context_;
  std::size_t device_index_;
  std::size_t alignment_;
  std::shared_ptr<const void> plugin_;

  mutable std::mutex mutex_;
  std::optional<std::size_t> limit_;
  std::vector<std::unique_ptr<PoolSegment>> segments_;
  FreeSet small_free_;
  FreeSet large_free_;
  /// Block records to reuse, so that splitting a block allocates nothing once warm.
  std::vector<std::unique_ptr<PoolBlock>> spare_;
  MemoryPoolStats stats_;
};

/// A pooled Buffer's hold on its block, shared by the Buffer and its sub-regions: notes the
/// queues that use the block, and returns it to the pool with their claims when the last
/// holder goes.
class BlockLease {
 public:
  /// `owner`: the queue the block was allocated for (null: the first queue that uses it).
  BlockLease(std::shared_ptr<DevicePool> pool, const PoolAllocation& allocation,
             const std::shared_ptr<QueueImpl>& owner);
  BlockLease(const BlockLease&) = delete;
  BlockLease& operator=(const BlockLease&) = delete;
  ~BlockLease();

  /// Notes that `queue` enqueued work on the block. Cheap for the block's own queue.
  void note(const std::shared_ptr<QueueImpl>& queue);
  /// The adapter of bytes [origin, origin + size) of the block, made from its segment's (the
  /// SDK's sub_region() is called on root buffers only). Throws what the backend throws.
  std::unique_ptr<backend::BufferAdapter> region(std::size_t origin, std::size_t size) const {
    return segment_->sub_region(block_->offset + origin, size);
  }

 private:
  std::shared_ptr<DevicePool> pool_;
  PoolBlock* block_;
  std::shared_ptr<backend::BufferAdapter> segment_;
  /// The queue the block belongs to, for the check without the lock.
  std::atomic<const QueueTrack*> primary_{nullptr};
  std::mutex mutex_;
  std::shared_ptr<QueueTrack> primary_track_;
  struct OtherQueue {
    std::weak_ptr<QueueImpl> queue;
    std::shared_ptr<QueueTrack> track;
  };
  std::vector<OtherQueue> others_;
};

}  // namespace plinth::detail
