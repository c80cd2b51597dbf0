// The one target Level Zero compiles for with no device: SPIR-V, which every Level Zero
// device takes (the driver compiles it on zeModuleCreate). No Level Zero call; any thread.

#include "targets.hpp"

namespace plinth::level_zero {

namespace {

// Nominal parameters of an Intel GPU that Level Zero drives (Xe-HPG, e.g. Arc A770; Xe-HPC,
// Data Center GPU Max): sub-groups of 16 (the SIMD width IGC compiles OpenCL C kernels for by
// default), 64 KiB of shared local memory and up to 1024 work items per group, double
// precision on the data-centre parts. Templates rendered for "spirv64" see these as
// `device_params`; a real device's own values replace them at run time.
DeviceParameters spirv64_parameters() {
  DeviceParameters params;
  params.type = DeviceType::gpu;
  params.compute_units = 512;  // EUs of an Arc A770, counted as device_parameters.cpp does
  params.local_mem_banks = 16;
  params.local_mem_size = 65536;
  params.max_local_sizes = {1024, 1024, 1024};
  params.max_num_groups = {4294967295, 4294967295, 4294967295};  // ze group counts are 32-bit
  params.max_total_local_size = 1024;
  params.warp_size = 16;
  params.address_alignment = 256;  // as device_parameters.cpp allocates
  params.supports_double = true;
  return params;
}

}  // namespace

DeviceFeatures spirv64_features() {
  DeviceFeatures features;
  features.atomics = true;
  features.int64_atomics = true;
  features.double_atomics = true;
  features.device_scope_acquire_release = true;
  features.native_sub_groups = true;
  features.sub_group_sizes = {8, 16, 32};
  return features;
}

std::vector<backend::CompileTarget> compile_targets() {
  return {{"spirv64", "SPIR-V for Level Zero devices (spir64, OpenCL C 2.0 kernels)", "spv",
           spirv64_parameters()}};
}

}  // namespace plinth::level_zero
