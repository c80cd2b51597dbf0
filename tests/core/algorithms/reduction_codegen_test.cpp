// The pure parts of ReductionKernel: the axes order, the plan of groups, and the source.

#include "algorithms/reduction_codegen.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace plinth::detail {
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

}  // namespace
}  // namespace plinth::detail
