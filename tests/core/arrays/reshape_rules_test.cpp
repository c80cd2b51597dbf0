// numpy's reshape rules as pure functions (core/arrays/reshape_rules.hpp): the -1 inference and
// its errors, and the decision whether a reshape is a view (numpy's _attempt_nocopy_reshape),
// with the strides it gives checked element by element against the original layout. The
// view-or-copy decisions are numpy 2's (a.reshape(shape, order=..., copy=False) of
// np.lib.stride_tricks.as_strided layouts).

#include "arrays/reshape_rules.hpp"

#include <plinth/array_metadata.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace plinth {
namespace reshape_rules_test {
namespace {

using Shape = std::vector<std::size_t>;
using Strides = std::vector<std::ptrdiff_t>;

/// The byte offset of element `flat` (counted in `order`) of a layout.
std::ptrdiff_t offset_of(std::size_t flat, const Shape& shape, const Strides& strides,
                         Order order) {
  std::ptrdiff_t offset = 0;
  const std::size_t n = shape.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t d = order == Order::C ? n - 1 - k : k;
    offset += static_cast<std::ptrdiff_t>(flat % shape[d]) * strides[d];
    flat /= shape[d];
  }
  return offset;
}

/// Checks that `new_shape` with the rule's strides addresses the same bytes as `metadata`,
/// element by element in `order`; returns whether the rule found a view.
bool view_matches(const ArrayMetadata& metadata, const Shape& new_shape, Order order,
                  Strides* strides_out = nullptr) {
  const auto strides = detail::reshape_strides(metadata, new_shape, order);
  if (!strides) return false;
  EXPECT_EQ(strides->size(), new_shape.size());
  for (std::size_t flat = 0; flat < metadata.size(); ++flat) {
    EXPECT_EQ(offset_of(flat, new_shape, *strides, order),
              offset_of(flat, metadata.shape(), metadata.strides(), order))
        << "element " << flat;
  }
  if (strides_out != nullptr) *strides_out = *strides;
  return true;
}

ArrayMetadata strided(const Shape& shape, const Strides& strides) {
  return ArrayMetadata(shape, DType::int32(), strides, 4096, 8192);
}

TEST(ReshapeRules, InfersOneNegativeExtent) {
  EXPECT_EQ(detail::resolve_reshape(Shape{2, 3, 4}, Strides{-1, 4}), (Shape{6, 4}));
  EXPECT_EQ(detail::resolve_reshape(Shape{2, 3, 4}, Strides{2, -1, 3}), (Shape{2, 4, 3}));
  // numpy takes any negative extent as the unknown one.
  EXPECT_EQ(detail::resolve_reshape(Shape{6}, Strides{-2, 3}), (Shape{2, 3}));
  EXPECT_EQ(detail::resolve_reshape(Shape{}, Strides{-1}), (Shape{1}));
  EXPECT_EQ(detail::resolve_reshape(Shape{0, 3}, Strides{3, 0}), (Shape{3, 0}));
  EXPECT_EQ(detail::resolve_reshape(Shape{0, 3}, Strides{-1, 3}), (Shape{0, 3}));
  EXPECT_EQ(detail::resolve_reshape(Shape{1}, Strides{}), (Shape{}));
}

TEST(ReshapeRules, RefusesBadSizesNamingBothShapes) {
  const auto message = [](const Shape& shape, const Strides& requested) {
    try {
      detail::resolve_reshape(shape, requested);
    } catch (const LogicError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({2, 3}, {4, 2}).find("shape (2, 3) (6 elements) into shape (4, 2)"),
            std::string::npos);
  EXPECT_NE(message({2, 3}, {4, -1}).find("into shape (4, -1)"), std::string::npos);
  EXPECT_NE(message({6}, {-1, -1}).find("more than one unknown"), std::string::npos);
  // An unknown extent beside a 0 is refused, as numpy's (it could be anything).
  EXPECT_NE(message({0}, {0, -1}).find("into shape (0, -1)"), std::string::npos);
  EXPECT_NE(message({2}, {}).find("into shape ()"), std::string::npos);
  EXPECT_NE(message({7}, {2, -1}).find("(7,)"), std::string::npos);
}

TEST(ReshapeRules, ContiguousArraysAlwaysReshapeWithoutCopy) {
  const ArrayMetadata c({2, 3, 4}, DType::int32());
  Strides strides;
  ASSERT_TRUE(view_matches(c, {6, 4}, Order::C, &strides));
  EXPECT_EQ(strides, (Strides{16, 4}));
  ASSERT_TRUE(view_matches(c, {4, 3, 2}, Order::C));
  // The same C array read in Fortran order is a copy (numpy: (2, 3, 4) -> (4, 6), F).
  EXPECT_FALSE(view_matches(c, {4, 6}, Order::F));
  // A Fortran array (strides (4, 16) of shape (4, 3)) ravels in F order without a copy.
  const auto f = strided({4, 3}, {4, 16});
  EXPECT_TRUE(f.is_f_contiguous());
  ASSERT_TRUE(view_matches(f, {12}, Order::F, &strides));
  EXPECT_EQ(strides, (Strides{4}));
  EXPECT_FALSE(view_matches(f, {12}, Order::C));
  ASSERT_TRUE(view_matches(f, {2, 2, 3}, Order::F, &strides));
  EXPECT_EQ(strides, (Strides{4, 8, 16}));
}

TEST(ReshapeRules, MergesOnlyDimensionsThatStepAsOne) {
  // Every other row of 8 (gaps between rows): rows stay apart, columns merge freely.
  const auto rows = strided({2, 3, 4}, {96, 32, 4});
  Strides strides;
  ASSERT_TRUE(view_matches(rows, {6, 4}, Order::C, &strides));
  EXPECT_EQ(strides, (Strides{32, 4}));
  EXPECT_FALSE(view_matches(rows, {2, 12}, Order::C));
  ASSERT_TRUE(view_matches(rows, {3, 2, 4}, Order::C, &strides));
  EXPECT_EQ(strides, (Strides{64, 32, 4}));
  // Negative strides split, never merge.
  const auto reversed = strided({3, 4}, {-16, 4});
  EXPECT_FALSE(view_matches(reversed, {12}, Order::C));
  ASSERT_TRUE(view_matches(reversed, {3, 2, 2}, Order::C, &strides));
  EXPECT_EQ(strides, (Strides{-16, 8, 4}));
  // Broadcast (stride 0) dimensions.
  EXPECT_FALSE(view_matches(strided({2, 2}, {0, 4}), {4}, Order::C));
  ASSERT_TRUE(view_matches(strided({2, 2}, {0, 4}), {2, 1, 2}, Order::C, &strides));
  EXPECT_EQ(strides, (Strides{0, 8, 4}));
  ASSERT_TRUE(view_matches(strided({5, 1}, {0, 4}), {5}, Order::C, &strides));
  EXPECT_EQ(strides, (Strides{0}));
}

TEST(ReshapeRules, ExtentOneDimensionsTakeNumpysStrides) {
  Strides strides;
  // numpy: (2, 1, 3) strides (24, 999, 8) -> (1, 2, 3, 1) strides (48, 24, 8, 8).
  ASSERT_TRUE(view_matches(strided({2, 1, 3}, {24, 999, 8}), {1, 2, 3, 1}, Order::C, &strides));
  EXPECT_EQ(strides, (Strides{48, 24, 8, 8}));
  ASSERT_TRUE(view_matches(strided({6}, {8}), {2, 3, 1}, Order::C, &strides));
  EXPECT_EQ(strides, (Strides{24, 8, 8}));
  ASSERT_TRUE(view_matches(strided({6}, {8}), {1, 2, 1, 3, 1}, Order::F, &strides));
  EXPECT_EQ(strides, (Strides{8, 8, 16, 16, 48}));
  // The same shape is always a view with the same strides.
  ASSERT_TRUE(view_matches(strided({3, 4}, {-16, 8}), {3, 4}, Order::F, &strides));
  EXPECT_EQ(strides, (Strides{-16, 8}));
}

TEST(ReshapeRules, EmptyAndZeroDimensionalArrays) {
  Strides strides;
  ASSERT_TRUE(view_matches(strided({0, 3}, {-12, 8}), {3, 0, 2}, Order::C, &strides));
  // Empty arrays are contiguous: C strides of the new shape (extents of 0 counted as 1).
  EXPECT_EQ(strides, (Strides{8, 8, 4}));
  ASSERT_TRUE(view_matches(ArrayMetadata({}, DType::int32()), {1, 1}, Order::F, &strides));
  EXPECT_EQ(strides, (Strides{4, 4}));
  ASSERT_TRUE(view_matches(ArrayMetadata({1, 1}, DType::int32()), {}, Order::C, &strides));
  EXPECT_TRUE(strides.empty());
}

TEST(ArrayMetadataContiguity, FollowsNumpysFlags) {
  EXPECT_TRUE(ArrayMetadata({2, 3}, DType::int32()).is_c_contiguous());
  EXPECT_FALSE(ArrayMetadata({2, 3}, DType::int32()).is_f_contiguous());
  const ArrayMetadata f(
      {2, 3}, DType::int32(),
      ArrayMetadata::default_strides(std::vector<std::size_t>{2, 3}, 4, Order::F));
  EXPECT_EQ(f.strides(), (Strides{4, 8}));
  EXPECT_TRUE(f.is_f_contiguous());
  EXPECT_FALSE(f.is_c_contiguous());
  EXPECT_FALSE(f.is_contiguous());
  EXPECT_TRUE(f.is_dense());
  // Extent-1 dimensions do not count; one-dimensional and single-element arrays are both.
  EXPECT_TRUE(strided({3, 1}, {4, 999}).is_f_contiguous());
  EXPECT_TRUE(strided({3, 1}, {4, 999}).is_c_contiguous());
  EXPECT_TRUE(ArrayMetadata({5}, DType::int32()).is_f_contiguous());
  EXPECT_TRUE(strided({1, 1}, {-7, 3}).is_f_contiguous());
  EXPECT_TRUE(strided({0, 4}, {1, 1}).is_f_contiguous());
  EXPECT_FALSE(strided({4}, {8}).is_f_contiguous());
  EXPECT_FALSE(strided({2, 2}, {4, 4}).is_f_contiguous());
}

}  // namespace
}  // namespace reshape_rules_test
}  // namespace plinth
