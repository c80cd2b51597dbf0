#pragma once

// memcpy on several threads, for the host side of staged transfers (see staging.hpp).

#include <plinth/export.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace plinth::backend {

/// memcpy on several threads for staged transfers: one thread moves 12-17 GB/s between
/// pageable and page-locked memory on the H100 host, under a third of what the DMA engine
/// takes. A copy is cut into blocks that the caller and the helpers claim from a shared
/// ticket, so the caller starts at once and helpers join as they wake (a futex wake-up takes
/// 15-50 us in a VM). Helpers spin for a while after a copy, since a pipelined transfer
/// brings the next chunk soon, then sleep. One copy at a time: a caller that finds the
/// helpers busy copies on its own thread.
///
/// Threads: copy() and wake() may be called from any thread, concurrently (also from a
/// vendor's callback thread: they make no vendor call, allocate nothing and take no lock).
/// Lifetime: owned by whoever shares it between its queues (a backend keeps one per context,
/// created on the first staged transfer); it must outlive every copy.
class PLINTH_EXPORT HostCopier {
 public:
  /// Starts the helpers: half the hardware threads, at most 8 in all, the caller included
  /// (so 0 to 7 helper threads). Where a thread cannot be started it makes do with fewer;
  /// throws only std::bad_alloc.
  HostCopier();
  /// As HostCopier(), with `threads` in all, the caller included (0 or 1: no helpers).
  explicit HostCopier(unsigned threads);
  /// Stops and joins the helpers. No copy may be running.
  ~HostCopier();
  HostCopier(const HostCopier&) = delete;
  HostCopier& operator=(const HostCopier&) = delete;

  /// Gets sleeping helpers spinning ahead of a copy of `size` bytes that will come soon
  /// (nothing for a copy too small to share out, or while another copy runs).
  void wake(std::size_t size) noexcept;
  /// Copies `size` bytes from `src` to `dst` (which must not overlap; either may be null when
  /// `size` is 0) and returns when all are copied. Under two blocks (128 KiB), or while
  /// another thread's copy has the helpers, it is a plain memcpy on the calling thread.
  void copy(void* dst, const void* src, std::size_t size) noexcept;

 private:
  void publish(std::uint64_t blocks) noexcept;
  void take_blocks(std::uint32_t generation) noexcept;
  void work() noexcept;

  std::vector<std::thread> helpers_;
  std::atomic<bool> busy_{false};
  std::atomic<bool> stop_{false};
  std::atomic<std::uint32_t> generation_{0};  // one per copy (or wake); helpers wait on it
  std::atomic<std::uint64_t> ticket_{0};      // generation << 32 | next block << 16 | blocks
  std::atomic<std::uint32_t> done_{0};        // blocks of the current copy finished
  // The current copy; written before its ticket is published, read after a block is claimed.
  std::byte* dst_ = nullptr;
  const std::byte* src_ = nullptr;
  std::size_t size_ = 0;
  std::size_t block_size_ = 0;
};

}  // namespace plinth::backend
