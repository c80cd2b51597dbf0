// The pure parts of the tiled copy: which layouts it tiles and over which dimensions, the
// word elements move in, and the kernel source.

#include "algorithms/tiled_copy_codegen.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace plinth::detail {
namespace tiled_copy_codegen_test {
namespace {

using Shape = std::vector<std::size_t>;
using Strides = std::vector<std::int64_t>;

std::optional<TiledCopyPlan> plan(const Shape& shape, const Strides& dest, const Strides& src) {
  return plan_tiled_copy(shape, dest, src);
}

TEST(TiledCopyPlan, ATransposeIsTiledAlongBothFastestDimensions) {
  // copy of m.T, m of shape (300, 500): dest (500, 300) C order, src strides (1, 500).
  const auto p = plan({500, 300}, {300, 1}, {1, 500});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->dest_fast, (TiledDim{300, 1, 500}));
  EXPECT_EQ(p->src_fast, (TiledDim{500, 300, 1}));
  EXPECT_TRUE(p->batch.empty());
}

TEST(TiledCopyPlan, SameFastestDimensionStaysElementwise) {
  // A contiguous copy, a strided slice m[:, ::2], a reversed view, and a copy of a
  // transposed view into a transposed view.
  EXPECT_FALSE(plan({40, 50}, {50, 1}, {50, 1}).has_value());
  EXPECT_FALSE(plan({40, 50}, {50, 1}, {100, 2}).has_value());
  EXPECT_FALSE(plan({40, 50}, {50, 1}, {-50, -1}).has_value());
  EXPECT_FALSE(plan({40, 50}, {1, 40}, {1, 60}).has_value());
  // Nothing to copy, or one element.
  EXPECT_FALSE(plan({0, 50}, {50, 1}, {1, 0}).has_value());
  EXPECT_FALSE(plan({1, 1}, {1, 1}, {1, 1}).has_value());
}

TEST(TiledCopyPlan, SizeOneDimensionsDropAndContiguousOnesMerge) {
  // (2, 3, 4) transposed to (4, 3, 2) after extents of 1 are inserted: nothing merges,
  // dimension 3 is the batch.
  const auto p = plan({1, 4, 3, 1, 2}, {24, 6, 2, 2, 1}, {99, 1, 4, 7, 12});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->dest_fast, (TiledDim{2, 1, 12}));
  EXPECT_EQ(p->src_fast, (TiledDim{4, 6, 1}));
  EXPECT_EQ(p->batch, (std::vector<TiledDim>{{3, 2, 4}}));
  // Axes (0, 2, 1, 3) of (3, 20, 40, 2): the last axis, of stride 1 in both, is the fastest
  // of both (runs of two elements), so it stays elementwise; axes (3, 1, 0, 2) tile axis 3
  // (the destination's) against axis 0 (the source's) with two batch dimensions.
  EXPECT_FALSE(plan({3, 40, 20, 2}, {1600, 40, 2, 1}, {1600, 2, 80, 1}).has_value());
  const auto q = plan({2, 20, 3, 40}, {2400, 120, 40, 1}, {1, 80, 1600, 2});
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->dest_fast, (TiledDim{40, 1, 2}));
  EXPECT_EQ(q->src_fast, (TiledDim{2, 2400, 1}));
  EXPECT_EQ(q->batch, (std::vector<TiledDim>{{20, 120, 80}, {3, 40, 1600}}));
}

TEST(TiledCopyPlan, MergesDimensionsContiguousInBothOperands) {
  // Axes (1, 2, 0) of a (6, 7, 5) array: its axes 1 and 2 stay neighbours in both and merge
  // into one of 35, so the copy is a 2-D transpose.
  const auto p = plan({7, 5, 6}, {30, 6, 1}, {5, 1, 35});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->dest_fast, (TiledDim{6, 1, 35}));
  EXPECT_EQ(p->src_fast, (TiledDim{35, 6, 1}));
  EXPECT_TRUE(p->batch.empty());
}

TEST(TiledCopyPlan, BatchDimensionsAreOrderedOutermostFirst) {
  // (5, 33, 70) with axes (0, 2, 1): dest (5, 70, 33) C order; src strides (2310, 1, 70).
  const auto p = plan({5, 70, 33}, {2310, 33, 1}, {2310, 1, 70});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->dest_fast, (TiledDim{33, 1, 70}));
  EXPECT_EQ(p->src_fast, (TiledDim{70, 33, 1}));
  EXPECT_EQ(p->batch, (std::vector<TiledDim>{{5, 2310, 2310}}));
}

TEST(TiledCopyPlan, BroadcastSourcesAreNotTiledAlongTheirZeroStride) {
  // A row broadcast down the columns: the source's only moving dimension is the
  // destination's fastest.
  EXPECT_FALSE(plan({40, 50}, {50, 1}, {0, 1}).has_value());
  // Every stride zero: no fastest dimension.
  EXPECT_FALSE(plan({40, 50}, {50, 1}, {0, 0}).has_value());
  // A column broadcast along the rows: tiled.
  const auto p = plan({40, 50}, {50, 1}, {1, 0});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->src_fast, (TiledDim{40, 50, 1}));
}

TEST(TiledCopyPlan, TooManyBatchDimensionsStayElementwise) {
  // Nine dimensions of 2 none of which merge: two tiled, seven batch.
  Shape shape(9, 2);
  Strides dest(9), src(9);
  for (std::size_t d = 0; d < 9; ++d) {
    dest[d] = std::int64_t{1} << (8 - d);
    src[d] = std::int64_t{1} << d;
  }
  EXPECT_FALSE(plan(shape, dest, src).has_value());
  shape.resize(8);
  dest.resize(8);
  src.resize(8);
  for (std::size_t d = 0; d < 8; ++d) {
    dest[d] = std::int64_t{1} << (7 - d);
    src[d] = std::int64_t{1} << d;
  }
  const auto p = plan(shape, dest, src);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->batch.size(), max_tiled_batch_rank);
}

TEST(TiledCopyWord, LargestPowerOfTwoDividingSizeAndOffsets) {
  const std::vector<std::size_t> aligned = {0, 512};
  EXPECT_EQ(tiled_copy_word(16, aligned), 16u);
  EXPECT_EQ(tiled_copy_word(8, aligned), 8u);
  EXPECT_EQ(tiled_copy_word(3, aligned), 1u);
  EXPECT_EQ(tiled_copy_word(12, aligned), 4u);
  EXPECT_EQ(tiled_copy_word(32, aligned), 16u);
  const std::vector<std::size_t> offset8 = {8, 32};
  EXPECT_EQ(tiled_copy_word(16, offset8), 8u);
  const std::vector<std::size_t> offset2 = {0, 6};
  EXPECT_EQ(tiled_copy_word(8, offset2), 2u);
}

TEST(TiledCopyRows, AtMost256WorkItemsInRowsOfTheTileEdge) {
  EXPECT_EQ(tiled_copy_rows(1024, 1024), 8u);
  EXPECT_EQ(tiled_copy_rows(4096, 0), 8u);
  EXPECT_EQ(tiled_copy_rows(256, 256), 8u);
  EXPECT_EQ(tiled_copy_rows(200, 0), 4u);
  EXPECT_EQ(tiled_copy_rows(1024, 64), 2u);
  EXPECT_EQ(tiled_copy_rows(32, 32), 1u);
  EXPECT_EQ(tiled_copy_rows(31, 0), 0u);
  EXPECT_EQ(tiled_copy_rows(1024, 16), 0u);
}

TEST(TiledCopySource, DeclaresTheTileTheElementAndTheBatchParameters) {
  const auto plain = tiled_copy_source({4, 4, 0, 8, std::nullopt});
  EXPECT_NE(plain.find("typedef unsigned int _tc_elem;"), std::string::npos);
  EXPECT_NE(plain.find("LOCAL_MEM _tc_elem _tc_tile[32][32 + 1];"), std::string::npos);
  EXPECT_NE(plain.find("KERNEL void _tc_copy("), std::string::npos);
  EXPECT_EQ(plain.find("_tc_n0"), std::string::npos);
  // A barrier after filling the tile and one before refilling it.
  const auto first = plain.find("LOCAL_BARRIER;");
  ASSERT_NE(first, std::string::npos);
  const auto second = plain.find("LOCAL_BARRIER;", first + 1);
  ASSERT_NE(second, std::string::npos);
  EXPECT_EQ(plain.find("LOCAL_BARRIER;", second + 1), std::string::npos);
  // Each work item walks the tile's rows 8 apart (a constant, so the loop unrolls).
  EXPECT_NE(plain.find("for (unsigned int y = ly; y < 32u; y += 8u)"), std::string::npos);
  EXPECT_NE(tiled_copy_source({4, 4, 0, 2, std::nullopt}).find("y += 2u)"), std::string::npos);
  // Reads index the tile by the source's row, writes read it transposed.
  EXPECT_NE(plain.find("_tc_tile[y][lx] = _tc_s["), std::string::npos);
  EXPECT_NE(plain.find("= _tc_tile[lx][y];"), std::string::npos);

  const auto wide = tiled_copy_source({16, 16, 2, 8, std::nullopt});
  EXPECT_NE(wide.find("typedef uint4 _tc_elem;"), std::string::npos);
  EXPECT_NE(wide.find("unsigned long _tc_n0, long _tc_dst0, long _tc_src0"), std::string::npos);
  EXPECT_NE(wide.find("unsigned long _tc_n1, long _tc_dst1, long _tc_src1"), std::string::npos);
  EXPECT_EQ(wide.find("_tc_n2"), std::string::npos);

  const auto odd = tiled_copy_source({12, 4, 1, 8, std::nullopt});
  EXPECT_NE(odd.find("typedef struct { unsigned int w[3]; } _tc_elem;"), std::string::npos);
  const auto bytes = tiled_copy_source({3, 1, 0, 8, std::nullopt});
  EXPECT_NE(bytes.find("typedef struct { unsigned char w[3]; } _tc_elem;"), std::string::npos);
}

TEST(TiledCopySource, ConvertsOnTheWayOut) {
  TiledCopyRecipe recipe{4, 4, 1, 8,
                         TiledConversion{"int", "double", "((double)(_tc_v))",
                                         "FUNCTION INLINE int _ax_helper(int a);"}};
  const auto source = tiled_copy_source(recipe);
  EXPECT_NE(source.find("FUNCTION INLINE int _ax_helper(int a);"), std::string::npos);
  EXPECT_NE(source.find("typedef int _tc_elem;"), std::string::npos);
  EXPECT_NE(source.find("typedef double _tc_out;"), std::string::npos);
  EXPECT_NE(source.find("_tc_convert(_tc_elem _tc_v) { return ((double)(_tc_v)); }"),
            std::string::npos);
  EXPECT_NE(source.find("GLOBAL_MEM _tc_out *_elw_restrict _tc_d"), std::string::npos);
  EXPECT_NE(source.find("= _tc_convert(_tc_tile[lx][y]);"), std::string::npos);
  // A plain copy stores the tile's word as it is.
  EXPECT_EQ(tiled_copy_source({4, 4, 1, 8, std::nullopt}).find("_tc_convert"), std::string::npos);
}

TEST(TiledCopySource, RejectsBadRecipes) {
  EXPECT_THROW(tiled_copy_source({12, 8, 0, 8, std::nullopt}), LogicError);
  EXPECT_THROW(tiled_copy_source({4, 3, 0, 8, std::nullopt}), LogicError);
  EXPECT_THROW(tiled_copy_source({4, 0, 0, 8, std::nullopt}), LogicError);
  EXPECT_THROW(tiled_copy_source({4, 4, max_tiled_batch_rank + 1, 8, std::nullopt}), LogicError);
  EXPECT_THROW(tiled_copy_source({4, 4, 0, 0, std::nullopt}), LogicError);
  EXPECT_THROW(tiled_copy_source({4, 4, 0, 3, std::nullopt}), LogicError);
}

}  // namespace
}  // namespace tiled_copy_codegen_test
}  // namespace plinth::detail
