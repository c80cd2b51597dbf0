#pragma once

#include <plinth/context.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

namespace plinth {

namespace detail {
/// Throws LogicError: "<what> has no value for device N ('name')".
[[noreturn]] PLINTH_EXPORT void throw_no_value_for(const char* what, const BoundDevice& device);
/// Throws LogicError: "PerDevice: device N ('name') has a value already".
[[noreturn]] PLINTH_EXPORT void throw_repeated_device(const BoundDevice& device);
}  // namespace detail

/// A value for each of some devices (grunnur's dicts keyed by BoundDevice): per-device
/// kernel arguments and global sizes on a MultiQueue, MultiArray::shapes(). Keeps the order
/// in which devices were added; a look-up is a scan of a few entries, with no allocation.
///
///     PerDevice<int> bias{{devices[0], 0}, {devices[1], 1000}};
///     PerDevice<std::vector<std::size_t>> rows{{devices[0], {6}}, {devices[1], {4}}};
///     auto prepared = kernel.prepare_per_device(rows);
template <class T>
class PerDevice {
 public:
  /// An entry: a device and its value.
  using value_type = std::pair<BoundDevice, T>;

  /// No devices.
  PerDevice() = default;
  /// Throws LogicError if a device repeats.
  PerDevice(std::initializer_list<value_type> values) {
    for (const auto& [device, value] : values) insert(device, value);
  }

  /// Adds the value of `device`. Throws LogicError if it already has one.
  void insert(const BoundDevice& device, T value) {
    if (find(device) != nullptr) detail::throw_repeated_device(device);
    values_.emplace_back(device, std::move(value));
  }
  /// The value of `device`, or null.
  const T* find(const BoundDevice& device) const noexcept {
    for (const auto& entry : values_) {
      if (entry.first == device) return &entry.second;
    }
    return nullptr;
  }
  /// Whether `device` has a value.
  bool contains(const BoundDevice& device) const noexcept { return find(device) != nullptr; }
  /// The value of `device`. Throws LogicError if it has none.
  const T& operator[](const BoundDevice& device) const {
    const T* value = find(device);
    if (value == nullptr) [[unlikely]]
      detail::throw_no_value_for("PerDevice", device);
    return *value;
  }

  /// The number of devices with a value.
  std::size_t size() const noexcept { return values_.size(); }
  /// Whether no device has a value.
  bool empty() const noexcept { return values_.empty(); }
  ///@{
  /// Iterate over the entries (value_type), in the order they were added.
  auto begin() const noexcept { return values_.begin(); }
  auto end() const noexcept { return values_.end(); }
  ///@}

  /// Equal entries in the same order (so the order of insertion matters).
  bool operator==(const PerDevice& other) const = default;

 private:
  std::vector<value_type> values_;
};

}  // namespace plinth
