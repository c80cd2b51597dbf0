#pragma once

#include <plinth/export.hpp>
#include <plinth/template.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace plinth {

/// What kind of processor a device is.
enum class DeviceType { cpu, gpu, accelerator, other };

/// Returns "cpu", "gpu", "accelerator" or "other".
PLINTH_EXPORT const char* to_string(DeviceType type) noexcept;

/// A device's properties, in the same units on every backend (grunnur's DeviceParameters).
struct DeviceParameters {
  DeviceType type = DeviceType::other;       ///< CPU, GPU, accelerator or other
  std::size_t compute_units = 0;             ///< multiprocessors / compute units
  std::size_t local_mem_banks = 1;           ///< banks of local (shared) memory
  std::size_t local_mem_size = 0;            ///< bytes of local memory per group
  std::vector<std::size_t> max_local_sizes;  ///< per dimension, 3 entries
  std::vector<std::size_t> max_num_groups;   ///< per dimension, 3 entries
  std::size_t max_total_local_size = 1;      ///< work items per group, in total
  std::size_t warp_size = 1;                 ///< SIMD width (warp, wavefront, sub-group)
  std::size_t global_mem_size = 0;           ///< bytes
  std::size_t address_alignment = 1;         ///< bytes a sub-buffer's origin must be aligned to
  bool supports_double = false;              ///< double-precision arithmetic in kernels
  std::string compute_capability;            ///< e.g. "9.0" on CUDA; empty where meaningless
  std::string driver_version;                ///< the vendor driver's version string
};

/// The parameters as a RenderValue::Map from the field names above ("type" is the string
/// to_string() gives, "supports_double" a bool, the lists lists of integers), so that
/// DeviceParameters is a render value of its own: every Program binds the device's as the
/// render global `device_params`. Throws only std::bad_alloc; any thread may call it.
PLINTH_EXPORT RenderValue to_render_value(const DeviceParameters& params);

}  // namespace plinth
