#pragma once

#include <plinth/context.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>
#include <plinth/memory_pool.hpp>

#include <cstddef>
#include <memory>
#include <optional>

/// The page-locked host memory pool (PyCUDA's PageLockedMemoryPool, CuPy's PinnedMemoryPool).
/// Every Context has one, and HostArray::page_locked() takes its memory from it: releasing a
/// page-locked array (its last handle, views included) returns its block to the pool instead of
/// to the driver (cuMemFreeHost synchronises the device, and cuMemHostAlloc locks every page,
/// a cost that grows with the size), and the next page_locked() of a similar size reuses it. A
/// reused block is zero-filled again, as every page_locked() array is.
///
/// **Sizes.** A request of up to 1 MiB gets a block rounded up to a multiple of 512 bytes; a
/// larger one a block rounded up to a quarter of its power of two (1.25, 1.5, 1.75 or 2 times
/// 2^k), so a new block exceeds its request by less than 512 bytes, or by less than a quarter.
/// A cached block serves a request only if the request (counted as at least 512 bytes) is at
/// least half the block's size (the smallest such block is taken), so at most half of a block
/// handed out is unused, beyond the 512 bytes the smallest blocks have.
/// Blocks are never split or merged (MemoryPoolStats::splits stays 0).
///
/// **No ordering needed.** Host blocks are reused at once on release: an asynchronous transfer
/// keeps the HostArray it reads or writes alive until its queue is next known to be idle
/// (synchronize(), a blocking read, the queue's end), so once the last handle is gone no
/// queue still uses the memory. Memory used through a raw pointer (data()) by work plinth
/// does not see must keep a handle to its array until that work is done
/// (MemoryPoolStats::queue_waits stays 0).
///
/// **Statistics.** bytes_in_use counts the whole blocks handed out and not yet released;
/// bytes_held those and the cached ones.
///
/// **Turning it off.** PLINTH_MEMORY_POOL=off (or 0, false, none, in any case), read when a
/// context is made, turns this pool off with the device pool: page_locked() then allocates
/// fresh memory each time and frees it with the array, nothing is cached, and stats() stays
/// zero.
///
/// **Lifetime.** A page-locked array keeps its context, and so the pool, alive; cached blocks
/// go back to the driver with the pool, when the context's last handle (and the last
/// PageLockedMemoryPool handle) is gone.
///
/// Threads: any thread may call every member; the pool of a context is shared by its copies.

namespace plinth {

namespace detail {
class PageLockedPoolState;
}

/// The page-locked host memory pool of a context. Cheap to copy: a handle to the context's
/// pool, which it keeps alive (not the context).
class PLINTH_EXPORT PageLockedMemoryPool {
 public:
  /// The pool of `context` (made with it). Any thread may call it. Throws nothing.
  static PageLockedMemoryPool of(const Context& context) noexcept;

  /// A snapshot of the pool's statistics (see the file comment; splits and queue_waits stay
  /// 0). Any thread may call it. Throws nothing.
  MemoryPoolStats stats() const noexcept;

  /// Gives every cached block back to the driver (cuMemFreeHost; OpenCL: the mapped buffer
  /// is unmapped and released). Blocks in use stay, and go back to the pool on release. Any
  /// thread may call it. Throws nothing (the backend reports a failure of the driver on
  /// stderr).
  void free_all_blocks() const noexcept;

  /// The most bytes the pool may hold from the driver, in use and cached (nullopt: no bound,
  /// the default). Any thread may call it. Throws nothing.
  std::optional<std::size_t> limit() const noexcept;
  /// Sets limit(). A page_locked() that would pass it first gives every cached block back,
  /// then throws OutOfMemoryError naming the limit. Lowering the limit below what the pool
  /// holds gives cached blocks back at once (blocks in use stay). Any thread may call it.
  /// Throws nothing.
  void set_limit(std::optional<std::size_t> bytes) const noexcept;

  /// False when PLINTH_MEMORY_POOL turned the pool off for this context. Any thread may call
  /// it. Throws nothing.
  bool enabled() const noexcept;

 private:
  friend struct detail::Access;

  explicit PageLockedMemoryPool(std::shared_ptr<detail::PageLockedPoolState> state) noexcept
      : state_(std::move(state)) {}

  std::shared_ptr<detail::PageLockedPoolState> state_;
};

}  // namespace plinth
