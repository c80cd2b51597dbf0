// The pure parts of ReductionKernel: the axes order, the plan of groups, and the source.

#include "algorithms/reduction_codegen.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace plinth::detail {
namespace reduction_codegen_test {
namespace {

TEST(ReductionAxesOrder, KeptAxesComeFirst) {
  const std::vector<std::size_t> axes = {2, 0};
  const auto order = reduction_axes_order(4, axes);
  EXPECT_EQ(order.order, (std::vector<std::size_t>{1, 3, 0, 2}));
  EXPECT_EQ(order.kept, 2u);
  EXPECT_FALSE(order.identity);
  const std::vector<std::size_t> trailing = {2, 3};
  const auto last = reduction_axes_order(4, trailing);
  EXPECT_TRUE(last.identity);
  EXPECT_EQ(last.kept, 2u);
  EXPECT_TRUE(reduction_axes_order(0, {}).identity);
}

TEST(ReductionPlan, WholeArraysUseBoundedGroupsAndAFinalStage) {
  // 2^28 elements, 256 work items, 1056 groups at most (132 compute units x 8).
  const auto big = plan_reduction(1, std::size_t{1} << 28, 256, 1056);
  EXPECT_EQ(big.segment, 256u);
  EXPECT_EQ(big.parts, 1056u);
  EXPECT_EQ(big.groups, 1056u);
  EXPECT_EQ(big.final_groups, 1u);
  // Few elements: one group, at least 4 per work item, no stage 2.
  const auto small = plan_reduction(1, 1000, 256, 1056);
  EXPECT_EQ(small.parts, 1u);
  EXPECT_EQ(small.groups, 1u);
  EXPECT_EQ(small.final_groups, 0u);
  const auto medium = plan_reduction(1, 1000003, 256, 1056);
  EXPECT_EQ(medium.parts, (1000003u + 1023u) / 1024u);
  EXPECT_EQ(medium.final_groups, 1u);
}

TEST(ReductionPlan, SmallExtentsShareGroups) {
  // 10^6 outputs of 3 elements: segments of 4 work items, 64 outputs per group.
  const auto plan = plan_reduction(1000000, 3, 256, 1056);
  EXPECT_EQ(plan.segment, 4u);
  EXPECT_EQ(plan.parts, 1u);
  EXPECT_EQ(plan.tasks, (1000000u + 63u) / 64u);
  EXPECT_EQ(plan.groups, 1056u);
  EXPECT_EQ(plan.final_groups, 0u);
  // An extent of 1 or 0: one work item per output.
  EXPECT_EQ(plan_reduction(10, 1, 256, 8).segment, 1u);
  EXPECT_EQ(plan_reduction(10, 0, 256, 8).segment, 1u);
  EXPECT_EQ(plan_reduction(10, 0, 256, 8).tasks, 1u);
  // No outputs: nothing to launch.
  EXPECT_EQ(plan_reduction(0, 100, 256, 8).groups, 0u);
}

TEST(ReductionSource, HasBothKernelsAndTheUserParts) {
  const std::vector<ElementwiseArg> args = {ElementwiseArg::input("x", DType::float32()),
                                            ElementwiseArg::scalar("k", DType::int32())};
  ReductionSourceParts parts;
  parts.map = "_elw_a0[_elw_o0] * k";
  parts.reduce = "a + b";
  parts.neutral = "0.0f";
  parts.preamble = "// preamble";
  parts.name = "total";
  parts.out_type = "float";
  parts.local_size = 128;
  const LayoutSignature signature{{true, false}, 2};
  const auto source = reduction_source(args, parts, signature);
  for (const char* piece :
       {"// preamble", "FUNCTION float _red_reduce(float a, float b)", "return (a + b);",
        "KERNEL void total(", "KERNEL void total_final(", "LOCAL_MEM float _red_local[128];",
        "GLOBAL_MEM const float *_elw_p0", "int k", "unsigned long _elw_n1", "long _elw_s0_1",
        "(_elw_a0[_elw_o0] * k)", "GLOBAL_MEM const float *const _elw_a0 = _elw_p0 + _elw_b0;",
        "float _red_acc3 = 0.0f;", "_red_r + 3 * _red_step"}) {
    EXPECT_NE(source.find(piece), std::string::npos) << piece << "\n" << source;
  }
}

/// The path for reducing the last `shape.size() - kept` dimensions with one strided array
/// of `strides` (elements, over the reordered shape).
ReductionPath path_of(const std::vector<std::size_t>& shape, std::size_t kept,
                      const std::vector<std::int64_t>& strides) {
  const std::vector<AlignedStrides> arrays = {strides};
  return choose_reduction_path(shape, kept, arrays, 0);
}

TEST(ReductionPathChoice, ColumnSumsOfAMatrixTakeTheColumnsPath) {
  // sum over axis 0 of a C-contiguous (4096, 8192): kept 8192 (stride 1), reduced 4096.
  const auto columns = path_of({8192, 4096}, 1, {1, 8192});
  EXPECT_EQ(columns.kind, ReductionPathKind::columns);
  EXPECT_EQ(columns.kept.shape, (std::vector<std::size_t>{8192}));
  EXPECT_EQ(columns.reduced.shape, (std::vector<std::size_t>{4096}));
  EXPECT_EQ(columns.kept.strides[0], (std::vector<std::int64_t>{1}));
  EXPECT_EQ(columns.reduced.strides[0], (std::vector<std::int64_t>{8192}));
  // Row sums of the same matrix (on the fast path: no strides) take the flat path.
  const std::vector<AlignedStrides> fast = {std::nullopt};
  const std::vector<std::size_t> rows = {4096, 8192};
  EXPECT_EQ(choose_reduction_path(rows, 1, fast, 1).kind, ReductionPathKind::flat);
  // Row sums of a strided view m[:, ::2] take the rows path, its column sums the columns.
  EXPECT_EQ(path_of({4096, 4096}, 1, {8192, 2}).kind, ReductionPathKind::rows);
  EXPECT_EQ(path_of({4096, 4096}, 1, {2, 8192}).kind, ReductionPathKind::columns);
  // m[::3, :] along axis 0; the transpose m.T along axis 1 (columns), along axis 0 (rows).
  EXPECT_EQ(path_of({8192, 1366}, 1, {1, 3 * 8192}).kind, ReductionPathKind::columns);
  EXPECT_EQ(path_of({8192, 4096}, 1, {1, 8192}).kind, ReductionPathKind::columns);
  EXPECT_EQ(path_of({4096, 8192}, 1, {8192, 1}).kind, ReductionPathKind::rows);
  // Negative strides count by their size.
  EXPECT_EQ(path_of({8192, 4096}, 1, {-1, -8192}).kind, ReductionPathKind::columns);
}

TEST(ReductionPathChoice, DegenerateShapesStayFlat) {
  EXPECT_EQ(path_of({8192, 1}, 1, {1, 8192}).kind, ReductionPathKind::flat);     // extent 1
  EXPECT_EQ(path_of({1, 4096}, 1, {1, 8192}).kind, ReductionPathKind::flat);     // one output
  EXPECT_EQ(path_of({8192, 0}, 1, {1, 8192}).kind, ReductionPathKind::flat);     // nothing
  EXPECT_EQ(path_of({8192, 4096}, 2, {1, 8192}).kind, ReductionPathKind::flat);  // no axis
  const std::vector<AlignedStrides> none = {std::nullopt};
  const std::vector<std::size_t> shape = {8192, 4096};
  EXPECT_EQ(choose_reduction_path(shape, 1, none, 0).kind, ReductionPathKind::flat);
  // 1000 x 3 along axis 0 (columns), 3 x 1000003 along axis 0 (columns) and axis 1 (rows).
  EXPECT_EQ(path_of({3, 1000}, 1, {1, 3}).kind, ReductionPathKind::columns);
  EXPECT_EQ(path_of({1000003, 3}, 1, {1, 1000003}).kind, ReductionPathKind::columns);
  EXPECT_EQ(path_of({3, 1000003}, 1, {1000003, 1}).kind, ReductionPathKind::rows);
}

TEST(ReductionPathChoice, MixedCasesOfThreeDimensions) {
  // (64, 256, 1024) C-contiguous: strides (262144, 1024, 1).
  // Axes (0, 2): kept 256 (1024), reduced 64 x 1024 with a contiguous last one: rows.
  const auto outer = path_of({256, 64, 1024}, 1, {1024, 262144, 1});
  EXPECT_EQ(outer.kind, ReductionPathKind::rows);
  EXPECT_EQ(outer.kept.shape, (std::vector<std::size_t>{256}));
  EXPECT_EQ(outer.reduced.shape, (std::vector<std::size_t>{64, 1024}));
  EXPECT_EQ(outer.reduced.strides[0], (std::vector<std::int64_t>{262144, 1}));
  // Axes (0, 1): kept 1024 (1), reduced 64 x 256, merged into one of 16384 (stride 1024).
  const auto both = path_of({1024, 64, 256}, 1, {1, 262144, 1024});
  EXPECT_EQ(both.kind, ReductionPathKind::columns);
  EXPECT_EQ(both.reduced.shape, (std::vector<std::size_t>{16384}));
  EXPECT_EQ(both.reduced.strides[0], (std::vector<std::int64_t>{1024}));
  // Axis 1: kept 64 x 1024 (two kept dimensions), reduced 256 (stride 1024).
  const auto middle = path_of({64, 1024, 256}, 2, {262144, 1, 1024});
  EXPECT_EQ(middle.kind, ReductionPathKind::columns);
  EXPECT_EQ(middle.kept.shape, (std::vector<std::size_t>{64, 1024}));
  EXPECT_EQ(middle.kept.strides[0], (std::vector<std::int64_t>{262144, 1}));
  // A broadcast second array (stride 0 along the kept axis) and a scalar weigh nothing.
  const std::vector<AlignedStrides> two = {std::vector<std::int64_t>{1, 8192},
                                           std::vector<std::int64_t>{0, 1}, std::nullopt};
  const std::vector<std::size_t> shape = {8192, 4096};
  const auto weighted = choose_reduction_path(shape, 1, two, 0);
  EXPECT_EQ(weighted.kind, ReductionPathKind::columns);
  EXPECT_EQ(weighted.kept.strides[1], (std::vector<std::int64_t>{0}));
  EXPECT_TRUE(weighted.kept.strides[2].empty());
}

TEST(ColumnPlan, SplitsTheReducedExtentOnlyToFillTheDevice) {
  // 16384 x 16384 along axis 0, 1056 groups wanted: 64 groups of outputs, 16 parts each
  // (1024 groups: 17 would make 1088, a second wave of 32).
  const auto square = plan_column_reduction(16384, 16384, 256, 1056, 1024);
  EXPECT_EQ(square.local_x, 256u);
  EXPECT_EQ(square.local_y, 1u);
  EXPECT_EQ(square.groups_x, 64u);
  EXPECT_EQ(square.parts, 16u);
  EXPECT_EQ(square.chunk, 1024u);
  EXPECT_EQ(square.final_groups, 1056u);
  // Outputs enough to fill the device: no parts, no stage 2.
  const auto wide = plan_column_reduction(1000003, 3, 256, 1056, 1024);
  EXPECT_EQ(wide.parts, 1u);
  EXPECT_EQ(wide.chunk, 3u);
  EXPECT_EQ(wide.final_groups, 0u);
  EXPECT_EQ(wide.groups_x, (1000003u + 255u) / 256u);
  // Three outputs: narrow groups that hold several parts, parts of at least 32 elements.
  const auto narrow = plan_column_reduction(3, 1000, 256, 1056, 1024);
  EXPECT_EQ(narrow.local_x, 4u);
  EXPECT_EQ(narrow.groups_x, 1u);
  EXPECT_EQ(narrow.local_y, 16u);
  EXPECT_EQ(narrow.parts, 32u);
  EXPECT_EQ(narrow.chunk, 500u);  // two group rows of 16 parts
  EXPECT_EQ(narrow.final_groups, 3u);
  // A device with at most 8 work items in dimension 1.
  const auto limited = plan_column_reduction(3, 1000, 256, 1056, 8);
  EXPECT_EQ(limited.local_y, 8u);
  EXPECT_EQ(limited.parts, 32u);
  EXPECT_EQ(plan_column_reduction(3, 1000, 256, 1056, 1).local_y, 1u);
  // Nothing to do.
  EXPECT_EQ(plan_column_reduction(0, 100, 256, 8, 1024).groups_x, 0u);
  EXPECT_EQ(plan_column_reduction(100, 0, 256, 8, 1024).groups_x, 0u);
  // Every plan covers its extent with whole groups.
  for (const std::size_t outputs : {1u, 2u, 5u, 255u, 256u, 257u, 70000u}) {
    for (const std::size_t extent : {1u, 2u, 31u, 33u, 1000u, 1000003u}) {
      const auto plan = plan_column_reduction(outputs, extent, 256, 64, 1024);
      SCOPED_TRACE(::testing::Message() << outputs << " x " << extent);
      EXPECT_LE(plan.local_x * plan.local_y, 256u);
      EXPECT_EQ(plan.parts % plan.local_y, 0u);
      const auto rows = plan.parts / plan.local_y;  // of groups
      EXPECT_GE(rows * plan.chunk, extent);
      EXPECT_LT((rows - 1) * plan.chunk, extent);
      EXPECT_GE(plan.groups_x * plan.local_x, outputs);
      EXPECT_EQ(plan.final_groups > 0, plan.parts > 1);
      // At most max_groups groups where the outputs leave room (twice that where a short
      // extent rounds a few parts up to a power of two).
      EXPECT_LE(plan.groups_x * (plan.parts / plan.local_y),
                2 * std::max<std::size_t>(plan.groups_x, 64));
    }
  }
}

TEST(ReductionPlan, ManyLongRowsUseWarpSegments) {
  // 16384 rows of 16384: segments of 32, 8 rows per group, still >= 1056 tasks.
  const auto rows = plan_reduction(16384, 16384, 256, 1056);
  EXPECT_EQ(rows.segment, 32u);
  EXPECT_EQ(rows.parts, 1u);
  EXPECT_EQ(rows.tasks, 2048u);
  EXPECT_EQ(rows.final_groups, 0u);
  // 1024 rows: too few for narrower segments; a group per row, two parts each.
  const auto fewer = plan_reduction(1024, 16384, 256, 1056);
  EXPECT_EQ(fewer.segment, 256u);
  EXPECT_EQ(fewer.parts, 2u);
}

TEST(ReductionSource, TheSplitProgramHasItsThreeKernels) {
  const std::vector<ElementwiseArg> args = {ElementwiseArg::input("x", DType::float32()),
                                            ElementwiseArg::input("y", DType::float32()),
                                            ElementwiseArg::scalar("k", DType::int32())};
  ReductionSourceParts parts;
  parts.map = "_elw_a0[_elw_o0] * y[i] * k";
  parts.reduce = "a + b";
  parts.neutral = "0.0f";
  parts.preamble = "// preamble";
  parts.name = "total";
  parts.out_type = "float";
  parts.local_size = 64;
  LayoutSignature signature{{true, false, false}, 3};
  signature.restrict_inputs = true;
  const auto source = reduction_split_source(args, parts, signature, 2, 2);
  for (const char* piece : {"// preamble",
                            "FUNCTION float _red_reduce(float a, float b)",
                            "KERNEL void total_cols(",
                            "KERNEL void total_cols_final(",
                            "LOCAL_MEM float _red_local[64];",
                            "GLOBAL_MEM const float *_elw_restrict _elw_p0",
                            "GLOBAL_MEM const float *const y",
                            "int k",
                            "unsigned long _red_chunk",
                            "unsigned long _red_m1",
                            "unsigned long _red_e1",
                            "long _red_t0_1",
                            "long _red_u0_1",
                            "long _red_k0 = 0;",
                            "long _elw_o0 = _red_k0;",
                            "const VSIZE_T i = _red_base + _red_j;",
                            "(_elw_a0[_elw_o0] * y[i] * k)",
                            "float _red_acc3 = 0.0f;",
                            "_red_r + 3 * _red_ly",
                            "get_global_id(1)",
                            "get_local_size(1)"}) {
    EXPECT_NE(source.find(piece), std::string::npos) << piece << "\n" << source;
  }
  // The rows path's stage 1: segments, the reduced index from the flat one.
  for (const char* piece :
       {"KERNEL void total_rows(", "unsigned long _red_segment", "_red_r + 3 * _red_step",
        "const VSIZE_T _red_j = i - _red_base;", "_red_local[_red_lid + _red_s]"}) {
    EXPECT_NE(source.find(piece), std::string::npos) << piece << "\n" << source;
  }
  // Only the strided argument gets strides; nothing of the whole merged layout.
  EXPECT_EQ(source.find("_red_t1_0"), std::string::npos);
  EXPECT_EQ(source.find("_elw_n1"), std::string::npos);
}

}  // namespace
}  // namespace reduction_codegen_test
}  // namespace plinth::detail
