// MemoryPool: the public handle on a context's pools, and the pooled Buffers it hands out.

#include <plinth/memory_pool.hpp>

#include "memory/context_pools.hpp"
#include "runtime/impl.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <new>

namespace plinth {

namespace {

detail::DevicePool* pool_of(const detail::ContextPools& pools, const BoundDevice& device) {
  return pools.devices.empty() ? nullptr : pools.devices[device.index()].get();
}

void check_context(const detail::ContextPools& pools, const BoundDevice& device, const char* what) {
  if (detail::Access::impl(device.context())->pools.get() != &pools) {
    throw LogicError(fmt::format("MemoryPool::{}: device {} ('{}') is of another context", what,
                                 device.index(), device.name()));
  }
}

/// A Buffer of `size` bytes from `device`'s pool (or a fresh one with the pool off), leased
/// for `owner` (null: the first queue that uses it).
Buffer pooled_buffer(const detail::ContextPools& pools, const BoundDevice& device,
                     const std::shared_ptr<detail::QueueImpl>& owner, std::size_t size) {
  if (size == 0) throw LogicError("MemoryPool::allocate: size must be greater than 0");
  check_context(pools, device, "allocate");
  if (pools.devices.empty()) return Buffer::allocate(device, size);
  const auto& pool = pools.devices[device.index()];
  try {
    const auto allocation = pool->allocate(owner, size);
    std::shared_ptr<detail::BlockLease> lease;
    try {
      lease = std::make_shared<detail::BlockLease>(pool, allocation, owner);
    } catch (...) {
      pool->release(allocation.block, {});  // no work has used it
      throw;
    }
    // From here the lease returns the block, whatever throws.
    auto impl = std::make_shared<detail::BufferImpl>(
        detail::BufferImpl{device, nullptr, nullptr, 0, size, nullptr, std::move(lease)});
    impl->adapter = detail::adopt(impl->lease->region(0, size), pool->plugin());
    return detail::Access::make<Buffer>(std::move(impl));
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("host", "MemoryPool::allocate", 0, "out of host memory",
                           "cannot allocate the pool's bookkeeping");
  }
}

}  // namespace

MemoryPool MemoryPool::of(const Context& context) noexcept {
  return MemoryPool(detail::Access::impl(context)->pools);
}

Buffer MemoryPool::allocate(const Queue& queue, std::size_t size) const {
  return pooled_buffer(*pools_, queue.device(), detail::Access::impl(queue), size);
}

Buffer MemoryPool::allocate(const BoundDevice& device, std::size_t size) const {
  return pooled_buffer(*pools_, device, nullptr, size);
}

MemoryPoolStats MemoryPool::stats(const BoundDevice& device) const {
  check_context(*pools_, device, "stats");
  const auto* pool = pool_of(*pools_, device);
  return pool != nullptr ? pool->stats() : MemoryPoolStats{};
}

MemoryPoolStats MemoryPool::stats() const {
  MemoryPoolStats total;
  for (const auto& pool : pools_->devices) {
    const auto s = pool->stats();
    total.bytes_in_use += s.bytes_in_use;
    total.bytes_held += s.bytes_held;
    total.peak_bytes_in_use += s.peak_bytes_in_use;
    total.peak_bytes_held += s.peak_bytes_held;
    total.hits += s.hits;
    total.misses += s.misses;
    total.splits += s.splits;
    total.segments_freed += s.segments_freed;
    total.queue_waits += s.queue_waits;
  }
  return total;
}

void MemoryPool::free_all_blocks() const noexcept {
  for (const auto& pool : pools_->devices) pool->free_all_blocks();
}

std::optional<std::size_t> MemoryPool::limit() const noexcept {
  return pools_->devices.empty() ? pools_->settings.limit : pools_->devices.front()->limit();
}

void MemoryPool::set_limit(std::optional<std::size_t> bytes) const {
  for (const auto& pool : pools_->devices) pool->set_limit(bytes);
}

bool MemoryPool::enabled() const noexcept { return !pools_->devices.empty(); }

namespace detail {

void note_use(const Buffer& buffer, const Queue& queue) {
  if (const auto& lease = detail::Access::impl(buffer)->lease)
    lease->note(detail::Access::impl(queue));
}

}  // namespace detail

}  // namespace plinth
