// What a queue's work still uses, on hostdeferred (host_backend.cpp with HOST_DEFERRED), whose
// queues run transfers later, as a device does: a blocking write returns once its source is
// staged, with the write and the queue's earlier work still to run. So a blocking write must
// neither release the host arrays that earlier asynchronous transfers keep, nor tell the
// memory pool that the queue is idle (only synchronize() and blocking reads do).

#include <plinth/plinth.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace plinth {
namespace host_transfer_order_test {
namespace {

// Only the deferred host backend (set before the first test loads the plugins).
[[maybe_unused]] const bool only_deferred_backend = [] {
  setenv("PLINTH_API", "hostdeferred", 1);
  return true;
}();

/// A blocking write of `bytes` to the start of `dst` through `queue`, the way GetParam() names.
void blocking_write(const std::string& how, const Queue& queue, const Buffer& dst,
                    const std::vector<std::byte>& bytes) {
  if (how == "BufferSet") {
    dst.get_sub_region(0, bytes.size()).set(queue, bytes, true);
  } else if (how == "ArraySet") {
    const auto array = Array::from_buffer(dst, ArrayMetadata({bytes.size()}, DType::uint8()));
    array.set(queue, HostArray::from_bytes(bytes, {bytes.size()}, DType::uint8()), true);
  } else {
    write_rect(queue, dst, {}, bytes, {}, {bytes.size(), 1, 1}, true);
  }
}

class HostTransferOrder : public testing::TestWithParam<const char*> {
 protected:
  HostTransferOrder() {
    const auto api = API::from_api_id(APIID{"hostdeferred"});
    context_.emplace(Context::from_devices({Device::all(Platform::all(api).at(0)).at(0)}));
    a_.emplace(context_->devices()[0]);
    b_.emplace(context_->devices()[0]);
  }
  const Context& context() const { return *context_; }
  const Queue& a() const { return *a_; }
  const Queue& b() const { return *b_; }

  std::optional<Context> context_;
  std::optional<Queue> a_, b_;
};

TEST_P(HostTransferOrder, ABlockingWriteKeepsTheHostArrayOfAnEarlierRead) {
  constexpr std::size_t n = 1024;
  std::vector<float> values(n);
  std::iota(values.begin(), values.end(), 1.0f);
  const auto array = Array::empty(a(), {n}, DType::float32());
  array.set(a(), HostArray::from_values(values), true);
  const auto pool = PageLockedMemoryPool::of(context());
  ASSERT_EQ(pool.stats().bytes_in_use, 0U);

  // Only the queue keeps the destination: it is written when the queue runs the read.
  array.get(a(), HostArray::page_locked(context(), {n}, DType::float32()), true);
  ASSERT_GT(pool.stats().bytes_in_use, 0U);
  const auto other = Buffer::allocate(a().device(), 64);
  blocking_write(GetParam(), a(), other, std::vector<std::byte>(64, std::byte{7}));
  EXPECT_GT(pool.stats().bytes_in_use, 0U)
      << "the blocking write released the host array of a read still to run";

  // A new page-locked array gets a released block (zero-filled): the read must not land in it.
  const auto fresh = HostArray::page_locked(context(), {n}, DType::float32());
  a().synchronize();
  const auto got = fresh.to_vector<float>();
  EXPECT_TRUE(std::all_of(got.begin(), got.end(), [](float v) { return v == 0.0f; }))
      << "the earlier read wrote into another host array";
}

TEST_P(HostTransferOrder, ABlockingWriteLeavesTheQueuesPoolBlocksInUse) {
  constexpr std::size_t size = 4096;
  const std::vector<std::byte> ones(size, std::byte{1});
  const std::vector<std::byte> twos(size, std::byte{2});
  const auto pool = MemoryPool::of(context());
  // Released at once: its memory stays `a`'s until `a` is known to be done with it.
  pool.allocate(a(), size).set(a(), ones);  // asynchronous: runs when `a` next runs its work
  const auto other = Buffer::allocate(a().device(), 64);
  blocking_write(GetParam(), a(), other, std::vector<std::byte>(64, std::byte{7}));

  // Another queue's block: never the one `a` still writes into.
  const auto block = pool.allocate(b(), size);
  block.set(b(), twos, true);
  std::vector<std::byte> got(size);
  block.get(b(), got);
  const auto all_twos = [&] { return got == twos; };
  ASSERT_TRUE(all_twos());
  a().synchronize();
  block.get(b(), got);
  EXPECT_TRUE(all_twos()) << "queue a's earlier write landed in queue b's block";
}

INSTANTIATE_TEST_SUITE_P(Writes, HostTransferOrder,
                         testing::Values("BufferSet", "ArraySet", "WriteRect"),
                         [](const testing::TestParamInfo<const char*>& param) {
                           return std::string(param.param);
                         });

}  // namespace
}  // namespace host_transfer_order_test
}  // namespace plinth
