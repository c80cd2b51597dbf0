// Interprocess memory and events (ipc.hpp) through the public API on the host test backends:
// hostv16 (SDK 1.6) "exports" within the process through a table of ids, so the core's side
// runs here: handles carry a region's offset in its allocation (sub-regions, MemoryPool
// blocks), one allocation is mapped once however many regions of it are imported, the mapping
// goes with the last buffer over it, and every misuse is a LogicError. hostv15 (SDK 1.5) must
// be refused, naming the version.

#include <plinth/plinth.hpp>

#include "byte_pattern.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace plinth {
namespace ipc_test {
namespace {

using test::pattern;

std::vector<std::byte> read(const Queue& queue, const Buffer& buffer) {
  std::vector<std::byte> bytes(buffer.size());
  buffer.get(queue, bytes);
  return bytes;
}

int live_mappings() {
  const char* text = std::getenv("PLINTH_TEST_IPC_MAPPINGS");
  return text == nullptr ? 0 : std::atoi(text);
}

template <class F>
std::string logic_error(F&& f) {
  try {
    f();
  } catch (const LogicError& e) {
    return e.what();
  }
  return "no LogicError";
}

class HostIpc : public testing::Test {
 protected:
  void SetUp() override {
    const auto api = API::from_api_id(APIID{"hostv16"});
    context_.emplace(Context::from_devices(Device::all(Platform::all(api).at(0))));
    queue_.emplace(device(0));
  }
  BoundDevice device(std::size_t i) const { return context_->devices()[i]; }
  const Queue& queue() const { return *queue_; }

  std::optional<Context> context_;
  std::optional<Queue> queue_;
};

TEST_F(HostIpc, SupportIsAskedPerDevice) {
  const auto first = ipc_support(device(0));
  EXPECT_TRUE(first.memory);
  EXPECT_TRUE(first.events);
  const auto second = ipc_support(device(1));
  EXPECT_TRUE(second.memory);
  EXPECT_FALSE(second.events);
  EXPECT_EQ(second.reason, "host device 1 has no interprocess events");
  EXPECT_NE(logic_error([&] {
              Event::create_interprocess(device(1));
            }).find("cannot share events with other processes on device"),
            std::string::npos);
}

TEST_F(HostIpc, ARegionsHandleCarriesItsOffsetAndImportsAsItsBytes) {
  const auto bytes = pattern(4096, 3);
  auto buffer = Buffer::allocate(device(0), bytes.size());
  buffer.set(queue(), bytes, true);
  const auto region = buffer.get_sub_region(1000, 100).get_sub_region(24, 50);
  const auto handle = region.ipc_handle();
  EXPECT_EQ(handle.api_shortcut(), "hostv16");
  EXPECT_EQ(handle.offset(), 1024U);
  EXPECT_EQ(handle.size(), 50U);
  EXPECT_EQ(IpcMemoryHandle::from_string(handle.to_string()), handle);
  EXPECT_EQ(IpcMemoryHandle::from_bytes(handle.to_bytes()), handle);

  const auto imported =
      Buffer::from_ipc_handle(device(0), IpcMemoryHandle::from_string(handle.to_string()));
  EXPECT_EQ(imported.size(), 50U);
  EXPECT_EQ(imported.offset(), 1024U);
  const std::vector<std::byte> expected(bytes.begin() + 1024, bytes.begin() + 1074);
  EXPECT_EQ(read(queue(), imported), expected);
  // The same memory: a write through the import is seen by the exporter's buffer.
  const auto changed = pattern(50, 99);
  imported.set(queue(), changed, true);
  EXPECT_EQ(read(queue(), region), changed);
}

TEST_F(HostIpc, RegionsOfOneAllocationShareOneMappingThatGoesWithTheLast) {
  auto buffer = Buffer::allocate(device(0), 1024);
  buffer.set(queue(), pattern(1024, 1), true);
  const int before = live_mappings();
  {
    auto whole = Buffer::from_ipc_handle(device(0), buffer.ipc_handle());
    EXPECT_EQ(live_mappings(), before + 1);
    // A second import of the same allocation (the vendor refuses a second mapping).
    auto part = Buffer::from_ipc_handle(device(0), buffer.get_sub_region(512, 8).ipc_handle());
    EXPECT_EQ(live_mappings(), before + 1);
    EXPECT_TRUE(part.overlaps(whole));
    whole = part;  // the first import's buffer goes; the mapping stays for `part`
    EXPECT_EQ(live_mappings(), before + 1);
    const auto bytes = pattern(1024, 1);
    EXPECT_EQ(read(queue(), part),
              std::vector<std::byte>(bytes.begin() + 512, bytes.begin() + 520));
    // On the other device of the context: a mapping of its own.
    auto other = Buffer::from_ipc_handle(device(1), buffer.ipc_handle());
    EXPECT_EQ(live_mappings(), before + 2);
  }
  EXPECT_EQ(live_mappings(), before);
  // Mapped again after it went.
  auto again = Buffer::from_ipc_handle(device(0), buffer.ipc_handle());
  EXPECT_EQ(live_mappings(), before + 1);
}

TEST_F(HostIpc, ALaterRegionBeyondTheFirstImportsExtentSharesItsMapping) {
  const auto bytes = pattern(2048, 9);
  auto buffer = Buffer::allocate(device(0), bytes.size());
  buffer.set(queue(), bytes, true);
  const int before = live_mappings();
  const auto head = Buffer::from_ipc_handle(device(0), buffer.get_sub_region(0, 16).ipc_handle());
  // The first import mapped [0, 16); this region lies beyond, in the same allocation.
  const auto tail =
      Buffer::from_ipc_handle(device(0), buffer.get_sub_region(1024, 1024).ipc_handle());
  EXPECT_EQ(live_mappings(), before + 1);
  EXPECT_EQ(read(queue(), tail), std::vector<std::byte>(bytes.begin() + 1024, bytes.end()));
  EXPECT_EQ(read(queue(), head), std::vector<std::byte>(bytes.begin(), bytes.begin() + 16));
}

TEST_F(HostIpc, AMemoryPoolBlockIsExportedAtItsOffsetInTheSegment) {
  const auto pool = MemoryPool::of(*context_);
  const auto first = pool.allocate(device(0), 256);
  const auto second = pool.allocate(device(0), 256);
  const auto bytes = pattern(256, 7);
  second.set(queue(), bytes, true);
  const auto a = first.ipc_handle();
  const auto b = second.ipc_handle();
  // Blocks of one segment: one vendor handle, two offsets.
  EXPECT_EQ(a.to_string().substr(a.to_string().rfind(':')),
            b.to_string().substr(b.to_string().rfind(':')));
  EXPECT_NE(a.offset(), b.offset());
  EXPECT_EQ(read(queue(), Buffer::from_ipc_handle(device(0), b)), bytes);
}

TEST_F(HostIpc, HandlesOfAnotherApiOrVirtualBuffersAreRefused) {
  auto buffer = Buffer::allocate(device(0), 64);
  const auto handle = buffer.ipc_handle();
  const auto foreign = IpcMemoryHandle::from_parts("cuda", handle.vendor_handle(), 64, 0);
  EXPECT_EQ(
      logic_error([&] { Buffer::from_ipc_handle(device(0), foreign); }),
      "Buffer::from_ipc_handle: the handle is of API 'cuda', the device 'Host test device 0' of "
      "'hostv16'");
  TrivialManager manager(device(0));
  const auto virtual_buffer = manager.allocator()(device(0), 64);
  EXPECT_NE(logic_error([&] { virtual_buffer.ipc_handle(); }).find("pack() may move"),
            std::string::npos);
}

TEST_F(HostIpc, AnInterprocessEventIsRecordedByTheExporterAndSeenByItsImports) {
  const auto event = Event::create_interprocess(device(0));
  EXPECT_TRUE(event.interprocess());
  const auto handle = event.ipc_handle();
  EXPECT_EQ(IpcEventHandle::from_bytes(handle.to_bytes()), handle);
  const auto opened =
      Event::from_ipc_handle(device(0), IpcEventHandle::from_string(handle.to_string()));
  EXPECT_TRUE(opened.interprocess());
  EXPECT_EQ(opened.native_handle(), 0U);  // recordings so far
  queue().record(event);
  queue().record(event);
  EXPECT_EQ(opened.native_handle(), 2U);
  queue().wait_for(opened);
  opened.wait();
}

TEST_F(HostIpc, InterprocessEventsCannotTimeAndOnlyTheExporterRecords) {
  const auto event = Event::create_interprocess(device(0));
  const auto plain = queue().record_event();
  EXPECT_NE(logic_error([&] { elapsed_ms(plain, event); }).find("cannot time"), std::string::npos);
  EXPECT_NE(logic_error([&] { elapsed_ms(event, plain); }).find("the start event is interprocess"),
            std::string::npos);
  const auto opened = Event::from_ipc_handle(device(0), event.ipc_handle());
  EXPECT_NE(logic_error([&] { queue().record(opened); }).find("only the process that made it"),
            std::string::npos);
  EXPECT_NE(logic_error([&] { opened.ipc_handle(); }).find("hand on that handle"),
            std::string::npos);
  EXPECT_NE(logic_error([&] { queue().record(plain); }).find("not interprocess"),
            std::string::npos);
  EXPECT_NE(logic_error([&] { plain.ipc_handle(); }).find("Event::create_interprocess()"),
            std::string::npos);
  Queue other(device(1));
  EXPECT_NE(logic_error([&] { other.record(event); }).find("Queue::record:"), std::string::npos);
}

TEST(HostIpcOlderSdk, APluginOfSdk15IsRefusedNamingItsVersion) {
  const auto api = API::from_api_id(APIID{"hostv15"});
  const auto context = Context::from_devices(Device::all(Platform::all(api).at(0)));
  const auto device = context.devices()[0];
  const auto support = ipc_support(device);
  EXPECT_FALSE(support.memory);
  EXPECT_FALSE(support.events);
  EXPECT_EQ(support.reason,
            "the hostv15 plugin is of SDK 1.5, which has no interprocess memory or events (1.6 "
            "added them)");
  const auto buffer = Buffer::allocate(device, 16);
  EXPECT_NE(logic_error([&] { buffer.ipc_handle(); }).find("of SDK 1.5"), std::string::npos);
  EXPECT_NE(logic_error([&] { Event::create_interprocess(device); }).find("of SDK 1.5"),
            std::string::npos);
  const auto handle = IpcMemoryHandle::from_parts("hostv15", std::vector<std::byte>(4), 16, 0);
  EXPECT_NE(logic_error([&] { Buffer::from_ipc_handle(device, handle); }).find("of SDK 1.5"),
            std::string::npos);
}

}  // namespace
}  // namespace ipc_test
}  // namespace plinth
