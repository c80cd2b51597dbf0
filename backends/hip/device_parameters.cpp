#include "device_parameters.hpp"

#include <cstddef>

namespace plinth::hip {

namespace {

std::size_t size(int value) { return value > 0 ? static_cast<std::size_t>(value) : 0; }

}  // namespace

DeviceParameters parameters_from(const hipDeviceProp_t& properties, std::string driver_version) {
  DeviceParameters params;
  params.type = DeviceType::gpu;
  params.compute_units = size(properties.multiProcessorCount);
  params.local_mem_banks = 32;  // LDS banks of every GCN, CDNA and RDNA compute unit
  params.local_mem_size = properties.sharedMemPerBlock;
  params.max_local_sizes = {size(properties.maxThreadsDim[0]), size(properties.maxThreadsDim[1]),
                            size(properties.maxThreadsDim[2])};
  // As reported (2147483647 x 65536 x 65536 on ROCm 5); the runtime refuses a launch whose
  // global size in a dimension exceeds 32 bits, which a BackendError then says.
  params.max_num_groups = {size(properties.maxGridSize[0]), size(properties.maxGridSize[1]),
                           size(properties.maxGridSize[2])};
  params.max_total_local_size = size(properties.maxThreadsPerBlock);
  params.warp_size = size(properties.warpSize);
  params.global_mem_size = properties.totalGlobalMem;
  // hipMalloc aligns to 256 bytes or more; sub-regions are pointer offsets, so any origin works.
  params.address_alignment = 256;
  params.supports_double = true;  // every GCN, CDNA and RDNA processor has double precision
  // The exact target ID hiprtc compiles for, e.g. "gfx90a:sramecc+:xnack-".
  params.compute_capability = bounded_text(properties.gcnArchName);
  params.driver_version = std::move(driver_version);
  return params;
}

DeviceFeatures features_for_wavefront(std::size_t wavefront_size) {
  DeviceFeatures features;
  features.atomics = true;
  features.int64_atomics = true;
  features.double_atomics = true;
  features.device_scope_acquire_release = true;
  features.native_sub_groups = true;
  features.sub_group_sizes = {wavefront_size};
  return features;
}

}  // namespace plinth::hip
