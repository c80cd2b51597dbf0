// Buffer::fill: patterns of every size the backends' fills take (1 to 128 bytes, powers of
// two) at every alignment of a sub-region, the bytes around the region untouched, and bad
// input refused (BufferFillTest, which needs no kernel where the backend fills patterns of
// 1, 2 and 4 bytes: the fake Level Zero driver runs it too); patterns the backend's fill may
// not take and those no backend takes (3, 12, 24 bytes), filled by the kernel fallback, and
// Array fills of contiguous arrays and of views (BufferFillKernelTest).

#include "fixture.hpp"

#include <complex>
#include <cstring>

namespace plinth::conformance {
namespace buffer_fill_test {
namespace {

using BufferFillTest = DeviceTest;
using BufferFillKernelTest = DeviceTest;

/// A pattern of `size` bytes none of whose proper prefixes repeats to it: 0xA0 + k.
std::vector<std::byte> distinct(std::size_t size) {
  std::vector<std::byte> bytes(size);
  for (std::size_t k = 0; k < size; ++k) bytes[k] = std::byte(0xA0 + k);
  return bytes;
}

/// Fills [origin, origin + count patterns) of a buffer holding `pattern(total)` through a
/// sub-region and checks every byte of the buffer against the host's answer.
void check_region_fill(const Queue& queue, std::size_t total, std::size_t origin,
                       const std::vector<std::byte>& fill, std::size_t count) {
  const auto before = pattern(total, 3);
  const auto buffer = Buffer::allocate(queue.device(), total);
  buffer.set(queue, before, true);
  const std::size_t size = count * fill.size();
  buffer.get_sub_region(origin, size).fill(queue, fill);
  std::vector<std::byte> back(total);
  buffer.get(queue, back);
  auto expected = before;
  for (std::size_t k = 0; k < size; ++k) expected[origin + k] = fill[k % fill.size()];
  for (std::size_t k = 0; k < total; ++k) {
    ASSERT_EQ(back[k], expected[k]) << "byte " << k << " of a fill of " << count << " "
                                    << fill.size() << "-byte patterns at " << origin;
  }
}

void check_every_origin(const Queue& queue, std::size_t pattern_size) {
  const auto fill = distinct(pattern_size);
  for (std::size_t origin :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5},
        pattern_size / 2, pattern_size + 1, std::size_t{130}}) {
    for (std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{1000}}) {
      check_region_fill(queue, 140 + 1000 * pattern_size, origin, fill, count);
    }
  }
}

TEST_P(BufferFillTest, PatternsOfOneTwoAndFourBytesAtEveryOrigin) {
  for (std::size_t size : {1, 2, 4}) check_every_origin(queue(), size);
}

TEST_P(BufferFillTest, AWholeBufferAndTheValueForm) {
  const auto buffer = Buffer::allocate(device(), 4096);
  buffer.fill(queue(), 1.5f);
  std::vector<float> back(1024);
  buffer.get(queue(), std::as_writable_bytes(std::span(back)));
  EXPECT_EQ(back, std::vector<float>(1024, 1.5f));
  buffer.fill(queue(), std::uint16_t{0xBEEF});
  std::vector<std::uint16_t> shorts(2048);
  buffer.get(queue(), std::as_writable_bytes(std::span(shorts)));
  EXPECT_EQ(shorts, std::vector<std::uint16_t>(2048, 0xBEEF));
}

TEST_P(BufferFillTest, ALongPatternRepeatingAShortOneIsTheShortOne) {
  // 16 bytes of one value: a 1-byte fill wherever the backend's fill takes 1 byte.
  check_region_fill(queue(), 4096, 3, std::vector<std::byte>(16, std::byte{0x5A}), 200);
  std::vector<std::byte> halves(8);
  for (std::size_t k = 0; k < 8; ++k) halves[k] = std::byte(k % 2 == 0 ? 0x12 : 0x34);
  check_region_fill(queue(), 4096, 1, halves, 300);
}

TEST_P(BufferFillTest, BadPatternsAreRefused) {
  const auto buffer = Buffer::allocate(device(), 256);
  EXPECT_NE(logic_error_message([&] {
              buffer.fill(queue(), std::span<const std::byte>());
            }).find("the pattern is empty"),
            std::string::npos);
  const std::vector<std::byte> three(3);
  EXPECT_NE(logic_error_message([&] {
              buffer.fill(queue(), three);
            }).find("256 bytes are not a whole number of 3-byte patterns"),
            std::string::npos);
  const std::vector<std::byte> long_one(256);
  EXPECT_NE(logic_error_message([&] {
              buffer.fill(queue(), long_one);
            }).find("the pattern has 256 bytes, more than the 128 a fill takes"),
            std::string::npos);
  // Nothing was written and the buffer still works.
  buffer.fill(queue(), std::byte{7});
  std::vector<std::byte> back(256);
  buffer.get(queue(), back);
  EXPECT_EQ(back, std::vector<std::byte>(256, std::byte{7}));
}

TEST_P(BufferFillTest, AFillIsOrderedBetweenTransfersInTheQueue) {
  const auto buffer = Buffer::allocate(device(), 1 << 20);
  const auto data = pattern(1 << 20, 9);
  buffer.set(queue(), data);  // asynchronous
  buffer.get_sub_region(4, 64).fill(queue(), std::uint32_t{0xDEADBEEF});
  std::vector<std::byte> back(1 << 20);
  buffer.get(queue(), back);
  auto expected = data;
  for (std::size_t k = 4; k < 68; k += 4) {
    const std::uint32_t value = 0xDEADBEEF;
    std::memcpy(expected.data() + k, &value, 4);
  }
  EXPECT_EQ(back, expected);
}

TEST_P(BufferFillKernelTest, PatternsOfEightTo128BytesAtEveryOrigin) {
  for (std::size_t size : {8, 16, 32, 64, 128}) check_every_origin(queue(), size);
}

TEST_P(BufferFillKernelTest, PatternsNoBackendFillTakesGoThroughAKernel) {
  // 3, 12 and 24 bytes: a float3, three int32s, three doubles.
  for (std::size_t size : {3, 6, 12, 24, 40}) check_every_origin(queue(), size);
}

TEST_P(BufferFillKernelTest, ContiguousArraysInEveryDtypeAndOrder) {
  const std::vector<std::size_t> shape{37, 5};
  const auto check = [&](const Array& array, const auto value) {
    using T = std::decay_t<decltype(value)>;
    fill(queue(), array, value);
    EXPECT_EQ(array.get(queue()).template to_vector<T>(),
              std::vector<T>(shape[0] * shape[1], value))
        << array.dtype().name();
  };
  for (const Order order : {Order::C, Order::F}) {
    check(Array::empty(queue(), shape, DType::int8(), order), std::int8_t{-3});
    check(Array::empty(queue(), shape, DType::uint16(), order), std::uint16_t{0x1234});
    check(Array::empty(queue(), shape, DType::int32(), order), std::int32_t{-7});
    check(Array::empty(queue(), shape, DType::float32(), order), 0.25f);
    check(Array::empty(queue(), shape, DType::float32(), order), -0.0f);
    check(Array::empty(queue(), shape, DType::int64(), order), std::int64_t{-2});
    check(Array::empty(queue(), shape, DType::uint64(), order), std::uint64_t{1} << 63);
    check(Array::empty(queue(), shape, DType::complex64(), order), std::complex<float>(1, -2));
    if (device().params().supports_double) {
      check(Array::empty(queue(), shape, DType::float64(), order), 3.0);
      check(Array::empty(queue(), shape, DType::complex128(), order), std::complex<double>(0, 4));
    }
  }
  const auto flags = Array::empty(queue(), {1001}, DType::boolean());
  fill(queue(), flags, 5);  // true
  const auto bools = flags.get(queue());
  for (std::size_t k = 0; k < 1001; ++k) EXPECT_EQ(bools.data()[k], std::byte{1}) << k;
}

TEST_P(BufferFillKernelTest, AStridedViewKeepsTheElementsBetweenItsOwn) {
  const auto base =
      Array::from_host(queue(), HostArray::from_values(std::vector<std::int32_t>(64, 9), {8, 8}));
  const auto every_other = base.view({Slice(1, 8, 2), Slice(0, 8, 3)});
  fill(queue(), every_other, 5);
  const auto back = base.get(queue()).to_vector<std::int32_t>();
  for (std::size_t r = 0; r < 8; ++r) {
    for (std::size_t c = 0; c < 8; ++c) {
      EXPECT_EQ(back[r * 8 + c], r % 2 == 1 && c % 3 == 0 ? 5 : 9) << r << ", " << c;
    }
  }
  // A contiguous view at an odd element offset: only its own bytes.
  const auto row = base.view({2, Slice(1, 7)});
  fill(queue(), row, -1);
  const auto after = base.get(queue()).to_vector<std::int32_t>();
  for (std::size_t c = 0; c < 8; ++c) EXPECT_EQ(after[16 + c], c >= 1 && c < 7 ? -1 : 9) << c;
}

PLINTH_INSTANTIATE_DEVICE_TEST(BufferFillTest);
PLINTH_INSTANTIATE_DEVICE_TEST(BufferFillKernelTest);

}  // namespace
}  // namespace buffer_fill_test
}  // namespace plinth::conformance
