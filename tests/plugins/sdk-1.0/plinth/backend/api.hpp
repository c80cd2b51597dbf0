#pragma once

#include <plinth/backend/context.hpp>
#include <plinth/backend/platform.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace plinth::backend {

/// The root object of a backend plugin, created by the plugin's exported factory
/// (PLINTH_BACKEND_PLUGIN). The core calls initialize() once, then enumerates platforms.
/// Exceptions derived from plinth::Error may be thrown from every method.
class ApiAdapter {
 public:
  virtual ~ApiAdapter() = default;
  /// The API's display name, e.g. "OpenCL", "CUDA".
  virtual std::string name() const = 0;
  /// Starts the vendor runtime (cuInit, zeInit...). Throws BackendError; the plugin is then
  /// reported as "init failed" with the error's text.
  virtual void initialize() = 0;
  virtual std::size_t platform_count() const = 0;
  virtual std::unique_ptr<PlatformAdapter> platform(std::size_t index) const = 0;
  /// A context on `devices`, all of one platform of this API (the core checks that).
  virtual std::unique_ptr<ContextAdapter> create_context(
      std::span<const DeviceAdapter* const> devices) = 0;
  /// Wraps an existing native context covering `devices`; with `take_ownership` it is
  /// released with the adapter.
  virtual std::unique_ptr<ContextAdapter> wrap_context(
      NativeHandle context, std::span<const DeviceAdapter* const> devices, bool take_ownership) = 0;
  /// The text prepended to every program source unless ProgramOptions::no_prelude:
  /// the kernel dialect's macros (KERNEL, GLOBAL_MEM, ... see docs/plugin-interface.md).
  virtual std::string prelude(bool fast_math) const = 0;
};

}  // namespace plinth::backend
