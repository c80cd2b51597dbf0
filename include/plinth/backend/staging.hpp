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
// - Synchronous transfers return once the caller's memory is no longer needed: a read with the
//   data in `dst`, a write with the data copied out of `src` (its last DMAs may still run: the
//   device sees the data in queue order, as it would any work enqueued after). A pipeline on the
//   calling thread, in chunks that start at first_chunk and double up to a slot: a write copies
//   chunk i into a free slot (HostCopier: several threads) while the DMA of chunk i-1 runs; a
//   read keeps slot_count DMAs in flight and copies each chunk out as soon as its mark is
//   reached. H100 (16-core VM, the CUDA backend), loops of one size against the raw pageable
//   call: 1 MiB write 1.15x, read 1.9x; 256 MiB write 3.8x (36 GB/s), read 3-4x (42 GB/s).
// - Asynchronous transfers never wait for the device: the call enqueues the DMAs of slot-sized
//   pieces, with host functions between groups of group_size pieces, and hands the host-side
//   copies to the ring's own thread, which runs ahead of the queue: for a write it fills the
//   next slots while the DMAs of the previous ones run, and a host function holds the queue
//   only until the slots its next group needs are full; for a read it empties each slot once a
//   host function says the slot's DMA is done, and the host function after the last group
//   holds the queue until everything is in `dst`. So the data reach the user's memory in queue
//   order (later work, events and synchronize() all see them), and copies overlap DMAs as in
//   the synchronous pipeline. Host functions' arguments live in a ring of job_count jobs and
//   transfers waiting for the thread in a ring of task_count; a call that finds either full
//   waits for the queue.
//
// The backend keeps the decision whether to stage at all (memory the DMA engine reads
// directly needs no staging; the vendor's own path may be as fast for small transfers) and
// the vendor calls, which it gives the ring through StagingQueue. backends/cuda/queue.cpp:
//
//     if (staged(size, async) && !dma_capable(src) && ring_.write(dst, offset, src, size, async))
//       return;  // staged
//     PLINTH_CHECK(cuMemcpyHtoDAsync(...));  // the direct path, which never touches the ring
//
// Nothing here allocates or locks after the first staged transfer (LDP_6; the first
// asynchronous one starts the ring's thread); a chunk costs one virtual call per vendor step,
// and chunks are at least first_chunk bytes. Waits spin briefly, then sleep on a futex
// (std::atomic::wait).

#include <plinth/backend/buffer.hpp>
#include <plinth/backend/host_copier.hpp>
#include <plinth/export.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>

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
  /// makes no vendor call (CUDA forbids them there) and never throws; it may wait for the
  /// ring's own thread, which never waits for anything but earlier host functions.
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
/// it and destroyed with it; the slots are allocated on the first staged transfer, the ring's
/// thread is started on the first asynchronous one.
///
/// Threads: write() and read() may be called from any thread. One transfer uses the ring at
/// a time: while another thread's transfer has it, they return false at once, having done
/// nothing, and the caller takes the vendor's own path. The host functions the ring enqueues
/// run on whatever thread the queue runs them on and touch only the ring's counters.
///
/// Errors: write() and read() throw what the StagingQueue throws (a vendor failure, or running
/// out of page-locked memory on the first staged transfer), and OutOfMemoryError if the ring's
/// thread cannot be started. The ring is then free again, and its next transfer first
/// synchronizes the queue (StagingQueue::synchronize) so that work the failed transfer left in
/// the queue no longer uses the slots; an asynchronous transfer that failed may have enqueued
/// part of its pieces, which still run (with whatever the slots hold), while the transfers
/// enqueued before it complete normally.
class PLINTH_EXPORT StagingRing {
 public:
  /// Bytes of a slot: the largest chunk, and the piece size of asynchronous transfers.
  static constexpr std::size_t slot_size = std::size_t{4} << 20;
  /// Slots: the synchronous read keeps this many DMAs in flight.
  static constexpr std::size_t slot_count = 4;
  /// Pieces of an asynchronous transfer between two of its host functions: while a group's
  /// DMAs run, the ring's thread fills (or empties) the other half of the slots.
  static constexpr std::size_t group_size = slot_count / 2;
  /// Host functions in flight at most (one per group_size pieces, plus one per transfer).
  static constexpr std::size_t job_count = 256;
  /// Asynchronous transfers in flight at most.
  static constexpr std::size_t task_count = 64;
  /// The first chunk of a synchronous transfer; later ones double up to slot_size.
  static constexpr std::size_t first_chunk = std::size_t{128} << 10;

  /// A ring whose vendor calls go to `queue`, which must outlive it. Allocates nothing.
  explicit StagingRing(StagingQueue& queue) noexcept;
  /// Stops the ring's thread (stop()); makes no vendor call: the owner has already waited for
  /// its queue (host functions that are still queued point into the ring).
  ~StagingRing();
  StagingRing(const StagingRing&) = delete;
  StagingRing& operator=(const StagingRing&) = delete;

  /// Host to device through the slots: `size` bytes from pageable `src` to `dst` at
  /// `dst_offset`. Synchronous (`async` false): returns once `src` is no longer needed (the
  /// data copied out of it); the device sees the data in queue order. Asynchronous: returns
  /// once enqueued; `src` must stay valid and unchanged until the queue is synchronized.
  /// Returns false, having done nothing, while another thread's transfer has the ring; true
  /// otherwise (also for size 0). Throws what the StagingQueue throws (see the class).
  bool write(BufferAdapter& dst, std::size_t dst_offset, const void* src, std::size_t size,
             bool async);
  /// Device to host through the slots: `size` bytes from `src` at `src_offset` to pageable
  /// `dst`. Synchronous: returns with the data in `dst`. Asynchronous: returns once enqueued,
  /// never waiting for the device; the data are in `dst` once the queue's work enqueued so
  /// far is done (its synchronize(), or an event recorded after). Returns and throws as
  /// write() does.
  bool read(void* dst, BufferAdapter& src, std::size_t src_offset, std::size_t size, bool async);

  /// Stops and joins the ring's thread. The owner calls it after waiting for its queue and
  /// before freeing the staging memory (the destructor calls it too; later calls do nothing).
  /// No write() or read() may run or follow.
  void stop() noexcept;

 private:
  // What a host function in the queue does (asynchronous transfers): see staging.cpp.
  enum class JobKind : std::uint8_t { gate, write_group, write_end, read_group };
  struct Job {
    StagingRing* ring = nullptr;
    JobKind kind = JobKind::gate;
    std::uint64_t piece = 0;  // the piece (or gate) it concerns
    std::uint64_t until = 0;  // write_group: fill up to here; read_group: the transfer's end
  };
  // An asynchronous transfer's host side, for the ring's thread.
  struct Task {
    std::byte* host = nullptr;  // the user's memory (const for a write)
    std::size_t size = 0;
    std::uint64_t first_piece = 0;
    std::uint64_t gate = 0;  // write: wait until this many gates have passed
    bool write = false;
  };
  static void run_job(void* job) noexcept;

  bool claim();
  /// Runs `transfer` holding the ring (false if another thread holds it); a failure marks
  /// the queue for draining before the next transfer.
  template <class Transfer>
  bool claimed(Transfer&& transfer);
  void drain();
  std::byte* next_slot(std::size_t& index) noexcept;
  std::byte* slot(std::uint64_t piece) const noexcept;
  Job& next_job();
  void launch_job(JobKind kind, std::uint64_t piece, std::uint64_t until);
  void post_task(const Task& task);
  void start_thread();
  void work() noexcept;
  void fill(const Task& task) noexcept;
  void empty(const Task& task) noexcept;
  // Waits until done(): spins, then sleeps on progress_. False if it gave up instead: on a
  // stop(), and for await(), once `piece` belongs to a failed transfer.
  template <class Done, class GivenUp>
  bool wait_until(Done&& done, GivenUp&& given_up) const noexcept;
  template <class Done>
  bool await(std::uint64_t piece, Done&& done) const noexcept;
  template <class Done>
  bool await_any(Done&& done) const noexcept;
  void signal(std::atomic<std::uint64_t>& counter, std::uint64_t value) noexcept;
  void mark_pieces(std::uint64_t first, std::uint64_t end);
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
  // A synchronous write's last DMAs may still read the slots (their marks say when they are
  // done): the next asynchronous write's thread waits for a gate before filling any.
  bool marks_pending_ = false;
  HostCopier* copier_ = nullptr;
  std::byte* slots_ = nullptr;  // slot_count * slot_size page-locked bytes, the queue's
  std::size_t next_slot_ = 0;
  std::array<Job, job_count> jobs_{};  // a ring
  std::uint64_t jobs_issued_ = 0;
  std::atomic<std::uint64_t> jobs_done_{0};

  // Asynchronous pieces are numbered across transfers; piece p uses slot p % slot_count.
  std::uint64_t pieces_issued_ = 0;
  std::uint64_t gates_issued_ = 0;
  std::atomic<std::uint64_t> released_{0};  // pieces before this one have left their slots
  std::atomic<std::uint64_t> filled_{0};    // write pieces before this one are in their slots
  std::atomic<std::uint64_t> landed_{0};    // read pieces before this one are in their slots
  std::atomic<std::uint64_t> gates_{0};     // gates passed
  // Waits for pieces from here on give up (a transfer failed); none while it is the maximum.
  std::atomic<std::uint64_t> abandon_from_{~std::uint64_t{0}};
  std::atomic<std::uint32_t> progress_{0};  // bumped by every signal; waiters sleep on it
  std::atomic<bool> stopping_{false};
  static_assert(slot_count % group_size == 0 && group_size > 0);

  std::array<Task, task_count> tasks_{};  // a ring, filled by the caller, emptied by the thread
  std::uint64_t tasks_posted_ = 0;        // the caller's count
  std::atomic<std::uint64_t> tasks_ready_{0};
  std::atomic<std::uint64_t> tasks_done_{0};
  std::thread thread_;
};

}  // namespace plinth::backend
