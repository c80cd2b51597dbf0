// ScanKernel's code generation without a device: the tile geometry within a device's limits,
// how tiles are shared between groups, and the three kernels' source.

#include "algorithms/scan_codegen.hpp"

#include <gtest/gtest.h>

#include <string>

namespace plinth::detail {
namespace scan_codegen_test {
namespace {

TEST(ScanGeometry, FitsTheDeviceAndTheElement) {
  // A GPU: 256 work items, 16 int32 each (a 16 KiB tile).
  auto geometry = choose_scan_geometry(
      {.itemsize = 4, .max_local_size = 1024, .local_mem_size = 49152, .warp_size = 32});
  EXPECT_EQ(geometry.local_size, 256u);
  EXPECT_EQ(geometry.items, 16u);
  EXPECT_LE(scan_local_bytes(geometry, 4), 49152u / 2);
  // Larger elements: fewer items each.
  geometry = choose_scan_geometry(
      {.itemsize = 16, .max_local_size = 1024, .local_mem_size = 49152, .warp_size = 32});
  EXPECT_EQ(geometry.local_size, 256u);
  EXPECT_EQ(geometry.items, 4u);
  // A large struct in a small local memory: the group shrinks until it fits.
  geometry = choose_scan_geometry(
      {.itemsize = 256, .max_local_size = 1024, .local_mem_size = 16384, .warp_size = 32});
  EXPECT_EQ(geometry.items, 1u);
  EXPECT_LE(scan_local_bytes(geometry, 256), 16384u / 2);
  EXPECT_GE(geometry.local_size, 1u);
  // A device limit below 256 that is not a multiple of the warp: a multiple of the warp.
  geometry = choose_scan_geometry({.itemsize = 4, .max_local_size = 200, .warp_size = 32});
  EXPECT_EQ(geometry.local_size, 192u);
  // Nothing known: still at least 1 x 1.
  geometry = choose_scan_geometry({.itemsize = 4, .max_local_size = 0});
  EXPECT_EQ(geometry.local_size, 1u);
  EXPECT_GE(geometry.items, 1u);
}

TEST(ScanPartition, EveryGroupHasTilesAndAllAreCovered) {
  EXPECT_EQ(partition_scan(0, 2048, 16).groups, 0u);
  auto p = partition_scan(1, 2048, 16);
  EXPECT_EQ(p.tiles, 1u);
  EXPECT_EQ(p.groups, 1u);
  p = partition_scan(2049, 2048, 16);
  EXPECT_EQ(p.tiles, 2u);
  EXPECT_EQ(p.groups, 2u);
  EXPECT_EQ(p.tiles_per_group, 1u);
  // 10 tiles over at most 4 groups: 3 each, the last with 1.
  p = partition_scan(10 * 2048, 2048, 4);
  EXPECT_EQ(p.tiles_per_group, 3u);
  EXPECT_EQ(p.groups, 4u);
  // 9 tiles over at most 4 groups: 3 each, 3 groups (no empty group).
  p = partition_scan(9 * 2048, 2048, 4);
  EXPECT_EQ(p.tiles_per_group, 3u);
  EXPECT_EQ(p.groups, 3u);
  // Beyond 2^32 elements.
  const std::size_t huge = (std::size_t{1} << 33) + 5;
  p = partition_scan(huge, 2048, 1056);
  EXPECT_GE(p.groups * p.tiles_per_group * 2048, huge);
  EXPECT_LT((p.groups - 1) * p.tiles_per_group * 2048, huge);
  EXPECT_LE(p.groups, 1056u);
}

TEST(ScanSource, DeclaresTheThreeStagesWithTheUsersCode) {
  ScanSourceSpec spec;
  spec.name = "prefix";
  spec.preamble = "#define MY_PREAMBLE 1";
  spec.expression = "a * b";
  spec.neutral = "1";
  spec.geometry = {.local_size = 128, .items = 4};
  const auto inclusive = scan_source(spec);
  for (const char* part :
       {"#define MY_PREAMBLE 1", "return (a * b);", "_scan_T _scan_e = 1;",
        "KERNEL void prefix_reduce(", "KERNEL void prefix_groups(", "KERNEL void prefix_final(",
        "#define _SCAN_L 128u", "#define _SCAN_K 4u", "#define _SCAN_TILE 512u",
        "typedef ${_scan_type} _scan_T;", "_scan_in[_scan_i];"}) {
    EXPECT_NE(inclusive.find(part), std::string::npos) << part << "\n" << inclusive;
  }
  EXPECT_NE(inclusive.find("_scan_op(_scan_prefix, _scan_v[_scan_j]);"), std::string::npos);
  spec.exclusive = true;
  spec.convert_input = true;
  const auto exclusive = scan_source(spec);
  EXPECT_NE(exclusive.find("_scan_op(_scan_prefix, _scan_v[_scan_j - 1]);"), std::string::npos);
  EXPECT_NE(exclusive.find("(_scan_T)(_scan_in[_scan_i])"), std::string::npos);
}

TEST(ScanSource, SinglePassAndSubGroupScansOnlyWhenAsked) {
  ScanSourceSpec spec;
  spec.name = "prefix";
  spec.expression = "a + b";
  spec.neutral = "0";
  spec.geometry = {.local_size = 256, .items = 16};
  // Three passes and the rows kernel only: no atomics, no sub-group functions (any device).
  const auto plain = scan_source(spec);
  EXPECT_NE(plain.find("KERNEL void prefix_rows("), std::string::npos);
  EXPECT_NE(plain.find("KERNEL void prefix_clear("), std::string::npos);
  for (const char* absent : {"prefix_single(", "atomic_", "sub_group_", "MEM_ORDER_"}) {
    EXPECT_EQ(plain.find(absent), std::string::npos) << absent;
  }
  // The single pass: a tile counter, release stores and acquire loads of the statuses, a
  // look-back window of one predecessor per sub-group lane.
  spec.single_pass = true;
  const auto single = scan_source(spec);
  for (const char* part : {"KERNEL void prefix_single(", "atomic_add_global_uint(_scan_state, 1u)",
                           "MEM_ORDER_RELEASE", "atomic_load_global_uint(&_scan_flags[_scan_look]",
                           "MEM_ORDER_ACQUIRE", "sub_group_reduce_min_uint("}) {
    EXPECT_NE(single.find(part), std::string::npos) << part;
  }
  EXPECT_EQ(single.find("sub_group_shuffle_up_"), std::string::npos);
  // Scalar types scan within sub-groups by shuffles of their suffix.
  spec.sub_group_suffix = "long";
  const auto shuffled = scan_source(spec);
  EXPECT_NE(shuffled.find("sub_group_shuffle_up_long(_scan_x, _scan_d)"), std::string::npos);
  EXPECT_NE(shuffled.find("get_max_sub_group_size()"), std::string::npos);
}

}  // namespace
}  // namespace scan_codegen_test
}  // namespace plinth::detail
