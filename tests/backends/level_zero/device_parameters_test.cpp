// The mapping from Level Zero's property structs to DeviceParameters, with structs filled as
// Intel's driver fills them for a Data Center GPU Max 1100 (Xe-HPC, one tile) and for the
// integrated Iris Xe of an 11th-generation Core (Xe-LP, no double precision).

#include "device_parameters.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace plinth::level_zero {
namespace device_parameters_test {
namespace {

DeviceProperties max_1100() {
  DeviceProperties p;
  p.device.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  p.device.type = ZE_DEVICE_TYPE_GPU;
  p.device.vendorId = 0x8086;
  p.device.deviceId = 0x0bda;
  p.device.numThreadsPerEU = 8;
  p.device.physicalEUSimdWidth = 16;
  p.device.numEUsPerSubslice = 8;
  p.device.numSubslicesPerSlice = 56;
  p.device.numSlices = 1;
  p.device.timerResolution = 1;
  std::strcpy(p.device.name, "Intel(R) Data Center GPU Max 1100");
  p.compute.maxTotalGroupSize = 1024;
  p.compute.maxGroupSizeX = 1024;
  p.compute.maxGroupSizeY = 1024;
  p.compute.maxGroupSizeZ = 1024;
  p.compute.maxGroupCountX = 4294967295u;
  p.compute.maxGroupCountY = 4294967295u;
  p.compute.maxGroupCountZ = 4294967295u;
  p.compute.maxSharedLocalMemory = 131072;
  p.compute.numSubGroupSizes = 2;
  p.compute.subGroupSizes[0] = 16;
  p.compute.subGroupSizes[1] = 32;
  ze_device_memory_properties_t hbm{};
  hbm.totalSize = std::uint64_t{51539607552};  // 48 GiB of HBM2e
  std::strcpy(hbm.name, "HBM");
  p.memory = {hbm};
  p.module.flags =
      ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 | ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  p.module.fp64flags = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN |
                       ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_FMA;
  return p;
}

DeviceProperties iris_xe() {
  DeviceProperties p;
  p.device.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  p.device.type = ZE_DEVICE_TYPE_GPU;
  p.device.flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED;
  p.device.vendorId = 0x8086;
  p.device.deviceId = 0x9a49;
  p.device.numThreadsPerEU = 7;
  p.device.physicalEUSimdWidth = 8;
  p.device.numEUsPerSubslice = 16;
  p.device.numSubslicesPerSlice = 6;
  p.device.numSlices = 1;
  std::strcpy(p.device.name, "Intel(R) Iris(R) Xe Graphics");
  p.compute.maxTotalGroupSize = 512;
  p.compute.maxGroupSizeX = 512;
  p.compute.maxGroupSizeY = 512;
  p.compute.maxGroupSizeZ = 512;
  p.compute.maxGroupCountX = 4294967295u;
  p.compute.maxGroupCountY = 4294967295u;
  p.compute.maxGroupCountZ = 4294967295u;
  p.compute.maxSharedLocalMemory = 65536;
  p.compute.numSubGroupSizes = 3;
  p.compute.subGroupSizes[0] = 8;
  p.compute.subGroupSizes[1] = 16;
  p.compute.subGroupSizes[2] = 32;
  ze_device_memory_properties_t system{};
  system.totalSize = std::uint64_t{13246418944};  // a share of the system's memory
  p.memory = {system};
  p.module.flags = ZE_DEVICE_MODULE_FLAG_FP16;  // no FP64: double is emulated, or absent
  p.module.fp64flags = 0;
  return p;
}

TEST(LevelZeroDeviceParameters, MapsADataCenterGpuMax) {
  const auto params = parameters_from(max_1100(), "1.3.26241");
  EXPECT_EQ(params.type, DeviceType::gpu);
  EXPECT_EQ(params.compute_units, 448u);  // 56 Xe cores of 8 vector engines
  EXPECT_EQ(params.local_mem_banks, 16u);
  EXPECT_EQ(params.local_mem_size, 131072u);
  EXPECT_EQ(params.max_local_sizes, (std::vector<std::size_t>{1024, 1024, 1024}));
  EXPECT_EQ(params.max_num_groups,
            (std::vector<std::size_t>{4294967295u, 4294967295u, 4294967295u}));
  EXPECT_EQ(params.max_total_local_size, 1024u);
  EXPECT_EQ(params.warp_size, 16u);  // the smallest sub-group size
  EXPECT_EQ(params.global_mem_size, std::size_t{51539607552});
  EXPECT_EQ(params.address_alignment, 256u);
  EXPECT_TRUE(params.supports_double);
  EXPECT_EQ(params.compute_capability, "0x0bda");
  EXPECT_EQ(params.driver_version, "1.3.26241");
}

TEST(LevelZeroDeviceParameters, MapsAnIntegratedXeWithoutDoubles) {
  const auto params = parameters_from(iris_xe(), "");
  EXPECT_EQ(params.type, DeviceType::gpu);
  EXPECT_EQ(params.compute_units, 96u);
  EXPECT_EQ(params.local_mem_size, 65536u);
  EXPECT_EQ(params.max_local_sizes, (std::vector<std::size_t>{512, 512, 512}));
  EXPECT_EQ(params.max_total_local_size, 512u);
  EXPECT_EQ(params.warp_size, 8u);
  EXPECT_EQ(params.global_mem_size, std::size_t{13246418944});
  EXPECT_FALSE(params.supports_double);
  EXPECT_EQ(params.compute_capability, "0x9a49");
  EXPECT_EQ(params.driver_version, "");
}

TEST(LevelZeroDeviceFeatures, ADataCenterGpuMaxHasEveryAtomicAndItsSubGroupSizes) {
  const auto features = features_from(max_1100());
  EXPECT_TRUE(features.atomics);
  EXPECT_TRUE(features.int64_atomics);
  EXPECT_TRUE(features.double_atomics);
  EXPECT_FALSE(features.native_float_atomic_add);
  EXPECT_FALSE(features.native_double_atomic_add);
  EXPECT_TRUE(features.device_scope_acquire_release);  // OpenCL C 2.0
  EXPECT_TRUE(features.native_sub_groups);
  EXPECT_EQ(features.sub_group_sizes, (std::vector<std::size_t>{16, 32}));
  EXPECT_FALSE(features.sub_group_independent_forward_progress);
}

TEST(LevelZeroDeviceFeatures, Int64AtomicsFollowTheModuleFlagAndDoubleAtomicsFp64Too) {
  auto properties = iris_xe();  // no fp64, no 64-bit atomics
  auto features = features_from(properties);
  EXPECT_TRUE(features.atomics);
  EXPECT_FALSE(features.int64_atomics);
  EXPECT_FALSE(features.double_atomics);
  EXPECT_EQ(features.sub_group_sizes, (std::vector<std::size_t>{8, 16, 32}));
  properties.module.flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  features = features_from(properties);
  EXPECT_TRUE(features.int64_atomics);
  EXPECT_FALSE(features.double_atomics);
  // Sizes out of order, repeated, or zero are sorted, merged and dropped; none gives {1}.
  properties.compute.numSubGroupSizes = 4;
  properties.compute.subGroupSizes[0] = 32;
  properties.compute.subGroupSizes[1] = 0;
  properties.compute.subGroupSizes[2] = 8;
  properties.compute.subGroupSizes[3] = 32;
  EXPECT_EQ(features_from(properties).sub_group_sizes, (std::vector<std::size_t>{8, 32}));
  properties.compute.numSubGroupSizes = 0;
  EXPECT_EQ(features_from(properties).sub_group_sizes, std::vector<std::size_t>{1});
}

TEST(LevelZeroDeviceParameters, SumsMemoryOrdinalsAndNeedsBothFp64Signs) {
  auto properties = max_1100();
  properties.memory.push_back(properties.memory.front());  // a second tile's HBM
  // FP64 flags without the module flag (or the reverse) is not double support.
  properties.module.flags = ZE_DEVICE_MODULE_FLAG_FP16;
  auto params = parameters_from(properties, "");
  EXPECT_EQ(params.global_mem_size, 2 * std::size_t{51539607552});
  EXPECT_FALSE(params.supports_double);
  properties.module.flags = ZE_DEVICE_MODULE_FLAG_FP64;
  properties.module.fp64flags = 0;
  params = parameters_from(properties, "");
  EXPECT_FALSE(params.supports_double);
}

TEST(LevelZeroDeviceParameters, OddValuesFromADriverStayBounded) {
  auto properties = max_1100();
  properties.compute.numSubGroupSizes = 1000;  // more than the array holds: read 8 at most
  for (auto& size : properties.compute.subGroupSizes) size = 0;
  properties.device.type = ZE_DEVICE_TYPE_VPU;
  properties.memory.clear();
  const auto params = parameters_from(properties, "");
  EXPECT_EQ(params.warp_size, 1u);
  EXPECT_EQ(params.type, DeviceType::accelerator);
  EXPECT_EQ(params.global_mem_size, 0u);
}

TEST(LevelZeroDeviceParameters, TextsAndVersions) {
  auto properties = max_1100();
  EXPECT_EQ(bounded_text(properties.device.name), "Intel(R) Data Center GPU Max 1100");
  std::memset(properties.device.name, 'x', sizeof(properties.device.name));
  EXPECT_EQ(bounded_text(properties.device.name), std::string(sizeof(properties.device.name), 'x'));
  EXPECT_EQ(driver_version_string((1u << 24) | (3u << 16) | 26241u), "1.3.26241");
  EXPECT_EQ(driver_version_string(0), "0.0.0");
}

}  // namespace
}  // namespace device_parameters_test
}  // namespace plinth::level_zero
