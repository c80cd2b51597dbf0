// Copies between the two devices of a context on plugins without a peer copy, through the
// public API: hostv14 (SDK 1.4, no copy_peer(), and its copy() refuses two devices) must be
// copied through the host by the core; hostv13 (SDK 1.3) gets copy(), as SDK 1.0 defined it
// for any two buffers of a context. PLINTH_DEBUG is read once per process, so the lines that
// PLINTH_DEBUG=transfer prints are checked in a child: this test program running one of its
// disabled tests with the variable set.

#include <plinth/plinth.hpp>

#include "byte_pattern.hpp"
#include "run_command.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plinth {
namespace peer_copy_fallback_test {
namespace {

using test::pattern;
using test::run_self;

/// A context on both devices of a host test backend, and a queue on each.
class PeerCopyFallback : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    const auto api = API::from_api_id(APIID{GetParam()});
    const auto devices = Device::all(Platform::all(api).at(0));
    ASSERT_EQ(devices.size(), 2U);
    context_.emplace(Context::from_devices(devices));
    queues_.emplace(MultiQueue::on_devices(context_->devices()));
  }
  BoundDevice device(std::size_t i) const { return context_->devices()[i]; }
  const Queue& queue(std::size_t i) const { return queues_->queues().at(i); }

  Buffer buffer(std::size_t device_index, const std::vector<std::byte>& bytes) const {
    auto result = Buffer::allocate(device(device_index), bytes.size());
    result.set(queue(device_index), bytes, true);
    return result;
  }
  std::vector<std::byte> read(std::size_t device_index, const Buffer& from) const {
    std::vector<std::byte> bytes(from.size());
    from.get(queue(device_index), bytes);
    return bytes;
  }

  std::optional<Context> context_;
  std::optional<MultiQueue> queues_;
};

TEST_P(PeerCopyFallback, BuffersAreCopiedExactly) {
  // Whole buffers, both ways; one byte; more than the core's 64 MiB staging chunk.
  for (const std::size_t size : {std::size_t{1}, std::size_t{4097}, (std::size_t{64} << 20) + 3}) {
    const auto bytes = pattern(size, 3);
    const auto src = buffer(0, bytes);
    const auto dst = buffer(1, pattern(size, 5));
    dst.set(queue(1), src, true);
    EXPECT_EQ(read(1, dst), bytes) << size << " bytes";
    const auto back = buffer(0, pattern(size, 9));
    back.set(queue(0), dst, true);
    EXPECT_EQ(read(0, back), bytes) << size << " bytes back";
  }
  // Sub-regions at odd offsets: only the region changes.
  const auto src_bytes = pattern(1000, 1);
  auto dst_bytes = pattern(1000, 2);
  const auto src = buffer(1, src_bytes);
  const auto dst = buffer(0, dst_bytes);
  dst.get_sub_region(7, 333).set(queue(0), src.get_sub_region(101, 333), true);
  std::copy_n(src_bytes.begin() + 101, 333, dst_bytes.begin() + 7);
  EXPECT_EQ(read(0, dst), dst_bytes);
}

TEST_P(PeerCopyFallback, ArraysAreCopiedExactly) {
  HostArray host = HostArray::empty({6, 5}, DType::int32());
  std::iota(host.values<std::int32_t>().begin(), host.values<std::int32_t>().end(), 1);
  const auto src = Array::from_host(queue(0), host);
  // Contiguous: rows 2 to 4 into the rows 1 to 3 of a zeroed array on the other device.
  auto zeros = HostArray::empty({6, 5}, DType::int32());
  const auto dst = Array::from_host(queue(1), zeros);
  dst.view({Slice(1, 4)}).set(queue(1), src.view({Slice(2, 5)}), true);
  auto expected = zeros.copy();
  expected.view({Slice(1, 4)}).assign(host.view({Slice(2, 5)}));
  EXPECT_EQ(dst.get(queue(1)).to_vector<std::int32_t>(), expected.to_vector<std::int32_t>());
  // Not contiguous: column 3, reversed, into column 0.
  dst.view({Slice::all(), 0})
      .set(queue(1), src.view({Slice(std::nullopt, std::nullopt, -1), 3}), true);
  expected.view({Slice::all(), 0}).assign(host.view({Slice(std::nullopt, std::nullopt, -1), 3}));
  EXPECT_EQ(dst.get(queue(1)).to_vector<std::int32_t>(), expected.to_vector<std::int32_t>());
}

/// The last row on the last device, the rest on the first (splay.hpp's example).
struct LastRowSplay : BaseSplay {
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& shape,
                                        const BoundMultiDevice& devices) const override {
    const auto rows = static_cast<std::ptrdiff_t>(shape.at(0));
    std::vector<std::vector<Index>> parts(devices.size(), {Slice(0, 0)});
    parts.front() = {Slice(0, rows - 1)};
    parts.back() = {Slice(rows - 1, rows)};
    return parts;
  }
};

/// Even rows on the first device, odd rows on the second: views with a step.
struct AlternateRowSplay : BaseSplay {
  std::vector<std::vector<Index>> split(const std::vector<std::size_t>& /*shape*/,
                                        const BoundMultiDevice& /*devices*/) const override {
    return {{Slice(0, std::nullopt, 2)}, {Slice(1, std::nullopt, 2)}};
  }
};

TEST_P(PeerCopyFallback, MultiArraysAreResplayed) {
  HostArray host = HostArray::empty({7, 3}, DType::float32());
  std::iota(host.values<float>().begin(), host.values<float>().end(), 0.5f);
  const auto expected = host.to_vector<float>();
  const auto equal = MultiArray::from_host(*queues_, host);
  const auto cloned = equal.resplay(*queues_, std::make_shared<CloneSplay>(), true);
  for (const auto& [device, part] : cloned.subarrays()) {
    EXPECT_EQ(part.get(queues_->operator[](device)).to_vector<float>(), expected);
  }
  const auto last_row = cloned.resplay(*queues_, std::make_shared<LastRowSplay>(), true);
  EXPECT_EQ(last_row.shapes()[device(1)], (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(last_row.get(*queues_).to_vector<float>(), expected);
  const auto alternate = last_row.resplay(*queues_, std::make_shared<AlternateRowSplay>(), true);
  EXPECT_EQ(alternate.shapes()[device(0)], (std::vector<std::size_t>{4, 3}));
  EXPECT_EQ(alternate.get(*queues_).to_vector<float>(), expected);
  const auto back = alternate.resplay(*queues_, std::make_shared<EqualSplay>(), true);
  EXPECT_EQ(back.get(*queues_).to_vector<float>(), expected);
}

// Run by SaysHowEachCopyWent in a child with PLINTH_DEBUG=transfer.
TEST_P(PeerCopyFallback, DISABLED_OneCopyAndOneResplay) {
  const auto bytes = pattern(12345, 4);
  const auto src = buffer(0, bytes);
  const auto dst = Buffer::allocate(device(1), bytes.size());
  dst.set(queue(1), src, true);
  EXPECT_EQ(read(1, dst), bytes);
  HostArray host = HostArray::empty({4, 2}, DType::int8());
  std::iota(host.values<std::int8_t>().begin(), host.values<std::int8_t>().end(), 1);
  const auto alternate =
      MultiArray::from_host(*queues_, host, std::make_shared<AlternateRowSplay>());
  const auto equal = alternate.resplay(*queues_, std::make_shared<EqualSplay>(), true);
  EXPECT_EQ(equal.get(*queues_).to_vector<std::int8_t>(), host.to_vector<std::int8_t>());
}

TEST_P(PeerCopyFallback, SaysHowEachCopyWent) {
  const std::string name = GetParam();
  const auto [status, output] =
      run_self("PLINTH_DEBUG=transfer", "PeerCopyFallback.DISABLED_OneCopyAndOneResplay/" + name);
  EXPECT_EQ(status, 0) << output;
  const std::string copy_line =
      "12345 bytes from device 0 ('Host test device 0') to device 1 "
      "('Host test device 1'): ";
  const std::string how = name == "hostv13"
                              ? "the backend's copy (SDK 1.3 plugin)"
                              : "through the host (the backend has no peer copy between them)";
  EXPECT_NE(output.find("plinth[transfer]: " + copy_line + how), std::string::npos) << output;
  EXPECT_NE(output.find("MultiArray::resplay: 8 bytes through the host (a part of a splay "
                        "is not a range of step 1 in every dimension)"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("1 test"), std::string::npos) << output;
}

INSTANTIATE_TEST_SUITE_P(, PeerCopyFallback, testing::Values("hostv13", "hostv14"),
                         [](const auto& param) { return std::string(param.param); });

}  // namespace
}  // namespace peer_copy_fallback_test
}  // namespace plinth
