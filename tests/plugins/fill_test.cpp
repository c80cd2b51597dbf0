// Buffer::fill and Array fill through the core on the host test backends: hostv16 (SDK 1.6)
// fills patterns of 1, 2 and 4 bytes itself and records each call in $PLINTH_TEST_HOST_FILLS,
// so the pieces the core cuts a region into are checked exactly; longer patterns and hostv15
// (SDK 1.5, no fill()) go to the core's fill kernel, which PLINTH_DEBUG=transfer says (checked
// in a child, as PLINTH_DEBUG is read once per process). The host backends run no generated
// kernel, so a kernel fill ends in the backend's refusal of it: a plinth::Error.

#include <plinth/plinth.hpp>

#include "run_command.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plinth {
namespace fill_test {
namespace {

using test::run_self;

std::string recorded_fills() {
  const char* calls = std::getenv("PLINTH_TEST_HOST_FILLS");
  return calls != nullptr ? calls : "";
}

class HostFill : public testing::Test {
 protected:
  explicit HostFill(const char* shortcut = "hostv16") {
    const auto api = API::from_api_id(APIID{shortcut});
    context_.emplace(Context::from_devices({Device::all(Platform::all(api).at(0)).at(0)}));
    queue_.emplace(context_->devices()[0]);
    unsetenv("PLINTH_TEST_HOST_FILLS");
  }
  const Queue& queue() const { return *queue_; }
  std::optional<Context> context_;
  std::optional<Queue> queue_;
};

class HostFillV15 : public HostFill {
 protected:
  HostFillV15() : HostFill("hostv15") {}
};

std::vector<std::byte> read(const Queue& queue, const Buffer& buffer) {
  std::vector<std::byte> bytes(buffer.size());
  buffer.get(queue, bytes);
  return bytes;
}

TEST_F(HostFill, ARegionIsCutIntoPiecesAlignedToThePattern) {
  const auto buffer = Buffer::allocate(queue().device(), 1000);
  buffer.set(queue(), std::vector<std::byte>(1000, std::byte{0xEE}), true);
  const std::vector<std::byte> four{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
  buffer.get_sub_region(3, 400).fill(queue(), four);
  // The body [4, 400) with the pattern rotated to start at 4, then the head byte at 3 and the
  // tail's 2 + 1 bytes, each naturally aligned.
  EXPECT_EQ(recorded_fills(), "4:4+396;1:3+1;2:400+2;1:402+1;");
  const auto bytes = read(queue(), buffer);
  for (std::size_t k = 0; k < 1000; ++k) {
    const auto expected = k >= 3 && k < 403 ? four[(k - 3) % 4] : std::byte{0xEE};
    ASSERT_EQ(bytes[k], expected) << k;
  }
}

TEST_F(HostFill, APatternRepeatingAShorterOneIsFilledAsTheShorterOne) {
  const auto buffer = Buffer::allocate(queue().device(), 64);
  buffer.fill(queue(), std::vector<std::byte>(32, std::byte{9}));  // 32 bytes, period 1
  buffer.fill(queue(), std::uint64_t{0x0102030401020304});         // 8 bytes, period 4
  EXPECT_EQ(recorded_fills(), "1:0+64;4:0+64;");
}

TEST_F(HostFill, ContiguousArraysAreFilledByTheBackendsFill) {
  // No kernel could run here: before fills, this threw.
  const auto array = Array::empty(queue(), {10, 3}, DType::float32());
  fill(queue(), array, 1.5f);
  EXPECT_EQ(array.get(queue()).to_vector<float>(), std::vector<float>(30, 1.5f));
  const auto zeros16 = zeros(queue(), {7}, DType::int16());
  EXPECT_EQ(zeros16.get(queue()).to_vector<std::int16_t>(), std::vector<std::int16_t>(7, 0));
  const auto doubles = full(queue(), {5}, 0.0);  // 8 bytes of zeros: period 1
  EXPECT_EQ(doubles.get(queue()).to_vector<double>(), std::vector<double>(5, 0.0));
  const std::string calls = recorded_fills();
  EXPECT_NE(calls.find("4:"), std::string::npos) << calls;
  EXPECT_NE(calls.find("1:"), std::string::npos) << calls;
}

TEST_F(HostFill, DISABLED_ChildFillsAnEightBytePattern) {
  const auto buffer = Buffer::allocate(queue().device(), 64);
  const std::vector<std::byte> eight{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4},
                                     std::byte{5}, std::byte{6}, std::byte{7}, std::byte{8}};
  EXPECT_THROW(buffer.fill(queue(), eight), Error);  // the host backend runs no fill kernel
  buffer.fill(queue(), std::uint16_t{7});
}

TEST_F(HostFill, PatternsTheBackendRefusesGoToAFillKernelAndSaySo) {
  const auto [status, output] =
      run_self("PLINTH_DEBUG=transfer PLINTH_API=hostv16", "*DISABLED_ChildFillsAnEightByte*");
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(
      output.find("fill of 64 bytes with a 8-byte pattern on device 0 ('Host test device 0'): a "
                  "fill kernel (the backend has no fill for this pattern)"),
      std::string::npos)
      << output;
  EXPECT_NE(
      output.find("fill of 64 bytes with a 2-byte pattern on device 0 ('Host test device 0'): "
                  "the backend's fill"),
      std::string::npos)
      << output;
}

TEST_F(HostFillV15, DISABLED_ChildFills) {
  const auto buffer = Buffer::allocate(queue().device(), 64);
  EXPECT_THROW(buffer.fill(queue(), std::uint32_t{0x01020304}), Error);
  EXPECT_EQ(recorded_fills(), "");  // SDK 1.6's fill() was never called
}

TEST_F(HostFillV15, ASdk15PluginGetsTheFillKernel) {
  const auto [status, output] =
      run_self("PLINTH_DEBUG=transfer PLINTH_API=hostv15", "HostFillV15.DISABLED_ChildFills");
  EXPECT_EQ(status, 0) << output;
  EXPECT_NE(output.find("fill of 64 bytes with a 4-byte pattern on device 0 ('Host test device'): "
                        "a fill kernel (SDK 1.5 plugin)"),
            std::string::npos)
      << output;
}

TEST_F(HostFill, BadInputIsALogicErrorAndTouchesNothing) {
  const auto buffer = Buffer::allocate(queue().device(), 12);
  EXPECT_THROW(buffer.fill(queue(), std::vector<std::byte>(5)), LogicError);
  EXPECT_THROW(buffer.fill(queue(), std::vector<std::byte>(129)), LogicError);
  EXPECT_THROW(buffer.fill(queue(), std::span<const std::byte>()), LogicError);
  EXPECT_EQ(recorded_fills(), "");
}

}  // namespace
}  // namespace fill_test
}  // namespace plinth
