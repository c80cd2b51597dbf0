// Buffers: allocation, round trips, asynchronous transfers, device-to-device copies,
// sub-regions aligned and not.

#include "fixture.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <type_traits>

namespace plinth::conformance {
namespace buffer_test {
namespace {

using BufferTest = DeviceTest;

void round_trip(const Queue& queue, std::size_t size) {
  const auto data = pattern(size, 7);
  auto buffer = Buffer::allocate(queue.device(), size);
  EXPECT_EQ(buffer.size(), size);
  EXPECT_EQ(buffer.offset(), 0u);
  buffer.set(queue, data, true);
  std::vector<std::byte> back(size);
  buffer.get(queue, back);
  EXPECT_EQ(back, data) << size << " bytes";
}

TEST_P(BufferTest, DeviceOfATemporarySetOutlivesTheSet) {
  // context().devices() is a temporary set: a device taken from it by reference must not
  // dangle (it did in plinth-bench-multi-gpu: a crash in Buffer::allocate on two H200s).
  static_assert(std::is_same_v<decltype(context().devices()[0]), BoundDevice>);
  const auto& device = context().devices()[0];
  const auto& same_context = context().devices().context();
  const Buffer buffer = Buffer::allocate(device, 64);
  EXPECT_EQ(buffer.size(), 64u);
  EXPECT_TRUE(same_context == context());
}

TEST_P(BufferTest, RoundTripsOneByte) { round_trip(queue(), 1); }
TEST_P(BufferTest, RoundTripsOddSizes) {
  for (const std::size_t size : {3u, 17u, 1001u, 65537u}) round_trip(queue(), size);
}
TEST_P(BufferTest, RoundTrips64MiB) { round_trip(queue(), 64u << 20); }

TEST_P(BufferTest, AsyncTransfersCompleteAtSynchronize) {
  const std::size_t size = 4u << 20;
  const auto data = pattern(size, 3);
  auto buffer = Buffer::allocate(device(), size);
  buffer.set(queue(), data);  // asynchronous by default
  std::vector<std::byte> back(size);
  buffer.get(queue(), back, true);
  queue().synchronize();
  EXPECT_EQ(back, data);
}

// Transfers of every size class (direct, staged in one piece, in several, in many) and both
// kinds, back to back on one queue: each sees the ones before it, as queue order promises.
TEST_P(BufferTest, TransfersOfEverySizeKeepQueueOrder) {
  for (const std::size_t size :
       {std::size_t{32 << 10} - 1, std::size_t{32 << 10}, std::size_t{(1 << 20) + 3},
        std::size_t{(9 << 20) + 5}, std::size_t{48 << 20}}) {
    SCOPED_TRACE(size);
    const auto a = pattern(size, 21);
    const auto b = pattern(size, 22);
    auto buffer = Buffer::allocate(device(), size);
    std::vector<std::byte> read_a(size), read_b(size), read_b_again(size);
    buffer.set(queue(), a);  // asynchronous
    buffer.get(queue(), read_a, true);
    buffer.set(queue(), b, true);  // synchronous, after the asynchronous read in queue order
    buffer.get(queue(), read_b);
    EXPECT_EQ(read_a, a);  // the synchronous read waited for everything before it
    EXPECT_EQ(read_b, b);
    buffer.get(queue(), read_b_again, true);
    buffer.set(queue(), a);
    queue().synchronize();
    EXPECT_EQ(read_b_again, b);
    std::vector<std::byte> back(size);
    buffer.get(queue(), back);
    EXPECT_EQ(back, a);
  }
}

// A synchronous write returns once the data have left the caller's memory: overwriting it
// afterwards changes nothing on the device.
TEST_P(BufferTest, SynchronousWriteLeavesTheSourceFreeOnReturn) {
  for (const std::size_t size : {std::size_t{4} << 10, std::size_t{(8 << 20) + 1}}) {
    SCOPED_TRACE(size);
    const auto data = pattern(size, 23);
    auto source = data;
    auto buffer = Buffer::allocate(device(), size);
    buffer.set(queue(), source, true);
    std::fill(source.begin(), source.end(), std::byte{0x5a});
    std::vector<std::byte> back(size);
    buffer.get(queue(), back);
    EXPECT_EQ(back, data);
  }
}

TEST_P(BufferTest, CopiesBufferToBuffer) {
  const auto data = pattern(10000, 11);
  auto a = Buffer::allocate(device(), data.size());
  auto b = Buffer::allocate(device(), data.size());
  a.set(queue(), data, true);
  b.set(queue(), a);
  std::vector<std::byte> back(data.size());
  b.get(queue(), back);
  EXPECT_EQ(back, data);
}

TEST_P(BufferTest, RejectsMisuse) {
  EXPECT_THROW(Buffer::allocate(device(), 0), LogicError);
  auto buffer = Buffer::allocate(device(), 100);
  std::vector<std::byte> wrong(99);
  EXPECT_THROW(buffer.set(queue(), wrong), LogicError);
  EXPECT_THROW(buffer.get(queue(), wrong), LogicError);
  auto other = Buffer::allocate(device(), 50);
  EXPECT_THROW(buffer.set(queue(), other), LogicError);
  EXPECT_THROW(buffer.get_sub_region(90, 11), LogicError);
  EXPECT_THROW(buffer.get_sub_region(0, 0), LogicError);
  EXPECT_THROW(buffer.get_sub_region(101, 1), LogicError);
  EXPECT_THROW(buffer.get_sub_region(static_cast<std::size_t>(-1), 2), LogicError);
  // The buffer is still usable after the errors.
  const auto data = pattern(100);
  buffer.set(queue(), data, true);
  std::vector<std::byte> back(100);
  buffer.get(queue(), back);
  EXPECT_EQ(back, data);
}

// Before: "the queue is on device 0 (...) but the buffer on device 0 (...)", which does not say
// that the two belong to different contexts of the same device.
TEST_P(BufferTest, ObjectsOfAnotherContextAreNamedSo) {
  const auto other_context = Context::from_devices({GetParam()});
  const Queue other_queue(other_context.devices()[0]);
  auto buffer = Buffer::allocate(device(), 16);
  std::vector<std::byte> bytes(16);
  for (const auto& text :
       {logic_error_message([&] { buffer.get(other_queue, bytes); }),
        logic_error_message([&] { buffer.set(other_queue, bytes); }), logic_error_message([&] {
          buffer.set(queue(), Buffer::allocate(other_context.devices()[0], 16));
        })}) {
    EXPECT_NE(text.find("belong to different contexts"), std::string::npos) << text;
  }
}

void check_sub_region(const Queue& queue, std::size_t origin, std::size_t size) {
  const std::size_t total = origin + size + 64;
  auto buffer = Buffer::allocate(queue.device(), total);
  const auto zeros = std::vector<std::byte>(total);
  buffer.set(queue, zeros, true);
  auto region = buffer.get_sub_region(origin, size);
  EXPECT_EQ(region.offset(), origin);
  EXPECT_EQ(region.size(), size);
  const auto data = pattern(size, 5);
  region.set(queue, data, true);
  std::vector<std::byte> back(size);
  region.get(queue, back);
  EXPECT_EQ(back, data);
  std::vector<std::byte> whole(total);
  buffer.get(queue, whole);
  for (std::size_t i = 0; i < total; ++i) {
    const auto expected = i >= origin && i < origin + size ? data[i - origin] : std::byte{0};
    ASSERT_EQ(whole[i], expected) << "byte " << i << " of a region at " << origin;
  }
  // A region of a region adds the origins.
  if (size > 2) {
    auto inner = region.get_sub_region(1, size - 2);
    EXPECT_EQ(inner.offset(), origin + 1);
    std::vector<std::byte> inner_back(size - 2);
    inner.get(queue, inner_back);
    EXPECT_TRUE(std::equal(inner_back.begin(), inner_back.end(), data.begin() + 1));
  }
}

TEST_P(BufferTest, AlignedSubRegionsShareMemory) {
  check_sub_region(queue(), device().params().address_alignment, 1000);
}

TEST_P(BufferTest, UnalignedSubRegionsTransfer) { check_sub_region(queue(), 3, 1001); }

TEST_P(BufferTest, SubRegionOutlivesItsParent) {
  std::optional<Buffer> region;
  const auto data = pattern(256, 9);
  {
    auto buffer = Buffer::allocate(device(), 1024);
    region = buffer.get_sub_region(device().params().address_alignment % 1024, 256);
  }
  region->set(queue(), data, true);
  std::vector<std::byte> back(256);
  region->get(queue(), back);
  EXPECT_EQ(back, data);
}

TEST_P(BufferTest, WrappedMemoryReleasesItsOwnerWithTheLastCopy) {
  // Another library's memory (what Python's from_dlpack wraps): the wrapped buffer shares it,
  // and the owner goes only when the last copy and sub-region of the wrapping buffer have.
  const auto data = pattern(512, 11);
  auto memory = Buffer::allocate(device(), 512);
  auto released = std::make_shared<bool>(false);
  std::optional<Buffer> region;
  {
    auto owner = std::shared_ptr<void>(new Buffer(memory), [released](void* held) {
      delete static_cast<Buffer*>(held);
      *released = true;
    });
    const auto wrapped =
        Buffer::from_backend_buffer(device(), memory.native_handle(), 512, std::move(owner));
    EXPECT_EQ(wrapped.size(), 512u);
    EXPECT_FALSE(wrapped.overlaps(memory));
    wrapped.set(queue(), data, true);
    std::vector<std::byte> back(512);
    memory.get(queue(), back);
    EXPECT_EQ(back, data);
    region = wrapped.get_sub_region(0, 256);
  }
  EXPECT_FALSE(*released) << "a sub-region still uses the memory";
  std::vector<std::byte> back(256);
  region->get(queue(), back);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), data.begin()));
  region.reset();
  EXPECT_TRUE(*released);
  // A null owner: the caller keeps the memory alive.
  EXPECT_EQ(Buffer::from_backend_buffer(device(), memory.native_handle(), 64, nullptr).size(), 64u);
  EXPECT_THROW(Buffer::from_backend_buffer(device(), memory.native_handle(), 0, nullptr),
               LogicError);
}

PLINTH_INSTANTIATE_DEVICE_TEST(BufferTest);

}  // namespace
}  // namespace buffer_test
}  // namespace plinth::conformance
