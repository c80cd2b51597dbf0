#pragma once

// Page-locked staging of transfers between pageable host memory and a device, for backends
// whose vendor API has in-order queues, per-queue markers and host functions (CUDA, HIP; an
// OpenCL queue can build host functions from user events and callbacks).
//
// A DMA engine reads and writes only page-locked memory. StagingRing gives a backend's queue
// slot_count page-locked slots of slot_size bytes (16 MiB in all, allocated on the first
// staged transfer and kept), each with a mark recorded in the queue after its last use, and
// moves pageable memory through them:
//
// - Synchronous transfers return with the copy done (for a write, the data on the device). A
//   pipeline on the calling thread, in chunks that start at first_chunk and double up to a
//   slot: a write copies chunk i into a free slot (HostCopier: several threads) while the DMA
//   of chunk i-1 runs; a read keeps slot_count DMAs in flight and copies each chunk out as soon
//   as its mark is reached. H100 (16-core VM, the CUDA backend), loops of one size against the
//   raw pageable call: 1 MiB write 1.15x, read 1.9x; 256 MiB write 3.8x (36 GB/s), read 3-4x
//   (42 GB/s).
// - Asynchronous transfers never wait for the device: the host-side copy is a host function in
//   the queue, [fn: src -> slot][DMA slot -> device] for a write, [DMA device -> slot][fn: slot
//   -> dst] for a read, a slot at a time. The call only enqueues; the data reach the user's
//   memory in queue order, so later work, events and synchronize() all see them. The queue runs
//   these steps one after another, without the synchronous pipeline's overlap. Host functions'
//   arguments live in a ring of job_count jobs; a call that finds it full (over 1 GiB in
//   flight) waits for the queue.
//
// The backend keeps the decision whether to stage at all (memory the DMA engine reads
// directly needs no staging; the vendor's own path may be as fast for small transfers) and
// the vendor calls, which it gives the ring through StagingQueue. backends/cuda/queue.cpp:
//
//     if (size >= direct_max && !dma_capable(src) && staging_.write(dst, offset, src, size, async))
//       return;  // staged
//     PLINTH_CHECK(cuMemcpyHtoDAsync(...));  // the direct path, which never touches the ring
//
// Nothing here allocates or locks after the first staged transfer (LDP_6); a chunk costs one
// virtual call per vendor step, and chunks are at least first_chunk bytes.

#include <plinth/backend/buffer.hpp>
#include <plinth/backend/host_copier.hpp>
#include <plinth/export.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace plinth::backend {

/// The vendor side of a StagingRing, implemented by a backend's queue (usually privately,
/// next to QueueAdapter): the few operations of an in-order queue the ring needs.
///
/// Threads: the ring calls these only on a thread inside StagingRing::write() or read(), one
/// at a time, and never from a host function. Errors: a member throws what the backend throws
/// for a vendor failure (PLINTH_CHECK's BackendError or OutOfMemoryError); the ring lets it
/// through to the caller of write()/read() and stays usable (see StagingRing).
class StagingQueue {
 public:
  StagingQueue() = default;
  StagingQueue(const StagingQueue&) = delete;
  StagingQueue& operator=(const StagingQueue&) = delete;

  /// The copier for the host side of the transfers; called once, on the first staged transfer
  /// (again if that one fails). The copier must outlive the ring; a backend shares one
  /// between the queues of a context.
  virtual HostCopier& host_copier() = 0;
  /// Called once, on the first staged transfer (again if it throws): returns `size` bytes of
  /// page-locked host memory (StagingRing::slot_count slots of StagingRing::slot_size bytes,
  /// never null) and prepares whatever mark_slot() and wait_slot() need for
  /// StagingRing::slot_count slots. Creates only what an earlier failed call left missing.
  /// The memory and marks stay the queue's: it frees them in its destructor, after waiting
  /// for its queued work (which may still use them) and before the ring is destroyed.
  virtual void* allocate_staging(std::size_t size) = 0;

  /// Enqueues a DMA of `size` bytes from `stage` (inside the staging memory) to `dst` at
  /// `dst_offset`, after all work enqueued so far; returns without waiting for it.
  virtual void write_async(BufferAdapter& dst, std::size_t dst_offset, const void* stage,
                           std::size_t size) = 0;
  /// Enqueues a DMA of `size` bytes from `src` at `src_offset` to `stage` (inside the staging
  /// memory), after all work enqueued so far; returns without waiting for it.
  virtual void read_async(void* stage, BufferAdapter& src, std::size_t src_offset,
                          std::size_t size) = 0;
  /// Records the mark of slot `slot` (< StagingRing::slot_count) at the current end of the
  /// queue, replacing the slot's previous mark: the slot is free once the work enqueued so
  /// far is done (a CUDA event recorded on the stream).
  virtual void mark_slot(std::size_t slot) = 0;
  /// Blocks until the work before slot `slot`'s mark is done; returns at once if the slot has
  /// no mark yet (a CUDA event that was never recorded is complete).
  virtual void wait_slot(std::size_t slot) = 0;
  /// Enqueues `function(argument)`, to run on any host thread once the work enqueued before
  /// it is done and before the work enqueued after it starts (cuLaunchHostFunc). The function
  /// makes no vendor call (CUDA forbids them there), never throws and returns quickly.
  virtual void launch_host_function(void (*function)(void*) noexcept, void* argument) = 0;
  /// Called repeatedly while the ring waits for the queue to run its host functions (the job
  /// ring is full): makes sure the queued work is making progress (an OpenCL queue flushes)
  /// and throws if the queue has failed, which would make the wait endless (cuStreamQuery's
  /// error). Returns at once; the ring sleeps between calls.
  virtual void poll() = 0;
  /// Blocks until all work enqueued so far is done (cuStreamSynchronize).
  virtual void synchronize() = 0;

 protected:
  ~StagingQueue() = default;  // never owned through this interface
};

/// Pipelined page-locked staging of one queue's transfers between pageable host memory and
/// its device (see the top of this file). A member of the backend's queue, constructed with
/// it and destroyed with it; the slots are allocated on the first staged transfer.
///
/// Threads: write() and read() may be called from any thread. One transfer uses the ring at
/// a time: while another thread's transfer has it, they return false at once, having done
/// nothing, and the caller takes the vendor's own path. The host functions the ring enqueues
/// run on whatever thread the queue runs them on and touch only the ring's job count and the
/// HostCopier.
///
/// Errors: write() and read() throw what the StagingQueue throws (a vendor failure, or running
/// out of page-locked memory on the first staged transfer). The ring is then free again, and
/// its next transfer first synchronizes the queue (StagingQueue::synchronize) so that work the
/// failed transfer left in the queue no longer uses the slots; an asynchronous transfer that
/// failed may have enqueued part of its pieces, which still run.
class PLINTH_EXPORT StagingRing {
 public:
  /// Bytes of a slot: the largest chunk, and the piece size of asynchronous transfers.
  static constexpr std::size_t slot_size = std::size_t{4} << 20;
  /// Slots: the synchronous read keeps this many DMAs in flight.
  static constexpr std::size_t slot_count = 4;
  /// Host functions in flight at most (asynchronous transfers: slot_size bytes each).
  static constexpr std::size_t job_count = 256;
  /// The first chunk of a synchronous transfer; later ones double up to slot_size.
  static constexpr std::size_t first_chunk = std::size_t{128} << 10;

  /// A ring whose vendor calls go to `queue`, which must outlive it. Allocates nothing.
  explicit StagingRing(StagingQueue& queue) noexcept;
  /// Makes no vendor call: the owner has already waited for its queue (host functions that
  /// are still queued point into the ring) and freed the staging memory.
  ~StagingRing() = default;
  StagingRing(const StagingRing&) = delete;
  StagingRing& operator=(const StagingRing&) = delete;

  /// Host to device through the slots: `size` bytes from pageable `src` to `dst` at
  /// `dst_offset`. Synchronous (`async` false): returns with the data on the device (the
  /// queue synchronized). Asynchronous: returns once enqueued; `src` must stay valid and
  /// unchanged until the queue is synchronized. Returns false, having done nothing, while
  /// another thread's transfer has the ring; true otherwise (also for size 0). Throws what
  /// the StagingQueue throws (see the class).
  bool write(BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
             bool async);
  /// Device to host through the slots: `size` bytes from `src` at `src_offset` to pageable
  /// `dst`. Synchronous: returns with the data in `dst`. Asynchronous: returns once enqueued,
  /// never waiting for the device; the data are in `dst` once the queue's work enqueued so
  /// far is done (its synchronize(), or an event recorded after). Returns and throws as
  /// write() does.
  bool read(void* dst, BufferAdapter& src, std::size_t src_offset, std::size_t size, bool async);

 private:
  // A host-side copy that a host function in the queue performs (asynchronous transfers).
  struct Job {
    void* dst = nullptr;
    const void* src = nullptr;
    std::size_t size = 0;
    StagingRing* ring = nullptr;
  };
  static void run_job(void* job) noexcept;

  bool claim();
  /// Runs `transfer` holding the ring (false if another thread holds it); a failure marks
  /// the queue for draining before the next transfer.
  template <class Transfer>
  bool claimed(Transfer&& transfer);
  std::byte* next_slot(std::size_t& index) noexcept;
  Job& next_job();
  void launch_job(Job& job);
  void write_staged(BufferAdapter& dst, std::size_t dst_offset, const std::byte* src,
                    std::size_t size);
  void write_staged_async(BufferAdapter& dst, std::size_t dst_offset, const std::byte* src,
                          std::size_t size);
  void read_staged(std::byte* dst, BufferAdapter& src, std::size_t src_offset, std::size_t size);
  void read_staged_async(std::byte* dst, BufferAdapter& src, std::size_t src_offset,
                         std::size_t size);

  StagingQueue& queue_;
  // One transfer uses the ring at a time (claim()).
  std::atomic<bool> busy_{false};
  bool drain_ = false;  // a transfer failed: synchronize the queue before the next one
  HostCopier* copier_ = nullptr;
  std::byte* slots_ = nullptr;  // slot_count * slot_size page-locked bytes, the queue's
  std::size_t next_slot_ = 0;
  std::array<Job, job_count> jobs_{};  // a ring
  std::uint64_t jobs_issued_ = 0;
  std::atomic<std::uint64_t> jobs_done_{0};
};

}  // namespace plinth::backend
