// Interprocess memory and events (ipc.hpp) between two processes on one device: this process
// allocates a buffer, writes a pattern into its second half, exports a region of it and an
// interprocess event, and records the event after the write; a child (this program again,
// running the disabled test IpcTest.DISABLED_Child on the same device) opens both, waits for
// the event, checks the pattern, and writes another into the region's first part, which this
// process checks once the child has exited. Where the API or device has no IPC (OpenCL), the
// test is skipped, saying why; the handles' refusals are checked on every device.

#include "fixture.hpp"

#include "../core/run_command.hpp"

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace ipc_test {
namespace {

using IpcTest = DeviceTest;

constexpr std::size_t total = std::size_t{3} << 20;
constexpr std::size_t region_origin = std::size_t{1} << 20;  // exported: [1 MiB, 3 MiB)
constexpr std::size_t half = std::size_t{1} << 20;           // of the region

/// The shell's quoting of `text` (single quotes).
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TEST_P(IpcTest, AChildProcessReadsAfterTheEventAndWritesBack) {
  const auto support = ipc_support(device());
  if (!support.memory || !support.events) {
    GTEST_SKIP() << "no interprocess memory or events on " << device().name() << ": "
                 << support.reason;
  }
  const auto buffer = Buffer::allocate(device(), total);
  const auto region = buffer.get_sub_region(region_origin, 2 * half);
  buffer.set(queue(), std::vector<std::byte>(total), true);
  const auto written = pattern(half, 11);
  const auto done = Event::create_interprocess(device());
  const auto memory_handle = region.ipc_handle();
  EXPECT_EQ(memory_handle.size(), 2 * half);
  EXPECT_EQ(memory_handle.offset() % region_origin, 0U);  // at least the region's origin
  // The write and the event's recording stay queued while the child starts.
  region.get_sub_region(half, half).set(queue(), written);
  queue().record(done);

  const auto self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string command =
      "env ASAN_OPTIONS=detect_leaks=0 PLINTH_IPC_TEST_DEVICE=" + quoted(GetParam().full_name()) +
      " PLINTH_IPC_TEST_MEMORY=" + quoted(memory_handle.to_string()) +
      " PLINTH_IPC_TEST_EVENT=" + quoted(done.ipc_handle().to_string()) + " " + quoted(self) +
      " --api " + device().context().api().shortcut() +
      " --include-duplicate-devices --include-pure-parallel-devices"
      " --gtest_also_run_disabled_tests --gtest_filter='*IpcTest.DISABLED_Child*' 2>&1";
  const auto [status, output] = test::run_command(command);
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("ipc child: checked"), std::string::npos) << output;

  std::vector<std::byte> back(half);
  region.get_sub_region(0, half).get(queue(), back);
  EXPECT_EQ(back, pattern(half, 23));
  std::vector<std::byte> still(half);
  region.get_sub_region(half, half).get(queue(), still);
  EXPECT_EQ(still, written);
}

// The child's side: runs only when the test above starts it (on the device it names).
TEST_P(IpcTest, DISABLED_Child) {
  const char* name = std::getenv("PLINTH_IPC_TEST_DEVICE");
  const char* memory_text = std::getenv("PLINTH_IPC_TEST_MEMORY");
  const char* event_text = std::getenv("PLINTH_IPC_TEST_EVENT");
  if (name == nullptr || memory_text == nullptr || event_text == nullptr) {
    GTEST_SKIP() << "run by AChildProcessReadsAfterTheEventAndWritesBack only";
  }
  if (GetParam().full_name() != name) GTEST_SKIP() << "another device's run";
  const auto done = Event::from_ipc_handle(device(), IpcEventHandle::from_string(event_text));
  EXPECT_TRUE(done.interprocess());
  const auto region = Buffer::from_ipc_handle(device(), IpcMemoryHandle::from_string(memory_text));
  ASSERT_EQ(region.size(), 2 * half);
  queue().wait_for(done);
  std::vector<std::byte> seen(half);
  region.get_sub_region(half, half).get(queue(), seen);
  ASSERT_EQ(seen, pattern(half, 11));
  region.get_sub_region(0, half).set(queue(), pattern(half, 23), true);
  queue().synchronize();
  std::printf("ipc child: checked %zu bytes, wrote %zu\n", half, half);
}

// Importing this process's own handle: CUDA refuses (it maps only other processes' memory),
// Level Zero's fake driver allows it, so the mapping's offsets and sharing are checked there.
TEST_P(IpcTest, ARegionImportedInThisProcessWhereTheApiAllowsIt) {
  if (!ipc_support(device()).memory) GTEST_SKIP() << ipc_support(device()).reason;
  const auto buffer = Buffer::allocate(device(), 4096);
  const auto bytes = pattern(4096, 5);
  buffer.set(queue(), bytes, true);
  const auto region = buffer.get_sub_region(1024, 512);
  const auto handle = region.ipc_handle();
  EXPECT_EQ(handle.offset(), 1024U);  // a fresh allocation starts at its base
  EXPECT_EQ(handle.size(), 512U);
  std::optional<Buffer> imported;
  try {
    imported.emplace(Buffer::from_ipc_handle(device(), handle));
  } catch (const BackendError& e) {
    GTEST_SKIP() << "the API maps only other processes' memory: " << e.what();
  }
  EXPECT_EQ(imported->offset(), 1024U);
  std::vector<std::byte> seen(512);
  imported->get(queue(), seen);
  EXPECT_EQ(seen, std::vector<std::byte>(bytes.begin() + 1024, bytes.begin() + 1536));
  // Another region of the same allocation shares the mapping.
  const auto other = Buffer::from_ipc_handle(device(), buffer.get_sub_region(0, 16).ipc_handle());
  EXPECT_FALSE(other.overlaps(*imported));
  EXPECT_TRUE(Buffer::from_ipc_handle(device(), buffer.get_sub_region(1000, 100).ipc_handle())
                  .overlaps(*imported));
  std::vector<std::byte> head(16);
  other.get(queue(), head);
  EXPECT_EQ(head, std::vector<std::byte>(bytes.begin(), bytes.begin() + 16));
}

TEST_P(IpcTest, HandlesOfAnotherApiAndEventsThatCannotTimeAreRefused) {
  const auto shortcut = device().context().api().shortcut();
  const std::vector<std::byte> vendor(64, std::byte{1});
  const auto foreign =
      IpcMemoryHandle::from_parts(shortcut == "cuda" ? "hip" : "cuda", vendor, 16, 0);
  EXPECT_NE(logic_error_message([&] {
              Buffer::from_ipc_handle(device(), foreign);
            }).find("the handle is of API"),
            std::string::npos);
  const auto support = ipc_support(device());
  const auto buffer = Buffer::allocate(device(), 64);
  if (!support.memory) {
    EXPECT_FALSE(support.reason.empty());
    EXPECT_NE(logic_error_message([&] { buffer.ipc_handle(); }).find("cannot share memory"),
              std::string::npos);
  }
  if (!support.events) {
    EXPECT_NE(logic_error_message([&] {
                Event::create_interprocess(device());
              }).find("cannot share events"),
              std::string::npos);
    return;
  }
  const auto event = Event::create_interprocess(device());
  queue().record(event);
  const auto plain = queue().record_event();
  EXPECT_NE(logic_error_message([&] { elapsed_ms(plain, event); }).find("cannot time"),
            std::string::npos);
  event.wait();
}

PLINTH_INSTANTIATE_DEVICE_TEST(IpcTest);

}  // namespace
}  // namespace ipc_test
}  // namespace plinth::conformance
