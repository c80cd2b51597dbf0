#pragma once

#include <plinth/detail/access.hpp>
#include <plinth/device.hpp>
#include <plinth/export.hpp>
#include <plinth/memory_info.hpp>
#include <plinth/selection.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace plinth {

namespace detail {
struct ContextImpl;
}

class BoundMultiDevice;

/// A context: devices of one platform that share memory objects and programs.
/// Cheap to copy (shared handle); the devices' resources are released with the last copy.
/// CUDA contexts are the devices' primary contexts, so plinth shares them with the CUDA
/// runtime and vendor libraries in the same process.
class PLINTH_EXPORT Context {
 public:
  /// A context on `devices` (at least one, all of one platform, no repeats).
  /// Throws LogicError otherwise, BackendError if the API refuses.
  static Context from_devices(const std::vector<Device>& devices);
  /// Chooses devices as select_devices() does (or as PLINTH_DEVICE says, when no filter is
  /// given and it has a term for `api`) and makes a context on them.
  static Context from_criteria(const API& api, bool interactive = false,
                               std::optional<std::size_t> devices_num = 1,
                               const DeviceFilter& device_filter = {},
                               const PlatformFilter& platform_filter = {});
  /// A context on the devices of `api` with these native handles (cl_device_id, CUdevice...).
  /// Throws LogicError if one is not a device of `api`.
  static Context from_backend_devices(const API& api,
                                      const std::vector<std::uintptr_t>& native_devices);
  /// Wraps an existing native context (cl_context, CUcontext...) that covers `devices`.
  /// With `take_ownership` plinth releases it with the last copy.
  static Context from_backend_context(std::uintptr_t native_context,
                                      const std::vector<Device>& devices,
                                      bool take_ownership = false);

  ///@{
  /// The API and platform of the context's devices.
  API api() const;
  Platform platform() const;
  ///@}
  /// The context's devices, bound to it.
  BoundMultiDevice devices() const;
  /// The unbound devices, in context order.
  const std::vector<Device>& unbound_devices() const;
  /// Makes the context current on this thread where the API has that notion (CUDA).
  void activate() const;
  /// Undoes activate() (pops the CUDA context); a no-op elsewhere.
  void deactivate() const;
  /// The native context of device `index` (CUDA contexts are per device).
  std::uintptr_t native_handle(std::size_t index = 0) const;

  friend bool operator==(const Context& a, const Context& b) { return a.impl_ == b.impl_; }

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from Context still refers to its object and every call on it is defined.
  Context(const Context&) = default;
  Context& operator=(const Context&) = default;
  ~Context() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit Context(std::shared_ptr<detail::ContextImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::ContextImpl>& impl() const { return impl_; }

  std::shared_ptr<detail::ContextImpl> impl_;
};

/// A device of a context: where memory is allocated and kernels run. Cheap to copy.
class PLINTH_EXPORT BoundDevice {
 public:
  /// The context the device is bound to.
  const Context& context() const { return context_; }
  /// The index of this device in its context.
  std::size_t index() const { return index_; }
  /// The unbound device.
  const Device& device() const;
  /// The device's name (Device::name()).
  const std::string& name() const { return device().name(); }
  /// The device's parameters (Device::params()).
  const DeviceParameters& params() const { return device().params(); }
  /// The device's features (Device::features()).
  const DeviceFeatures& features() const { return device().features(); }
  /// The device's global memory now, total and free (cuMemGetInfo, hipMemGetInfo, Level
  /// Zero's memory properties and Sysman, OpenCL's CL_DEVICE_GLOBAL_MEM_SIZE and, where an
  /// extension says it, the free memory; PyCUDA's mem_get_info). `free` is absent where the
  /// backend cannot tell; on plugins before SDK 1.6, `total` is params().global_mem_size and
  /// `free` is absent. Throws BackendError. Any thread.
  MemoryInfo memory_info() const;

  friend bool operator==(const BoundDevice& a, const BoundDevice& b) {
    return a.context_ == b.context_ && a.index_ == b.index_;
  }

 private:
  friend struct detail::Access;

  BoundDevice(Context context, std::size_t index) : context_(std::move(context)), index_(index) {}

  Context context_;
  std::size_t index_;
};

/// An ordered set of devices of one context; sliceable by index lists.
class PLINTH_EXPORT BoundMultiDevice {
 public:
  /// The devices with these indices (into this set). Throws LogicError if one is out of range.
  BoundMultiDevice operator[](std::span<const std::size_t> indices) const;
  /// As above, for a braced list: `devices[{0, 2}]`.
  BoundMultiDevice operator[](std::initializer_list<std::size_t> indices) const {
    return (*this)[std::span<const std::size_t>(indices.begin(), indices.size())];
  }
  /// Device `i` of this set, as a copy (cheap: a shared handle), so that
  /// `const auto& d = context.devices()[0];` holds the device rather than a reference into a
  /// temporary set already gone. Throws LogicError if out of range.
  BoundDevice operator[](std::size_t i) const;
  /// The number of devices (at least one).
  std::size_t size() const { return devices_.size(); }
  ///@{
  /// Iterate over the devices (BoundDevice), in order.
  auto begin() const { return devices_.begin(); }
  auto end() const { return devices_.end(); }
  ///@}
  /// The devices' context (a copy, for the same reason).
  Context context() const { return devices_.front().context(); }
  /// Whether every device of this set is in `other` (and so in its context).
  bool is_subset_of(const BoundMultiDevice& other) const;

  /// The same devices of the same context, in the same order.
  friend bool operator==(const BoundMultiDevice& a, const BoundMultiDevice& b) {
    return a.devices_ == b.devices_;
  }

 private:
  friend struct detail::Access;

  // Non-empty, one context.
  explicit BoundMultiDevice(std::vector<BoundDevice> devices);

  std::vector<BoundDevice> devices_;
};

}  // namespace plinth

namespace std {

/// Hashes a Context by identity, consistently with operator==: copies of one context hash alike.
/// For unordered containers keyed by Context. Never throws.
template <>
struct hash<plinth::Context> {
  /// The hash of the context `context` refers to.
  std::size_t operator()(const plinth::Context& context) const noexcept {
    return std::hash<const void*>{}(plinth::detail::Access::impl(context).get());
  }
};

}  // namespace std
