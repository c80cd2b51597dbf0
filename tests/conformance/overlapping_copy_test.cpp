// Copies between overlapping parts of one allocation (Buffer::set, Array::set, copy_into)
// against a host memmove: the destination gets the source as it was before the copy, as
// memmove gives. Shifts forward and backward, by one element and by more, of whole buffers
// and of parts, contiguous and strided (reversed too), through views of one array and through
// arrays over different sub-regions of one buffer (whose own offsets may be equal although
// their elements differ).

#include "fixture.hpp"

#include <plinth/array_shape.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace plinth::conformance {
namespace overlapping_copy_test {
namespace {

using OverlappingCopyTest = DeviceTest;

const DType i32 = DType::int32();

// Bytes [origin, origin + size) of `buffer`, or the buffer itself for all of it.
Buffer region(const Buffer& buffer, std::size_t origin, std::size_t size) {
  if (origin == 0 && size == buffer.size()) return buffer;
  return buffer.get_sub_region(origin, size);
}

TEST_P(OverlappingCopyTest, BufferSetIsAMemmove) {
  const std::size_t n = 4096;
  struct Case {
    std::size_t dst, src, size;
  };
  const std::vector<Case> cases{
      {1, 0, n - 1},     {0, 1, n - 1},      // whole, by one byte
      {8, 0, n - 8},     {0, 8, n - 8},      // whole, by one 8-byte element
      {1000, 37, 2000},  {37, 1000, 2000},   // parts, shifted by less than their size
      {2000, 100, 1990}, {100, 2000, 1990},  // parts, shifted by most of their size
      {5, 5, 3000},                          // the same bytes
  };
  const auto bytes = pattern(n, 3);
  const auto buffer = Buffer::allocate(device(), n);
  for (const bool no_async : {false, true}) {
    for (const auto& c : cases) {
      SCOPED_TRACE(fmt::format("dst {} src {} size {}{}", c.dst, c.src, c.size,
                               no_async ? " no_async" : ""));
      buffer.set(queue(), bytes, true);
      region(buffer, c.dst, c.size).set(queue(), region(buffer, c.src, c.size), no_async);
      std::vector<std::byte> got(n);
      buffer.get(queue(), got);
      auto expected = bytes;
      std::memmove(expected.data() + c.dst, expected.data() + c.src, c.size);
      EXPECT_EQ(got, expected);
    }
  }
}

// The elements a 1-D view names: `count` from `begin`, `step` apart (in elements).
struct Part {
  std::ptrdiff_t begin;
  std::ptrdiff_t step;
};

struct ElementCase {
  Part dst, src;
  std::size_t count;
};

// A view of `count` int32 elements of `buffer` as `part` names them, over the sub-region from
// `origin` bytes (a multiple of `alignment` at or below every element) to the end.
Array view_of(const Buffer& buffer, const Part& part, std::size_t count, bool sub_region,
              std::size_t alignment) {
  const auto last = part.begin + part.step * static_cast<std::ptrdiff_t>(count - 1);
  const auto lowest = static_cast<std::size_t>(std::min(part.begin, last)) * 4;
  const std::size_t origin = sub_region ? lowest / alignment * alignment : 0;
  const auto base = region(buffer, origin, buffer.size() - origin);
  return Array::from_buffer(
      base, ArrayMetadata({count}, i32, std::vector<std::ptrdiff_t>{part.step * 4},
                          static_cast<std::size_t>(part.begin) * 4 - origin, base.size()));
}

// Every case through `copy(dst, src)`, with both views over the whole buffer and with each
// over a sub-region of its own.
template <class Copy>
void check_element_copies(const Queue& queue, Copy copy) {
  const auto& params = queue.device().params();
  // Sub-region origins a kernel argument may have (OpenCL), in whole elements.
  const std::size_t alignment = std::max<std::size_t>(params.address_alignment, 4) / 4 * 4;
  const auto a = static_cast<std::ptrdiff_t>(alignment / 4);
  const auto n = static_cast<std::size_t>(4 * a + 1000);
  const auto m = static_cast<std::ptrdiff_t>(n);
  const std::vector<ElementCase> cases{
      {{1, 1}, {0, 1}, n - 1},               // whole, forward by one element
      {{0, 1}, {1, 1}, n - 1},               // whole, backward by one
      {{a, 1}, {0, 1}, n - a},               // by one alignment: equal offsets in sub-regions
      {{0, 1}, {a, 1}, n - a},               //
      {{a + 3, 1}, {5, 1}, 700},             // parts
      {{5, 1}, {a + 3, 1}, 700},             //
      {{2, 2}, {0, 2}, (n - 2) / 2},         // strided, forward
      {{0, 2}, {2, 2}, (n - 2) / 2},         // strided, backward
      {{a + 4, 3}, {a, 3}, 300},             // strided parts
      {{0, 1}, {m - 1, -1}, n},              // reversed onto itself
      {{2 * a, 1}, {2 * a + 200, -1}, 150},  // reversed, partly overlapping
      {{7, 1}, {7, 1}, 500},                 // the same elements
  };
  std::vector<std::int32_t> values(n);
  for (std::size_t k = 0; k < n; ++k) values[k] = static_cast<std::int32_t>(k * 7 + 1);
  const auto whole = Array::from_host(queue, HostArray::from_values(values));
  for (const bool sub_regions : {false, true}) {
    for (const auto& c : cases) {
      SCOPED_TRACE(fmt::format("dst [{}::{}] src [{}::{}] count {}{}", c.dst.begin, c.dst.step,
                               c.src.begin, c.src.step, c.count,
                               sub_regions ? ", in sub-regions" : ""));
      whole.set(queue, HostArray::from_values(values), true);
      const auto& buffer = whole.base_buffer();
      copy(view_of(buffer, c.dst, c.count, sub_regions, alignment),
           view_of(buffer, c.src, c.count, sub_regions, alignment));
      auto expected = values;
      std::vector<std::int32_t> source(c.count);
      for (std::size_t k = 0; k < c.count; ++k) {
        source[k] = values[static_cast<std::size_t>(c.src.begin + c.src.step * std::ptrdiff_t(k))];
      }
      for (std::size_t k = 0; k < c.count; ++k) {
        expected[static_cast<std::size_t>(c.dst.begin + c.dst.step * std::ptrdiff_t(k))] =
            source[k];
      }
      const auto got = whole.get(queue).to_vector<std::int32_t>();
      std::size_t wrong = 0;
      for (std::size_t k = 0; k < n; ++k) wrong += got[k] == expected[k] ? 0 : 1;
      EXPECT_EQ(wrong, 0u);
    }
  }
}

TEST_P(OverlappingCopyTest, ArraySetIsAMemmove) {
  check_element_copies(queue(), [&](const Array& dst, const Array& src) {
    dst.set(queue(), src);
    queue().synchronize();
  });
}

TEST_P(OverlappingCopyTest, CopyIntoIsAMemmove) {
  check_element_copies(queue(), [&](const Array& dst, const Array& src) {
    copy_into(queue(), dst, src);
    queue().synchronize();
  });
}

// A 2-D case: rows shifted down by one onto their own array, and a transposed square onto
// itself (every element moves but the diagonal).
TEST_P(OverlappingCopyTest, CopyIntoShiftsRowsAndTransposesInPlace) {
  const std::size_t rows = 37, cols = 53;
  std::vector<std::int32_t> values(rows * cols);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<std::int32_t>(k);
  const auto x = Array::from_host(queue(), HostArray::from_values(values, {rows, cols}));
  copy_into(queue(), x.view({Slice(1, std::nullopt), Slice::all()}),
            x.view({Slice(0, -1), Slice::all()}));
  auto expected = values;
  std::memmove(expected.data() + cols, expected.data(), (rows - 1) * cols * sizeof(std::int32_t));
  EXPECT_EQ(x.get(queue()).to_vector<std::int32_t>(), expected);

  const std::size_t side = 41;
  std::vector<std::int32_t> square(side * side);
  for (std::size_t k = 0; k < square.size(); ++k) square[k] = static_cast<std::int32_t>(k);
  const auto s = Array::from_host(queue(), HostArray::from_values(square, {side, side}));
  copy_into(queue(), s, transposed_view(s));
  std::vector<std::int32_t> transposed(square.size());
  for (std::size_t r = 0; r < side; ++r) {
    for (std::size_t c = 0; c < side; ++c) transposed[r * side + c] = square[c * side + r];
  }
  EXPECT_EQ(s.get(queue()).to_vector<std::int32_t>(), transposed);
}

PLINTH_INSTANTIATE_DEVICE_TEST(OverlappingCopyTest);

}  // namespace
}  // namespace overlapping_copy_test
}  // namespace plinth::conformance
