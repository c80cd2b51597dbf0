#pragma once

#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

/// The caching device memory pool (PyCUDA's DeviceMemoryPool, CuPy's MemoryPool, PyTorch's
/// caching allocator). Every Context has one, and Array::empty and friends, MultiArray and the
/// temporaries of the algorithm layer take their memory from it unless given an Allocator:
/// releasing an array returns its block to the pool instead of to the driver (cuMemFree
/// synchronises the whole device), and the next array of a similar size reuses it.
///
/// **Sizes.** Requests are rounded up to a multiple of 512 bytes. Requests of up to 1 MiB
/// share 2 MiB segments; larger ones come from 20 MiB segments (below 10 MiB) or a segment of
/// their own (rounded up to 2 MiB). A cached block larger than a request is split when what is
/// left is at least 512 bytes (small) or more than 1 MiB (large), and free neighbours in a
/// segment are merged again, so a block never serves a request of less than half its size.
///
/// **Ordering without host synchronisation.** A block belongs to the queue it was allocated
/// for: MemoryPool::allocate(queue, ...) and the array-making calls that take a queue pass it.
/// Its release makes it reusable on that queue at once: later work in the queue runs after the
/// work that used it. Work on *other* queues is tracked: every launch and transfer plinth
/// enqueues notes the queues the block is used on, and Array::record_queue() / Buffer::
/// record_queue() note work plinth cannot see (a native handle passed to a vendor library).
/// When such a block is released, an event is recorded on each of those queues; a later
/// allocation on a queue makes that queue wait for the events (on the device, not the host).
/// A block allocated for a device (MemoryPool::allocate(device, ...), and the array-making
/// calls that take a device, not a queue) belongs to the first queue that uses it; before its
/// first use it may only be given memory that no queue still uses: blocks released while a
/// queue that used them has since been synchronized (Queue::synchronize(), a blocking
/// transfer), or not at all. So: allocate for the queue that uses the memory, and the pool is
/// reused at once; allocate for a device, and the pool is reused after each synchronisation.
///
/// The rule's one duty for users: memory used through native handles, outside plinth's launch
/// and transfer calls, must be recorded with record_queue() on each queue (other than the one
/// it was allocated for) that uses it, before the last handle to it goes.
///
/// **Turning it off.** PLINTH_MEMORY_POOL=off (or 0, false, none), read when a context is
/// made, makes that context's pool hand out fresh allocations (Buffer::allocate) and cache
/// nothing. PLINTH_MEMORY_POOL_LIMIT (bytes, with an optional K, M or G suffix) bounds the
/// bytes a device's pool holds from the driver (see set_limit()).
///
/// **Interactions.** A pooled block is an ordinary Buffer (offset() 0, a root of its own, its
/// sub-regions and the views of its arrays keep it in use); Buffer::allocate, user Allocators
/// and the virtual allocation managers (virtual_alloc.hpp) bypass the pool. Its native handle
/// points into a larger allocation (a segment): a vendor call that needs the start of an
/// allocation (CUDA IPC handles, cuMemGetAddressRange users) sees the segment's. Features to
/// come that hand memory to other processes (IPC) or record work for replay (graphs) must
/// say how they treat pooled blocks: an exported or captured block stays in use (a handle is
/// kept) for as long as the other process or the graph may touch it.
///
/// Threads: any thread may call every member; the pool of a context is shared by its copies.

namespace plinth {

namespace detail {
struct ContextPools;
}

/// A snapshot of what a pool holds and has done. For MemoryPool, bytes of device memory; for
/// PageLockedMemoryPool, bytes of page-locked host memory.
struct MemoryPoolStats {
  /// Bytes of the blocks handed out and not yet released (rounded request sizes).
  std::size_t bytes_in_use = 0;
  /// Bytes the pool holds from the driver: in use, cached, and what splitting leaves over.
  std::size_t bytes_held = 0;
  /// The most bytes_in_use has been.
  std::size_t peak_bytes_in_use = 0;
  /// The most bytes_held has been.
  std::size_t peak_bytes_held = 0;
  /// Requests served from cached memory.
  std::uint64_t hits = 0;
  /// Requests that allocated from the driver.
  std::uint64_t misses = 0;
  /// Cached blocks split to serve a smaller request.
  std::uint64_t splits = 0;
  /// Segments given back to the driver (free_all_blocks(), the limit, an allocation retried
  /// after running out of memory).
  std::uint64_t segments_freed = 0;
  /// Waits a queue was made to do (on the device) before reusing a block other queues used.
  std::uint64_t queue_waits = 0;
};

/// The device memory pool of a context (one per device of it). Cheap to copy: a handle to
/// the context's pool.
class PLINTH_EXPORT MemoryPool {
 public:
  /// The pool of `context` (made with it, gone with it). Throws nothing.
  static MemoryPool of(const Context& context) noexcept;

  /// A block of at least `size` bytes (exactly `size` as the Buffer's size()) on `queue`'s
  /// device, ordered in `queue` (see the file comment). Enqueues waits on `queue` when it
  /// reuses a block other queues used, so call it from the thread that enqueues on `queue`.
  /// Throws LogicError for size 0, OutOfMemoryError when the device has no memory left after
  /// the pool has given back what it caches, or when the limit would be passed.
  Buffer allocate(const Queue& queue, std::size_t size) const;
  /// A block of `size` bytes on `device`, for whichever queue uses it first: it reuses only
  /// memory no queue still uses (see the file comment). Throws as above.
  Buffer allocate(const BoundDevice& device, std::size_t size) const;

  /// Statistics of `device`'s pool. Throws LogicError if `device` is of another context.
  MemoryPoolStats stats(const BoundDevice& device) const;
  /// The sums over the context's devices (peaks: the sums of each device's peak).
  MemoryPoolStats stats() const;

  /// Gives every cached segment of which no block is in use back to the driver. Blocks in
  /// use stay. Safe while queues run: the drivers defer the release of memory still in use
  /// (OpenCL) or synchronise (cuMemFree). Throws nothing (a failure is reported on stderr).
  void free_all_blocks() const noexcept;

  /// The most bytes each device's pool may hold from the driver (nullopt: no bound, the
  /// default unless PLINTH_MEMORY_POOL_LIMIT is set). An allocation that would pass it first
  /// gives back cached segments, then throws OutOfMemoryError naming the limit. Lowering the
  /// limit gives back cached segments at once.
  std::optional<std::size_t> limit() const noexcept;
  /// Sets limit() for every device's pool (nullopt removes the bound), giving back cached
  /// segments beyond a lower limit at once.
  void set_limit(std::optional<std::size_t> bytes) const;

  /// False when PLINTH_MEMORY_POOL turned the pool off for this context: allocate() then
  /// returns fresh allocations and nothing is cached.
  bool enabled() const noexcept;

 private:
  friend struct detail::Access;

  explicit MemoryPool(std::shared_ptr<detail::ContextPools> pools) : pools_(std::move(pools)) {}

  std::shared_ptr<detail::ContextPools> pools_;
};

}  // namespace plinth
