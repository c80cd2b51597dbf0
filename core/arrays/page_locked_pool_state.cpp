#include "arrays/page_locked_pool_state.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <new>
#include <utility>

namespace plinth::detail {

namespace {

constexpr std::size_t small_step = page_locked_min_block;
constexpr std::size_t small_limit = std::size_t{1} << 20;

/// `size` rounded up to a multiple of `step` (a power of two), or `size` on overflow.
std::size_t round_up(std::size_t size, std::size_t step) noexcept {
  if (size > std::numeric_limits<std::size_t>::max() - (step - 1)) return size;
  return (size + step - 1) & ~(step - 1);
}

}  // namespace

std::size_t page_locked_block_size(std::size_t size) noexcept {
  if (size <= small_limit) return std::max(round_up(size, small_step), small_step);
  return round_up(size, std::bit_floor(size) / 4);
}

PageLockedPoolState::PageLockedPoolState(Driver driver, bool enabled)
    : driver_(std::move(driver)), enabled_(enabled) {}

PageLockedPoolState::~PageLockedPoolState() { free_all_blocks(); }

std::optional<PageLockedPoolState::Block> PageLockedPoolState::take_largest_locked() noexcept {
  if (cached_.empty()) return std::nullopt;
  const auto last = std::prev(cached_.end());
  const Block block{last->second, last->first};
  cached_.erase(last);
  stats_.bytes_held -= block.size;
  ++stats_.segments_freed;
  return block;
}

PageLockedPoolState::Block PageLockedPoolState::acquire(std::size_t size) {
  const std::size_t bytes = page_locked_block_size(size);
  for (;;) {
    std::optional<Block> surplus;
    {
      const std::lock_guard lock(mutex_);
      const auto found = cached_.lower_bound(size);
      if (found != cached_.end() && page_locked_block_serves(found->first, size)) {
        const Block block{found->second, found->first};
        cached_.erase(found);
        ++stats_.hits;
        stats_.bytes_in_use += block.size;
        stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
        return block;
      }
      const bool within_limit =
          !limit_ || (bytes <= *limit_ && stats_.bytes_held <= *limit_ - bytes);
      if (within_limit) {
        stats_.bytes_held += bytes;  // reserved: concurrent callers see it against the limit
        break;
      }
      surplus = take_largest_locked();
      if (!surplus) {
        throw OutOfMemoryError(
            "host", "HostArray::page_locked", 0, "page-locked pool limit",
            fmt::format("a block of {} bytes would pass the limit of the context's "
                        "page-locked pool, {} bytes (PageLockedMemoryPool::set_limit), with "
                        "{} bytes in use",
                        bytes, *limit_, stats_.bytes_in_use));
      }
    }
    driver_.free(surplus->memory);  // unlocked: cuMemFreeHost synchronises
  }
  void* memory = nullptr;
  try {
    try {
      memory = driver_.allocate(bytes);
    } catch (const OutOfMemoryError&) {
      // Cached blocks may be what the driver lacks: give them back and try once more.
      if (free_cached() == 0) throw;
      memory = driver_.allocate(bytes);
    }
  } catch (...) {
    const std::lock_guard lock(mutex_);
    stats_.bytes_held -= bytes;
    throw;
  }
  const std::lock_guard lock(mutex_);
  ++stats_.misses;
  stats_.bytes_in_use += bytes;
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  stats_.peak_bytes_held = std::max(stats_.peak_bytes_held, stats_.bytes_held);
  return Block{static_cast<std::byte*>(memory), bytes};
}

void PageLockedPoolState::release(Block block) noexcept {
  {
    const std::lock_guard lock(mutex_);
    stats_.bytes_in_use -= block.size;
    const bool keep = !limit_ || stats_.bytes_held <= *limit_;
    if (keep) {
      try {
        cached_.emplace(block.size, block.memory);
        return;
      } catch (const std::bad_alloc&) {
        // No room to remember it: give it back instead.
      }
    }
    stats_.bytes_held -= block.size;
    ++stats_.segments_freed;
  }
  driver_.free(block.memory);
}

std::size_t PageLockedPoolState::free_cached() noexcept {
  std::size_t freed = 0;
  for (;;) {
    std::optional<Block> block;
    {
      const std::lock_guard lock(mutex_);
      block = take_largest_locked();
    }
    if (!block) return freed;
    driver_.free(block->memory);
    ++freed;
  }
}

MemoryPoolStats PageLockedPoolState::stats() const noexcept {
  const std::lock_guard lock(mutex_);
  return stats_;
}

void PageLockedPoolState::free_all_blocks() noexcept { free_cached(); }

std::optional<std::size_t> PageLockedPoolState::limit() const noexcept {
  const std::lock_guard lock(mutex_);
  return limit_;
}

void PageLockedPoolState::set_limit(std::optional<std::size_t> bytes) noexcept {
  {
    const std::lock_guard lock(mutex_);
    limit_ = bytes;
  }
  for (;;) {
    std::optional<Block> surplus;
    {
      const std::lock_guard lock(mutex_);
      if (!limit_ || stats_.bytes_held <= *limit_) return;
      // What is over the limit once the cache is empty is in use; its release frees it.
      surplus = take_largest_locked();
      if (!surplus) return;
    }
    driver_.free(surplus->memory);
  }
}

}  // namespace plinth::detail
