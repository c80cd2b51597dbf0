#pragma once

// What the kernel dialect's OpenCL C prelude (core/sdk/dialect/opencl_c*.cpp) gives a device,
// decided from the device's answers to queries, as the prelude's preprocessor decides from the
// macros its compiler defines: the OpenCL C version plinth builds as, and the DeviceFeatures.
// Pure functions, so that they are tested without a device (tests/backends/opencl).

#include <plinth/device_features.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace plinth::opencl {

/// The device's answers that decide the dialect (device.cpp, query_dialect()).
struct DialectQueries {
  /// CL_DEVICE_VERSION's "OpenCL <major>.<minor>", as major * 100 + minor * 10 (300).
  int device_version = 0;
  /// The highest OpenCL C version of CL_DEVICE_OPENCL_C_VERSION, likewise (120).
  int c_version = 0;
  /// CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES and CL_DEVICE_ATOMIC_FENCE_CAPABILITIES (OpenCL 3.0;
  /// 0 where the device does not answer).
  std::uint64_t atomic_memory_capabilities = 0;
  std::uint64_t atomic_fence_capabilities = 0;
  /// CL_DEVICE_OPENCL_C_FEATURES' names (OpenCL 3.0), e.g. "__opencl_c_subgroups".
  std::vector<std::string> c_features;
  /// CL_DEVICE_EXTENSIONS.
  std::string extensions;
  /// CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS (OpenCL 2.1; false where not answered).
  bool sub_group_independent_forward_progress = false;
  /// CL_DEVICE_SUB_GROUP_SIZES_INTEL (cl_intel_required_subgroup_size), else empty.
  std::vector<std::size_t> intel_sub_group_sizes;
  /// DeviceParameters::warp_size: the sub-group size where the device names none.
  std::size_t warp_size = 1;
};

/// Whether the space-separated `extensions` (CL_DEVICE_EXTENSIONS) name `name`, whole.
/// Throws only std::bad_alloc.
bool has_extension(const std::string& extensions, const std::string& name);

/// "OpenCL 3.0 ..." or "OpenCL C 1.2 ..." to 300 or 120: the "<digit>.<digit>" right after
/// `prefix`; 0 when the text does not start so. Throws only std::bad_alloc.
int parse_version(const std::string& text, const std::string& prefix);

/// The OpenCL C version a program for this device is built as: 300 (-cl-std=CL3.0) for OpenCL
/// 3.0 devices whose atomic memory and fence capabilities both include acquire/release and
/// device scope, 200 (-cl-std=CL2.0) for OpenCL 2.x devices, else 0: the compiler's default,
/// OpenCL C 1.x. Throws nothing.
int build_language(const DialectQueries& device) noexcept;

/// The -cl-std option of build_language(): "-cl-std=CL3.0", "-cl-std=CL2.0", or "" for 0.
/// Throws only std::bad_alloc.
std::string language_option(int language);

/// The features the prelude gives a program built as `language` (build_language()) for the
/// device, with the options of sub_group_options(). Throws only std::bad_alloc.
DeviceFeatures dialect_features(const DialectQueries& device, int language);

/// Whether the device's compiler offers sub-groups with shuffles (the prelude would take them
/// from its macros) whose sizes are beyond the dialect's 64 (ballot's width; PoCL 5 reports
/// sizes up to 512 and lacks the 64-bit shuffles): then plinth builds with
/// -DPLINTH_NO_NATIVE_SUB_GROUPS and the device's sub-groups are of size 1. Throws only
/// std::bad_alloc.
bool sub_groups_too_wide(const DialectQueries& device, int language);

}  // namespace plinth::opencl
