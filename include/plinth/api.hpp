#pragma once

#include <plinth/detail/access.hpp>
#include <plinth/export.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace plinth {

namespace detail {
struct LoadedApi;
}

class Platform;

/// Identifies an API by its shortcut ("cuda", "hip", "opencl", "level_zero", or a
/// third-party plugin's).
struct APIID {
  std::string shortcut;  ///< e.g. "opencl"; compared exactly
  friend bool operator==(const APIID&, const APIID&) = default;
};

/// The ids of every backend plugin found (whatever its state), in default preference order:
/// cuda, hip, level_zero, opencl, then others alphabetically.
PLINTH_EXPORT std::vector<APIID> all_api_ids();

/// A loaded, initialised backend with at least one device. Cheap to copy (shared handle).
class PLINTH_EXPORT API {
 public:
  /// Every ready API, in default preference order.
  static std::vector<API> all_available();
  /// With a shortcut: that API (throws PluginError if it is not ready); without: all_available().
  static std::vector<API> all_by_shortcut(const std::optional<std::string>& shortcut = {});
  /// The API with this id. Throws PluginError naming its state if it is not ready.
  static API from_api_id(const APIID& id);
  /// The default API: the first ready one of PLINTH_API's list, or if PLINTH_API is unset the
  /// first ready API in default order. Throws PluginError (listing every candidate and its
  /// state) if there is none, or if PLINTH_API names an unknown or unavailable shortcut.
  static API from_env();

  /// The API's id, e.g. {"opencl"}.
  const APIID& id() const;
  /// The API's shortcut, e.g. "opencl".
  const std::string& shortcut() const;
  /// The display name, e.g. "OpenCL".
  const std::string& name() const;
  /// The SDK ABI version the plugin was built with.
  int abi_minor() const;
  /// This API's platforms (CUDA and HIP have one).
  std::vector<Platform> platforms() const;

  friend bool operator==(const API& a, const API& b) { return a.impl_ == b.impl_; }

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from API still refers to its object and every call on it is defined.
  API(const API&) = default;
  API& operator=(const API&) = default;
  ~API() = default;
  ///@}

 private:
  friend struct detail::Access;

  explicit API(std::shared_ptr<detail::LoadedApi> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::LoadedApi>& impl() const { return impl_; }

  std::shared_ptr<detail::LoadedApi> impl_;
};

}  // namespace plinth

namespace std {

/// Hashes a API by identity, consistently with operator==: copies of one loaded backend hash alike.
/// For unordered containers keyed by API. Never throws.
template <>
struct hash<plinth::API> {
  /// The hash of the loaded backend `api` refers to.
  std::size_t operator()(const plinth::API& api) const noexcept {
    return std::hash<const void*>{}(plinth::detail::Access::impl(api).get());
  }
};

}  // namespace std
