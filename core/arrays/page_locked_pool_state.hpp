#pragma once

// The state behind PageLockedMemoryPool (include/plinth/page_locked_pool.hpp): the cached
// blocks of one context's page-locked host memory, the size classes and the statistics. It
// knows the driver only through two functions (the context adapter's allocate_host() and
// free_host(), which they keep alive), so that the unit tests drive it with fakes.

#include <plinth/export.hpp>
#include <plinth/memory_pool.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace plinth::backend {
class ContextAdapter;
}

namespace plinth::detail {

/// The smallest block the pool hands out.
inline constexpr std::size_t page_locked_min_block = 512;

/// The size of a new block for a request of `size` bytes: up to 1 MiB, `size` rounded up to
/// a multiple of 512 (at least 512); above, rounded up to a quarter of the largest power of
/// two not above it (so less than 1.25 times `size`). `size` itself where rounding would
/// overflow. Throws nothing.
PLINTH_EXPORT std::size_t page_locked_block_size(std::size_t size) noexcept;

/// Whether a cached block of `block` bytes may serve a request of `size` bytes: it is large
/// enough and the request, counted as at least page_locked_min_block, is at least half of it.
/// Throws nothing.
constexpr bool page_locked_block_serves(std::size_t block, std::size_t size) noexcept {
  const std::size_t counted = size < page_locked_min_block ? page_locked_min_block : size;
  return block >= size && counted >= block - block / 2;
}

/// One context's pool. Any thread may call every member.
class PLINTH_EXPORT PageLockedPoolState {
 public:
  /// How the pool gets and gives back memory: allocate(size) returns `size` bytes of
  /// page-locked memory or throws (OutOfMemoryError when the driver has none left); free
  /// gives back what allocate returned and throws nothing.
  struct Driver {
    std::function<void*(std::size_t)> allocate;
    std::function<void(void*)> free;
  };

  /// A block handed out: its memory and its size (at least the request).
  struct Block {
    std::byte* memory = nullptr;
    std::size_t size = 0;
  };

  /// A pool over `driver`; `enabled` false: the pool is off (PLINTH_MEMORY_POOL), and its
  /// users allocate around it (acquire() must not be called).
  PageLockedPoolState(Driver driver, bool enabled);
  PageLockedPoolState(const PageLockedPoolState&) = delete;
  PageLockedPoolState& operator=(const PageLockedPoolState&) = delete;
  /// Gives every cached block back to the driver. Blocks in use must be gone (their deleters
  /// keep the pool alive).
  ~PageLockedPoolState();

  /// A block of at least `size` bytes: the smallest cached block that serves it
  /// (page_locked_block_serves), else a new one of page_locked_block_size(size) bytes. Where
  /// the limit would be passed, or the driver runs out of memory, gives every cached block
  /// back first (and retries the driver once). Throws OutOfMemoryError (the limit, or the
  /// driver's), or what the driver throws.
  Block acquire(std::size_t size);
  /// Returns a block from acquire() to the cache; it is reusable at once. Throws nothing.
  void release(Block block) noexcept;

  MemoryPoolStats stats() const noexcept;
  /// Gives every cached block back to the driver. Throws nothing.
  void free_all_blocks() noexcept;
  std::optional<std::size_t> limit() const noexcept;
  /// Sets the limit; cached blocks go back to the driver while the pool holds more than it.
  void set_limit(std::optional<std::size_t> bytes) noexcept;
  bool enabled() const noexcept { return enabled_; }

 private:
  /// Takes the largest cached block out of the cache and counts it as given back (the caller
  /// frees it, unlocked); nullopt when nothing is cached. Call it locked.
  std::optional<Block> take_largest_locked() noexcept;
  /// Gives every cached block back to the driver; returns how many. Call it unlocked.
  std::size_t free_cached() noexcept;

  Driver driver_;
  const bool enabled_;
  mutable std::mutex mutex_;
  /// The cached blocks by size.
  std::multimap<std::size_t, std::byte*> cached_;
  MemoryPoolStats stats_;
  std::optional<std::size_t> limit_;
};

/// The pool of a context over `adapter` (allocate_host(), free_host()), which it keeps alive;
/// `enabled` as PLINTH_MEMORY_POOL says. Throws OutOfMemoryError if the bookkeeping cannot be
/// allocated.
std::shared_ptr<PageLockedPoolState> make_page_locked_pool(
    std::shared_ptr<backend::ContextAdapter> adapter, bool enabled);

}  // namespace plinth::detail
