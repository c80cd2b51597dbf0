// ArrayMetadata views on the host, without a device (include/plinth/array_metadata.hpp).

#include <plinth/array_metadata.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>

namespace plinth {
namespace array_metadata_test {
namespace {

constexpr auto ptrdiff_min = std::numeric_limits<std::ptrdiff_t>::min();
constexpr auto ptrdiff_max = std::numeric_limits<std::ptrdiff_t>::max();

// Before: resolving a slice negated its step, undefined behaviour for PTRDIFF_MIN (UBSan:
// "negation of -9223372036854775808 cannot be represented"), and step * stride overflowed
// for a slice that selects one element.
TEST(ArrayMetadataView, ExtremeStepsSelectWhatNumpySelects) {
  const ArrayMetadata array({10}, DType::int32());
  const auto backwards = array.view({Slice(9, std::nullopt, ptrdiff_min)});
  EXPECT_EQ(backwards.shape(), std::vector<std::size_t>{1});
  EXPECT_EQ(backwards.first_element_offset(), 36u);
  const auto forwards = array.view({Slice(2, std::nullopt, ptrdiff_max)});
  EXPECT_EQ(forwards.shape(), std::vector<std::size_t>{1});
  EXPECT_EQ(forwards.first_element_offset(), 8u);
  EXPECT_EQ(array.view({Slice(ptrdiff_min, ptrdiff_max, ptrdiff_min)}).shape(),
            std::vector<std::size_t>{0});
  EXPECT_EQ(array.view({Slice(ptrdiff_max, ptrdiff_min, ptrdiff_min)}).shape(),
            std::vector<std::size_t>{1});
  // Ordinary steps keep numpy's strides.
  const auto every_other = array.view({Slice(std::nullopt, std::nullopt, -2)});
  EXPECT_EQ(every_other.shape(), std::vector<std::size_t>{5});
  EXPECT_EQ(every_other.strides(), std::vector<std::ptrdiff_t>{-8});
  EXPECT_EQ(every_other.first_element_offset(), 36u);
}

}  // namespace
}  // namespace array_metadata_test
}  // namespace plinth

namespace plinth {
namespace array_metadata_test {
namespace {

// Found by tests/fuzz (array/regress-*): each was undefined behaviour (UBSan) or a wrong view.
TEST(ArrayMetadataLayout, ExtremeStridesAndExtentsAreErrorsOrExact) {
  // The span high - low overflowed ptrdiff_t.
  EXPECT_THROW(
      ArrayMetadata({2, 8}, DType::uint64(), std::vector<std::ptrdiff_t>{ptrdiff_max - 12, -8}),
      LogicError);
  // -low with a stride of PTRDIFF_MIN.
  EXPECT_THROW(ArrayMetadata({2}, DType::int8(), std::vector<std::ptrdiff_t>{ptrdiff_min}),
               LogicError);
  // An extent beyond PTRDIFF_MAX was accepted (no elements) and its views came out wrong.
  EXPECT_THROW(ArrayMetadata({0, std::numeric_limits<std::size_t>::max()}, DType::int8()),
               LogicError);
  // The largest layouts that fit still work.
  const ArrayMetadata reversed({2}, DType::int8(), std::vector<std::ptrdiff_t>{-(ptrdiff_max / 2)});
  EXPECT_EQ(reversed.first_element_offset(), static_cast<std::size_t>(ptrdiff_max / 2));
  EXPECT_EQ(reversed.min_offset(), 0u);
  EXPECT_EQ(reversed.span(), static_cast<std::size_t>(ptrdiff_max / 2) + 1);
}

// grunnur's ArrayMetadata.get_sub_region: the same layout seen from a region of the block.
TEST(ArrayMetadataSubRegion, ShiftsTheFirstElementAndResizesTheBlock) {
  const ArrayMetadata array({4, 6}, DType::int32());  // 96 bytes
  const auto view = array.view({Slice(1, 3), Slice(2, 5)});
  EXPECT_EQ(view.first_element_offset(), 32u);
  const auto sub = view.get_sub_region(24, 48);  // the elements lie in [32, 68)
  EXPECT_EQ(sub.shape(), view.shape());
  EXPECT_EQ(sub.strides(), view.strides());
  EXPECT_EQ(sub.first_element_offset(), 8u);
  EXPECT_EQ(sub.buffer_size(), 48u);
  EXPECT_EQ(sub.min_offset(), 8u);
  EXPECT_EQ(sub.span(), view.span());
  // Elements before the origin or beyond the region's end, a region outside the block.
  EXPECT_THROW(view.get_sub_region(36, 60), LogicError);
  EXPECT_THROW(view.get_sub_region(24, 20), LogicError);
  EXPECT_THROW(view.get_sub_region(90, 10), LogicError);
  EXPECT_THROW(view.get_sub_region(std::numeric_limits<std::size_t>::max(), 2), LogicError);
}

// grunnur's ArrayMetadata.minimal_subregion: the smallest region holding the elements.
TEST(ArrayMetadataSubRegion, MinimalSubregionHoldsExactlyTheElements) {
  const ArrayMetadata array({4, 6}, DType::int32());
  const auto view = array.view({Slice(1, 3), Slice(2, 5)});  // rows 1-2, columns 2-4
  const auto region = view.minimal_subregion();
  EXPECT_EQ(region.origin, 32u);      // row 1, column 2
  EXPECT_EQ(region.size, 24u + 12u);  // to the end of row 2, column 4
  EXPECT_EQ(region.metadata.first_element_offset(), 0u);
  EXPECT_EQ(region.metadata.buffer_size(), 36u);
  EXPECT_EQ(region.metadata.strides(), view.strides());
  EXPECT_EQ(region.metadata, view.get_sub_region(32, 36));

  // Negative strides: the first element is not the lowest one.
  const auto reversed = array.view({Slice(3, 0, -2), Slice(std::nullopt, std::nullopt, -1)});
  const auto back = reversed.minimal_subregion();
  EXPECT_EQ(back.origin, reversed.min_offset());
  EXPECT_EQ(back.size, reversed.span());
  EXPECT_EQ(back.metadata.first_element_offset(), reversed.first_element_offset() - back.origin);
  EXPECT_EQ(back.metadata.min_offset(), 0u);
  EXPECT_EQ(back.metadata.buffer_size(), back.size);

  // A whole array is its own minimal region; an empty one has an empty region.
  const auto whole = array.minimal_subregion();
  EXPECT_EQ(whole.origin, 0u);
  EXPECT_EQ(whole.size, 96u);
  EXPECT_EQ(whole.metadata, array);
  const auto empty = array.view({Slice(2, 2)}).minimal_subregion();
  EXPECT_EQ(empty.size, 0u);
  EXPECT_EQ(empty.metadata.size(), 0u);
}

}  // namespace
}  // namespace array_metadata_test
}  // namespace plinth
