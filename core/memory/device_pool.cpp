// The caching pool of one device: segments from the driver, cut into blocks by best fit,
// merged again when freed; each free block carries the claims of the queues that used it.

#include "memory/device_pool.hpp"

#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <new>

namespace plinth::detail {

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;
/// Requests of up to this many bytes share small segments.
constexpr std::size_t small_request = 1 * mib;
constexpr std::size_t small_segment = 2 * mib;
/// Requests below this share large segments of large_segment bytes; larger ones get their
/// own, rounded up to segment_rounding.
constexpr std::size_t shared_large_request = 10 * mib;
constexpr std::size_t large_segment = 20 * mib;
constexpr std::size_t segment_rounding = 2 * mib;
/// A large block is split only when more than this is left over.
constexpr std::size_t large_split_remainder = 1 * mib;

/// `size` rounded up to a multiple of `step`; 0 on overflow.
std::size_t round_up(std::size_t size, std::size_t step) {
  const std::size_t rest = size % step;
  if (rest == 0) return size;
  if (size > std::numeric_limits<std::size_t>::max() - (step - rest)) return 0;
  return size + (step - rest);
}

OutOfMemoryError over_limit(std::size_t request, std::size_t held, std::size_t limit) {
  return OutOfMemoryError(
      "plinth", "MemoryPool::allocate", 0, "PLINTH_MEMORY_POOL_LIMIT",
      fmt::format("a segment of {} bytes would pass the pool's limit of {} bytes ({} held, "
                  "none of it free to give back)",
                  request, limit, held));
}

/// `into` gets the claims of `from`: one per queue, the later release's, which covers the
/// earlier one's work (queue order; its epoch is the later too).
void merge_claims(QueueClaims& into, const QueueClaims& from) {
  for (const auto& claim : from) {
    const auto same = std::find_if(into.begin(), into.end(),
                                   [&](const QueueClaim& c) { return c.track == claim.track; });
    if (same == into.end()) {
      into.push_back(claim);
    } else if (claim.point > same->point) {
      *same = claim;
    }
  }
}

}  // namespace

DevicePool::DevicePool(std::shared_ptr<backend::ContextAdapter> context, std::size_t device_index,
                       std::size_t alignment, std::shared_ptr<const void> plugin,
                       std::optional<std::size_t> limit)
    : context_(std::move(context)),
      device_index_(device_index),
      alignment_(std::max<std::size_t>(512, round_up(alignment == 0 ? 1 : alignment, 512))),
      plugin_(std::move(plugin)),
      limit_(limit) {}

DevicePool::~DevicePool() {
  small_free_.clear();  // unlinks the blocks: the hooks must not be linked when they go
  large_free_.clear();
  for (auto& segment : segments_) {
    for (PoolBlock* block = segment->first; block != nullptr;) {
      PoolBlock* next = block->next;
      delete block;
      block = next;
    }
  }
}

PoolBlock* DevicePool::find(bool small, std::size_t size, const QueueTrack* queue,
                            EventWaits& waits) {
  auto& set = free_set(small);
  PoolBlock key;
  key.size = size;
  for (auto it = set.lower_bound(key); it != set.end(); ++it) {
    PoolBlock* block = &*it;
    waits.clear();
    bool usable = true;
    for (const auto& claim : block->claims) {
      if (claim.track.get() == queue || claim.track->passed(claim.epoch)) continue;
      if (queue != nullptr && claim.event) {
        waits.push_back(claim.event.get());
        continue;
      }
      usable = false;
      break;
    }
    if (usable) return block;
  }
  return nullptr;
}

PoolBlock* DevicePool::new_segment(std::size_t request, bool small) {
  std::size_t size = small                            ? small_segment
                     : request < shared_large_request ? large_segment
                                                      : round_up(request, segment_rounding);
  if (size == 0) size = request;  // rounding overflowed: the driver refuses it below
  if (limit_ && stats_.bytes_held + size > *limit_) {
    free_idle_segments();
    // A large request may still fit in a segment of its own size.
    if (stats_.bytes_held + size > *limit_ && !small) size = request;
    if (stats_.bytes_held + size > *limit_) throw over_limit(size, stats_.bytes_held, *limit_);
  }
  std::unique_ptr<backend::BufferAdapter> memory;
  try {
    memory = context_->allocate(device_index_, size);
  } catch (const OutOfMemoryError&) {
    // Cached segments may be what fills the device: give them back and try once more, with a
    // segment of just the request's size if a shared one was asked for.
    const bool freed = free_idle_segments() > 0;
    if (!freed && size == request) throw;
    if (freed) {
      try {
        memory = context_->allocate(device_index_, size);
      } catch (const OutOfMemoryError&) {
        if (size == request) throw;
      }
    }
    if (!memory) {
      size = request;
      memory = context_->allocate(device_index_, size);
    }
  }
  auto segment = std::make_unique<PoolSegment>();
  segment->adapter = detail::adopt(std::move(memory), plugin_);
  segment->size = size;
  segment->small = small;
  segments_.reserve(segments_.size() + 1);
  PoolBlock* block = new_block();
  block->segment = segment.get();
  block->size = size;
  segment->first = block;
  segments_.push_back(std::move(segment));
  stats_.bytes_held += size;
  stats_.peak_bytes_held = std::max(stats_.peak_bytes_held, stats_.bytes_held);
  ++stats_.misses;
  return block;
}

PoolBlock* DevicePool::new_block() {
  if (spare_.empty()) return new PoolBlock;
  PoolBlock* block = spare_.back().release();
  spare_.pop_back();
  return block;
}

void DevicePool::recycle(PoolBlock* block) noexcept {
  block->segment = nullptr;
  block->offset = block->size = 0;
  block->in_use = false;
  block->prev = block->next = nullptr;
  block->claims.clear();
  try {
    if (spare_.size() < 64) {
      spare_.emplace_back(block);
      return;
    }
  } catch (const std::bad_alloc&) {
  }
  delete block;
}

PoolAllocation DevicePool::allocate(const std::shared_ptr<QueueImpl>& queue, std::size_t size) {
  const std::size_t rounded = round_up(size, alignment_);
  if (rounded == 0) {
    throw OutOfMemoryError("plinth", "MemoryPool::allocate", 0, "too large",
                           fmt::format("{} bytes cannot be allocated", size));
  }
  const bool small = rounded <= small_request;
  const QueueTrack* track = queue ? queue->track.get() : nullptr;
  const std::lock_guard lock(mutex_);
  EventWaits waits;
  PoolBlock* block = find(small, rounded, track, waits);
  if (block != nullptr) {
    for (auto* event : waits) queue->adapter->wait_for(*event);  // throws: the block stays free
    stats_.queue_waits += waits.size();
    ++stats_.hits;
    free_set(small).erase(free_set(small).iterator_to(*block));
  } else {
    block = new_segment(rounded, small);
  }
  // Split off what is left when it is worth keeping; it keeps the claims on that memory.
  const std::size_t rest = block->size - rounded;
  if (rest > 0 && (small ? rest >= alignment_ : rest > large_split_remainder)) {
    try {
      PoolBlock* tail = new_block();
      tail->segment = block->segment;
      tail->offset = block->offset + rounded;
      tail->size = rest;
      tail->prev = block;
      tail->next = block->next;
      tail->claims = block->claims;
      free_set(small).insert(*tail);
      if (block->next != nullptr) block->next->prev = tail;
      block->next = tail;
      block->size = rounded;
      ++stats_.splits;
    } catch (const std::bad_alloc&) {
      // No host memory to split: the whole block serves the request.
    }
  }
  block->in_use = true;
  block->claims.clear();
  ++block->segment->blocks_in_use;
  stats_.bytes_in_use += block->size;
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  return {block, block->segment->adapter};
}

PoolBlock* DevicePool::merge_neighbours(PoolBlock* block) {
  auto& set = free_set(block->segment->small);
  // Absorb a free next neighbour.
  if (PoolBlock* next = block->next; next != nullptr && !next->in_use) {
    merge_claims(block->claims, next->claims);
    set.erase(set.iterator_to(*next));
    block->size += next->size;
    block->next = next->next;
    if (next->next != nullptr) next->next->prev = block;
    recycle(next);
  }
  // Be absorbed by a free previous one.
  if (PoolBlock* prev = block->prev; prev != nullptr && !prev->in_use) {
    merge_claims(prev->claims, block->claims);
    set.erase(set.iterator_to(*prev));
    prev->size += block->size;
    prev->next = block->next;
    if (block->next != nullptr) block->next->prev = prev;
    recycle(block);
    block = prev;
  }
  return block;
}

void DevicePool::release(PoolBlock* block, QueueClaims claims) noexcept {
  const std::lock_guard lock(mutex_);
  PoolSegment* segment = block->segment;
  block->in_use = false;
  --segment->blocks_in_use;
  stats_.bytes_in_use -= block->size;
  block->claims = std::move(claims);
  try {
    block = merge_neighbours(block);
    free_set(segment->small).insert(*block);
  } catch (const std::bad_alloc&) {
    // No host memory for the bookkeeping: the block stays out of the free set, unused.
    return;
  }
  if (limit_ && stats_.bytes_held > *limit_ && segment->blocks_in_use == 0) free_segment(segment);
}

void DevicePool::free_segment(PoolSegment* segment) noexcept {
  for (PoolBlock* block = segment->first; block != nullptr;) {
    PoolBlock* next = block->next;
    if (block->is_linked())
      free_set(segment->small).erase(free_set(segment->small).iterator_to(*block));
    recycle(block);
    block = next;
  }
  stats_.bytes_held -= segment->size;
  ++stats_.segments_freed;
  const auto it = std::find_if(segments_.begin(), segments_.end(),
                               [&](const auto& s) { return s.get() == segment; });
  segments_.erase(it);  // gives the memory back to the driver
}

std::size_t DevicePool::free_idle_segments() noexcept {
  std::size_t freed = 0;
  for (std::size_t i = segments_.size(); i-- > 0;) {
    PoolSegment* segment = segments_[i].get();
    if (segment->blocks_in_use != 0) continue;
    freed += segment->size;
    free_segment(segment);
  }
  return freed;
}

MemoryPoolStats DevicePool::stats() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

void DevicePool::free_all_blocks() noexcept {
  const std::lock_guard lock(mutex_);
  free_idle_segments();
}

std::optional<std::size_t> DevicePool::limit() const {
  const std::lock_guard lock(mutex_);
  return limit_;
}

void DevicePool::set_limit(std::optional<std::size_t> bytes) {
  const std::lock_guard lock(mutex_);
  limit_ = bytes;
  if (limit_ && stats_.bytes_held > *limit_) free_idle_segments();
}

BlockLease::BlockLease(std::shared_ptr<DevicePool> pool, const PoolAllocation& allocation,
                       const std::shared_ptr<QueueImpl>& owner)
    : pool_(std::move(pool)), block_(allocation.block), segment_(allocation.segment) {
  if (owner) {
    primary_track_ = owner->track;
    primary_.store(primary_track_.get(), std::memory_order_release);
    primary_track_->used_by_pool.store(true, std::memory_order_relaxed);
  }
}

void BlockLease::note(const std::shared_ptr<QueueImpl>& queue) {
  const QueueTrack* track = queue->track.get();
  if (primary_.load(std::memory_order_acquire) == track) return;
  const std::lock_guard lock(mutex_);
  if (!primary_track_) {
    primary_track_ = queue->track;
    primary_.store(track, std::memory_order_release);
  } else if (std::none_of(others_.begin(), others_.end(),
                          [&](const OtherQueue& o) { return o.track.get() == track; })) {
    others_.push_back({queue, queue->track});
  }
  queue->track->used_by_pool.store(true, std::memory_order_relaxed);
}

BlockLease::~BlockLease() {
  try {
    QueueClaims claims;
    if (primary_track_) {
      const std::lock_guard lock(primary_track_->points_mutex);
      claims.push_back({primary_track_,
                        primary_track_->epoch.load(std::memory_order_acquire),
                        {},
                        primary_track_->next_point()});
    }
    for (const auto& other : others_) {
      const auto queue = other.queue.lock();
      if (!queue) continue;  // destroyed: it finished its work first (~QueueImpl)
      const std::lock_guard lock(other.track->points_mutex);
      const auto epoch = other.track->epoch.load(std::memory_order_acquire);
      std::shared_ptr<backend::EventAdapter> event;
      try {
        event = detail::adopt(queue->adapter->record_event(), pool_->plugin());
      } catch (const Error& e) {
        debug(DebugTopic::transfer, "memory pool: recording an event failed ({}); synchronizing",
              e.what());
        queue->adapter->synchronize();  // throws: the block stays in use (below)
        continue;
      }
      claims.push_back({other.track, epoch, std::move(event), other.track->next_point()});
    }
    pool_->release(block_, std::move(claims));
  } catch (...) {
    // The queues' state is unknown: the block stays in use, never reused and never freed
    // before the pool goes.
  }
}

}  // namespace plinth::detail
