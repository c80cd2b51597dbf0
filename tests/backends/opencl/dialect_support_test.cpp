// The OpenCL backend's choice of OpenCL C version and its DeviceFeatures, from device answers
// written out as PoCL 3.1, NVIDIA's OpenCL 3.0, an OpenCL 2.x GPU and Intel's GPUs give them.
// That the prelude's preprocessor agrees is the conformance suite's
// DialectBuildTest.OpenClPreludeChoosesWhatFeaturesSay, on the devices of the machine.

#include "dialect_support.hpp"

#include <gtest/gtest.h>

namespace plinth::opencl {
namespace dialect_support_test {
namespace {

constexpr std::uint64_t relaxed = 1 << 0, acq_rel = 1 << 1, seq_cst = 1 << 2, work_item = 1 << 3,
                        work_group = 1 << 4, device = 1 << 5, all_devices = 1 << 6;

const char* const pocl_extensions =
    "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
    "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "
    "cl_khr_local_int32_extended_atomics cl_khr_3d_image_writes cl_khr_command_buffer "
    "cl_khr_spir cl_khr_int64_base_atomics cl_khr_int64_extended_atomics cl_khr_fp64";

// What PoCL 3.1's pthread device answers (clinfo).
DialectQueries pocl() {
  DialectQueries q;
  q.device_version = 300;
  q.c_version = 120;
  q.atomic_memory_capabilities = relaxed | acq_rel | seq_cst | work_group | device | all_devices;
  q.atomic_fence_capabilities = relaxed | acq_rel | seq_cst | work_item | work_group | device;
  q.c_features = {"__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_order_seq_cst",
                  "__opencl_c_atomic_scope_device"};
  q.extensions = pocl_extensions;
  q.warp_size = 1;
  return q;
}

// NVIDIA's OpenCL 3.0 (CUDA 12/13): OpenCL 3.0's minimum atomic capabilities, OpenCL C 1.2,
// 64-bit atomics and fp64, no sub-groups.
DialectQueries nvidia() {
  DialectQueries q;
  q.device_version = 300;
  q.c_version = 120;
  q.atomic_memory_capabilities = relaxed | work_group;
  q.atomic_fence_capabilities = relaxed | acq_rel | work_group;
  q.extensions =
      "cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "
      "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics cl_khr_fp64 "
      "cl_khr_3d_image_writes cl_khr_byte_addressable_store cl_khr_icd cl_khr_gl_sharing "
      "cl_nv_compiler_options cl_nv_device_attribute_query cl_nv_pragma_unroll "
      "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics cl_khr_fp16";
  q.warp_size = 32;
  return q;
}

TEST(OpenClDialect, ParsesVersions) {
  EXPECT_EQ(parse_version("OpenCL 3.0 PoCL HSTR: pthread-x86_64", "OpenCL "), 300);
  EXPECT_EQ(parse_version("OpenCL C 1.2 PoCL", "OpenCL C "), 120);
  EXPECT_EQ(parse_version("OpenCL 2.1 AMD-APP (3380.4)", "OpenCL "), 210);
  EXPECT_EQ(parse_version("OpenCL C 1.2 ", "OpenCL "), 0);  // no digit right after
  EXPECT_EQ(parse_version("Vendor 3.0", "OpenCL "), 0);
  EXPECT_EQ(parse_version("OpenCL ", "OpenCL "), 0);
  EXPECT_EQ(parse_version("", "OpenCL "), 0);
}

TEST(OpenClDialect, PoclBuildsAsOpenCl30WithDeviceScopeAndSubGroupsOfOne) {
  const auto q = pocl();
  ASSERT_EQ(build_language(q), 300);
  EXPECT_EQ(language_option(300), "-cl-std=CL3.0");
  const auto f = dialect_features(q, 300);
  EXPECT_TRUE(f.atomics);
  EXPECT_TRUE(f.int64_atomics);
  EXPECT_TRUE(f.double_atomics);
  EXPECT_FALSE(f.native_float_atomic_add);
  EXPECT_FALSE(f.native_double_atomic_add);
  EXPECT_TRUE(f.device_scope_acquire_release);
  EXPECT_FALSE(f.native_sub_groups);
  EXPECT_EQ(f.sub_group_sizes, std::vector<std::size_t>{1});
  EXPECT_FALSE(f.sub_group_independent_forward_progress);
}

TEST(OpenClDialect, NvidiaKeepsOpenCl12WithoutDeviceScopeAcquireRelease) {
  const auto q = nvidia();
  ASSERT_EQ(build_language(q), 0);
  EXPECT_EQ(language_option(0), "");
  const auto f = dialect_features(q, 0);
  EXPECT_TRUE(f.atomics);
  EXPECT_TRUE(f.int64_atomics);
  EXPECT_TRUE(f.double_atomics);
  EXPECT_FALSE(f.device_scope_acquire_release);
  EXPECT_FALSE(f.native_sub_groups);
  EXPECT_EQ(f.sub_group_sizes, std::vector<std::size_t>{1});
}

TEST(OpenClDialect, OpenCl30NeedsAcquireReleaseAndDeviceScopeInBothCapabilities) {
  auto q = pocl();
  q.atomic_fence_capabilities = relaxed | acq_rel | work_group;  // no device scope
  EXPECT_EQ(build_language(q), 0);
  q = pocl();
  q.atomic_memory_capabilities = relaxed | work_group | device;  // no acquire/release
  EXPECT_EQ(build_language(q), 0);
  // The compiler defines the feature macros the device lists: both must be listed.
  q = pocl();
  q.c_features = {"__opencl_c_atomic_order_acq_rel"};
  EXPECT_EQ(build_language(q), 0);
  q.c_features.clear();  // a device that lists none: the capabilities decide
  EXPECT_EQ(build_language(q), 300);
}

TEST(OpenClDialect, OpenCl2xBuildsAsOpenCl20) {
  DialectQueries q;
  q.device_version = 200;
  q.c_version = 200;
  EXPECT_EQ(build_language(q), 200);
  EXPECT_EQ(language_option(200), "-cl-std=CL2.0");
  EXPECT_TRUE(dialect_features(q, 200).device_scope_acquire_release);
  q.c_version = 120;  // a 2.x device whose compiler offers only OpenCL C 1.2
  EXPECT_EQ(build_language(q), 0);
  q.device_version = 120;
  q.c_version = 120;
  EXPECT_EQ(build_language(q), 0);
}

TEST(OpenClDialect, SixtyFourBitAndDoubleAtomicsNeedBothExtensionsAndFp64) {
  auto q = pocl();
  q.extensions = "cl_khr_int64_base_atomics cl_khr_fp64";
  EXPECT_FALSE(dialect_features(q, 300).int64_atomics);
  EXPECT_FALSE(dialect_features(q, 300).double_atomics);
  q.extensions = "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics";
  EXPECT_TRUE(dialect_features(q, 300).int64_atomics);
  EXPECT_FALSE(dialect_features(q, 300).double_atomics);
  // Whole names only.
  q.extensions = "cl_khr_int64_base_atomics_x cl_khr_int64_extended_atomics cl_khr_fp64";
  EXPECT_FALSE(dialect_features(q, 300).int64_atomics);
}

TEST(OpenClDialect, IntelGpusHaveNativeSubGroupsOfTheirSizes) {
  DialectQueries q;
  q.device_version = 300;
  q.c_version = 120;
  q.atomic_memory_capabilities = relaxed | acq_rel | seq_cst | work_group | device;
  q.atomic_fence_capabilities = relaxed | acq_rel | seq_cst | work_item | work_group | device;
  q.extensions =
      "cl_khr_subgroups cl_intel_subgroups cl_intel_required_subgroup_size "
      "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics";
  q.intel_sub_group_sizes = {32, 8, 16};
  q.sub_group_independent_forward_progress = true;
  q.warp_size = 32;
  const auto f = dialect_features(q, build_language(q));
  EXPECT_TRUE(f.native_sub_groups);
  EXPECT_EQ(f.sub_group_sizes, (std::vector<std::size_t>{8, 16, 32}));
  EXPECT_TRUE(f.sub_group_independent_forward_progress);
  // Khronos' shuffles stand in for Intel's, both of them needed; sizes then the warp size.
  q.extensions = "cl_khr_subgroups cl_khr_subgroup_shuffle cl_khr_subgroup_shuffle_relative";
  q.intel_sub_group_sizes.clear();
  auto g = dialect_features(q, 300);
  EXPECT_TRUE(g.native_sub_groups);
  EXPECT_EQ(g.sub_group_sizes, std::vector<std::size_t>{32});
  q.extensions = "cl_khr_subgroups cl_khr_subgroup_shuffle";
  g = dialect_features(q, 300);
  EXPECT_FALSE(g.native_sub_groups);
  EXPECT_EQ(g.sub_group_sizes, std::vector<std::size_t>{1});
  EXPECT_FALSE(g.sub_group_independent_forward_progress);
  // OpenCL C 3.0's feature stands in for cl_khr_subgroups, when built as 3.0.
  q.extensions = "cl_intel_subgroups";
  q.c_features = {"__opencl_c_atomic_order_acq_rel", "__opencl_c_atomic_scope_device",
                  "__opencl_c_subgroups"};
  EXPECT_TRUE(dialect_features(q, 300).native_sub_groups);
  EXPECT_FALSE(dialect_features(q, 0).native_sub_groups);
}

// PoCL 5 (the GPU machines') offers cl_khr_subgroups and cl_intel_subgroups with sizes up to
// 512, and no 64-bit shuffles: beyond the dialect's 64 (ballot's width), plinth turns them off
// (-DPLINTH_NO_NATIVE_SUB_GROUPS) and the sub-groups are of size 1. Programs on it failed to
// link ("Cannot find symbol _Z26intel_sub_group_shuffle_upmmj") before.
TEST(OpenClDialect, SubGroupsWiderThan64AreLeftToTheEmulation) {
  DialectQueries q;
  q.device_version = 300;
  q.c_version = 120;
  q.extensions = "cl_khr_subgroups cl_intel_subgroups cl_intel_required_subgroup_size";
  q.intel_sub_group_sizes = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  EXPECT_TRUE(sub_groups_too_wide(q, 0));
  const auto f = dialect_features(q, 0);
  EXPECT_FALSE(f.native_sub_groups);
  EXPECT_EQ(f.sub_group_sizes, std::vector<std::size_t>{1});
  q.intel_sub_group_sizes = {8, 16, 64};
  EXPECT_FALSE(sub_groups_too_wide(q, 0));
  EXPECT_TRUE(dialect_features(q, 0).native_sub_groups);
  // No sub-groups at all: nothing to turn off.
  q.extensions.clear();
  q.intel_sub_group_sizes = {512};
  EXPECT_FALSE(sub_groups_too_wide(q, 0));
}

}  // namespace
}  // namespace dialect_support_test
}  // namespace plinth::opencl
