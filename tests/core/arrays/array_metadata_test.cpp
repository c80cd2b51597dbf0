// ArrayMetadata views on the host, without a device (include/plinth/array_metadata.hpp).

#include <plinth/array_metadata.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>

namespace plinth {
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
}  // namespace plinth

namespace plinth {
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

}  // namespace
}  // namespace plinth
