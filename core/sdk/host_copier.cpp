// <plinth/backend/host_copier.hpp>: the multi-threaded memcpy of staged transfers.

#include <plinth/backend/host_copier.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <system_error>

namespace plinth::backend {

namespace {

// Copies take blocks of this size; one of under two blocks wakes no helper.
constexpr std::size_t copy_block = std::size_t{64} << 10;
// How long a helper spins for the next copy before it sleeps.
constexpr auto helper_spin = std::chrono::microseconds(100);

inline void spin_pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

HostCopier::HostCopier()
    : HostCopier(std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u)) {}

HostCopier::HostCopier(unsigned threads) {
  try {
    while (helpers_.size() + 1 < threads) helpers_.emplace_back(&HostCopier::work, this);
  } catch (const std::system_error&) {
    // Fewer helpers, then; copies still work.
  }
}

HostCopier::~HostCopier() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (auto& helper : helpers_) helper.join();
}

void HostCopier::wake(std::size_t size) noexcept {
  if (size < 2 * copy_block || helpers_.empty() || busy_.exchange(true, std::memory_order_acquire))
    return;
  publish(0);
  busy_.store(false, std::memory_order_release);
}

void HostCopier::copy(void* dst, const void* src, std::size_t size) noexcept {
  if (size < 2 * copy_block || helpers_.empty() ||
      busy_.exchange(true, std::memory_order_acquire)) {
    if (size != 0) std::memcpy(dst, src, size);  // null pointers are fine with nothing to copy
    return;
  }
  dst_ = static_cast<std::byte*>(dst);
  src_ = static_cast<const std::byte*>(src);
  size_ = size;
  // At most 0xffff blocks, to fit the ticket.
  block_size_ = std::max(copy_block, (size / 0xffff + 64) / 64 * 64);
  const std::uint64_t blocks = (size + block_size_ - 1) / block_size_;
  done_.store(0, std::memory_order_relaxed);
  publish(blocks);
  take_blocks(generation_.load(std::memory_order_relaxed));
  while (done_.load(std::memory_order_acquire) != blocks) spin_pause();  // helpers' last blocks
  busy_.store(false, std::memory_order_release);
}

void HostCopier::publish(std::uint64_t blocks) noexcept {
  const std::uint32_t generation = generation_.load(std::memory_order_relaxed) + 1;
  ticket_.store(std::uint64_t{generation} << 32 | blocks, std::memory_order_release);
  generation_.store(generation, std::memory_order_release);
  generation_.notify_all();  // a system call only if a helper sleeps
}

void HostCopier::take_blocks(std::uint32_t generation) noexcept {
  for (;;) {
    // Claim the next block of this copy, unless it is over (or another has begun).
    std::uint64_t ticket = ticket_.load(std::memory_order_acquire);
    std::uint64_t next = 0;
    do {
      next = ticket >> 16 & 0xffff;
      if (ticket >> 32 != generation || next >= (ticket & 0xffff)) return;
    } while (!ticket_.compare_exchange_weak(ticket, ticket + (1 << 16), std::memory_order_acq_rel,
                                            std::memory_order_acquire));
    const std::size_t begin = next * block_size_;
    std::memcpy(dst_ + begin, src_ + begin, std::min(block_size_, size_ - begin));
    done_.fetch_add(1, std::memory_order_release);
  }
}

void HostCopier::work() noexcept {
  std::uint32_t seen = generation_.load(std::memory_order_acquire);
  for (;;) {
    // Before waiting: a helper that starts after the destructor has already moved the
    // generation on would otherwise wait for a change that never comes (it hung the
    // destructor of a copier destroyed right after it was made, on a 16-core machine).
    if (stop_.load(std::memory_order_acquire)) return;
    const auto until = std::chrono::steady_clock::now() + helper_spin;
    for (unsigned i = 1; generation_.load(std::memory_order_acquire) == seen; ++i) {
      if (i % 64 == 0 && std::chrono::steady_clock::now() > until) {
        generation_.wait(seen, std::memory_order_acquire);
        break;
      }
      spin_pause();
    }
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    take_blocks(seen);
  }
}

}  // namespace plinth::backend
