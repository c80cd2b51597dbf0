#include "dialect_support.hpp"

#include <algorithm>
#include <cctype>

namespace plinth::opencl {

namespace {

// CL_DEVICE_ATOMIC_* capability bits (OpenCL 3.0; this backend's headers are 1.2).
constexpr std::uint64_t atomic_order_acq_rel = std::uint64_t{1} << 1;
constexpr std::uint64_t atomic_scope_device = std::uint64_t{1} << 5;

bool acquire_release_at_device_scope(std::uint64_t capabilities) {
  const auto needed = atomic_order_acq_rel | atomic_scope_device;
  return (capabilities & needed) == needed;
}

}  // namespace

bool has_extension(const std::string& extensions, const std::string& name) {
  return (" " + extensions + " ").find(" " + name + " ") != std::string::npos;
}

int parse_version(const std::string& text, const std::string& prefix) {
  // "<prefix><major>.<minor>", as OpenCL's version strings are: one digit each.
  const std::size_t at = prefix.size();
  if (text.rfind(prefix, 0) != 0 || text.size() < at + 3) return 0;
  const auto digit = [&](std::size_t i) {
    return std::isdigit(static_cast<unsigned char>(text[i])) != 0;
  };
  if (!digit(at) || text[at + 1] != '.' || !digit(at + 2)) return 0;
  return (text[at] - '0') * 100 + (text[at + 2] - '0') * 10;
}

int build_language(const DialectQueries& device) noexcept {
  if (device.device_version >= 300) {
    if (!acquire_release_at_device_scope(device.atomic_memory_capabilities) ||
        !acquire_release_at_device_scope(device.atomic_fence_capabilities))
      return 0;
    // The compiler defines a feature's macro where the device lists it: the prelude tests
    // both macros, so both must be there (a device that lists none still has them in
    // OpenCL C 3.0 when its capabilities say so; PoCL 3.1 lists them).
    const auto listed = [&](const char* name) {
      return std::find(device.c_features.begin(), device.c_features.end(), name) !=
             device.c_features.end();
    };
    if (!device.c_features.empty() &&
        (!listed("__opencl_c_atomic_order_acq_rel") || !listed("__opencl_c_atomic_scope_device")))
      return 0;
    return 300;
  }
  if (device.device_version >= 200 && device.c_version >= 200) return 200;
  return 0;
}

std::string language_option(int language) {
  if (language == 300) return "-cl-std=CL3.0";
  if (language == 200) return "-cl-std=CL2.0";
  return {};
}

namespace {

// What the prelude's preprocessor takes as native sub-groups: the extensions (or the 3.0
// feature) with shuffles, Intel's or Khronos'.
bool offered_sub_groups(const DialectQueries& device, int language) {
  const auto& extensions = device.extensions;
  const bool subgroups =
      has_extension(extensions, "cl_khr_subgroups") ||
      (language >= 300 && std::find(device.c_features.begin(), device.c_features.end(),
                                    "__opencl_c_subgroups") != device.c_features.end());
  const bool shuffles = has_extension(extensions, "cl_intel_subgroups") ||
                        (has_extension(extensions, "cl_khr_subgroup_shuffle") &&
                         has_extension(extensions, "cl_khr_subgroup_shuffle_relative"));
  return subgroups && shuffles;
}

std::vector<std::size_t> offered_sizes(const DialectQueries& device) {
  auto sizes = device.intel_sub_group_sizes;
  if (sizes.empty()) sizes.push_back(std::max<std::size_t>(device.warp_size, 1));
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

}  // namespace

bool sub_groups_too_wide(const DialectQueries& device, int language) {
  return offered_sub_groups(device, language) && offered_sizes(device).back() > 64;
}

DeviceFeatures dialect_features(const DialectQueries& device, int language) {
  const auto& extensions = device.extensions;
  DeviceFeatures features;
  features.atomics = true;
  // The prelude's conditions, on the extensions the compiler defines as macros.
  features.int64_atomics = has_extension(extensions, "cl_khr_int64_base_atomics") &&
                           has_extension(extensions, "cl_khr_int64_extended_atomics");
  features.double_atomics = features.int64_atomics && has_extension(extensions, "cl_khr_fp64");
  // Every add but an integer's is a compare-and-swap loop.
  features.native_float_atomic_add = false;
  features.native_double_atomic_add = false;
  features.device_scope_acquire_release = language >= 200;
  features.native_sub_groups =
      offered_sub_groups(device, language) && !sub_groups_too_wide(device, language);
  if (features.native_sub_groups) {
    features.sub_group_sizes = offered_sizes(device);
    features.sub_group_independent_forward_progress = device.sub_group_independent_forward_progress;
  } else {
    features.sub_group_sizes = {1};
  }
  return features;
}

}  // namespace plinth::opencl
