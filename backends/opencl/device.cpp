#include "device.hpp"

#include "platform.hpp"

#include <CL/cl_ext.h>

#include <cstring>
#include <vector>

namespace plinth::opencl {

namespace {

constexpr cl_uint vendor_id_amd = 0x1002;

DeviceType device_type(cl_device_type type) {
  if ((type & CL_DEVICE_TYPE_GPU) != 0) return DeviceType::gpu;
  if ((type & CL_DEVICE_TYPE_CPU) != 0) return DeviceType::cpu;
  if ((type & CL_DEVICE_TYPE_ACCELERATOR) != 0) return DeviceType::accelerator;
  return DeviceType::other;
}

// Warp size and local memory banks, which OpenCL 1.2 does not report.
void set_simd_width(cl_device_id device, DeviceParameters& params) {
  if (params.type != DeviceType::gpu) {
    // A CPU work item is a thread of its own: no lockstep, no banked local memory.
    params.warp_size = 1;
    params.local_mem_banks = 1;
    return;
  }
  const auto vendor = device_value<cl_uint>(device, CL_DEVICE_VENDOR_ID);
  const auto vendor_name = device_string(device, CL_DEVICE_VENDOR);
  if (vendor == vendor_id_amd || vendor_name.find("Advanced Micro Devices") != std::string::npos ||
      vendor_name.find("AMD") != std::string::npos) {
    params.warp_size = 64;  // GCN and CDNA wavefronts; RDNA runs wave64 too
    params.local_mem_banks = 32;
    return;
  }
  // NVIDIA: 32-wide warps, 32 banks. Other GPUs (Intel, Mali...): 32 is a safe guess, since
  // kernels only use these as tuning hints and for bank-conflict padding.
  params.warp_size = 32;
  params.local_mem_banks = 32;
}

}  // namespace

std::string device_string(cl_device_id device, cl_device_info param, std::source_location where) {
  return info_string(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetDeviceInfo(device, param, size, value, size_ret);
      },
      backend::VendorCall("clGetDeviceInfo", where));
}

DialectQueries query_dialect(cl_device_id device) {
  DialectQueries queries;
  queries.device_version = parse_version(device_string(device, CL_DEVICE_VERSION), "OpenCL ");
  queries.c_version = parse_version(device_string(device, CL_DEVICE_OPENCL_C_VERSION), "OpenCL C ");
  queries.extensions = device_string(device, CL_DEVICE_EXTENSIONS);
  // The OpenCL 2.1 and 3.0 queries (this backend's headers are 1.2's): an error means the
  // device does not know them, and they keep their defaults.
  constexpr cl_device_info atomic_memory_capabilities = 0x1063;
  constexpr cl_device_info atomic_fence_capabilities = 0x1064;
  constexpr cl_device_info opencl_c_features = 0x106F;
  constexpr cl_device_info independent_forward_progress = 0x105D;
  constexpr cl_device_info sub_group_sizes_intel = 0x4108;
  if (queries.device_version >= 300) {
    cl_bitfield bits = 0;
    if (clGetDeviceInfo(device, atomic_memory_capabilities, sizeof(bits), &bits, nullptr) ==
        CL_SUCCESS)
      queries.atomic_memory_capabilities = bits;
    bits = 0;
    if (clGetDeviceInfo(device, atomic_fence_capabilities, sizeof(bits), &bits, nullptr) ==
        CL_SUCCESS)
      queries.atomic_fence_capabilities = bits;
    // cl_name_version: a cl_version and a name of at most 64 bytes.
    struct NameVersion {
      cl_uint version;
      char name[64];
    };
    std::size_t bytes = 0;
    if (clGetDeviceInfo(device, opencl_c_features, 0, nullptr, &bytes) == CL_SUCCESS &&
        bytes >= sizeof(NameVersion)) {
      std::vector<NameVersion> features(bytes / sizeof(NameVersion));
      if (clGetDeviceInfo(device, opencl_c_features, features.size() * sizeof(NameVersion),
                          features.data(), nullptr) == CL_SUCCESS) {
        for (const auto& feature : features)
          queries.c_features.emplace_back(feature.name,
                                          ::strnlen(feature.name, sizeof(feature.name)));
      }
    }
  }
  if (queries.device_version >= 210) {
    cl_bool progress = CL_FALSE;
    if (clGetDeviceInfo(device, independent_forward_progress, sizeof(progress), &progress,
                        nullptr) == CL_SUCCESS)
      queries.sub_group_independent_forward_progress = progress == CL_TRUE;
  }
  if (has_extension(queries.extensions, "cl_intel_required_subgroup_size")) {
    std::size_t bytes = 0;
    if (clGetDeviceInfo(device, sub_group_sizes_intel, 0, nullptr, &bytes) == CL_SUCCESS &&
        bytes >= sizeof(std::size_t)) {
      std::vector<std::size_t> sizes(bytes / sizeof(std::size_t));
      if (clGetDeviceInfo(device, sub_group_sizes_intel, sizes.size() * sizeof(std::size_t),
                          sizes.data(), nullptr) == CL_SUCCESS)
        queries.intel_sub_group_sizes = std::move(sizes);
    }
  }
  return queries;
}

DialectBuild device_dialect_build(cl_device_id device) {
  const auto queries = query_dialect(device);
  const int language = build_language(queries);
  return {language, sub_groups_too_wide(queries, language)};
}

std::string Device::name() const { return device_string(device_, CL_DEVICE_NAME); }

DeviceParameters Device::parameters() const {
  DeviceParameters params;
  params.type = device_type(device_value<cl_device_type>(device_, CL_DEVICE_TYPE));
  params.compute_units = device_value<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS);
  params.local_mem_size = device_value<cl_ulong>(device_, CL_DEVICE_LOCAL_MEM_SIZE);

  const auto dims = device_value<cl_uint>(device_, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  const auto sizes = info_array<std::size_t>(
      [&](std::size_t size, void* value, std::size_t* size_ret) {
        return clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES, size, value, size_ret);
      },
      "clGetDeviceInfo");
  params.max_local_sizes.assign(3, 1);
  for (std::size_t d = 0; d < 3 && d < dims && d < sizes.size(); ++d)
    params.max_local_sizes[d] = sizes[d];
  // OpenCL sets no limit on the number of groups; this one fits every index type.
  params.max_num_groups.assign(3, std::size_t{2147483647});  // 2^31 - 1
  params.max_total_local_size = device_value<std::size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE);

  set_simd_width(device_, params);
  params.global_mem_size = device_value<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_SIZE);
  params.address_alignment = device_value<cl_uint>(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;

  const auto extensions = device_string(device_, CL_DEVICE_EXTENSIONS);
  cl_device_fp_config fp64 = 0;
  // Not every 1.1 driver knows CL_DEVICE_DOUBLE_FP_CONFIG: an error means "no".
  if (clGetDeviceInfo(device_, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp64), &fp64, nullptr) !=
      CL_SUCCESS)
    fp64 = 0;
  params.supports_double = fp64 != 0 || has_extension(extensions, "cl_khr_fp64");

  if (has_extension(extensions, "cl_nv_device_attribute_query")) {
    params.compute_capability =
        std::to_string(device_value<cl_uint>(device_, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV)) +
        "." + std::to_string(device_value<cl_uint>(device_, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV));
  }
  params.driver_version = device_string(device_, CL_DRIVER_VERSION);
  return params;
}

std::string Device::compiler_identity() const {
  const auto platform = device_value<cl_platform_id>(device_, CL_DEVICE_PLATFORM);
  return platform_string(platform, CL_PLATFORM_NAME) + " " +
         platform_string(platform, CL_PLATFORM_VERSION) + "; " +
         device_string(device_, CL_DEVICE_NAME) + "; " + device_string(device_, CL_DEVICE_VERSION) +
         "; driver " + device_string(device_, CL_DRIVER_VERSION) + language_identity();
}

std::string Device::language_identity() const {
  // What -cl-std programs are built with: a binary of another version must not be reused.
  const auto build = device_dialect_build(device_);
  const std::string sub_groups = build.no_native_sub_groups ? "; sub-groups of one" : "";
  switch (build.language) {
    case 300: return "; OpenCL C 3.0" + sub_groups;
    case 200: return "; OpenCL C 2.0" + sub_groups;
    default: return sub_groups;
  }
}

void Device::features(DeviceFeatures& features) const {
  auto queries = query_dialect(device_);
  queries.warp_size = parameters().warp_size;
  features = dialect_features(queries, build_language(queries));
}

backend::NativeHandle Device::native_handle() const {
  return reinterpret_cast<backend::NativeHandle>(device_);
}

}  // namespace plinth::opencl
