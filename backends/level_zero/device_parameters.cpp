#include "device_parameters.hpp"

#include <algorithm>
#include <cstdio>

namespace plinth::level_zero {

std::string driver_version_string(std::uint32_t version) {
  return std::to_string(version >> 24) + "." + std::to_string((version >> 16) & 0xff) + "." +
         std::to_string(version & 0xffff);
}

namespace {

DeviceType type_of(ze_device_type_t type) {
  switch (type) {
    case ZE_DEVICE_TYPE_GPU: return DeviceType::gpu;
    case ZE_DEVICE_TYPE_CPU: return DeviceType::cpu;
    case ZE_DEVICE_TYPE_FPGA:
    case ZE_DEVICE_TYPE_MCA:
    case ZE_DEVICE_TYPE_VPU: return DeviceType::accelerator;
    default: return DeviceType::other;
  }
}

}  // namespace

DeviceParameters parameters_from(const DeviceProperties& properties, std::string driver_version) {
  const auto& device = properties.device;
  const auto& compute = properties.compute;
  DeviceParameters params;
  params.type = type_of(device.type);
  params.compute_units =
      std::size_t{device.numSlices} * device.numSubslicesPerSlice * device.numEUsPerSubslice;
  params.local_mem_banks = 16;  // shared local memory of Gen9 to Xe-HPC: 16 banks of 4 bytes
  params.local_mem_size = compute.maxSharedLocalMemory;
  params.max_local_sizes = {compute.maxGroupSizeX, compute.maxGroupSizeY, compute.maxGroupSizeZ};
  params.max_num_groups = {compute.maxGroupCountX, compute.maxGroupCountY, compute.maxGroupCountZ};
  params.max_total_local_size = compute.maxTotalGroupSize;
  const std::uint32_t sizes =
      std::min<std::uint32_t>(compute.numSubGroupSizes, ZE_SUBGROUPSIZE_COUNT);
  std::uint32_t smallest = 0;
  for (std::uint32_t i = 0; i < sizes; ++i)
    if (compute.subGroupSizes[i] > 0 && (smallest == 0 || compute.subGroupSizes[i] < smallest))
      smallest = compute.subGroupSizes[i];
  params.warp_size = smallest > 0 ? smallest : 1;
  for (const auto& memory : properties.memory) params.global_mem_size += memory.totalSize;
  // zeMemAllocDevice is asked for this alignment (context.cpp); sub-regions are pointer
  // offsets, so any origin works as a kernel argument.
  params.address_alignment = 256;
  params.supports_double = properties.module.fp64flags != 0 &&
                           (properties.module.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0;
  char id[16];
  std::snprintf(id, sizeof(id), "0x%04x", device.deviceId);
  params.compute_capability = id;
  params.driver_version = std::move(driver_version);
  return params;
}

DeviceFeatures features_from(const DeviceProperties& properties) {
  const auto& module = properties.module;
  const auto& compute = properties.compute;
  DeviceFeatures features;
  features.atomics = true;
  features.int64_atomics = (module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS) != 0;
  features.double_atomics = features.int64_atomics && module.fp64flags != 0 &&
                            (module.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0;
  features.device_scope_acquire_release = true;
  const std::uint32_t count =
      std::min<std::uint32_t>(compute.numSubGroupSizes, ZE_SUBGROUPSIZE_COUNT);
  for (std::uint32_t i = 0; i < count; ++i)
    if (compute.subGroupSizes[i] > 0) features.sub_group_sizes.push_back(compute.subGroupSizes[i]);
  std::sort(features.sub_group_sizes.begin(), features.sub_group_sizes.end());
  features.sub_group_sizes.erase(
      std::unique(features.sub_group_sizes.begin(), features.sub_group_sizes.end()),
      features.sub_group_sizes.end());
  // The prelude's sub-groups are always the device's (clang defines cl_khr_subgroups and
  // cl_intel_subgroups for spir64); a device reporting none gets them of its one SIMD width.
  features.native_sub_groups = true;
  if (features.sub_group_sizes.empty()) features.sub_group_sizes.push_back(1);
  return features;
}

}  // namespace plinth::level_zero
