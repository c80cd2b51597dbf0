// Box layouts (core/arrays/box_layout.hpp): which pairs of layouts one rectangular copy
// moves, and with which shape and pitches; and the region checks of rect_copy.hpp
// (core/runtime/rect_region.hpp), overflow included.

#include "arrays/box_layout.hpp"
#include "runtime/rect_region.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace plinth::detail {
namespace box_layout_test {
namespace {

using Shape = std::vector<std::size_t>;
using Strides = std::vector<std::ptrdiff_t>;

TEST(BoxCopy, SubMatrixOfACOrderArrayIntoAPackedOne) {
  // float32 [3:33, 7:48] of a 40 x 50 array, into a 30 x 41 C-order array.
  const auto copy = box_copy(Shape{30, 41}, Strides{200, 4}, Strides{164, 4}, 4);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->shape.width, 164u);
  EXPECT_EQ(copy->shape.height, 30u);
  EXPECT_EQ(copy->shape.depth, 1u);
  EXPECT_EQ(copy->a.row_pitch, 200u);
  EXPECT_EQ(copy->b.row_pitch, 164u);
  EXPECT_EQ(copy->a.offset, 0u);
}

TEST(BoxCopy, FOrderSubVolumeKeepsThreeDimensions) {
  // int16 [2:11, 1:8, 3:7] of a 12 x 9 x 7 F-order array, into a 9 x 7 x 4 F-order one.
  const auto copy = box_copy(Shape{9, 7, 4}, Strides{2, 24, 216}, Strides{2, 18, 126}, 2);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->shape.width, 18u);
  EXPECT_EQ(copy->shape.height, 7u);
  EXPECT_EQ(copy->shape.depth, 4u);
  EXPECT_EQ(copy->a.row_pitch, 24u);
  EXPECT_EQ(copy->a.slice_pitch, 216u);
  EXPECT_EQ(copy->b.row_pitch, 18u);
  EXPECT_EQ(copy->b.slice_pitch, 126u);
}

TEST(BoxCopy, DimensionsContiguousOnBothSidesMerge) {
  // Rows 0, 2, 4 of a 6 x 4 x 5 C-order array (each row a whole 4 x 5 plane): 3 rows of 80 B.
  const auto copy = box_copy(Shape{3, 4, 5}, Strides{160, 20, 4}, Strides{80, 20, 4}, 4);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->shape.width, 80u);
  EXPECT_EQ(copy->shape.height, 3u);
  EXPECT_EQ(copy->shape.depth, 1u);
  // Extents of 1 are ignored, whatever their strides.
  const auto one = box_copy(Shape{1, 5, 1}, Strides{-7, 4, 0}, Strides{20, 4, 4}, 4);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->shape.width, 20u);
  EXPECT_EQ(one->shape.height, 1u);
}

TEST(BoxCopy, LayoutsNoRectangularCopyMovesAreRefused) {
  EXPECT_FALSE(box_copy(Shape{4, 5}, Strides{20, 4}, Strides{4, 16}, 4));   // transposed
  EXPECT_FALSE(box_copy(Shape{4, 5}, Strides{40, 8}, Strides{20, 4}, 4));   // a column step
  EXPECT_FALSE(box_copy(Shape{4, 5}, Strides{-20, 4}, Strides{20, 4}, 4));  // reversed
  EXPECT_FALSE(box_copy(Shape{4, 5}, Strides{0, 4}, Strides{20, 4}, 4));    // broadcast
  EXPECT_FALSE(box_copy(Shape{4, 5}, Strides{12, 4}, Strides{20, 4}, 4));   // rows overlap
  EXPECT_FALSE(box_copy(Shape{0, 5}, Strides{20, 4}, Strides{20, 4}, 4));   // no elements
  // Four dimensions that do not merge.
  EXPECT_FALSE(
      box_copy(Shape{2, 2, 2, 2}, Strides{1000, 100, 10, 1}, Strides{1000, 100, 10, 1}, 1));
  // b's slices overlapping its rows: the dimensions' order differs.
  EXPECT_FALSE(box_copy(Shape{3, 4, 2}, Strides{100, 10, 1}, Strides{2, 6, 1}, 1));
}

TEST(RectRegion, PitchesDefaultAndRegionsAreChecked) {
  const auto side = rect_side({5, 2, 1, 0, 0}, {10, 3, 2}, 1000, "f", "destination buffer's");
  EXPECT_EQ(side.row_pitch, 10u);
  EXPECT_EQ(side.slice_pitch, 30u);
  EXPECT_EQ(side.offset, 5u + 20 + 30);
  EXPECT_EQ(rect_span(side, {10, 3, 2}), 30u + 20 + 10);
  // Exactly fitting, then one byte too far.
  EXPECT_NO_THROW(rect_side({0, 0, 0, 100, 0}, {100, 10, 1}, 1000, "f", "x"));
  try {
    rect_side({1, 0, 0, 100, 0}, {100, 10, 1}, 1000, "read_rect", "host destination's");
    FAIL() << "no error";
  } catch (const LogicError& error) {
    EXPECT_NE(std::string(error.what()).find("read_rect: the host destination's region"),
              std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("reaches byte 1001, past the 1000 bytes"),
              std::string::npos)
        << error.what();
  }
}

TEST(RectRegion, HugeNumbersAreLogicErrorsNotWraparounds) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  const std::vector<std::pair<RectRegion, RectExtent>> cases{
      {{0, max, 0, 2, 0}, {1, 1, 1}},          // y * row_pitch
      {{0, 0, 2, 0, max}, {1, 1, 1}},          // z * slice_pitch
      {{max, 0, 0, 0, 0}, {2, 1, 1}},          // offset + width
      {{0, 0, 0, max / 2 + 1, 0}, {1, 3, 1}},  // row_pitch * height
      {{0, 0, 0, 0, max}, {1, 1, 3}},          // (depth - 1) * slice_pitch
      {{0, 0, 0, 8, max - 7}, {8, 1, 2}}};     // offset + slices + width
  for (const auto& [region, extent] : cases) {
    EXPECT_THROW(rect_side(region, extent, max, "f", "x"), LogicError);
  }
}

}  // namespace
}  // namespace box_layout_test
}  // namespace plinth::detail
