#include "device.hpp"

#include "driver.hpp"
#include "program.hpp"

#include <array>

namespace plinth::cuda {

std::string Device::name() const {
  std::array<char, 256> name{};
  CU_CHECK(cuDeviceGetName(name.data(), static_cast<int>(name.size()), device_));
  return name.data();
}

std::string Device::compiler_identity() const {
  int nvrtc_major = 0, nvrtc_minor = 0;
  PLINTH_CHECK(nvrtcVersion(&nvrtc_major, &nvrtc_minor));
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_));
  const auto target = nvrtc_target(major * 10 + minor);
  std::string identity =
      "NVRTC " + std::to_string(nvrtc_major) + "." + std::to_string(nvrtc_minor) + "; ";
  if (!target.ptx) return identity + "sm_" + std::to_string(target.arch);
  return identity + "compute_" + std::to_string(target.arch) + " PTX; driver " + driver_version_;
}

DeviceFeatures nominal_features(int arch) {
  DeviceFeatures features;
  features.atomics = true;
  features.int64_atomics = true;
  features.double_atomics = true;
  features.native_float_atomic_add = true;
  features.native_double_atomic_add = arch >= 60;
  features.device_scope_acquire_release = true;
  features.native_sub_groups = true;
  features.sub_group_sizes = {32};
  features.sub_group_independent_forward_progress = arch >= 70;
  return features;
}

void Device::features(DeviceFeatures& features) const {
  int major = 0, minor = 0;
  CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_));
  CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_));
  features = nominal_features(major * 10 + minor);
}

DeviceParameters Device::parameters() const {
  auto get = [this](CUdevice_attribute attribute) {
    int value = 0;
    CU_CHECK(cuDeviceGetAttribute(&value, attribute, device_));
    return static_cast<std::size_t>(value);
  };
  DeviceParameters params;
  params.type = DeviceType::gpu;
  params.compute_units = get(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  params.local_mem_banks = 32;
  // Without opting in (which the kernel does for larger dynamic shared memory), a block
  // gets 48 KiB; static __shared__ arrays can never have more.
  params.local_mem_size = get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  params.max_local_sizes = {get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                            get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                            get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
  params.max_num_groups = {get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                           get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                           get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
  params.max_total_local_size = get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  params.warp_size = get(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  std::size_t total = 0;
  CU_CHECK(cuDeviceTotalMem(&total, device_));
  params.global_mem_size = total;
  // cuMemAlloc aligns to 256 bytes; sub-regions are pointer offsets, so any origin works.
  params.address_alignment = 256;
  params.supports_double = true;
  params.compute_capability = std::to_string(get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)) +
                              "." +
                              std::to_string(get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
  params.driver_version = driver_version_;
  return params;
}

}  // namespace plinth::cuda
