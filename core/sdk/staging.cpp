// <plinth/backend/staging.hpp>: the staging ring's pipelines, over a backend's StagingQueue.

#include <plinth/backend/staging.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

namespace plinth::backend {

namespace {

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

template <class Transfer>
bool StagingRing::claimed(Transfer&& transfer) {
  if (!claim()) return false;
  try {
    transfer();
  } catch (...) {
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
    if (drain_) {
      // A transfer failed part way: DMAs and host functions it enqueued may still use slots
      // whose marks do not cover them.
      queue_.synchronize();
      drain_ = false;
    }
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

std::byte* StagingRing::next_slot(std::size_t& index) noexcept {
  index = next_slot_;
  next_slot_ = (next_slot_ + 1) % slot_count;
  return slots_ + index * slot_size;
}

StagingRing::Job& StagingRing::next_job() {
  while (jobs_issued_ - jobs_done_.load(std::memory_order_acquire) >= job_count) {
    // The ring is full: wait for the queue to run the oldest host functions.
    queue_.poll();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return jobs_[jobs_issued_ % job_count];
}

void StagingRing::launch_job(Job& job) {
  job.ring = this;
  queue_.launch_host_function(&StagingRing::run_job, &job);
  ++jobs_issued_;
}

void StagingRing::run_job(void* argument) noexcept {
  // Runs on the vendor's callback thread: no vendor calls allowed here.
  auto& job = *static_cast<Job*>(argument);
  job.ring->copier_->copy(job.dst, job.src, job.size);
  job.ring->jobs_done_.fetch_add(1, std::memory_order_release);
}

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
  queue_.synchronize();
}

void StagingRing::write_staged_async(BufferAdapter& dst, std::size_t dst_offset,
                                     const std::byte* src, std::size_t size) {
  for (std::size_t offset = 0; offset < size; offset += slot_size) {
    const std::size_t length = std::min(slot_size, size - offset);
    std::size_t slot = 0;
    std::byte* stage = next_slot(slot);
    Job& job = next_job();
    job = {stage, src + offset, length, this};
    launch_job(job);
    queue_.write_async(dst, dst_offset + offset, stage, length);
    queue_.mark_slot(slot);
  }
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
}

void StagingRing::read_staged_async(std::byte* dst, BufferAdapter& src, std::size_t src_offset,
                                    std::size_t size) {
  for (std::size_t offset = 0; offset < size; offset += slot_size) {
    const std::size_t length = std::min(slot_size, size - offset);
    std::size_t slot = 0;
    std::byte* stage = next_slot(slot);
    queue_.read_async(stage, src, src_offset + offset, length);
    Job& job = next_job();
    job = {dst + offset, stage, length, this};
    launch_job(job);
    queue_.mark_slot(slot);
  }
}

}  // namespace plinth::backend
