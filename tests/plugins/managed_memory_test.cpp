// SDK 1.6's managed memory and memory info through the public API, on the host test
// backends: hostv16 (the current SDK, two devices; its managed memory is host memory, device 1
// has none, and it lacks accessed-by advice) implements both; hostv15 (SDK 1.5) and hostv10
// (the frozen 1.0 headers, whose vtables end long before) must get the core's refusal or
// fallback without the backend being asked.

#include <plinth/plinth.hpp>

#include "error_message.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace plinth {
namespace managed_memory_test {
namespace {

// Only the host test backends (see sdk_versions_test.cpp). Set before the plugins load.
[[maybe_unused]] const bool only_host_backends = [] {
  setenv("PLINTH_API", "hostv16,hostv15,hostv10", 1);
  return true;
}();

const char* const source = R"(
KERNEL void scale(GLOBAL_MEM float* out, GLOBAL_MEM const float* in, float factor) {}
)";

using plinth::test::message_of;

/// What the host backend's queues were asked to do since the last call.
std::string managed_calls() {
  const char* calls = std::getenv("PLINTH_TEST_MANAGED");
  std::string result = calls != nullptr ? calls : "";
  unsetenv("PLINTH_TEST_MANAGED");
  return result;
}

/// Both devices of a host test backend (or its one), a queue on each.
class HostBackend : public testing::Test {
 protected:
  void open(const char* shortcut) {
    const auto api = API::from_api_id(APIID{shortcut});
    context_.emplace(Context::from_devices(Device::all(Platform::all(api).at(0))));
    for (const auto& device : context_->devices()) queues_.emplace_back(device);
    managed_calls();
  }
  BoundDevice device(std::size_t i) const { return context_->devices()[i]; }

  std::optional<Context> context_;
  std::vector<Queue> queues_;
};

TEST_F(HostBackend, ManagedMemoryIsABufferWithAHostSide) {
  open("hostv16");
  const auto buffer = Buffer::allocate_managed(device(0), 8 * sizeof(float));
  EXPECT_TRUE(buffer.is_managed());
  EXPECT_EQ(buffer.size(), 8 * sizeof(float));
  const auto region = buffer.get_sub_region(2 * sizeof(float), 4 * sizeof(float));
  EXPECT_TRUE(region.is_managed());
  EXPECT_EQ(region.host_pointer(), buffer.host_pointer() + 2 * sizeof(float));

  // Transfers see what the host wrote through the pointer, and the host what they wrote.
  auto* floats = reinterpret_cast<float*>(buffer.host_pointer());
  std::iota(floats, floats + 8, 1.0f);
  std::vector<float> read(4);
  region.get(queues_[0], std::as_writable_bytes(std::span(read)));
  EXPECT_EQ(read, (std::vector<float>{3, 4, 5, 6}));
  const std::vector<float> written{10, 20, 30, 40};
  region.set(queues_[0], std::as_bytes(std::span(written)), true);
  EXPECT_EQ(floats[2], 10.0f);
  EXPECT_EQ(floats[5], 40.0f);

  // Ordinary memory is not managed, and says so when asked for a host side.
  const auto ordinary = Buffer::allocate(device(0), 16);
  EXPECT_FALSE(ordinary.is_managed());
  EXPECT_NE(message_of([&] { static_cast<void>(ordinary.host_pointer()); })
                .find("Buffer::host_pointer: the buffer (16 bytes on device 0, 'Host test "
                      "device 0') is not managed memory"),
            std::string::npos);
  EXPECT_NE(message_of([&] { ordinary.prefetch(queues_[0]); }).find("is not managed memory"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              HostArray::managed_view(ordinary, ArrayMetadata({4}, DType::uint8()));
            }).find("HostArray::managed_view: the buffer (16 bytes"),
            std::string::npos);
}

TEST_F(HostBackend, AKernelWritesManagedMemoryThatTheHostReadsThroughAView) {
  open("hostv16");
  const Program program(*context_, source);
  const auto in_buffer = Buffer::allocate_managed(device(0), 6 * sizeof(float));
  const auto out_buffer = Buffer::allocate_managed(device(0), 6 * sizeof(float));
  const auto in = Array::from_buffer(in_buffer, ArrayMetadata({2, 3}, DType::float32()));
  const auto out = Array::from_buffer(out_buffer, ArrayMetadata({2, 3}, DType::float32()));
  const auto in_view = HostArray::managed_view(in);
  EXPECT_TRUE(in_view.is_managed());
  EXPECT_TRUE(in_view.view({1}).is_managed());
  EXPECT_FALSE(in_view.copy().is_managed());
  EXPECT_EQ(in_view.shape(), (std::vector<std::size_t>{2, 3}));
  std::iota(in_view.values<float>().begin(), in_view.values<float>().end(), 1.0f);

  program.kernel("scale")(queues_[0], {6}, {}, out, in, 3.0f);
  queues_[0].synchronize();
  const auto out_view = HostArray::managed_view(out);
  EXPECT_EQ(out_view.to_vector<float>(), (std::vector<float>{3, 6, 9, 12, 15, 18}));
  EXPECT_EQ(out_view.at<float>({1, 2}), 18.0f);
  // The Array's own transfers agree.
  EXPECT_EQ(out.get(queues_[0]).to_vector<float>(), out_view.to_vector<float>());

  // A view keeps the memory alive after every other handle is gone.
  std::optional<HostArray> kept;
  {
    const auto buffer = Buffer::allocate_managed(device(0), 16);
    kept = HostArray::managed_view(buffer, ArrayMetadata({4}, DType::float32()));
    kept->values<float>()[3] = 7.0f;
  }
  EXPECT_EQ(kept->values<float>()[3], 7.0f);
  EXPECT_NE(message_of([&] {
              HostArray::managed_view(in_buffer, ArrayMetadata({7}, DType::float32()));
            }).find("the layout needs 28 bytes, the buffer has 24"),
            std::string::npos);
}

TEST_F(HostBackend, PrefetchAdviceAndAttachReachTheBackendOrSayTheyDoNot) {
  open("hostv16");
  const auto buffer = Buffer::allocate_managed(device(0), 64, ManagedAttach::host);
  const auto region = buffer.get_sub_region(16, 8);
  EXPECT_TRUE(buffer.prefetch(queues_[0]));
  EXPECT_TRUE(region.prefetch(queues_[0], ManagedLocation::host));
  EXPECT_TRUE(buffer.advise(queues_[0], ManagedAdvice::set_read_mostly));
  EXPECT_TRUE(
      region.advise(queues_[0], ManagedAdvice::set_preferred_location, ManagedLocation::host));
  // The backend lacks it, and the call says so rather than pretending.
  EXPECT_FALSE(buffer.advise(queues_[0], ManagedAdvice::set_accessed_by));
  buffer.attach(queues_[0], ManagedAttach::single);
  EXPECT_EQ(managed_calls(),
            "prefetch device 0+64;prefetch host 16+8;advise set_read_mostly device 0+64;"
            "advise set_preferred_location host 16+8;attach single 0+64;");

  // Refused before the backend is asked.
  EXPECT_NE(message_of([&] { region.attach(queues_[0], ManagedAttach::single); })
                .find("Buffer::attach: the buffer is a region (bytes [16, 24)) of a managed "
                      "allocation; attach the whole allocation"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              buffer.prefetch(queues_[1]);
            }).find("Buffer::prefetch: the queue is on device 1"),
            std::string::npos)
      << message_of([&] { buffer.prefetch(queues_[1]); });
  EXPECT_EQ(managed_calls(), "");
}

TEST_F(HostBackend, AllocationsTheBackendOrTheCoreCannotMakeAreRefused) {
  open("hostv16");
  EXPECT_NE(message_of([&] {
              Buffer::allocate_managed(device(0), 0);
            }).find("Buffer::allocate_managed: size must be greater than 0"),
            std::string::npos);
  EXPECT_NE(message_of([&] { Buffer::allocate_managed(device(0), 8, ManagedAttach::single); })
                .find("cannot be allocated attached to a single queue; allocate it global or "
                      "host, then call attach(queue, ManagedAttach::single)"),
            std::string::npos);
  EXPECT_EQ(message_of([&] { Buffer::allocate_managed(device(1), 8); }),
            "host test device 1 has no managed memory");
}

TEST_F(HostBackend, PluginsBeforeSdk1_6HaveNoManagedMemory) {
  for (const char* shortcut : {"hostv15", "hostv10"}) {
    SCOPED_TRACE(shortcut);
    queues_.clear();
    open(shortcut);
    const std::string minor = std::string(shortcut) == "hostv15" ? "5" : "0";
    EXPECT_NE(message_of([&] { Buffer::allocate_managed(device(0), 8); })
                  .find("Buffer::allocate_managed: Host test " + std::string(shortcut) +
                        " has no managed memory: its plugin implements SDK 1." + minor +
                        ", and managed memory needs SDK 1.6"),
              std::string::npos)
        << message_of([&] { Buffer::allocate_managed(device(0), 8); });
    const auto ordinary = Buffer::allocate(device(0), 8);
    EXPECT_FALSE(ordinary.is_managed());
    EXPECT_THROW(ordinary.advise(queues_[0], ManagedAdvice::set_read_mostly), LogicError);
  }
}

TEST_F(HostBackend, MemoryInfoComesFromTheBackendFrom1_6) {
  open("hostv16");
  constexpr std::size_t gib = std::size_t{1} << 30;
  const auto before = device(0).memory_info();
  EXPECT_EQ(before.total, gib);
  ASSERT_TRUE(before.free.has_value());
  std::optional<MemoryInfo> during;
  {
    const auto buffer = Buffer::allocate(device(0), 1 << 20);
    during = device(0).memory_info();
  }
  ASSERT_TRUE(during->free.has_value());
  EXPECT_EQ(*before.free - *during->free, std::size_t{1} << 20);
  EXPECT_EQ(*device(0).memory_info().free, *before.free);
  // Device 1 cannot tell its free memory.
  const auto other = device(1).memory_info();
  EXPECT_EQ(other.total, gib);
  EXPECT_FALSE(other.free.has_value());
}

TEST_F(HostBackend, MemoryInfoFallsBackToTheParametersBefore1_6) {
  for (const char* shortcut : {"hostv15", "hostv10"}) {
    SCOPED_TRACE(shortcut);
    queues_.clear();
    open(shortcut);
    const auto info = device(0).memory_info();
    EXPECT_EQ(info.total, device(0).params().global_mem_size);
    EXPECT_EQ(info.total, std::size_t{1} << 30);
    EXPECT_FALSE(info.free.has_value());
  }
}

}  // namespace
}  // namespace managed_memory_test
}  // namespace plinth
