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
