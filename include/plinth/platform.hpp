#pragma once

#include <plinth/api.hpp>
#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace plinth {

class Device;

/// Selects platforms by name: a platform passes if it matches any include mask (or there are
/// none) and no exclude mask. Masks are regular expressions (ECMAScript syntax) searched in
/// the name case-sensitively, as grunnur's `re.search(mask, name)`: "NVIDIA" matches
/// "NVIDIA CUDA", "nvidia" does not (a character class such as "[Nn]VIDIA" takes either).
/// PLINTH_DEVICE's `~text` is the case-insensitive way.
struct PlatformFilter {
  std::vector<std::string> include_masks;  ///< keep names matching one (if any are given)
  std::vector<std::string> exclude_masks;  ///< drop names matching one
};

/// A platform of an API. Cheap to copy (shared handle).
class PLINTH_EXPORT Platform {
 public:
  /// All platforms of `api`.
  static std::vector<Platform> all(const API& api);
  /// The platforms of `api` that pass `filter`. Throws LogicError naming the mask if one is not
  /// a valid regular expression.
  static std::vector<Platform> all_filtered(const API& api, const PlatformFilter& filter);
  /// Platform `index` of `api`. Throws LogicError if out of range.
  static Platform from_index(const API& api, std::size_t index);
  /// The platform of `api` whose native handle (cl_platform_id, ze_driver_handle_t; 0 for
  /// APIs without platforms) is `native_platform`. Throws LogicError if none has it.
  static Platform from_backend_platform(const API& api, std::uintptr_t native_platform);

  /// The API the platform belongs to.
  API api() const { return api_; }
  /// The index of the platform in its API (Platform::all() order).
  std::size_t index() const { return index_; }
  ///@{
  /// The platform's name, vendor and version as its driver reports them.
  const std::string& name() const;
  const std::string& vendor() const;
  const std::string& version() const;
  ///@}
  /// This platform's devices.
  std::vector<Device> devices() const;
  /// cl_platform_id, ze_driver_handle_t, ... as an integer; 0 where the API has no platforms
  /// (CUDA, HIP).
  std::uintptr_t native_handle() const;

  friend bool operator==(const Platform& a, const Platform& b) {
    return a.api_ == b.api_ && a.index_ == b.index_;
  }

 private:
  friend struct detail::Access;

  Platform(API api, std::size_t index) : api_(std::move(api)), index_(index) {}

  API api_;
  std::size_t index_;
};

}  // namespace plinth
