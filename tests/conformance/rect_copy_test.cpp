// Rectangular copies (rect_copy.hpp): 2-D and 3-D regions between host memory and buffers and
// between buffers (sub-regions at unaligned offsets, overlapping regions as memmove, between
// the devices of a context), the checks of their regions, pitched allocations, and Array
// transfers of box-shaped views (sub-matrices and sub-volumes, C and F order, into ordinary and
// page-locked host arrays), each against a byte-by-byte host reference.

#include "fixture.hpp"
#include "page_locked_support.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace plinth::conformance {
namespace rect_copy_test {
namespace {

using RectCopyTest = DeviceTest;
using RectCopyMultiDevice = MultiDeviceTest;

/// What a rectangular copy does, byte by byte (the source as it was: memmove).
void reference_copy(std::vector<std::byte>& dst, const RectRegion& d,
                    const std::vector<std::byte>& src, const RectRegion& s, const RectExtent& e) {
  const std::size_t drow = d.row_pitch ? d.row_pitch : e.width_bytes;
  const std::size_t dslice = d.slice_pitch ? d.slice_pitch : drow * e.height;
  const std::size_t srow = s.row_pitch ? s.row_pitch : e.width_bytes;
  const std::size_t sslice = s.slice_pitch ? s.slice_pitch : srow * e.height;
  const auto before = src;
  for (std::size_t z = 0; z < e.depth; ++z)
    for (std::size_t y = 0; y < e.height; ++y)
      for (std::size_t x = 0; x < e.width_bytes; ++x)
        dst.at(d.x_bytes + x + (d.y + y) * drow + (d.z + z) * dslice) =
            before.at(s.x_bytes + x + (s.y + y) * srow + (s.z + z) * sslice);
}

Buffer filled(const Queue& queue, const std::vector<std::byte>& bytes) {
  auto buffer = Buffer::allocate(queue.device(), bytes.size());
  buffer.set(queue, bytes, true);
  return buffer;
}

std::vector<std::byte> contents(const Queue& queue, const Buffer& buffer) {
  std::vector<std::byte> bytes(buffer.size());
  buffer.get(queue, bytes);
  return bytes;
}

TEST_P(RectCopyTest, TwoDimensionalRegionsToAndFromTheHost) {
  // A 100 x 30 region of a 1000-byte-pitch buffer, from a host array with pitch 130.
  const RectExtent extent{100, 30, 1};
  const RectRegion in_buffer{17, 5, 0, 1000, 0};
  const RectRegion in_host{3, 2, 0, 130, 0};
  const auto host = pattern(130 * 40, 1);
  auto expected = pattern(1000 * 40, 2);
  const auto buffer = filled(queue(), expected);
  write_rect(queue(), buffer, in_buffer, host, in_host, extent, true);
  reference_copy(expected, in_buffer, host, in_host, extent);
  EXPECT_EQ(contents(queue(), buffer), expected);
  auto back = pattern(120 * 31, 3);
  auto expected_back = back;
  read_rect(queue(), back, {7, 1, 0, 120, 0}, buffer, in_buffer, extent);
  reference_copy(expected_back, {7, 1, 0, 120, 0}, expected, in_buffer, extent);
  EXPECT_EQ(back, expected_back);
  // Asynchronous both ways, complete at synchronize().
  const auto other = pattern(100 * 30, 4);
  write_rect(queue(), buffer, in_buffer, other, {}, extent);
  std::vector<std::byte> packed(100 * 30);
  read_rect(queue(), packed, {}, buffer, in_buffer, extent, true);
  queue().synchronize();
  EXPECT_EQ(packed, other);
}

TEST_P(RectCopyTest, ThreeDimensionalRegionsWhateverTheSlicePitch) {
  const RectExtent extent{24, 5, 4};
  const auto host = pattern(24 * 5 * 4, 5);
  // A slice pitch of whole rows, and one that is not (which CUDA's and OpenCL's 3-D copies
  // cannot describe: the core copies plane by plane).
  for (const std::size_t slice_pitch : {std::size_t{64 * 6}, std::size_t{64 * 6 + 8}}) {
    SCOPED_TRACE(slice_pitch);
    auto expected = pattern(4096, 6);
    const auto buffer = filled(queue(), expected);
    const RectRegion region{8, 1, 2, 64, slice_pitch};
    write_rect(queue(), buffer, region, host, {}, extent, true);
    reference_copy(expected, region, host, {}, extent);
    EXPECT_EQ(contents(queue(), buffer), expected);
    std::vector<std::byte> back(host.size());
    read_rect(queue(), back, {}, buffer, region, extent);
    EXPECT_EQ(back, host);
  }
}

TEST_P(RectCopyTest, BetweenBuffersAndSubRegionsAtAnyOffset) {
  auto src_bytes = pattern(300 * 20, 7);
  auto dst_bytes = pattern(5000, 8);
  const auto src = filled(queue(), src_bytes);
  const auto dst = filled(queue(), dst_bytes);
  // Sub-regions at offsets no OpenCL sub-buffer may start at.
  const auto src_sub = src.get_sub_region(3, 300 * 19);
  const auto dst_sub = dst.get_sub_region(5, 4000);
  const RectExtent extent{37, 6, 3};
  const RectRegion from{11, 1, 0, 300, 300 * 6};
  const RectRegion to{1, 2, 1, 50, 50 * 9};
  copy_rect(queue(), dst_sub, to, src_sub, from, extent, true);
  std::vector<std::byte> sub_dst(dst_bytes.begin() + 5, dst_bytes.begin() + 4005);
  const std::vector<std::byte> sub_src(src_bytes.begin() + 3, src_bytes.begin() + 3 + 300 * 19);
  reference_copy(sub_dst, to, sub_src, from, extent);
  std::copy(sub_dst.begin(), sub_dst.end(), dst_bytes.begin() + 5);
  EXPECT_EQ(contents(queue(), dst), dst_bytes);
}

TEST_P(RectCopyTest, OverlappingRegionsAreCopiedAsMemmove) {
  // A 64 x 64 byte matrix: a 40 x 40 block moved down-right, up-left, and right within rows.
  auto bytes = pattern(64 * 64, 9);
  const auto buffer = filled(queue(), bytes);
  const RectExtent extent{40, 40, 1};
  const std::vector<std::pair<RectRegion, RectRegion>> moves{{{3, 2, 0, 64, 0}, {0, 0, 0, 64, 0}},
                                                             {{0, 0, 0, 64, 0}, {5, 7, 0, 64, 0}},
                                                             {{1, 0, 0, 64, 0}, {0, 0, 0, 64, 0}}};
  for (const auto& [to, from] : moves) {
    copy_rect(queue(), buffer, to, buffer, from, extent, true);
    reference_copy(bytes, to, bytes, from, extent);
    EXPECT_EQ(contents(queue(), buffer), bytes);
  }
}

TEST_P(RectCopyTest, RegionsOutsideTheirBuffersAreLogicErrors) {
  const auto buffer = Buffer::allocate(device(), 1000);
  std::vector<std::byte> host(1000);
  EXPECT_NE(logic_error_message([&] {
              write_rect(queue(), buffer, {0, 0, 0, 100, 0}, host, {}, {100, 11, 1});
            }).find("write_rect: the destination buffer's region"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              read_rect(queue(), host, {0, 1, 0, 100, 0}, buffer, {}, {100, 10, 1});
            }).find("read_rect: the host destination's region"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              copy_rect(queue(), buffer, {}, buffer.get_sub_region(500, 500), {0, 0, 0, 0, 0},
                        {100, 6, 1});
            }).find("copy_rect: the source buffer's region"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              copy_rect(queue(), buffer, {0, 0, 0, 50, 0}, buffer, {}, {100, 2, 1});
            }).find("row pitch 50 is smaller than the width 100"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              copy_rect(queue(), buffer, {0, 0, 0, 0, 0}, buffer, {0, 0, 0, 0, ~std::size_t{0}},
                        {1, 1, 2});
            }).find("overflow"),
            std::string::npos);
  // The buffer is still usable.
  write_rect(queue(), buffer, {}, host, {}, {100, 10, 1}, true);
}

TEST_P(RectCopyTest, PitchedAllocationsHoldTheirRows) {
  const auto pitched = Buffer::allocate_pitched(device(), 1000, 7, 3);
  EXPECT_GE(pitched.row_pitch, 1000u);
  EXPECT_EQ(pitched.slice_pitch, pitched.row_pitch * 7);
  EXPECT_GE(pitched.buffer.size(), pitched.row_pitch * 21);
  const auto host = pattern(1000 * 7 * 3, 10);
  const RectRegion region{0, 0, 0, pitched.row_pitch, pitched.slice_pitch};
  write_rect(queue(), pitched.buffer, region, host, {}, {1000, 7, 3}, true);
  std::vector<std::byte> back(host.size());
  read_rect(queue(), back, {}, pitched.buffer, region, {1000, 7, 3});
  EXPECT_EQ(back, host);
  EXPECT_NE(logic_error_message([&] {
              Buffer::allocate_pitched(device(), 16, 0);
            }).find("greater than 0"),
            std::string::npos);
}

/// An F-order host array.
HostArray f_order(const std::vector<std::size_t>& shape, const DType& dtype) {
  return HostArray::empty(ArrayMetadata(
      shape, dtype, ArrayMetadata::default_strides(shape, dtype.itemsize(), Order::F)));
}

TEST_P(RectCopyTest, ArrayBoxViewsToAndFromHostArrays) {
  HostArray matrix = HostArray::empty({40, 50}, DType::float32());
  std::iota(matrix.values<float>().begin(), matrix.values<float>().end(), 0.5f);
  const auto arr = Array::from_host(queue(), matrix);
  // A sub-matrix into a new C-order array and into a page-locked one.
  const auto box = arr.view({Slice(3, 33), Slice(7, 48)});
  const auto expected = matrix.view({Slice(3, 33), Slice(7, 48)}).copy().to_vector<float>();
  EXPECT_EQ(box.get(queue()).to_vector<float>(), expected);
  if (!lacks_page_locked(context())) {
    auto pinned = HostArray::page_locked(context(), {30, 41}, DType::float32());
    box.get(queue(), pinned, true);
    queue().synchronize();
    EXPECT_EQ(pinned.to_vector<float>(), expected);
  }
  // Strided rows (every third row) from a C-order host array; the rows between keep theirs.
  auto values = HostArray::empty({10, 20}, DType::float32());
  std::iota(values.values<float>().begin(), values.values<float>().end(), -100.0f);
  arr.view({Slice(5, 35, 3), Slice(30, 50)}).set(queue(), values, true);
  auto updated = matrix.copy();
  updated.view({Slice(5, 35, 3), Slice(30, 50)}).assign(values);
  EXPECT_EQ(arr.get(queue()).to_vector<float>(), updated.to_vector<float>());
  // One box into another of a second array (on the device).
  const auto other = Array::from_host(queue(), matrix);
  other.view({Slice(0, 30), Slice(0, 41)}).set(queue(), box, true);
  auto expected_other = matrix.copy();
  expected_other.view({Slice(0, 30), Slice(0, 41)})
      .assign(updated.view({Slice(3, 33), Slice(7, 48)}));
  EXPECT_EQ(other.get(queue()).to_vector<float>(), expected_other.to_vector<float>());
}

TEST_P(RectCopyTest, ArrayBoxViewsInFOrderAndThreeDimensions) {
  // An F-order 3-D int16 array: a sub-volume into an F-order host array and back.
  HostArray volume = f_order({12, 9, 7}, DType::int16());
  auto block = volume.block();
  for (std::size_t i = 0; i < block.size(); ++i) block[i] = std::byte((i * 29 + 3) % 256);
  const auto arr = Array::empty(queue(), {12, 9, 7}, DType::int16(), Order::F);
  arr.set(queue(), volume, true);
  const std::vector<Index> sub{Slice(2, 11), Slice(1, 8), Slice(3, 7)};
  auto got = f_order({9, 7, 4}, DType::int16());
  arr.view(sub).get(queue(), got);
  EXPECT_EQ(got.copy().to_vector<std::int16_t>(),
            volume.view(sub).copy().to_vector<std::int16_t>());
  // Written back negated; a C-order host array (not the same box layout) still works.
  auto negated = got.copy();
  for (auto& v : negated.values<std::int16_t>()) v = static_cast<std::int16_t>(-v);
  auto negated_f = f_order({9, 7, 4}, DType::int16());
  negated_f.assign(negated);
  arr.view(sub).set(queue(), negated_f, true);
  auto expected = volume.copy();
  expected.view(sub).assign(negated);
  auto whole = f_order({12, 9, 7}, DType::int16());
  arr.get(queue(), whole);
  EXPECT_EQ(whole.copy().to_vector<std::int16_t>(), expected.copy().to_vector<std::int16_t>());
  auto c_order = HostArray::empty({9, 7, 4}, DType::int16());
  arr.view(sub).get(queue(), c_order);
  EXPECT_EQ(c_order.to_vector<std::int16_t>(), negated.to_vector<std::int16_t>());
}

TEST_P(RectCopyMultiDevice, RegionsAreCopiedBetweenDevices) {
  const auto devices = context().devices();
  const Queue q0(devices[0]);
  const Queue q1(devices[1]);
  auto src_bytes = pattern(256 * 40, 11);
  auto dst_bytes = pattern(100 * 80, 12);
  const auto src = filled(q0, src_bytes);
  const auto dst = filled(q1, dst_bytes);
  q1.wait_for(q0.record_event());
  const RectRegion from{9, 2, 1, 256, 256 * 12};
  const RectRegion to{3, 1, 2, 100, 100 * 20 + 4};
  const RectExtent extent{90, 10, 2};
  copy_rect(q1, dst, to, src, from, extent, true);
  reference_copy(dst_bytes, to, src_bytes, from, extent);
  EXPECT_EQ(contents(q1, dst), dst_bytes);
}

PLINTH_INSTANTIATE_DEVICE_TEST(RectCopyTest);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(RectCopyMultiDevice);

}  // namespace
}  // namespace rect_copy_test
}  // namespace plinth::conformance
