// Managed memory (Buffer::allocate_managed, managed_memory.hpp) and memory info
// (BoundDevice::memory_info): on a device that has managed memory, the host side
// (host_pointer(), HostArray::managed_view) and the device side (transfers, sub-regions, Arrays,
// kernels) see the same bytes, prefetches and advice change no byte and are answered as the
// backend's table in managed_memory.hpp says, attach kinds exist where the API has them; a
// device without managed memory refuses with a LogicError naming why (the test then skips,
// saying so). ManagedMemoryTest and MemoryInfoTest read no kernel's output (the fake Level Zero
// driver runs them); ManagedMemoryKernelTest does.

#include "fixture.hpp"

#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace managed_memory_test {
namespace {

using ManagedMemoryTest = DeviceTest;
using ManagedMemoryKernelTest = DeviceTest;
using MemoryInfoTest = DeviceTest;

/// Managed memory of `size` bytes on `device`, or why there is none (the LogicError's text).
std::optional<Buffer> managed(const BoundDevice& device, std::size_t size, std::string& why) {
  try {
    return Buffer::allocate_managed(device, size);
  } catch (const LogicError& e) {
    why = e.what();
    return std::nullopt;
  }
}

#define PLINTH_MANAGED_OR_SKIP(name, size)                                                \
  std::string name##_why;                                                                 \
  const auto name##_maybe = managed(device(), size, name##_why);                          \
  if (!name##_maybe) {                                                                    \
    EXPECT_NE(name##_why.find("has no managed memory"), std::string::npos) << name##_why; \
    GTEST_SKIP() << "the device has no managed memory: " << name##_why;                   \
  }                                                                                       \
  const Buffer& name = *name##_maybe

std::string api(const Context& context) { return context.api().shortcut(); }

TEST_P(ManagedMemoryTest, TheHostPointerAndTransfersSeeTheSameBytes) {
  constexpr std::size_t size = 4099;
  PLINTH_MANAGED_OR_SKIP(buffer, size);
  EXPECT_TRUE(buffer.is_managed());
  EXPECT_FALSE(Buffer::allocate(device(), 16).is_managed());
  const auto bytes = pattern(size, 3);
  std::memcpy(buffer.host_pointer(), bytes.data(), size);
  std::vector<std::byte> read(size);
  buffer.get(queue(), read);
  EXPECT_EQ(read, bytes);

  // A write through the queue, then the host's view after a synchronize; a region's pointer is
  // its parent's plus the origin.
  const auto region = buffer.get_sub_region(1000, 1024);
  EXPECT_TRUE(region.is_managed());
  EXPECT_EQ(region.host_pointer(), buffer.host_pointer() + 1000);
  const auto other = pattern(1024, 9);
  region.set(queue(), other);
  queue().synchronize();
  EXPECT_EQ(std::memcmp(buffer.host_pointer() + 1000, other.data(), other.size()), 0);
  EXPECT_EQ(std::memcmp(buffer.host_pointer(), bytes.data(), 1000), 0);

  // Device to device, between managed and ordinary memory, both ways.
  const auto ordinary = Buffer::allocate(device(), size);
  ordinary.set(queue(), buffer);
  std::vector<std::byte> expected(bytes);
  std::copy(other.begin(), other.end(), expected.begin() + 1000);
  ordinary.get(queue(), read);
  EXPECT_EQ(read, expected);
  const auto view = HostArray::managed_view(buffer, ArrayMetadata({size}, DType::uint8()));
  EXPECT_TRUE(view.is_managed());
  EXPECT_EQ(view.data(), buffer.host_pointer());
  std::memset(view.data(), 0, size);
  buffer.set(queue(), ordinary, true);
  EXPECT_EQ(std::memcmp(view.data(), expected.data(), size), 0);
}

TEST_P(ManagedMemoryTest, PrefetchAndAdviceAreHintsThatChangeNoByte) {
  constexpr std::size_t size = std::size_t{1} << 20;
  PLINTH_MANAGED_OR_SKIP(buffer, size);
  const auto bytes = pattern(size, 5);
  std::memcpy(buffer.host_pointer(), bytes.data(), size);
  const auto region = buffer.get_sub_region(4096, 8192);
  std::vector<bool> answers;
  answers.push_back(buffer.prefetch(queue()));
  answers.push_back(region.prefetch(queue(), ManagedLocation::host));
  for (const auto advice :
       {ManagedAdvice::set_read_mostly, ManagedAdvice::unset_read_mostly,
        ManagedAdvice::set_preferred_location, ManagedAdvice::unset_preferred_location,
        ManagedAdvice::set_accessed_by, ManagedAdvice::unset_accessed_by}) {
    answers.push_back(buffer.advise(queue(), advice));
  }
  answers.push_back(
      region.advise(queue(), ManagedAdvice::set_preferred_location, ManagedLocation::host));
  answers.push_back(buffer.prefetch(queue()));
  queue().synchronize();
  EXPECT_EQ(std::memcmp(buffer.host_pointer(), bytes.data(), size), 0);
  std::vector<std::byte> read(size);
  buffer.get(queue(), read);
  EXPECT_EQ(read, bytes);

  // What managed_memory.hpp's table says each backend takes (CUDA's prefetches need
  // concurrent managed access, which every device plinth is tested on has).
  using V = std::vector<bool>;
  const auto shortcut = api(context());
  if (shortcut == "opencl") {
    // Prefetches where the device is OpenCL 2.1 or later (PoCL 3 is 3.0); no advice at all.
    const bool migrates = answers[0];
    EXPECT_EQ(answers,
              (V{migrates, migrates, false, false, false, false, false, false, false, migrates}));
  } else if (shortcut == "level_zero") {
    EXPECT_EQ(answers, (V{true, false, true, true, true, true, false, false, false, true}));
  } else if (shortcut == "cuda" || shortcut == "hip") {
    EXPECT_EQ(answers, V(10, true));
  }
}

TEST_P(ManagedMemoryTest, AttachKindsExistWhereTheApiHasThem) {
  PLINTH_MANAGED_OR_SKIP(buffer, 256);
  const auto shortcut = api(context());
  const bool has_attach = shortcut == "cuda" || shortcut == "hip";
  buffer.attach(queue(), ManagedAttach::global);  // what it is everywhere already
  const auto single = logic_error_message([&] { buffer.attach(queue(), ManagedAttach::single); });
  const auto host = logic_error_message(
      [&] { static_cast<void>(Buffer::allocate_managed(device(), 64, ManagedAttach::host)); });
  if (has_attach) {
    EXPECT_EQ(single, "(no LogicError)");
    EXPECT_EQ(host, "(no LogicError)");
  } else if (shortcut == "opencl" || shortcut == "level_zero") {
    EXPECT_NE(single.find("has no attach kinds"), std::string::npos) << single;
    EXPECT_NE(host.find("cannot attach managed memory as 'host'"), std::string::npos) << host;
  }
  buffer.attach(queue(), ManagedAttach::global);
  queue().synchronize();
  // Refusals that do not depend on the backend.
  EXPECT_NE(logic_error_message([&] {
              static_cast<void>(Buffer::allocate_managed(device(), 8, ManagedAttach::single));
            }).find("cannot be allocated attached to a single queue"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              static_cast<void>(Buffer::allocate_managed(device(), 0));
            }).find("size must be greater than 0"),
            std::string::npos);
  const auto ordinary = Buffer::allocate(device(), 64);
  EXPECT_NE(logic_error_message([&] {
              static_cast<void>(ordinary.host_pointer());
            }).find("is not managed memory"),
            std::string::npos);
}

TEST_P(ManagedMemoryKernelTest, AKernelWritesWhatTheHostReadsThroughItsView) {
  constexpr std::size_t count = 1000;
  PLINTH_MANAGED_OR_SKIP(buffer, count * sizeof(int));
  const auto array = Array::from_buffer(buffer, ArrayMetadata({count}, DType::int32()));
  const auto view = HostArray::managed_view(array);
  std::iota(view.values<int>().begin(), view.values<int>().end(), 0);
  buffer.prefetch(queue());
  const Program program(context(), R"(
KERNEL void triple_plus(GLOBAL_MEM int* values, int add, int count) {
  const int i = (int)get_global_id(0);
  if (i < count) values[i] = values[i] * 3 + add;
}
)");
  program.kernel("triple_plus")(queue(), {count}, {}, array, 7, static_cast<int>(count));
  queue().synchronize();
  std::vector<int> expected(count);
  for (std::size_t i = 0; i < count; ++i) expected[i] = static_cast<int>(i) * 3 + 7;
  EXPECT_EQ(view.to_vector<int>(), expected);
  // The host writes again; the next kernel sees it.
  view.values<int>()[10] = 100;
  program.kernel("triple_plus")(queue(), {count}, {}, array, 0, static_cast<int>(count));
  queue().synchronize();
  EXPECT_EQ(view.values<int>()[10], 300);
  EXPECT_EQ(view.values<int>()[11], (11 * 3 + 7) * 3);
  EXPECT_EQ(array.get(queue()).to_vector<int>(), view.to_vector<int>());
}

TEST_P(MemoryInfoTest, TotalIsTheDevicesAndFreeIsWithinIt) {
  const auto info = device().memory_info();
  EXPECT_GT(info.total, 0U);
  if (info.free) {
    EXPECT_LE(*info.free, info.total);
  }
  const auto shortcut = api(context());
  if (shortcut == "opencl") {
    EXPECT_EQ(info.total, device().params().global_mem_size);  // CL_DEVICE_GLOBAL_MEM_SIZE
  } else if (shortcut == "cuda" || shortcut == "hip") {
    EXPECT_TRUE(info.free.has_value()) << "cuMemGetInfo and hipMemGetInfo say it";
  }
  // Asking again is cheap and consistent.
  EXPECT_EQ(device().memory_info().total, info.total);
}

PLINTH_INSTANTIATE_DEVICE_TEST(ManagedMemoryTest);
PLINTH_INSTANTIATE_DEVICE_TEST(ManagedMemoryKernelTest);
PLINTH_INSTANTIATE_DEVICE_TEST(MemoryInfoTest);

}  // namespace
}  // namespace managed_memory_test
}  // namespace plinth::conformance
