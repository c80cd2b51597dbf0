// The radix sort's code generation without a device: the scatter tile's geometry within a
// device's limits, the key transforms, and the kernels' source.

#include "algorithms/sort_codegen.hpp"

#include <gtest/gtest.h>

#include <string>

namespace plinth::detail {
namespace sort_codegen_test {
namespace {

TEST(RadixGeometry, FitsTheDeviceAndTheKeys) {
  const RadixKeySpec f32{RadixKeyKind::floating, 32, false, 0};
  // A GPU with warps of 32: 256 work items, 8 warps, 16 keys each.
  const RadixLimits gpu{.max_local_size = 1024,
                        .local_mem_size = 49152,
                        .min_sub_group_size = 32,
                        .max_sub_group_size = 32};
  auto geometry = choose_radix_geometry(gpu, f32);
  EXPECT_EQ(geometry.local_size, 256u);
  EXPECT_EQ(geometry.sub_groups, 8u);
  EXPECT_EQ(geometry.items, 16u);
  EXPECT_LE(radix_local_bytes(geometry, f32), 44u * 1024);
  // With int64 indices too: still 16 keys each in 48 KiB.
  EXPECT_EQ(choose_radix_geometry(gpu, {RadixKeyKind::floating, 32, false, 32}).items, 16u);
  // 64-bit keys with 64-bit indices: fewer keys each, still within the budget.
  const RadixKeySpec wide{RadixKeyKind::signed_integer, 64, false, 64};
  geometry = choose_radix_geometry(gpu, wide);
  EXPECT_LT(geometry.items, 16u);
  EXPECT_GE(geometry.items, 1u);
  EXPECT_LE(radix_local_bytes(geometry, wide), 44u * 1024);
  // Emulated sub-groups (size 1): 32 work items, each its own sub-group.
  geometry = choose_radix_geometry({.max_local_size = 4096, .local_mem_size = 1 << 20}, f32);
  EXPECT_EQ(geometry.local_size, 32u);
  EXPECT_EQ(geometry.sub_groups, 32u);
  // A device allowing 64 work items with wavefronts of 64: one sub-group.
  geometry = choose_radix_geometry({.max_local_size = 64,
                                    .local_mem_size = 65536,
                                    .min_sub_group_size = 64,
                                    .max_sub_group_size = 64},
                                   f32);
  EXPECT_EQ(geometry.local_size, 64u);
  EXPECT_EQ(geometry.sub_groups, 1u);
  // Sub-groups of 8 to 32 (Intel): as many counters as sub-groups of 8 make.
  geometry = choose_radix_geometry({.max_local_size = 512,
                                    .local_mem_size = 65536,
                                    .min_sub_group_size = 8,
                                    .max_sub_group_size = 32},
                                   f32);
  EXPECT_EQ(geometry.local_size, 256u);
  EXPECT_EQ(geometry.sub_groups, 32u);
  EXPECT_LE(radix_local_bytes(geometry, f32), 44u * 1024);
  // Little local memory: one key each.
  geometry = choose_radix_geometry({.max_local_size = 256,
                                    .local_mem_size = 16384,
                                    .min_sub_group_size = 32,
                                    .max_sub_group_size = 32},
                                   wide);
  EXPECT_EQ(geometry.items, 1u);
}

TEST(RadixOrder, TransformsPerKind) {
  const auto unsigned_order = radix_order_function({RadixKeyKind::unsigned_integer, 16, false, 0});
  EXPECT_NE(unsigned_order.find("_sort_KB y = x;"), std::string::npos);
  const auto signed_order = radix_order_function({RadixKeyKind::signed_integer, 8, false, 0});
  EXPECT_NE(signed_order.find("<< 7"), std::string::npos);  // the sign bit flipped
  const auto float_order = radix_order_function({RadixKeyKind::floating, 64, true, 0});
  EXPECT_NE(float_order.find("0x7ff0000000000000UL"), std::string::npos);  // NaN test
  EXPECT_NE(float_order.find("y = (_sort_KB)~y;"), std::string::npos);     // descending
  // unique's and searchsorted's keys: zeros made +0.0 before the transform.
  EXPECT_NE(sort_key_prelude({RadixKeyKind::floating, 32, false, 0}).find("x = (_sort_KB)0;"),
            std::string::npos);
}

TEST(RadixSource, KernelsAndPayload) {
  const RadixGeometry geometry{.local_size = 256, .items = 16, .sub_groups = 8};
  const auto keys = radix_source({RadixKeyKind::floating, 32, false, 0}, geometry);
  EXPECT_NE(keys.find("KERNEL void _sort_hist("), std::string::npos);
  EXPECT_NE(keys.find("KERNEL void _sort_scatter("), std::string::npos);
  EXPECT_EQ(keys.find("_sort_PI"), std::string::npos);
  EXPECT_EQ(keys.find('@'), std::string::npos);  // every hook replaced
  EXPECT_NE(keys.find("#define _SORT_L 256u"), std::string::npos);
  EXPECT_NE(keys.find("#define _SORT_NSG 8u"), std::string::npos);
  // One program for every kind of key of a width: the kind is an argument.
  EXPECT_EQ(keys, radix_source({RadixKeyKind::signed_integer, 32, true, 0}, geometry));
  EXPECT_NE(keys.find("_sort_order(_sort_KB x, unsigned int mode)"), std::string::npos);
  EXPECT_EQ(radix_mode({RadixKeyKind::unsigned_integer, 32, false, 0}), 0u);
  EXPECT_EQ(radix_mode({RadixKeyKind::signed_integer, 8, false, 0}), 1u);
  EXPECT_EQ(radix_mode({RadixKeyKind::floating, 64, true, 0}), 6u);
  const auto pairs = radix_source({RadixKeyKind::signed_integer, 64, false, 32}, geometry);
  EXPECT_NE(pairs.find("typedef unsigned int _sort_PI;"), std::string::npos);
  EXPECT_NE(pairs.find("typedef unsigned long _sort_KB;"), std::string::npos);
  EXPECT_NE(pairs.find("_sort_pfinal[_sort_g] = (long)"), std::string::npos);
  EXPECT_EQ(pairs.find('@'), std::string::npos);
}

}  // namespace
}  // namespace sort_codegen_test
}  // namespace plinth::detail
