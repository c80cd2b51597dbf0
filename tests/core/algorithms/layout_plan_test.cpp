// The layout planner (core/algorithms/kit/layout_plan.hpp): which dimensions it drops, orders
// and merges, which arrays the flat index addresses directly, when 32-bit indexing is exact,
// and the multiply-shift divisions the kernels use instead of dividing.

#include "algorithms/kit/layout_plan.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace plinth::detail {
namespace layout_plan_test {
namespace {

std::vector<std::size_t> shape_of(const LayoutPlan& plan) {
  return {plan.shape.begin(), plan.shape.end()};
}
std::vector<std::int64_t> strides_of(const LayoutPlan& plan, std::size_t array) {
  const auto s = plan.strides_of(array);
  return {s.begin(), s.end()};
}

TEST(LayoutPlan, ContiguousArraysMergeIntoOneDirectDimension) {
  const std::vector<std::size_t> shape{4, 5, 6};
  const std::vector<std::int64_t> strides{30, 6, 1, 30, 6, 1};
  const auto plan = plan_layout(shape, strides, 2, std::nullopt);
  EXPECT_EQ(shape_of(plan), (std::vector<std::size_t>{120}));
  EXPECT_TRUE(plan.all_direct());
  EXPECT_FALSE(plan.reordered);
  EXPECT_TRUE(plan.index32);
}

TEST(LayoutPlan, ExtentsOfOneAreDroppedAndASingleElementKeepsOneDimension) {
  const std::vector<std::size_t> shape{1, 7, 1};
  const std::vector<std::int64_t> strides{99, 3, 5};
  auto plan = plan_layout(shape, strides, 1, std::nullopt);
  EXPECT_EQ(shape_of(plan), (std::vector<std::size_t>{7}));
  EXPECT_EQ(strides_of(plan, 0), (std::vector<std::int64_t>{3}));
  EXPECT_FALSE(plan.direct[0]);
  const std::vector<std::size_t> one{1, 1};
  const std::vector<std::int64_t> any{5, 9};
  plan = plan_layout(one, any, 1, std::nullopt);
  EXPECT_EQ(shape_of(plan), (std::vector<std::size_t>{1}));
  EXPECT_TRUE(plan.direct[0]);
}

TEST(LayoutPlan, TransposedAlikeArraysAreReorderedIntoOneDirectDimension) {
  // Both arrays are the transposes of contiguous 3 x 4 matrices: strides (1, 4) over (4, 3).
  const std::vector<std::size_t> shape{4, 3};
  const std::vector<std::int64_t> strides{1, 4, 1, 4};
  auto plan = plan_layout(shape, strides, 2, std::nullopt);
  EXPECT_EQ(shape_of(plan), (std::vector<std::size_t>{4, 3}));
  EXPECT_FALSE(plan.direct[0]);
  plan = plan_layout(shape, strides, 2, 0);
  EXPECT_TRUE(plan.reordered);
  EXPECT_EQ(shape_of(plan), (std::vector<std::size_t>{12}));
  EXPECT_TRUE(plan.all_direct());
}

TEST(LayoutPlan, OrderFollowsTheChosenArrayOnly) {
  // The output (array 0) is contiguous, the input transposed: the output's order stays.
  const std::vector<std::size_t> shape{4, 3};
  const std::vector<std::int64_t> strides{3, 1, 1, 4};
  const auto plan = plan_layout(shape, strides, 2, 0);
  EXPECT_FALSE(plan.reordered);
  EXPECT_TRUE(plan.direct[0]);
  EXPECT_FALSE(plan.direct[1]);
  EXPECT_EQ(strides_of(plan, 1), (std::vector<std::int64_t>{1, 4}));
}

TEST(LayoutPlan, BroadcastArraysKeepZeroStridesAndBlockMerging) {
  // (3, 1) + (1, 5) into (3, 5).
  const std::vector<std::size_t> shape{3, 5};
  const std::vector<std::int64_t> strides{5, 1, 1, 0, 0, 1};
  const auto plan = plan_layout(shape, strides, 3, 0);
  EXPECT_EQ(shape_of(plan), (std::vector<std::size_t>{3, 5}));
  EXPECT_TRUE(plan.direct[0]);
  EXPECT_EQ(strides_of(plan, 1), (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(strides_of(plan, 2), (std::vector<std::int64_t>{0, 1}));
}

TEST(LayoutPlan, NegativeStridesMergeOnlyWhereTheyStepAsOne) {
  const std::vector<std::size_t> shape{4, 6};
  const std::vector<std::int64_t> reversed_rows{-6, 1};
  auto plan = plan_layout(shape, reversed_rows, 1, std::nullopt);
  EXPECT_EQ(shape_of(plan), (std::vector<std::size_t>{4, 6}));
  const std::vector<std::int64_t> reversed_all{-6, -1};
  plan = plan_layout(shape, reversed_all, 1, std::nullopt);
  EXPECT_EQ(shape_of(plan), (std::vector<std::size_t>{24}));
  EXPECT_EQ(strides_of(plan, 0), (std::vector<std::int64_t>{-1}));
}

TEST(LayoutPlan, Index32OnlyWhereEveryCountAndReachFitsInto31Bits) {
  const std::size_t limit = std::size_t{1} << 31;
  // The element count.
  std::vector<std::size_t> shape{limit - 1};
  std::vector<std::int64_t> strides{1};
  EXPECT_TRUE(plan_layout(shape, strides, 1, std::nullopt).index32);
  shape = {limit};
  EXPECT_FALSE(plan_layout(shape, strides, 1, std::nullopt).index32);
  // The reach: 2^30 elements two apart reach 2^31 - 2; one more reaches 2^31.
  shape = {std::size_t{1} << 30};
  strides = {2};
  EXPECT_TRUE(plan_layout(shape, strides, 1, std::nullopt).index32);
  shape = {(std::size_t{1} << 30) + 1};
  EXPECT_FALSE(plan_layout(shape, strides, 1, std::nullopt).index32);
  strides = {-1};
  EXPECT_TRUE(plan_layout(shape, strides, 1, std::nullopt).index32);
  // A reach summed over dimensions, with one array far and one near.
  shape = {3, 1000};
  strides = {1000, 1, std::int64_t{1} << 30, 1};
  EXPECT_FALSE(plan_layout(shape, strides, 2, std::nullopt).index32);
  strides = {1000, 1, (std::int64_t{1} << 30) - 1000, 1};
  EXPECT_TRUE(plan_layout(shape, strides, 2, std::nullopt).index32);
  // A stride so large that its product overflows 64 bits.
  strides = {std::int64_t{1} << 62, 1, 1000, 1};
  EXPECT_FALSE(plan_layout(shape, strides, 2, std::nullopt).index32);
}

std::uint64_t divide(std::uint64_t n, const FastDivisor& divisor) {
  return (n * divisor.multiplier) >> divisor.shift;
}

TEST(FastDivisor, DividesExactlyBelow2To31) {
  const std::uint64_t top = (std::uint64_t{1} << 31) - 1;
  std::mt19937_64 random(12345);
  std::vector<std::uint32_t> divisors;
  for (std::uint32_t d = 1; d <= 300; ++d) divisors.push_back(d);
  for (std::uint32_t bit = 8; bit < 31; ++bit) {
    for (const std::int64_t delta : {-1, 0, 1}) {
      divisors.push_back(static_cast<std::uint32_t>((std::int64_t{1} << bit) + delta));
    }
  }
  for (int k = 0; k < 200; ++k) divisors.push_back(static_cast<std::uint32_t>(random() % top + 1));
  divisors.push_back(static_cast<std::uint32_t>(top));
  for (const auto d : divisors) {
    const auto divisor = fast_divisor(d);
    std::vector<std::uint64_t> numbers{0, 1, d - 1u, d, d + 1u, top, top - 1, top - d};
    for (std::uint64_t m = 1; m < 40; ++m) numbers.push_back(std::min(top, m * d - 1));
    for (int k = 0; k < 200; ++k) numbers.push_back(random() % (top + 1));
    for (const auto n : numbers) {
      if (n > top) continue;
      ASSERT_EQ(divide(n, divisor), n / d) << n << " / " << d;
    }
  }
}

}  // namespace
}  // namespace layout_plan_test
}  // namespace plinth::detail
