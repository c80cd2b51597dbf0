// The SDK's staging ring (<plinth/backend/staging.hpp>) over a fake in-order queue on host
// memory: the pipelines, the slot and job rings and the error paths, without a GPU.

#include <plinth/backend/staging.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace plinth::backend {
namespace staging_test {
namespace {

constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;
constexpr std::size_t slot_size = StagingRing::slot_size;
constexpr std::size_t slot_count = StagingRing::slot_count;

// `size` bytes that depend on `seed` and on their position, none of them zero.
std::vector<std::byte> pattern(std::size_t size, std::uint64_t seed) {
  std::vector<std::byte> bytes(size);
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
  for (std::size_t i = 0; i < size; i += 8) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint64_t word = x | 0x0101010101010101ULL;  // odd bytes
    std::memcpy(bytes.data() + i, &word, std::min<std::size_t>(8, size - i));
  }
  return bytes;
}

// The index of the first of `size` bytes where `a` and `b` differ, or `size` if none does.
std::size_t first_difference(const std::byte* a, const std::byte* b, std::size_t size) {
  if (std::memcmp(a, b, size) == 0) return size;
  std::size_t i = 0;
  while (a[i] == b[i]) ++i;
  return i;
}

bool all_zero(const std::byte* bytes, std::size_t size) {
  static constexpr std::array<std::byte, 4096> zeros{};
  for (std::size_t i = 0; i < size; i += zeros.size())
    if (std::memcmp(bytes + i, zeros.data(), std::min(zeros.size(), size - i)) != 0) return false;
  return true;
}

// Device memory: bytes on the host.
class FakeBuffer final : public BufferAdapter {
 public:
  explicit FakeBuffer(std::size_t size) : bytes_(size) {}
  std::size_t size() const override { return bytes_.size(); }
  std::unique_ptr<BufferAdapter> sub_region(std::size_t /*origin*/, std::size_t /*size*/) override {
    return nullptr;  // the ring never asks
  }
  ArgValue kernel_arg() const override { return {bytes_.data(), bytes_.size()}; }
  NativeHandle native_handle() const override {
    return reinterpret_cast<NativeHandle>(bytes_.data());
  }
  std::byte* data() { return bytes_.data(); }

 private:
  std::vector<std::byte> bytes_;
};

// What a FakeQueue can be told to fail.
enum class Call { allocate, write, read, mark, wait, launch, poll, synchronize, count };

const char* name(Call call) {
  static constexpr std::array<const char*, static_cast<std::size_t>(Call::count)> names{
      "fakeAllocate", "fakeWrite",  "fakeRead", "fakeMark",
      "fakeWait",     "fakeLaunch", "fakePoll", "fakeSynchronize"};
  return names.at(static_cast<std::size_t>(call));
}

// An in-order queue on host memory. DMAs are memcpy, host functions run in queue order, marks
// are positions in the queue. It checks what the ring promises: every DMA stays inside one
// slot, and a slot is never written on the host while a DMA of it is pending (checked when
// the synchronous pipeline enqueues the DMA that follows its host-side copy, i.e. one not in
// the run of DMAs after a host function, which the ring's thread filled; the tests check the
// asynchronous writes' data instead). A deferring queue runs work only when the ring waits:
// wait_slot() and synchronize() run it up to what they wait for, poll() runs a single step. A
// threaded one runs it on a worker thread as soon as it is enqueued, as a GPU does.
class FakeQueue final : public StagingQueue {
 public:
  enum class Mode { deferred, threaded };

  FakeQueue(HostCopier& copier, Mode mode) : copier_(copier), mode_(mode) {
    if (mode_ == Mode::threaded) worker_ = std::thread(&FakeQueue::work, this);
  }
  ~FakeQueue() {
    drain();
    if (worker_.joinable()) {
      {
        const std::lock_guard lock(mutex_);
        stop_ = true;
      }
      changed_.notify_all();
      worker_.join();
    }
    std::free(memory_);
  }
  FakeQueue(const FakeQueue&) = delete;
  FakeQueue& operator=(const FakeQueue&) = delete;

  // The next `nth` call of `call` throws BackendError (1: the next one).
  void fail(Call call, int nth) { fail_in_.at(static_cast<std::size_t>(call)) = nth; }
  // Runs at the start of every wait_slot(), before it waits.
  std::function<void()> on_wait;

  Mode mode() const { return mode_; }
  // Runs everything enqueued; never fails.
  void drain() {
    run_until(locked([this] { return enqueued_; }));
  }
  std::size_t pending() {
    return locked([this] { return static_cast<std::size_t>(enqueued_ - done_); });
  }
  std::vector<std::string> violations() {
    return locked([this] { return violations_; });
  }
  std::size_t host_functions() {
    return locked([this] { return host_functions_; });
  }
  // The staging memory (the slots), null before the first staged transfer.
  const std::byte* staging() const { return static_cast<const std::byte*>(memory_); }
  std::size_t max_host_functions_pending() {
    return locked([this] { return max_host_pending_; });
  }
  // The sizes of the DMAs to the device, in order.
  std::vector<std::size_t> write_sizes() {
    return locked([this] { return write_sizes_; });
  }
  int allocations() const { return allocations_; }
  int copier_calls() const { return copier_calls_; }
  int waits() const { return waits_; }
  int polls() const { return polls_; }

  // StagingQueue
  HostCopier& host_copier() override {
    ++copier_calls_;
    return copier_;
  }
  void* allocate_staging(std::size_t size) override {
    fail_if(Call::allocate);
    ++allocations_;
    EXPECT_EQ(size, slot_count * slot_size);
    EXPECT_EQ(memory_, nullptr) << "allocate_staging after it succeeded";
    memory_ = std::aligned_alloc(4096, size);  // the fake's page-locked memory
    size_ = size;
    return memory_;
  }
  void write_async(BufferAdapter& dst, std::size_t dst_offset, const void* stage,
                   std::size_t size) override {
    fail_if(Call::write);
    const std::size_t slot = slot_of(stage, size);
    auto* to = static_cast<FakeBuffer&>(dst).data() + dst_offset;
    EXPECT_LE(dst_offset + size, dst.size());
    const std::lock_guard lock(mutex_);
    if (!after_host_function_ && dma_pending_[slot] > 0)
      violations_.push_back("slot " + std::to_string(slot) + " written while a DMA is pending");
    write_sizes_.push_back(size);
    enqueue([to, stage, size] { std::memcpy(to, stage, size); }, slot, false);
  }
  void read_async(void* stage, BufferAdapter& src, std::size_t src_offset,
                  std::size_t size) override {
    fail_if(Call::read);
    const std::size_t slot = slot_of(stage, size);
    const auto* from = static_cast<FakeBuffer&>(src).data() + src_offset;
    EXPECT_LE(src_offset + size, src.size());
    const std::lock_guard lock(mutex_);
    enqueue([stage, from, size] { std::memcpy(stage, from, size); }, slot, false);
  }
  void mark_slot(std::size_t slot) override {
    fail_if(Call::mark);
    EXPECT_LT(slot, slot_count);
    const std::lock_guard lock(mutex_);
    marks_.at(slot) = enqueued_;
    after_host_function_ = false;
  }
  void wait_slot(std::size_t slot) override {
    fail_if(Call::wait);
    ++waits_;
    if (on_wait) on_wait();
    run_until(locked([&] { return marks_.at(slot); }));
  }
  void launch_host_function(void (*function)(void*) noexcept, void* argument) override {
    fail_if(Call::launch);
    const std::lock_guard lock(mutex_);
    enqueue([function, argument] { function(argument); }, no_slot, true);
  }
  void poll() override {
    fail_if(Call::poll);
    ++polls_;
    if (mode_ == Mode::deferred) run_one();
  }
  void synchronize() override {
    fail_if(Call::synchronize);
    drain();
  }

 private:
  static constexpr std::size_t no_slot = slot_count;

  struct Op {
    std::function<void()> run;
    std::size_t slot = no_slot;  // of a DMA
    bool host_function = false;
  };

  template <class F>
  std::invoke_result_t<F> locked(F f) {
    const std::lock_guard lock(mutex_);
    return f();
  }

  void fail_if(Call call) {
    int& left = fail_in_.at(static_cast<std::size_t>(call));
    if (left > 0 && --left == 0) throw BackendError("Fake", name(call), 1, "FAKE_FAILED");
  }

  // The slot a DMA of `size` bytes at `stage` uses; a failure unless it lies inside one.
  std::size_t slot_of(const void* stage, std::size_t size) {
    const auto at = reinterpret_cast<std::uintptr_t>(stage);
    const auto base = reinterpret_cast<std::uintptr_t>(memory_);
    if (memory_ == nullptr || at < base || at >= base + size_) {
      ADD_FAILURE() << "a DMA outside the staging memory";
      return 0;
    }
    const std::size_t slot = (at - base) / slot_size;
    EXPECT_GT(size, 0u);
    EXPECT_LE(at + size, base + (slot + 1) * slot_size) << "a DMA across a slot's end";
    return slot;
  }

  // With mutex_ held.
  void enqueue(std::function<void()> run, std::size_t slot, bool host_function) {
    pending_.push_back({std::move(run), slot, host_function});
    ++enqueued_;
    if (slot != no_slot) ++dma_pending_.at(slot);
    if (host_function) {
      max_host_pending_ = std::max(max_host_pending_, ++host_pending_);
      ++host_functions_;
      after_host_function_ = true;
    }
    changed_.notify_all();
  }

  // With mutex_ held by `lock`; runs the oldest step without it.
  void run_front(std::unique_lock<std::mutex>& lock) {
    Op op = std::move(pending_.front());
    pending_.pop_front();
    lock.unlock();
    op.run();
    lock.lock();
    ++done_;
    if (op.slot != no_slot) --dma_pending_.at(op.slot);
    if (op.host_function) --host_pending_;
    changed_.notify_all();
  }

  void run_one() {
    std::unique_lock lock(mutex_);
    if (!pending_.empty()) run_front(lock);
  }

  void run_until(std::uint64_t target) {
    std::unique_lock lock(mutex_);
    if (mode_ == Mode::threaded) {
      changed_.wait(lock, [&] { return done_ >= target; });
      return;
    }
    while (done_ < target) run_front(lock);
  }

  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stop_ || !pending_.empty(); });
      if (pending_.empty()) return;  // stopping
      run_front(lock);
    }
  }

  HostCopier& copier_;
  const Mode mode_;
  void* memory_ = nullptr;
  std::size_t size_ = 0;
  std::array<int, static_cast<std::size_t>(Call::count)> fail_in_{};
  int allocations_ = 0, copier_calls_ = 0, waits_ = 0, polls_ = 0;

  std::mutex mutex_;  // guards what follows
  std::condition_variable changed_;
  std::deque<Op> pending_;
  std::uint64_t enqueued_ = 0, done_ = 0;
  std::array<std::uint64_t, slot_count> marks_{};  // 0: never marked, so complete
  std::array<int, slot_count> dma_pending_{};
  std::size_t host_pending_ = 0, max_host_pending_ = 0;
  bool after_host_function_ = false;
  std::size_t host_functions_ = 0;
  std::vector<std::size_t> write_sizes_;
  std::vector<std::string> violations_;
  bool stop_ = false;
  std::thread worker_;
};

// A ring over a fake queue. The queue runs the ring's host functions before the ring goes.
struct Rig {
  explicit Rig(FakeQueue::Mode mode = FakeQueue::Mode::deferred) : queue(copier, mode) {}
  ~Rig() { queue.drain(); }
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;

  HostCopier copier{4};  // helpers even on a machine of 2 cores
  FakeQueue queue;
  StagingRing ring{queue};
};

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

// Writes `size` bytes between untouched margins of a new buffer and reads them back, checking
// at each step that synchronous calls are complete on return and that, on a deferring queue,
// asynchronous ones have done nothing before synchronize().
void round_trip(Rig& rig, std::size_t size, bool async, std::uint64_t seed) {
  SCOPED_TRACE(::testing::Message() << size << " bytes, " << (async ? "async" : "sync"));
  const bool deferred = rig.queue.mode() == FakeQueue::Mode::deferred;
  const std::size_t margin = 5;
  FakeBuffer buffer(size + 2 * margin);
  const auto src = pattern(size, seed);
  auto scratch = src;  // the caller's memory

  ASSERT_TRUE(rig.ring.write(buffer, margin, scratch.data(), size, async));
  if (async) {
    if (deferred) {
      EXPECT_TRUE(all_zero(buffer.data(), buffer.size())) << "written before synchronize";
    }
  } else {
    // Returned once the data left the caller's memory, which the caller may now reuse; the
    // DMAs may still be pending.
    std::fill(scratch.begin(), scratch.end(), std::byte{0x5a});
  }
  rig.queue.synchronize();
  EXPECT_EQ(first_difference(buffer.data() + margin, src.data(), size), size);
  EXPECT_TRUE(all_zero(buffer.data(), margin));
  EXPECT_TRUE(all_zero(buffer.data() + margin + size, margin));

  std::vector<std::byte> dst(size + 1, std::byte{0});
  ASSERT_TRUE(rig.ring.read(dst.data(), buffer, margin, size, async));
  if (async) {
    if (deferred) {
      EXPECT_TRUE(all_zero(dst.data(), dst.size())) << "read before synchronize";
    }
    rig.queue.synchronize();
  }
  EXPECT_EQ(first_difference(dst.data(), src.data(), size), size);
  EXPECT_EQ(dst[size], std::byte{0});
  EXPECT_TRUE(rig.queue.violations().empty()) << joined(rig.queue.violations());
}

const std::vector<std::size_t> sizes{
    1,           32 * KiB, 128 * KiB - 1, 128 * KiB,    128 * KiB + 1,
    4 * MiB - 1, 4 * MiB,  4 * MiB + 1,   16 * MiB + 3, 40 * MiB};

TEST(StagingRing, RoundTripsSynchronously) {
  Rig rig;
  std::uint64_t seed = 1;
  for (std::size_t size : sizes) round_trip(rig, size, false, seed++);
  EXPECT_EQ(rig.queue.allocations(), 1);
  EXPECT_EQ(rig.queue.copier_calls(), 1);
  EXPECT_EQ(rig.queue.polls(), 0);
}

TEST(StagingRing, RoundTripsAsynchronouslyWithoutWaiting) {
  Rig rig;
  std::uint64_t seed = 100;
  for (std::size_t size : sizes) round_trip(rig, size, true, seed++);
  EXPECT_EQ(rig.queue.waits(), 0);  // asynchronous transfers never wait for the queue
  EXPECT_EQ(rig.queue.polls(), 0);
}

TEST(StagingRing, RoundTripsWithAWorkerThread) {
  Rig rig(FakeQueue::Mode::threaded);
  std::uint64_t seed = 200;
  for (int round = 0; round < 2; ++round)
    for (std::size_t size : sizes) {
      round_trip(rig, size, false, seed++);
      round_trip(rig, size, true, seed++);
    }
}

// Synchronous chunks start at 128 KiB and double up to a slot, a rest under half a chunk
// joining the last; asynchronous pieces are whole slots.
TEST(StagingRing, CutsTransfersIntoTheChunkSchedule) {
  auto chunks = [](std::size_t size, bool async) {
    Rig rig;
    FakeBuffer buffer(size);
    const auto src = pattern(size, size);
    EXPECT_TRUE(rig.ring.write(buffer, 0, src.data(), size, async));
    rig.queue.drain();
    return rig.queue.write_sizes();
  };
  using Sizes = std::vector<std::size_t>;
  EXPECT_EQ(chunks(1, false), Sizes{1});
  EXPECT_EQ(chunks(128 * KiB + 1, false), Sizes{128 * KiB + 1});
  EXPECT_EQ(chunks(200 * KiB, false), (Sizes{128 * KiB, 72 * KiB}));
  EXPECT_EQ(chunks(4 * MiB + 1, false),  // the last 128 KiB + 1 join the 2 MiB chunk
            (Sizes{128 * KiB, 256 * KiB, 512 * KiB, 1 * MiB, 2 * MiB + 128 * KiB + 1}));
  EXPECT_EQ(chunks(13 * MiB, false), (Sizes{128 * KiB, 256 * KiB, 512 * KiB, 1 * MiB, 2 * MiB,
                                            4 * MiB, 4 * MiB, MiB + 128 * KiB}));
  EXPECT_EQ(chunks(9 * MiB + 5, true), (Sizes{4 * MiB, 4 * MiB, MiB + 5}));
}

// Queue order holds across transfers of both kinds: an asynchronous write then read of the
// same bytes, then synchronous ones that reuse the slots the queued work still needs.
TEST(StagingRing, KeepsQueueOrderAcrossTransfers) {
  for (auto mode : {FakeQueue::Mode::deferred, FakeQueue::Mode::threaded}) {
    Rig rig(mode);
    const std::size_t size = 16 * MiB + 3;
    FakeBuffer buffer(size);
    const auto a = pattern(size, 1);
    const auto b = pattern(size, 2);
    std::vector<std::byte> read_a(size), read_b(size), read_b_again(size);
    ASSERT_TRUE(rig.ring.write(buffer, 0, a.data(), size, true));
    ASSERT_TRUE(rig.ring.read(read_a.data(), buffer, 0, size, true));
    ASSERT_TRUE(rig.ring.write(buffer, 0, b.data(), size, false));
    EXPECT_EQ(first_difference(read_a.data(), a.data(), size), size);
    ASSERT_TRUE(rig.ring.read(read_b.data(), buffer, 0, size, false));
    EXPECT_EQ(first_difference(read_b.data(), b.data(), size), size);
    ASSERT_TRUE(rig.ring.read(read_b_again.data(), buffer, 0, size, true));
    ASSERT_TRUE(rig.ring.write(buffer, 0, a.data(), size, false));  // after the read, in order
    rig.queue.synchronize();
    EXPECT_EQ(first_difference(read_b_again.data(), b.data(), size), size);
    EXPECT_EQ(first_difference(buffer.data(), a.data(), size), size);
    EXPECT_TRUE(rig.queue.violations().empty()) << joined(rig.queue.violations());
  }
}

// The fake's check that the tests below rely on: a slot written again while its DMA is
// pending is reported.
TEST(StagingRing, FakeQueueReportsASlotWrittenWhileItsDMAIsPending) {
  HostCopier copier(4);  // helpers even on a machine of 2 cores
  FakeQueue queue(copier, FakeQueue::Mode::deferred);
  auto* stage = static_cast<std::byte*>(queue.allocate_staging(slot_count * slot_size));
  FakeBuffer buffer(16);
  queue.write_async(buffer, 0, stage + slot_size, 8);  // slot 1
  queue.mark_slot(1);
  queue.write_async(buffer, 8, stage + slot_size + 8, 8);  // again, without waiting
  EXPECT_EQ(queue.violations().size(), 1u);
  queue.wait_slot(1);
  queue.write_async(buffer, 0, stage + slot_size, 8);  // the first DMA is done now, the second not
  EXPECT_EQ(queue.violations().size(), 2u);
  queue.drain();
}

TEST(StagingRing, WritesASlotOnlyAfterWaitingForIt) {
  Rig rig;
  const std::size_t size = 40 * MiB;
  FakeBuffer buffer(size);
  const auto src = pattern(size, 3);
  ASSERT_TRUE(rig.ring.write(buffer, 0, src.data(), size, false));
  const std::size_t chunks = rig.queue.write_sizes().size();
  EXPECT_GE(rig.queue.waits(), static_cast<int>(chunks));  // one wait per chunk
  std::vector<std::byte> dst(size);
  ASSERT_TRUE(rig.ring.read(dst.data(), buffer, 0, size, false));
  EXPECT_EQ(first_difference(dst.data(), src.data(), size), size);
  EXPECT_TRUE(rig.queue.violations().empty()) << joined(rig.queue.violations());
}

// Each asynchronous transfer takes a task (for the ring's thread) until its host side is done;
// with all task_count in flight, the next one polls the queue until one is free.
TEST(StagingRing, WaitsForTheQueueWhenTheTaskRingIsFull) {
  Rig rig;  // deferring: the queue runs one step per poll
  const std::size_t count = 2 * StagingRing::job_count + 7;
  FakeBuffer buffer(count);
  const auto src = pattern(count, 4);
  for (std::size_t i = 0; i < count; ++i)  // a job each, one byte at a time
    ASSERT_TRUE(rig.ring.write(buffer, i, src.data() + i, 1, true));
  EXPECT_GT(rig.queue.polls(), 0);
  EXPECT_LE(rig.queue.max_host_functions_pending(), StagingRing::job_count);
  EXPECT_GT(rig.queue.pending(), 0u);
  std::vector<std::byte> dst(count);
  for (std::size_t i = 0; i < count; ++i)
    ASSERT_TRUE(rig.ring.read(dst.data() + i, buffer, i, 1, true));
  EXPECT_LE(rig.queue.max_host_functions_pending(), StagingRing::job_count);
  rig.queue.synchronize();
  EXPECT_EQ(first_difference(buffer.data(), src.data(), count), count);
  EXPECT_EQ(first_difference(dst.data(), src.data(), count), count);
}

// Host functions' arguments come from a ring of job_count: transfers of many pieces (a host
// function per group_size pieces, one more at the end) fill it before the task ring.
TEST(StagingRing, WaitsForTheQueueWhenTheJobRingIsFull) {
  Rig rig;  // deferring: the queue runs one step per poll
  const std::size_t pieces = 4 * StagingRing::group_size + 1;
  const std::size_t size = pieces * slot_size;
  const std::size_t jobs = (pieces + StagingRing::group_size - 1) / StagingRing::group_size + 1;
  const std::size_t count = StagingRing::job_count / jobs + 2;
  ASSERT_LT(count, StagingRing::task_count);
  FakeBuffer buffer(size);
  const auto src = pattern(size, 13);
  for (std::size_t i = 0; i < count; ++i)
    ASSERT_TRUE(rig.ring.write(buffer, 0, src.data(), size, true));
  EXPECT_GT(rig.queue.polls(), 0);
  EXPECT_LE(rig.queue.max_host_functions_pending(), StagingRing::job_count);
  rig.queue.synchronize();
  EXPECT_EQ(rig.queue.host_functions(), count * jobs);
  EXPECT_EQ(first_difference(buffer.data(), src.data(), size), size);
}

// An asynchronous write takes a host function per group_size pieces and one at the end; a
// read one per group.
TEST(StagingRing, LaunchesAHostFunctionPerGroupOfPieces) {
  Rig rig;
  const std::size_t size = 9 * slot_size + 1;  // 10 pieces
  FakeBuffer buffer(size);
  const auto src = pattern(size, 14);
  ASSERT_TRUE(rig.ring.write(buffer, 0, src.data(), size, true));
  EXPECT_EQ(rig.queue.host_functions(), 10 / StagingRing::group_size + 1);
  std::vector<std::byte> dst(size);
  ASSERT_TRUE(rig.ring.read(dst.data(), buffer, 0, size, true));
  EXPECT_EQ(rig.queue.host_functions(), 2 * (10 / StagingRing::group_size) + 1);
  rig.queue.synchronize();
  EXPECT_EQ(first_difference(dst.data(), src.data(), size), size);
}

// The ring's thread fills the slots of an asynchronous write ahead of the queue (so its copies
// overlap the DMAs before them), up to every slot, without the queue running anything.
TEST(StagingRing, FillsSlotsAheadOfTheQueue) {
  Rig rig;  // deferring: nothing runs until synchronize()
  const std::size_t size = (slot_count + 2) * slot_size;
  FakeBuffer buffer(size);
  const auto src = pattern(size, 15);
  ASSERT_TRUE(rig.ring.write(buffer, 0, src.data(), size, true));
  const std::size_t pending = rig.queue.pending();
  bool filled = false;
  for (int i = 0; i < 5000 && !filled; ++i) {
    // (memcmp alone: the ring's thread may be writing the slots meanwhile)
    filled = std::memcmp(rig.queue.staging(), src.data(), slot_count * slot_size) == 0;
    if (!filled) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(filled) << "the first slot_count pieces never reached the slots";
  EXPECT_EQ(rig.queue.pending(), pending);  // nothing ran meanwhile
  EXPECT_TRUE(all_zero(buffer.data(), size));
  rig.queue.synchronize();
  EXPECT_EQ(first_difference(buffer.data(), src.data(), size), size);
}

// A synchronous write returns before its last DMAs; an asynchronous write after it must not
// fill the slots those DMAs still read (the ring's thread waits for a gate in the queue).
TEST(StagingRing, AsynchronousWriteWaitsForASynchronousWritesDMAs) {
  for (auto mode : {FakeQueue::Mode::deferred, FakeQueue::Mode::threaded}) {
    Rig rig(mode);
    const std::size_t size = 3 * slot_size + 5;
    FakeBuffer first(size), second(size);
    const auto a = pattern(size, 16);
    const auto b = pattern(size, 17);
    ASSERT_TRUE(rig.ring.write(first, 0, a.data(), size, false));
    if (mode == FakeQueue::Mode::deferred) {
      EXPECT_GT(rig.queue.pending(), 0u) << "a synchronous write waited for its DMAs";
    }
    ASSERT_TRUE(rig.ring.write(second, 0, b.data(), size, true));
    // Time for the ring's thread to fill the slots, were it not waiting for the gate.
    if (mode == FakeQueue::Mode::deferred)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    rig.queue.synchronize();
    EXPECT_EQ(first_difference(first.data(), a.data(), size), size);
    EXPECT_EQ(first_difference(second.data(), b.data(), size), size);
  }
}

TEST(StagingRing, ReturnsFalseWhileAnotherTransferHasIt) {
  Rig rig;
  FakeBuffer buffer(2 * MiB);
  const auto src = pattern(2 * MiB, 5);
  std::vector<std::byte> dst(2 * MiB);
  int tries = 0;
  // A transfer that reaches the ring while this one waits (as one from another thread would).
  rig.queue.on_wait = [&] {
    if (tries++ > 0) return;
    EXPECT_FALSE(rig.ring.write(buffer, 0, src.data(), 2 * MiB, false));
    EXPECT_FALSE(rig.ring.read(dst.data(), buffer, 0, 2 * MiB, true));
  };
  ASSERT_TRUE(rig.ring.write(buffer, 0, src.data(), 2 * MiB, false));
  EXPECT_GT(tries, 0);
  rig.queue.on_wait = nullptr;
  EXPECT_TRUE(all_zero(dst.data(), dst.size()));
  round_trip(rig, 2 * MiB, false, 6);  // free again
}

TEST(StagingRing, DoesNothingForZeroBytes) {
  Rig rig;
  FakeBuffer buffer(1);
  std::byte byte{};
  EXPECT_TRUE(rig.ring.write(buffer, 0, &byte, 0, false));
  EXPECT_TRUE(rig.ring.read(&byte, buffer, 0, 0, true));
  EXPECT_EQ(rig.queue.allocations(), 0);
  EXPECT_EQ(rig.queue.pending(), 0u);
}

// A vendor failure at any step reaches the caller; the ring is free again, and works.
struct Failure {
  Call call;
  int nth;  // the nth call of it fails
  bool write;
  bool async;
};

void PrintTo(const Failure& f, std::ostream* out) {
  *out << name(f.call) << " #" << f.nth << (f.write ? " in a write" : " in a read")
       << (f.async ? ", async" : ", sync");
}

std::string failure_name(const ::testing::TestParamInfo<Failure>& info) {
  const Failure& f = info.param;
  return std::string(name(f.call)) + std::to_string(f.nth) + (f.write ? "Write" : "Read") +
         (f.async ? "Async" : "Sync");
}

class StagingRingFailure : public ::testing::TestWithParam<Failure> {};

TEST_P(StagingRingFailure, PassesTheErrorOnAndStaysUsable) {
  const Failure& f = GetParam();
  Rig rig;
  const std::size_t size = 16 * MiB + 3;
  FakeBuffer buffer(size);  // outlives the work the failed transfer left in the queue
  const auto src = pattern(size, 7);
  std::vector<std::byte> dst(size);
  if (!f.write) {
    ASSERT_TRUE(rig.ring.write(buffer, 0, src.data(), size, false));  // the data to read
  }
  rig.queue.fail(f.call, f.nth);
  try {
    if (f.write)
      rig.ring.write(buffer, 0, src.data(), size, f.async);
    else
      rig.ring.read(dst.data(), buffer, 0, size, f.async);
    ADD_FAILURE() << "nothing thrown";
  } catch (const BackendError& e) {
    EXPECT_EQ(e.call(), name(f.call));
  }
  round_trip(rig, size, false, 8);
  round_trip(rig, size, true, 9);
  EXPECT_EQ(rig.queue.allocations(), 1);
}

INSTANTIATE_TEST_SUITE_P(
    EveryStep, StagingRingFailure,
    ::testing::Values(Failure{Call::allocate, 1, true, false}, Failure{Call::write, 3, true, false},
                      Failure{Call::write, 2, true, true}, Failure{Call::read, 2, false, false},
                      Failure{Call::read, 3, false, true}, Failure{Call::mark, 3, true, false},
                      Failure{Call::mark, 2, false, false}, Failure{Call::mark, 2, true, true},
                      Failure{Call::mark, 2, false, true}, Failure{Call::wait, 3, true, false},
                      Failure{Call::wait, 2, false, false}, Failure{Call::launch, 2, true, true},
                      Failure{Call::launch, 2, false, true}),
    failure_name);

// A failure while the ring waits for a full task ring, and one of the synchronization with
// which the next transfer clears up after a failed one.
TEST(StagingRing, PassesOnAFailedPollAndAFailedCleanUp) {
  Rig rig;
  const std::size_t count = StagingRing::job_count + 1;
  FakeBuffer buffer(count);
  const auto src = pattern(count, 11);
  rig.queue.fail(Call::poll, 1);
  std::size_t i = 0;
  try {
    for (; i < count; ++i) rig.ring.write(buffer, i, src.data() + i, 1, true);
    ADD_FAILURE() << "nothing thrown";
  } catch (const BackendError& e) {
    EXPECT_EQ(e.call(), "fakePoll");
  }
  // The task ring was full then: task_count transfers in flight, plus those whose slots the
  // ring's thread had filled before the queue ran anything (at most slot_count, depending on
  // how fast that thread was).
  EXPECT_GE(i, StagingRing::task_count);
  EXPECT_LE(i, StagingRing::task_count + slot_count);
  rig.queue.fail(Call::synchronize, 1);
  EXPECT_THROW(rig.ring.write(buffer, 0, src.data(), 1, true), BackendError);
  // Nothing ran, nothing was added: each write left a host function, its DMA and another.
  EXPECT_EQ(rig.queue.pending(), 3 * i);
  round_trip(rig, 4 * MiB + 1, false, 12);
  EXPECT_EQ(first_difference(buffer.data(), src.data(), i), i);
}

}  // namespace
}  // namespace staging_test
}  // namespace plinth::backend
