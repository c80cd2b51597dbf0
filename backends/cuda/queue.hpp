#pragma once

#include <plinth/backend/queue.hpp>

#include <cuda.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace plinth::cuda {

class ContextState;

/// memcpy on several threads for staged transfers: one thread moves 12-17 GB/s between
/// pageable and page-locked memory on the H100 host, under a third of what the DMA engine
/// takes. A copy is cut into blocks that the caller and the helpers claim from a shared
/// ticket, so the caller starts at once and helpers join as they wake (a futex wake-up takes
/// 15-50 us in a VM). Helpers spin for a while after a copy, since a pipelined transfer
/// brings the next chunk soon, then sleep. One copy at a time: a caller that finds the
/// helpers busy copies on its own thread.
class HostCopier {
 public:
  HostCopier();
  ~HostCopier();
  HostCopier(const HostCopier&) = delete;
  HostCopier& operator=(const HostCopier&) = delete;

  /// Gets sleeping helpers spinning ahead of a copy of `size` bytes that will come soon.
  void wake(std::size_t size) noexcept;
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

/// A CUstream and the page-locked staging of its pageable transfers (see queue.cpp).
class Queue final : public backend::QueueAdapter {
 public:
  Queue(std::shared_ptr<ContextState> state, std::size_t device, CUstream stream, bool owned);
  ~Queue() override;
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  void write(backend::BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
             bool async) override;
  void read(void* dst, backend::BufferAdapter& src, std::size_t src_offset, std::size_t size,
            bool async) override;
  void copy(backend::BufferAdapter& dst, std::size_t dst_offset, backend::BufferAdapter& src,
            std::size_t src_offset, std::size_t size) override;
  void synchronize() override;
  std::unique_ptr<backend::EventAdapter> record_event() override;
  void wait_for(backend::EventAdapter& event) override;
  backend::NativeHandle native_handle() const override;

  CUstream stream() const { return stream_; }
  CUcontext context() const { return context_; }

  static constexpr std::size_t slot_size = std::size_t{4} << 20;
  static constexpr std::size_t slot_count = 4;
  static constexpr std::size_t job_count = 256;

 private:
  // A host-side copy that a host function on the stream performs (asynchronous transfers).
  struct Job {
    void* dst = nullptr;
    const void* src = nullptr;
    std::size_t size = 0;
    Queue* queue = nullptr;
  };
  static void run_job(void* job);

  bool claim_staging();
  std::byte* next_slot(std::size_t& index);
  Job& next_job();
  void launch_job(Job& job);
  void write_staged(CUdeviceptr dst, const std::byte* src, std::size_t size);
  void write_staged_async(CUdeviceptr dst, const std::byte* src, std::size_t size);
  void read_staged(std::byte* dst, CUdeviceptr src, std::size_t size);
  void read_staged_async(std::byte* dst, CUdeviceptr src, std::size_t size);

  std::shared_ptr<ContextState> state_;
  CUcontext context_;
  CUstream stream_;
  bool owned_;

  // Staging, allocated on the first staged transfer. One transfer uses it at a time
  // (staging_busy_); a concurrent one on another thread takes the driver's own path.
  std::atomic<bool> staging_busy_{false};
  HostCopier* copier_ = nullptr;
  std::byte* staging_ = nullptr;                 // slot_count * slot_size page-locked bytes
  std::array<CUevent, slot_count> slot_free_{};  // recorded after each stream use of a slot
  std::size_t next_slot_ = 0;
  std::array<Job, job_count> jobs_{};  // a ring
  std::uint64_t jobs_issued_ = 0;
  std::atomic<std::uint64_t> jobs_done_{0};
};

}  // namespace plinth::cuda
