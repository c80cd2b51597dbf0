// <plinth/backend/staging.hpp>: the staging ring's pipelines, over a backend's StagingQueue.

#include <plinth/backend/staging.hpp>
#include <plinth/errors.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace plinth::backend {

namespace {

constexpr std::uint64_t never = ~std::uint64_t{0};
// How long a wait spins before it sleeps.
constexpr auto spin_time = std::chrono::microseconds(40);

// The chunks of a synchronous staged transfer start at first_chunk and double up to a slot:
// a small first chunk gets the DMA engine going while the copier's helpers wake, large ones
// keep the per-chunk costs low. A rest under half a chunk joins the last chunk.
std::size_t next_chunk(std::size_t previous, std::size_t left) noexcept {
  const std::size_t chunk =
      previous == 0 ? StagingRing::first_chunk : std::min(2 * previous, StagingRing::slot_size);
  return left < chunk + chunk / 2 ? std::min(left, StagingRing::slot_size) : chunk;
}

}  // namespace

StagingRing::StagingRing(StagingQueue& queue) noexcept : queue_(queue) {}

StagingRing::~StagingRing() { stop(); }

void StagingRing::stop() noexcept {
  if (!thread_.joinable()) return;
  stopping_.store(true, std::memory_order_release);
  progress_.fetch_add(1, std::memory_order_release);
  progress_.notify_all();
  thread_.join();
}

template <class Transfer>
bool StagingRing::claimed(Transfer&& transfer) {
  if (!claim()) return false;
  const std::uint64_t first_piece = pieces_issued_;
  try {
    transfer();
  } catch (...) {
    // Host functions and the ring's thread give up on the failed transfer's pieces (those
    // enqueued before it complete); the next transfer drains the queue first.
    abandon_from_.store(first_piece, std::memory_order_release);
    progress_.fetch_add(1, std::memory_order_release);
    progress_.notify_all();
    drain_ = true;
    busy_.store(false, std::memory_order_release);
    throw;
  }
  busy_.store(false, std::memory_order_release);
  return true;
}

bool StagingRing::write(BufferAdapter& dst, std::size_t dst_offset, const void* src,
                        std::size_t size, bool async) {
  if (size == 0) return true;
  const auto* from = static_cast<const std::byte*>(src);
  return claimed([&] {
    async ? write_staged_async(dst, dst_offset, from, size)
          : write_staged(dst, dst_offset, from, size);
  });
}

bool StagingRing::read(void* dst, BufferAdapter& src, std::size_t src_offset, std::size_t size,
                       bool async) {
  if (size == 0) return true;
  auto* to = static_cast<std::byte*>(dst);
  return claimed([&] {
    async ? read_staged_async(to, src, src_offset, size) : read_staged(to, src, src_offset, size);
  });
}

bool StagingRing::claim() {
  if (busy_.exchange(true, std::memory_order_acquire)) return false;
  if (slots_ && !drain_) return true;
  try {
    if (drain_) drain();
    if (!slots_) {  // the first staged transfer: allocate
      copier_ = &queue_.host_copier();
      slots_ = static_cast<std::byte*>(queue_.allocate_staging(slot_count * slot_size));
    }
    return true;
  } catch (...) {
    busy_.store(false, std::memory_order_release);
    throw;
  }
}

void StagingRing::drain() {
  // A transfer failed part way: DMAs and host functions it enqueued may still use slots whose
  // marks do not cover them, and the ring's thread may still hold tasks.
  queue_.synchronize();
  await_any([this] { return tasks_done_.load(std::memory_order_acquire) == tasks_posted_; });
  // Every piece issued so far is done with or abandoned: start counting afresh from there.
  released_.store(pieces_issued_, std::memory_order_relaxed);
  filled_.store(pieces_issued_, std::memory_order_relaxed);
  landed_.store(pieces_issued_, std::memory_order_relaxed);
  gates_.store(gates_issued_, std::memory_order_relaxed);
  abandon_from_.store(never, std::memory_order_release);
  marks_pending_ = false;
  drain_ = false;
}

std::byte* StagingRing::next_slot(std::size_t& index) noexcept {
  index = next_slot_;
  next_slot_ = (next_slot_ + 1) % slot_count;
  return slots_ + index * slot_size;
}

std::byte* StagingRing::slot(std::uint64_t piece) const noexcept {
  return slots_ + (piece % slot_count) * slot_size;
}

// ---- waiting and signalling -------------------------------------------------------------

template <class Done, class GivenUp>
bool StagingRing::wait_until(Done&& done, GivenUp&& given_up) const noexcept {
  // Spin first: a futex wake-up takes 15-50 us in a VM, a piece's DMA about 80.
  const auto spin_until = std::chrono::steady_clock::now() + spin_time;
  do {
    if (done()) return true;
    if (given_up()) return false;
  } while (std::chrono::steady_clock::now() < spin_until);
  for (;;) {
    const std::uint32_t seen = progress_.load(std::memory_order_acquire);
    if (done()) return true;
    if (given_up()) return false;
    progress_.wait(seen, std::memory_order_acquire);
  }
}

template <class Done>
bool StagingRing::await(std::uint64_t piece, Done&& done) const noexcept {
  return wait_until(std::forward<Done>(done), [&] {
    return piece >= abandon_from_.load(std::memory_order_acquire) ||
           stopping_.load(std::memory_order_acquire);
  });
}

template <class Done>
bool StagingRing::await_any(Done&& done) const noexcept {
  return wait_until(std::forward<Done>(done),
                    [&] { return stopping_.load(std::memory_order_acquire); });
}

void StagingRing::signal(std::atomic<std::uint64_t>& counter, std::uint64_t value) noexcept {
  counter.store(value, std::memory_order_release);
  progress_.fetch_add(1, std::memory_order_release);
  progress_.notify_all();
}

// ---- host functions -----------------------------------------------------------------------

StagingRing::Job& StagingRing::next_job() {
  while (jobs_issued_ - jobs_done_.load(std::memory_order_acquire) >= job_count) {
    // The ring is full: wait for the queue to run the oldest host functions.
    queue_.poll();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return jobs_[jobs_issued_ % job_count];
}

void StagingRing::launch_job(JobKind kind, std::uint64_t piece, std::uint64_t until) {
  Job& job = next_job();
  job = {this, kind, piece, until};
  queue_.launch_host_function(&StagingRing::run_job, &job);
  ++jobs_issued_;
}

void StagingRing::run_job(void* argument) noexcept {
  // Runs on the vendor's callback thread: no vendor calls allowed here. Waits only for the
  // ring's thread, which waits only for host functions enqueued before this one.
  const Job job = *static_cast<Job*>(argument);
  StagingRing& ring = *job.ring;
  switch (job.kind) {
    case JobKind::gate:  // the work before it, a synchronous write's DMAs among it, is done
      ring.signal(ring.gates_, job.piece);
      break;
    case JobKind::write_group:  // the DMAs before it are done; hold the queue until the
                                // group's slots are full
      ring.signal(ring.released_, job.piece);
      ring.await(job.piece,
                 [&] { return ring.filled_.load(std::memory_order_acquire) >= job.until; });
      break;
    case JobKind::write_end: ring.signal(ring.released_, job.piece); break;
    case JobKind::read_group:  // the group's DMAs are done; hold the queue until the slots
                               // the next group (or later work) needs are empty
      ring.signal(ring.landed_, job.piece);
      ring.await(job.piece - 1,
                 [&] { return ring.released_.load(std::memory_order_acquire) >= job.until; });
      break;
  }
  ring.jobs_done_.fetch_add(1, std::memory_order_release);
}

// ---- the ring's thread --------------------------------------------------------------------

void StagingRing::start_thread() {
  try {
    thread_ = std::thread(&StagingRing::work, this);
  } catch (const std::system_error& e) {
    throw OutOfMemoryError("plinth", "std::thread", 0, "THREAD",
                           std::string("cannot start the staging ring's thread: ") + e.what());
  }
}

void StagingRing::post_task(const Task& task) {
  if (!thread_.joinable()) start_thread();
  while (tasks_posted_ - tasks_done_.load(std::memory_order_acquire) >= task_count) {
    // Every task slot holds a transfer in flight: wait for the queue to progress.
    queue_.poll();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  tasks_[tasks_posted_ % task_count] = task;
  ++tasks_posted_;
  signal(tasks_ready_, tasks_posted_);
}

void StagingRing::work() noexcept {
  for (std::uint64_t next = 0;; ++next) {
    if (!await_any([&] { return tasks_ready_.load(std::memory_order_acquire) > next; }))
      return;  // stopping
    const Task task = tasks_[next % task_count];
    task.write ? fill(task) : empty(task);
    signal(tasks_done_, next + 1);
  }
}

void StagingRing::fill(const Task& task) noexcept {
  if (task.gate != 0 &&
      !await(task.first_piece, [&] { return gates_.load(std::memory_order_acquire) >= task.gate; }))
    return;
  copier_->wake(task.size);
  std::uint64_t piece = task.first_piece;
  for (std::size_t offset = 0; offset < task.size; offset += slot_size, ++piece) {
    // The slot's previous piece has left it.
    if (!await(piece,
               [&] { return released_.load(std::memory_order_acquire) + slot_count > piece; }))
      return;
    copier_->copy(slot(piece), task.host + offset, std::min(slot_size, task.size - offset));
    signal(filled_, piece + 1);
  }
}

void StagingRing::empty(const Task& task) noexcept {
  std::uint64_t piece = task.first_piece;
  for (std::size_t offset = 0; offset < task.size; offset += slot_size, ++piece) {
    if (!await(piece, [&] { return landed_.load(std::memory_order_acquire) > piece; })) return;
    copier_->copy(task.host + offset, slot(piece), std::min(slot_size, task.size - offset));
    signal(released_, piece + 1);
  }
}

// ---- the pipelines ------------------------------------------------------------------------

void StagingRing::write_staged(BufferAdapter& dst, std::size_t dst_offset, const std::byte* src,
                               std::size_t size) {
  std::size_t chunk = 0;
  for (std::size_t offset = 0; offset < size; offset += chunk) {
    chunk = next_chunk(chunk, size - offset);
    std::size_t slot = 0;
    std::byte* stage = next_slot(slot);
    queue_.wait_slot(slot);
    copier_->copy(stage, src + offset, chunk);
    queue_.write_async(dst, dst_offset + offset, stage, chunk);
    queue_.mark_slot(slot);
  }
  // `src` is no longer needed; the last DMAs may still read the slots (their marks cover
  // them for synchronous transfers, a gate for the next asynchronous write).
  marks_pending_ = true;
}

void StagingRing::mark_pieces(std::uint64_t first, std::uint64_t end) {
  for (std::uint64_t piece = first; piece < end && piece < first + slot_count; ++piece)
    queue_.mark_slot(piece % slot_count);
}

void StagingRing::write_staged_async(BufferAdapter& dst, std::size_t dst_offset,
                                     const std::byte* src, std::size_t size) {
  const std::uint64_t first = pieces_issued_;
  const std::uint64_t end = first + (size + slot_size - 1) / slot_size;
  Task task{const_cast<std::byte*>(src), size, first, 0, true};
  if (marks_pending_) {  // the slots are free once the work enqueued so far is done
    task.gate = ++gates_issued_;
    launch_job(JobKind::gate, task.gate, 0);
    marks_pending_ = false;
  }
  pieces_issued_ = end;  // from here on, a failure abandons them
  post_task(task);
  for (std::uint64_t group = first; group < end; group += group_size) {
    const std::uint64_t group_end = std::min(group + group_size, end);
    launch_job(JobKind::write_group, group, group_end);
    for (std::uint64_t piece = group; piece < group_end; ++piece) {
      const std::size_t offset = (piece - first) * slot_size;
      queue_.write_async(dst, dst_offset + offset, slot(piece), std::min(slot_size, size - offset));
    }
  }
  launch_job(JobKind::write_end, end, 0);
  mark_pieces(first, end);
}

void StagingRing::read_staged(std::byte* dst, BufferAdapter& src, std::size_t src_offset,
                              std::size_t size) {
  copier_->wake(size);  // ready when the first chunk lands
  // Up to slot_count chunks in flight, oldest first; the next one reuses the slot just emptied.
  struct Piece {
    std::size_t offset, size, slot;
  };
  std::array<Piece, slot_count> pieces{};
  std::size_t oldest = 0, in_flight = 0, issued = 0, chunk = 0;
  auto issue = [&] {
    chunk = next_chunk(chunk, size - issued);
    Piece& piece = pieces[(oldest + in_flight++) % slot_count];
    piece = {issued, chunk, 0};
    std::byte* stage = next_slot(piece.slot);
    queue_.read_async(stage, src, src_offset + issued, chunk);
    queue_.mark_slot(piece.slot);
    issued += chunk;
  };
  while (in_flight < slot_count && issued < size) issue();
  while (in_flight > 0) {
    const Piece piece = pieces[oldest];
    oldest = (oldest + 1) % slot_count;
    --in_flight;
    queue_.wait_slot(piece.slot);
    copier_->copy(dst + piece.offset, slots_ + piece.slot * slot_size, piece.size);
    if (issued < size) issue();
  }
  marks_pending_ = false;  // every mark reached
}

void StagingRing::read_staged_async(std::byte* dst, BufferAdapter& src, std::size_t src_offset,
                                    std::size_t size) {
  const std::uint64_t first = pieces_issued_;
  const std::uint64_t end = first + (size + slot_size - 1) / slot_size;
  pieces_issued_ = end;
  post_task({dst, size, first, 0, false});
  for (std::uint64_t group = first; group < end; group += group_size) {
    const std::uint64_t group_end = std::min(group + group_size, end);
    for (std::uint64_t piece = group; piece < group_end; ++piece) {
      const std::size_t offset = (piece - first) * slot_size;
      queue_.read_async(slot(piece), src, src_offset + offset, std::min(slot_size, size - offset));
    }
    // The next group reuses the slots of the pieces slot_count before it; after the last
    // group, everything must be in `dst` before later work.
    const std::uint64_t next_end = std::min(group_end + group_size, end);
    const std::uint64_t until =
        group_end == end ? end : (next_end > slot_count ? next_end - slot_count : 0);
    launch_job(JobKind::read_group, group_end, until);
  }
  mark_pieces(first, end);
}

}  // namespace plinth::backend
