#pragma once

#include <plinth/detail/access.hpp>
#include <plinth/device_features.hpp>
#include <plinth/device_parameters.hpp>
#include <plinth/export.hpp>
#include <plinth/platform.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace plinth {

/// Selects devices: by name (regular expressions searched case-sensitively, as in
/// PlatformFilter), `unique_only` keeps the first of
/// devices with equal names on a platform, and pure-parallel devices (max_total_local_size
/// of 1) are dropped unless `exclude_pure_parallel` is false.
struct DeviceFilter {
  std::vector<std::string> include_masks;  ///< keep names matching one (if any are given)
  std::vector<std::string> exclude_masks;  ///< drop names matching one
  bool unique_only = false;                ///< keep one device of each name per platform
  bool exclude_pure_parallel = false;      ///< drop devices with max_total_local_size 1
};

/// A device of a platform. Cheap to copy (shared handle).
class PLINTH_EXPORT Device {
 public:
  /// All devices of `platform`.
  static std::vector<Device> all(const Platform& platform);
  /// The devices of `platform` that pass `filter`. Throws LogicError naming the mask if one is
  /// not a valid regular expression.
  static std::vector<Device> all_filtered(const Platform& platform, const DeviceFilter& filter);
  /// Device `index` of `platform`. Throws LogicError if out of range.
  static Device from_index(const Platform& platform, std::size_t index);
  /// The device of `api` (any platform) whose native handle (cl_device_id, CUdevice, ...) is
  /// `native_device`. Throws LogicError if none has it.
  static Device from_backend_device(const API& api, std::uintptr_t native_device);

  /// The platform the device belongs to.
  const Platform& platform() const { return platform_; }
  /// The platform's API.
  API api() const { return platform_.api(); }
  /// The index of the device in its platform (Device::all() order).
  std::size_t index() const { return index_; }
  /// The device's name as the vendor reports it.
  const std::string& name() const;
  /// The device's parameters, read once when the plugin was loaded.
  const DeviceParameters& params() const;
  /// What the device's kernels may use of the dialect's atomics, fences and sub-groups
  /// (docs/kernel-dialect.md), read once when the plugin was loaded; all false for a device of
  /// a plugin older than SDK 1.5. The same fields are in the render global `device_params`.
  const DeviceFeatures& features() const;
  /// cl_device_id, CUdevice, ... as an integer.
  std::uintptr_t native_handle() const;
  /// Everything besides the source and the options that decides what a compiler makes for
  /// this device, e.g. "NVRTC 13.0; sm_90": devices with equal identities take each other's
  /// Program::binary(). Empty when the backend does not say (then binaries are not to be
  /// reused across devices or processes).
  const std::string& compiler_identity() const;
  /// "<api>:<platform>.<device> <name>", e.g. "opencl:0.1 pthread-haswell".
  std::string full_name() const;

  friend bool operator==(const Device& a, const Device& b) {
    return a.platform_ == b.platform_ && a.index_ == b.index_;
  }

 private:
  friend struct detail::Access;

  Device(Platform platform, std::size_t index) : platform_(std::move(platform)), index_(index) {}

  Platform platform_;
  std::size_t index_;
};

}  // namespace plinth
