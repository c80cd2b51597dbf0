// The pure parts of plinth's BLAS kernels: how a GEMM is tiled for a device's limits, and
// the kernels' sources.

#include "blas/blas_codegen.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <string>

namespace plinth::detail {
namespace blas_codegen_test {
namespace {

constexpr std::size_t kib = 1024;

TEST(GemmTiling, GpusGetLargeRegisterBlockedTilesByElementSize) {
  EXPECT_EQ(gemm_tiling(4, 32, 1024, 48 * kib), (GemmTiling{128, 128, 8, 8, 8}));
  EXPECT_EQ(gemm_tiling(8, 32, 1024, 48 * kib), (GemmTiling{64, 64, 8, 4, 4}));
  EXPECT_EQ(gemm_tiling(16, 64, 1024, 48 * kib), (GemmTiling{32, 32, 8, 2, 2}));
  EXPECT_EQ(gemm_tiling(4, 32, 1024, 48 * kib).work_items(), 256u);
}

TEST(GemmTiling, DevicesOfWidthOneGetSmallTiles) {
  EXPECT_EQ(gemm_tiling(4, 1, 4096, 512 * kib), (GemmTiling{32, 32, 8, 4, 4}));
}

TEST(GemmTiling, ShrinksToTheDevicesWorkItemsAndLocalMemory) {
  for (const std::size_t items : {1, 2, 32, 64, 100, 255}) {
    for (const std::size_t itemsize : {4, 8, 16}) {
      const auto t = gemm_tiling(itemsize, 32, items, 48 * kib);
      SCOPED_TRACE(testing::Message() << items << " items, " << itemsize << " bytes");
      ASSERT_GT(t.work_items(), 0u);
      EXPECT_LE(t.work_items(), items);
      EXPECT_EQ(t.rows % t.item_rows, 0u);
      EXPECT_EQ(t.cols % t.item_cols, 0u);
    }
  }
  const auto small = gemm_tiling(4, 32, 1024, 2 * kib);
  ASSERT_GT(small.work_items(), 0u);
  EXPECT_LE(small.local_bytes(4), 2 * kib);
  // Not even one element per tile fits: no tiling.
  EXPECT_EQ(gemm_tiling(16, 32, 1024, 100).work_items(), 0u);
}

TEST(GemmSource, NamesTheKernelAndTakesLayoutsAsArguments) {
  const auto source = gemm_source({BlasType::complex128, {32, 32, 8, 2, 2}});
  EXPECT_NE(source.find("KERNEL void plinth_gemm("), std::string::npos);
  EXPECT_NE(source.find("typedef plinth_complex128 _b_t;"), std::string::npos);
  EXPECT_NE(source.find("int _b_a_rows_fast, int _b_b_cols_fast, int _b_conj_a, int _b_conj_b"),
            std::string::npos);
  EXPECT_NE(gemm_source({BlasType::float32, {128, 128, 8, 8, 8}}).find("typedef float _b_t;"),
            std::string::npos);
}

TEST(GemmSource, RefusesATileItsWorkItemsDoNotSplit) {
  EXPECT_THROW(gemm_source({BlasType::float32, {30, 32, 8, 4, 4}}), LogicError);
  EXPECT_THROW(gemm_source({BlasType::float32, {32, 32, 8, 0, 4}}), LogicError);
}

TEST(GemvSource, NeedsAPowerOfTwoOfLanes) {
  EXPECT_NE(gemv_source({BlasType::float64, 8, 32, true}).find("KERNEL void plinth_gemv("),
            std::string::npos);
  EXPECT_THROW(gemv_source({BlasType::float32, 8, 3, true}), LogicError);
  EXPECT_THROW(gemv_source({BlasType::float32, 0, 4, true}), LogicError);
}

}  // namespace
}  // namespace blas_codegen_test
}  // namespace plinth::detail
