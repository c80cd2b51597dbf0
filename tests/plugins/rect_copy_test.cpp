// Rectangular copies (rect_copy.hpp) and pitched allocations through the public API on the
// host test backends: hostv16 (SDK 1.6) makes them with its copy_rect()/read_rect()/
// write_rect()/copy_rect_peer() (logged in $PLINTH_TEST_HOST_RECT), refusing 3-D copies whose
// slice pitches are not multiples of their row pitches (the core goes plane by plane) and
// pitches above $PLINTH_TEST_HOST_MAX_PITCH (row by row); hostv15 (SDK 1.5) has none, so the
// core copies row by row; hostv14 (two devices, no peer copy) copies between devices through
// the host. PLINTH_DEBUG=transfer's lines are checked in a child (PLINTH_DEBUG is read once).

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
namespace rect_copy_test {
namespace {

using test::pattern;
using test::run_self;

/// The reference: what a rectangular copy does, byte by byte.
void reference_copy(std::vector<std::byte>& dst, const RectRegion& d,
                    const std::vector<std::byte>& src, const RectRegion& s, const RectExtent& e) {
  const std::size_t drow = d.row_pitch ? d.row_pitch : e.width_bytes;
  const std::size_t dslice = d.slice_pitch ? d.slice_pitch : drow * e.height;
  const std::size_t srow = s.row_pitch ? s.row_pitch : e.width_bytes;
  const std::size_t sslice = s.slice_pitch ? s.slice_pitch : srow * e.height;
  const auto before = src;  // memmove: the source as it was
  for (std::size_t z = 0; z < e.depth; ++z)
    for (std::size_t y = 0; y < e.height; ++y)
      for (std::size_t x = 0; x < e.width_bytes; ++x)
        dst.at(d.x_bytes + x + (d.y + y) * drow + (d.z + z) * dslice) =
            before.at(s.x_bytes + x + (s.y + y) * srow + (s.z + z) * sslice);
}

HostArray f_order(const std::vector<std::size_t>& shape, const DType& dtype) {
  return HostArray::empty(ArrayMetadata(
      shape, dtype, ArrayMetadata::default_strides(shape, dtype.itemsize(), Order::F)));
}

std::string rect_log() {
  const char* log = std::getenv("PLINTH_TEST_HOST_RECT");
  return log ? log : "";
}

class RectCopyHost : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    unsetenv("PLINTH_TEST_HOST_RECT");
    unsetenv("PLINTH_TEST_HOST_MAX_PITCH");
    const auto api = API::from_api_id(APIID{GetParam()});
    const auto devices = Device::all(Platform::all(api).at(0));
    context_.emplace(Context::from_devices(devices));
    queues_.emplace(MultiQueue::on_devices(context_->devices()));
  }
  bool has_rect() const { return std::string(GetParam()) == "hostv16"; }
  BoundDevice device(std::size_t i) const { return context_->devices()[i]; }
  const Queue& queue(std::size_t i = 0) const { return queues_->queues().at(i); }
  Buffer buffer(const std::vector<std::byte>& bytes, std::size_t device_index = 0) const {
    auto result = Buffer::allocate(device(device_index), bytes.size());
    result.set(queue(device_index), bytes, true);
    return result;
  }
  std::vector<std::byte> read(const Buffer& from, std::size_t device_index = 0) const {
    std::vector<std::byte> bytes(from.size());
    from.get(queue(device_index), bytes);
    return bytes;
  }

  std::optional<Context> context_;
  std::optional<MultiQueue> queues_;
};

TEST_P(RectCopyHost, TwoDimensionalRegionsGoBothWaysAndBetweenBuffers) {
  const RectExtent extent{13, 7, 1};
  const RectRegion in_buffer{5, 3, 0, 40, 0};
  const RectRegion in_host{2, 1, 0, 17, 0};
  auto host = pattern(17 * 9, 1);
  auto device_bytes = pattern(40 * 12, 2);
  const auto buf = buffer(device_bytes);
  write_rect(queue(), buf, in_buffer, host, in_host, extent, true);
  reference_copy(device_bytes, in_buffer, host, in_host, extent);
  EXPECT_EQ(read(buf), device_bytes);

  std::vector<std::byte> expected_back = pattern(30 * 8, 3);
  reference_copy(expected_back, {1, 0, 0, 30, 0}, device_bytes, in_buffer, extent);
  auto got = pattern(30 * 8, 3);
  read_rect(queue(), got, {1, 0, 0, 30, 0}, buf, in_buffer, extent);
  EXPECT_EQ(got, expected_back);

  // Between buffers, the destination a sub-region at an odd offset.
  auto other_bytes = pattern(64 * 10, 4);
  const auto other = buffer(other_bytes);
  const auto sub = other.get_sub_region(3, 600);
  copy_rect(queue(), sub, {0, 2, 0, 64, 0}, buf, in_buffer, extent, true);
  std::vector<std::byte> sub_bytes(other_bytes.begin() + 3, other_bytes.begin() + 603);
  reference_copy(sub_bytes, {0, 2, 0, 64, 0}, device_bytes, in_buffer, extent);
  std::copy(sub_bytes.begin(), sub_bytes.end(), other_bytes.begin() + 3);
  EXPECT_EQ(read(other), other_bytes);

  const std::string log = rect_log();
  if (has_rect()) {
    EXPECT_EQ(log, "write_rect 13x7x1;read_rect 13x7x1;copy_rect 13x7x1;");
  } else {
    EXPECT_EQ(log, "");  // a 1.5 plugin is never asked
  }
}

TEST_P(RectCopyHost, ThreeDimensionalRegionsGoWholeOrPlaneByPlane) {
  const RectExtent extent{6, 4, 3};
  // Packed slices on the host; the buffer's slice pitch (200) a multiple of its row pitch (10)
  // for the first copy, not (205) for the second.
  auto host = pattern(6 * 4 * 3, 7);
  for (const std::size_t slice_pitch : {std::size_t{200}, std::size_t{205}}) {
    unsetenv("PLINTH_TEST_HOST_RECT");
    auto device_bytes = pattern(1000, 8);
    const auto buf = buffer(device_bytes);
    const RectRegion region{3, 2, 1, 10, slice_pitch};
    write_rect(queue(), buf, region, host, {}, extent, true);
    reference_copy(device_bytes, region, host, {}, extent);
    EXPECT_EQ(read(buf), device_bytes) << slice_pitch;
    std::vector<std::byte> back(host.size());
    read_rect(queue(), back, {}, buf, region, extent);
    EXPECT_EQ(back, host) << slice_pitch;
    if (!has_rect()) continue;
    if (slice_pitch == 200) {
      EXPECT_EQ(rect_log(), "write_rect 6x4x3;read_rect 6x4x3;");
    } else {  // refused whole: three planes each
      EXPECT_EQ(rect_log(),
                "write_rect 6x4x1;write_rect 6x4x1;write_rect 6x4x1;"
                "read_rect 6x4x1;read_rect 6x4x1;read_rect 6x4x1;");
    }
  }
}

TEST_P(RectCopyHost, PitchesTheBackendRefusesGoRowByRow) {
  setenv("PLINTH_TEST_HOST_MAX_PITCH", "32", 1);
  auto device_bytes = pattern(64 * 5, 1);
  const auto buf = buffer(device_bytes);
  const auto host = pattern(20 * 5, 2);
  const RectExtent extent{20, 5, 1};
  write_rect(queue(), buf, {4, 0, 0, 64, 0}, host, {}, extent, true);
  reference_copy(device_bytes, {4, 0, 0, 64, 0}, host, {}, extent);
  EXPECT_EQ(read(buf), device_bytes);
  EXPECT_EQ(rect_log(), "");
}

TEST_P(RectCopyHost, OverlappingRegionsOfOneBufferAreCopiedAsMemmove) {
  // A 16 x 16 byte matrix: its top-left 10 x 10 block moved by (1, 1) and back by (-2, -1),
  // and within one row (the rows' covering ranges overlap).
  auto bytes = pattern(256, 5);
  const auto buf = buffer(bytes);
  const std::vector<std::pair<RectRegion, RectRegion>> moves{{{1, 1, 0, 16, 0}, {0, 0, 0, 16, 0}},
                                                             {{0, 0, 0, 16, 0}, {2, 1, 0, 16, 0}},
                                                             {{3, 0, 0, 16, 0}, {0, 0, 0, 16, 0}}};
  for (const auto& [to, from] : moves) {
    copy_rect(queue(), buf, to, buf, from, {10, 10, 1}, true);
    reference_copy(bytes, to, bytes, from, {10, 10, 1});
    EXPECT_EQ(read(buf), bytes);
  }
  // Regions of two sub-regions of one allocation.
  const auto low = buf.get_sub_region(0, 200);
  const auto high = buf.get_sub_region(17, 200);
  copy_rect(queue(), high, {0, 0, 0, 16, 0}, low, {0, 0, 0, 16, 0}, {12, 8, 1}, true);
  std::vector<std::byte> high_bytes(bytes.begin() + 17, bytes.begin() + 217);
  std::vector<std::byte> low_bytes(bytes.begin(), bytes.begin() + 200);
  reference_copy(high_bytes, {0, 0, 0, 16, 0}, low_bytes, {0, 0, 0, 16, 0}, {12, 8, 1});
  std::copy(high_bytes.begin(), high_bytes.end(), bytes.begin() + 17);
  EXPECT_EQ(read(buf), bytes);
}

TEST_P(RectCopyHost, BadRegionsAreLogicErrorsNamingTheSide) {
  const auto buf = Buffer::allocate(device(0), 100);
  std::vector<std::byte> host(100);
  const auto expect_error = [](auto&& call, const std::string& text) {
    try {
      call();
      ADD_FAILURE() << "no error; expected " << text;
    } catch (const LogicError& error) {
      EXPECT_NE(std::string(error.what()).find(text), std::string::npos) << error.what();
    }
  };
  expect_error(
      [&] {
        write_rect(queue(), buf, {0, 9, 0, 10, 0}, host, {}, {10, 2, 1});
      },
      "write_rect: the destination buffer's region (x 0, y 9, z 0; 10 x 2 x 1 bytes, "
      "row pitch 10, slice pitch 20) reaches byte 110, past the 100 bytes there");
  expect_error(
      [&] {
        write_rect(queue(), buf, {}, host, {1, 0, 0, 0, 0}, {10, 10, 1});
      },
      "write_rect: the host source's region");
  expect_error(
      [&] {
        read_rect(queue(), host, {}, buf, {0, 0, 0, 5, 0}, {10, 2, 1});
      },
      "read_rect: the source buffer's region's row pitch 5 is smaller than the width 10");
  expect_error(
      [&] {
        read_rect(queue(), host, {0, 0, 0, 10, 15}, buf, {}, {10, 2, 2});
      },
      "read_rect: the host destination's region's slice pitch 15 is smaller");
  expect_error(
      [&] {
        copy_rect(queue(), buf, {0, 0, 0, std::size_t{1} << 62, 0}, buf, {50, 0, 0, 0, 0},
                  {1, 8, 1});
      },
      "copy_rect: the destination buffer's region's offsets and pitches overflow");
  expect_error(
      [&] {
        copy_rect(queue(), buf, {}, buf, {0, 0, 5, 10, 20}, {10, 2, 1});
      },
      "copy_rect: the source buffer's region");
  // Nothing to copy: no checks of the regions, no error.
  copy_rect(queue(), buf, {0, 500, 0, 0, 0}, buf, {}, {0, 5, 5});
  // The buffers are still usable.
  write_rect(queue(), buf, {}, host, {}, {10, 10, 1}, true);
}

TEST_P(RectCopyHost, PitchedAllocationsHaveTheBackendsPitch) {
  const auto pitched = Buffer::allocate_pitched(device(0), 100, 3, 2);
  const std::size_t pitch = has_rect() ? 256 : 100;  // hostv16's own; else the width rounded
                                                     // to address_alignment (1 here)
  EXPECT_EQ(pitched.row_pitch, pitch);
  EXPECT_EQ(pitched.slice_pitch, pitch * 3);
  EXPECT_EQ(pitched.buffer.size(), pitch * 6);
  const auto host = pattern(100 * 3 * 2, 3);
  write_rect(queue(), pitched.buffer, {0, 0, 0, pitched.row_pitch, pitched.slice_pitch}, host, {},
             {100, 3, 2}, true);
  std::vector<std::byte> back(host.size());
  read_rect(queue(), back, {}, pitched.buffer, {0, 0, 0, pitched.row_pitch, pitched.slice_pitch},
            {100, 3, 2});
  EXPECT_EQ(back, host);
  EXPECT_THROW(Buffer::allocate_pitched(device(0), 0, 3), LogicError);
  EXPECT_THROW(Buffer::allocate_pitched(device(0), 8, std::size_t{1} << 40, std::size_t{1} << 40),
               LogicError);
}

TEST_P(RectCopyHost, ArrayBoxViewsGoInOneRectangularCopy) {
  // A 9 x 11 int32 matrix (C order) and an F-order 3-D array: sub-boxes read into host
  // arrays of the same order, written back from them, copied between two device arrays.
  HostArray host = HostArray::empty({9, 11}, DType::int32());
  std::iota(host.values<std::int32_t>().begin(), host.values<std::int32_t>().end(), 1);
  const auto arr = Array::from_host(queue(), host);
  const auto box = arr.view({Slice(2, 7), Slice(3, 10)});
  unsetenv("PLINTH_TEST_HOST_RECT");
  const auto got = box.get(queue());
  EXPECT_EQ(got.to_vector<std::int32_t>(),
            host.view({Slice(2, 7), Slice(3, 10)}).copy().to_vector<std::int32_t>());
  // Written back elsewhere from a C-order host array; the bytes around stay.
  auto values = HostArray::empty({5, 7}, DType::int32());
  std::iota(values.values<std::int32_t>().begin(), values.values<std::int32_t>().end(), -40);
  arr.view({Slice(4, 9), Slice(0, 7)}).set(queue(), values, true);
  auto expected = host.copy();
  expected.view({Slice(4, 9), Slice(0, 7)}).assign(values);
  EXPECT_EQ(arr.get(queue()).to_vector<std::int32_t>(), expected.to_vector<std::int32_t>());
  // Device to device: a box into a box of another array.
  const auto other = Array::from_host(queue(), expected);
  other.view({Slice(0, 5), Slice(4, 11)}).set(queue(), box, true);
  auto expected_other = expected.copy();
  expected_other.view({Slice(0, 5), Slice(4, 11)})
      .assign(expected.view({Slice(2, 7), Slice(3, 10)}));
  EXPECT_EQ(other.get(queue()).to_vector<std::int32_t>(), expected_other.to_vector<std::int32_t>());
  // F order, 3-D: a sub-volume, into an F-order host array.
  HostArray volume = f_order({6, 5, 4}, DType::int16());
  auto fill = volume.block();
  for (std::size_t i = 0; i < fill.size(); ++i) fill[i] = std::byte(i * 13 % 256);
  const auto dev_volume = Array::empty(queue(), {6, 5, 4}, DType::int16(), Order::F);
  dev_volume.set(queue(), volume, true);
  const auto sub = dev_volume.view({Slice(1, 5), Slice(1, 4), Slice(0, 3)});
  auto sub_host = f_order({4, 3, 3}, DType::int16());
  sub.get(queue(), sub_host);
  EXPECT_EQ(sub_host.copy().to_vector<std::int16_t>(),
            volume.view({Slice(1, 5), Slice(1, 4), Slice(0, 3)}).copy().to_vector<std::int16_t>());
  if (has_rect()) {
    EXPECT_EQ(rect_log(),
              "read_rect 28x5x1;write_rect 28x5x1;copy_rect 28x5x1;"
              "write_rect 240x1x1;"  // the whole F-order array: one row
              "read_rect 8x3x3;");
  } else {
    EXPECT_EQ(rect_log(), "");
  }
}

// Run by SaysHowEachCopyWent in a child with PLINTH_DEBUG=transfer.
TEST_P(RectCopyHost, DISABLED_CopiesOfEachKind) {
  auto bytes = pattern(1000, 1);
  const auto buf = buffer(bytes);
  std::vector<std::byte> host(1000);
  read_rect(queue(), host, {}, buf, {0, 0, 0, 10, 0}, {8, 4, 1});               // whole
  read_rect(queue(), host, {}, buf, {0, 0, 0, 10, 45}, {8, 4, 2});              // planes
  copy_rect(queue(), buf, {0, 0, 0, 10, 0}, buf, {1, 0, 0, 10, 0}, {8, 4, 1});  // overlap
  setenv("PLINTH_TEST_HOST_MAX_PITCH", "5", 1);
  write_rect(queue(), buf, {0, 0, 0, 10, 0}, host, {}, {8, 4, 1}, true);  // rows
}

TEST_P(RectCopyHost, SaysHowEachCopyWent) {
  const std::string name = GetParam();
  const auto [status, output] =
      run_self("PLINTH_DEBUG=transfer", "*RectCopyHost.DISABLED_CopiesOfEachKind/" + name);
  EXPECT_EQ(status, 0) << output;
  const std::string device =
      has_rect() ? "on device 0 ('Host test device 0'): " : "on device 0 ('Host test device'): ";
  std::vector<std::string> lines;
  if (has_rect()) {
    lines = {"rectangular read of 8 x 4 x 1 bytes " + device + "the backend's copy",
             "rectangular read of 8 x 4 x 2 bytes " + device +
                 "2 planes (the backend refused the 3-D copy)",
             "rectangular copy of 8 x 4 x 1 bytes " + device +
                 "through a temporary buffer (the regions share bytes)",
             "rectangular write of 8 x 4 x 1 bytes " + device +
                 "4 rows (the backend has no rectangular copy for it)"};
  } else {
    lines = {"rectangular read of 8 x 4 x 1 bytes " + device +
                 "4 rows (the plugin predates SDK 1.6's rectangular copies)",
             "rectangular read of 8 x 4 x 2 bytes " + device + "8 rows",
             "rectangular write of 8 x 4 x 1 bytes " + device + "4 rows"};
  }
  for (const auto& line : lines)
    EXPECT_NE(output.find("plinth[transfer]: " + line), std::string::npos) << line << "\n"
                                                                           << output;
}

INSTANTIATE_TEST_SUITE_P(, RectCopyHost, testing::Values("hostv15", "hostv16"),
                         [](const auto& param) { return std::string(param.param); });

/// Between the two devices of hostv16 (copy_rect_peer) and hostv14 (no peer copy: through
/// the host).
class RectCopyPeer : public RectCopyHost {};

TEST_P(RectCopyPeer, RegionsAreCopiedBetweenDevices) {
  auto src_bytes = pattern(50 * 20, 1);
  auto dst_bytes = pattern(30 * 40, 2);
  const auto src = buffer(src_bytes, 0);
  const auto dst = buffer(dst_bytes, 1);
  const RectRegion from{4, 2, 1, 50, 250};
  const RectRegion to{1, 0, 2, 30, 300};
  const RectExtent extent{20, 3, 2};
  copy_rect(queue(1), dst, to, src, from, extent, true);
  reference_copy(dst_bytes, to, src_bytes, from, extent);
  EXPECT_EQ(read(dst, 1), dst_bytes);
  if (has_rect()) {
    EXPECT_EQ(rect_log(), "copy_rect_peer 20x3x2;");
  }
}

INSTANTIATE_TEST_SUITE_P(, RectCopyPeer, testing::Values("hostv14", "hostv16"),
                         [](const auto& param) { return std::string(param.param); });

}  // namespace
}  // namespace rect_copy_test
}  // namespace plinth
