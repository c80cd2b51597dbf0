// Strided host copies (core/arrays/strided.hpp) between C-order, transposed, reversed and
// gappy layouts, checked element by element against a plain loop over every index.

#include "arrays/strided.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace plinth::detail {
namespace strided_test {
namespace {

constexpr std::byte sentinel{0xEE};
constexpr std::size_t guard = 32;  // sentinel bytes before and after every layout's block

/// An array's layout in a block of bytes that has `guard` sentinel bytes on each side.
struct Layout {
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> strides;  // bytes
  std::size_t first = 0;                // byte offset of element (0, ..., 0) in the block
  std::size_t block = 0;                // bytes of the block
  std::size_t itemsize = 0;
  std::string name;
};

/// How to lay an array out: the order of the dimensions from innermost to outermost
/// (empty: C order), the element pitch in items (1: packed), padding bytes after each
/// dimension's run, and which dimensions run backwards.
struct Recipe {
  std::string name;
  bool transposed = false;     // innermost dimension is dimension 0 (Fortran order)
  std::size_t item_pitch = 1;  // 2: one unused item after every element
  std::size_t padding = 0;     // extra bytes after each row of each dimension
  bool reverse_outermost = false;
  bool reverse_all = false;
};

Layout make_layout(const std::vector<std::size_t>& shape, std::size_t itemsize,
                   const Recipe& recipe) {
  Layout layout;
  layout.shape = shape;
  layout.itemsize = itemsize;
  layout.name = recipe.name;
  const std::size_t ndim = shape.size();
  std::vector<std::size_t> order(ndim);  // innermost first
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (!recipe.transposed) std::reverse(order.begin(), order.end());
  std::vector<std::size_t> magnitude(ndim);
  std::size_t running = itemsize * recipe.item_pitch;
  for (const auto d : order) {
    magnitude[d] = running;
    running = running * std::max<std::size_t>(shape[d], 1) + recipe.padding;
  }
  layout.strides.resize(ndim);
  std::size_t last = 0;  // offset of the highest element from the lowest
  for (std::size_t d = 0; d < ndim; ++d) {
    const bool reversed = recipe.reverse_all || (recipe.reverse_outermost && d == 0);
    const std::size_t reach = magnitude[d] * (std::max<std::size_t>(shape[d], 1) - 1);
    last += reach;
    layout.strides[d] = static_cast<std::ptrdiff_t>(magnitude[d]) * (reversed ? -1 : 1);
    if (reversed) layout.first += reach;
  }
  layout.block = last + itemsize;
  return layout;
}

/// A block with guards: sentinel everywhere, or a distinct byte pattern (never the sentinel)
/// inside the block.
std::vector<std::byte> make_block(const Layout& layout, bool pattern) {
  std::vector<std::byte> bytes(layout.block + 2 * guard, sentinel);
  if (pattern) {
    for (std::size_t i = 0; i < layout.block; ++i) {
      // A hash of the position, so that a misplaced element shows.
      const auto value = static_cast<std::uint8_t>((i * 2654435761u) >> 11);
      bytes[guard + i] = value == 0xEE ? std::byte{0} : static_cast<std::byte>(value);
    }
  }
  return bytes;
}

/// Calls `f(src_offset, dst_offset)` for every element, with the offsets of its first byte in
/// the two blocks (guards included): the reference loop.
template <class F>
void for_each_element(const Layout& src, const Layout& dst, F f) {
  const std::size_t ndim = src.shape.size();
  for (const auto extent : src.shape) {
    if (extent == 0) return;
  }
  std::vector<std::size_t> index(ndim, 0);
  while (true) {
    auto s = static_cast<std::ptrdiff_t>(guard + src.first);
    auto d = static_cast<std::ptrdiff_t>(guard + dst.first);
    for (std::size_t k = 0; k < ndim; ++k) {
      s += static_cast<std::ptrdiff_t>(index[k]) * src.strides[k];
      d += static_cast<std::ptrdiff_t>(index[k]) * dst.strides[k];
    }
    f(static_cast<std::size_t>(s), static_cast<std::size_t>(d));
    std::size_t k = ndim;
    while (k > 0 && ++index[k - 1] == src.shape[k - 1]) index[--k] = 0;
    if (k == 0) return;
  }
}

/// copy_strided from `src` to `dst`, then every element of dst compared with its source
/// element, and every other byte of dst (gaps, guards) checked to be untouched.
testing::AssertionResult copies_like_the_reference(const Layout& src, const Layout& dst) {
  const auto src_bytes = make_block(src, true);
  auto dst_bytes = make_block(dst, false);
  copy_strided(dst_bytes.data() + guard + dst.first, dst.strides,
               src_bytes.data() + guard + src.first, src.strides, src.shape, src.itemsize);

  std::vector<bool> written(dst_bytes.size(), false);
  std::size_t element = 0;
  std::string failure;
  for_each_element(src, dst, [&](std::size_t s, std::size_t d) {
    if (failure.empty() &&
        std::memcmp(dst_bytes.data() + d, src_bytes.data() + s, src.itemsize) != 0) {
      failure = "element " + std::to_string(element) + " (dst byte " + std::to_string(d) +
                ") differs from its source (src byte " + std::to_string(s) + ")";
    }
    std::fill_n(written.begin() + static_cast<std::ptrdiff_t>(d), src.itemsize, true);
    ++element;
  });
  for (std::size_t i = 0; failure.empty() && i < dst_bytes.size(); ++i) {
    if (!written[i] && dst_bytes[i] != sentinel) {
      failure = "byte " + std::to_string(i) + " outside every element was written";
    }
  }
  if (failure.empty()) return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << src.name << " -> " << dst.name << ", itemsize " << src.itemsize << ": " << failure;
}

const std::vector<Recipe>& recipes() {
  static const std::vector<Recipe> all{
      {.name = "C order"},
      {.name = "transposed", .transposed = true},
      {.name = "gappy elements", .item_pitch = 2},
      {.name = "padded rows", .padding = 5},
      {.name = "outermost reversed", .reverse_outermost = true},
      {.name = "all reversed", .reverse_all = true},
      {.name = "transposed, reversed, gappy",
       .transposed = true,
       .item_pitch = 3,
       .padding = 1,
       .reverse_all = true},
  };
  return all;
}

const std::vector<std::size_t> itemsizes{1, 2, 3, 4, 8, 16};

// --- Every pair of layouts ------------------------------------------------------------------

TEST(StridedCopyLayouts, EveryPairOfLayoutsCopiesEveryElement) {
  const std::vector<std::vector<std::size_t>> shapes{{1},    {7},       {3, 4},    {4, 1},
                                                     {1, 5}, {2, 3, 4}, {3, 1, 2}, {2, 2, 2, 3}};
  for (const auto& shape : shapes) {
    for (const auto itemsize : itemsizes) {
      for (const auto& from : recipes()) {
        for (const auto& to : recipes()) {
          EXPECT_TRUE(copies_like_the_reference(make_layout(shape, itemsize, from),
                                                make_layout(shape, itemsize, to)))
              << "shape of " << shape.size() << " dimension(s), first extent " << shape[0];
        }
      }
    }
  }
}

TEST(StridedCopyLayouts, ContiguousRowsOnBothSidesAreCopiedWhole) {
  // The fast path (one memcpy per row) against the reference, for long rows.
  for (const auto itemsize : itemsizes) {
    const auto layout = make_layout({3, 257}, itemsize, {.name = "C order"});
    EXPECT_TRUE(copies_like_the_reference(layout, layout));
    EXPECT_TRUE(copies_like_the_reference(
        layout, make_layout({3, 257}, itemsize, {.name = "padded", .padding = 3})));
  }
}

// --- Hand-checked values, independent of the reference loop ---------------------------------

TEST(StridedCopyValues, TransposedSourceIsGatheredInCOrder) {
  // src is a 2x3 int32 matrix in Fortran order: memory holds a00 a10 a01 a11 a02 a12.
  const std::int32_t src[] = {0, 10, 1, 11, 2, 12};
  std::int32_t dst[6] = {};
  const std::ptrdiff_t src_strides[] = {4, 8};
  const std::ptrdiff_t dst_strides[] = {12, 4};
  const std::size_t shape[] = {2, 3};
  copy_strided(reinterpret_cast<std::byte*>(dst), dst_strides,
               reinterpret_cast<const std::byte*>(src), src_strides, shape, 4);
  EXPECT_EQ(std::vector<std::int32_t>(dst, dst + 6),
            (std::vector<std::int32_t>{0, 1, 2, 10, 11, 12}));
}

TEST(StridedCopyValues, NegativeStridesReverse) {
  const std::int16_t src[] = {1, 2, 3, 4, 5};
  std::int16_t dst[5] = {};
  const std::ptrdiff_t src_strides[] = {-2};
  const std::ptrdiff_t dst_strides[] = {2};
  const std::size_t shape[] = {5};
  copy_strided(reinterpret_cast<std::byte*>(dst), dst_strides,
               reinterpret_cast<const std::byte*>(src + 4), src_strides, shape, 2);
  EXPECT_EQ(std::vector<std::int16_t>(dst, dst + 5), (std::vector<std::int16_t>{5, 4, 3, 2, 1}));
}

TEST(StridedCopyValues, ScatterIntoGapsLeavesTheGapsAlone) {
  const std::uint8_t src[] = {1, 2, 3, 4};
  std::uint8_t dst[8];
  std::fill_n(dst, 8, std::uint8_t{0xEE});
  const std::ptrdiff_t src_strides[] = {2, 1};
  const std::ptrdiff_t dst_strides[] = {4, 2};  // 2x2, every other byte
  const std::size_t shape[] = {2, 2};
  copy_strided(reinterpret_cast<std::byte*>(dst), dst_strides,
               reinterpret_cast<const std::byte*>(src), src_strides, shape, 1);
  EXPECT_EQ(std::vector<std::uint8_t>(dst, dst + 8),
            (std::vector<std::uint8_t>{1, 0xEE, 2, 0xEE, 3, 0xEE, 4, 0xEE}));
}

TEST(StridedCopyValues, ZeroSourceStrideRepeatsOneElement) {
  const std::uint64_t src = 0x0123456789ABCDEF;
  std::uint64_t dst[3][2] = {};
  const std::ptrdiff_t src_strides[] = {0, 0};
  const std::ptrdiff_t dst_strides[] = {16, 8};
  const std::size_t shape[] = {3, 2};
  copy_strided(reinterpret_cast<std::byte*>(dst), dst_strides,
               reinterpret_cast<const std::byte*>(&src), src_strides, shape, 8);
  for (const auto& row : dst) {
    EXPECT_EQ(row[0], src);
    EXPECT_EQ(row[1], src);
  }
}

// --- Degenerate shapes -----------------------------------------------------------------------

TEST(StridedCopyDegenerate, ZeroDimensionalArrayCopiesOneElement) {
  for (const auto itemsize : itemsizes) {
    const auto layout = make_layout({}, itemsize, {.name = "0-d"});
    EXPECT_TRUE(copies_like_the_reference(layout, layout));
  }
  const std::uint32_t src = 0xDEADBEEF;
  std::uint32_t dst[2] = {0, 0};
  copy_strided(reinterpret_cast<std::byte*>(dst), {}, reinterpret_cast<const std::byte*>(&src), {},
               {}, 4);
  EXPECT_EQ(dst[0], src);
  EXPECT_EQ(dst[1], 0u);
}

TEST(StridedCopyDegenerate, EmptyArraysWriteNothing) {
  const std::vector<std::vector<std::size_t>> shapes{{0}, {0, 3}, {3, 0}, {2, 3, 0}, {0, 0}};
  for (const auto& shape : shapes) {
    for (const auto itemsize : itemsizes) {
      for (const auto& recipe : recipes()) {
        EXPECT_TRUE(copies_like_the_reference(make_layout(shape, itemsize, recipe),
                                              make_layout(shape, itemsize, recipe)));
      }
    }
  }
  // Nothing is read or written: not even through null pointers.
  const std::ptrdiff_t strides[] = {4, 4};
  const std::size_t shape[] = {5, 0};
  copy_strided(nullptr, strides, nullptr, strides, shape, 4);
}

}  // namespace
}  // namespace strided_test
}  // namespace plinth::detail
