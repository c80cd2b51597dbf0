#pragma once

#include <plinth/backend/blas_library.hpp>
#include <plinth/backend/communicator.hpp>
#include <plinth/backend/context.hpp>
#include <plinth/backend/platform.hpp>
#include <plinth/backend/types.hpp>
#include <plinth/device_features.hpp>
#include <plinth/errors.hpp>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::backend {

/// The root object of a backend plugin, created by the plugin's exported factory
/// (PLINTH_BACKEND_PLUGIN). The core calls initialize() once, then enumerates platforms.
/// Exceptions derived from plinth::Error may be thrown from every method.
///
/// ABI rule: every class of the SDK only ever grows at its end. The methods below a
/// "SDK 1.1" line are absent from the vtables of 1.0 plugins, and the core calls them only
/// on plugins that export ABI 1.1 or later (docs/plugin-interface.md).
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

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// The ProgramInputKinds that ContextAdapter::create_program() takes, as a bit mask.
  /// Optional: the default is source alone.
  virtual unsigned program_inputs() const {
    return static_cast<unsigned>(ProgramInputKind::source);
  }

  // ---- SDK 1.3: called only on plugins of ABI 1.3 or later --------------------------------

  /// Why the backend has no devices, in the vendor's words ("cuInit: CUDA_ERROR_NO_DEVICE",
  /// "libcuda.so.1: cannot open shared object file..."). Called once after initialize(), only
  /// when no platform has a device; the core shows it as the candidate's reason. A backend
  /// that is useful without devices (compile_for_target) returns from initialize() normally
  /// when the vendor says there are none, and explains here. Optional: the default, empty,
  /// gives the core's generic text. Must not throw.
  virtual std::string no_devices_reason() const { return {}; }

  /// The targets compile_for_target() builds for, in the order a user would look for them.
  /// Called after initialize(), also when there are no devices. Optional: the default, none,
  /// means the backend cannot compile without a device. Any thread may call it.
  virtual std::vector<CompileTarget> compile_targets() const { return {}; }

  /// Compiles `input` (always ProgramInputKind::source: prelude, the declarations of
  /// options.constant_arrays, then the source, as create_program() does) for `target`, one of
  /// compile_targets()' names (the core checks), with no device: no context, no driver call.
  /// options.keep is honoured as in create_program(). Returns the binary and the compiler's
  /// log. Throws CompileError with the log, the options and the numbered source when the
  /// compiler refuses the source, BackendError when the compiler itself fails. Any thread may
  /// call it, concurrently. Optional: the default throws LogicError.
  virtual TargetBinary compile_for_target(std::string_view target, const ProgramInput& input,
                                          const BuildOptions& options) const;

  // ---- SDK 1.4: called only on plugins of ABI 1.4 or later --------------------------------

  /// Whether the backend's collectives library (NCCL, RCCL) can be used, and which it is, or
  /// why not. The backend loads the library on the first call (never at plugin load, so that
  /// a machine without it still lists the backend) and answers the same ever after. Called
  /// after initialize(). Optional: the default says the backend has none, and the core then
  /// runs collectives within one process with its own copies and kernels. Must not throw;
  /// any thread may call it.
  virtual CollectivesLibrary collectives() const {
    return {false, std::string(no_collectives_library)};
  }

  /// A new communicator id (ncclGetUniqueId): opaque bytes, at most 4096, that one rank
  /// creates and every rank passes to ContextAdapter::join_communicator(). Called only when
  /// collectives() is available. Throws BackendError. Any thread may call it.
  virtual std::vector<std::byte> create_communicator_id() const;

  // ---- SDK 1.5: called only on plugins of ABI 1.5 or later --------------------------------

  /// DeviceAdapter::features() for `target`, one of compile_targets()' names (the core
  /// checks): what a device of that target supports, bound with CompileTarget::params as the
  /// render global `device_params` when a template is rendered for it. `features` arrives
  /// default-constructed. Optional: the default leaves it so. Any thread may call it.
  virtual void target_features(std::string_view target, DeviceFeatures& features) const {
    (void)target;
    (void)features;
  }

  // ---- SDK 1.7: called only on plugins of ABI 1.7 or later --------------------------------

  /// Whether the backend's BLAS library (cuBLAS, CLBlast, hipBLAS) can be used, and which it
  /// is, or why not. The backend opens the library on the first call (never at plugin load,
  /// so that a machine without it still lists the backend) and answers the same ever after.
  /// Called after initialize(). Optional: the default says the backend has none, and the core
  /// then runs its own generated kernels. Must not throw; any thread may call it.
  virtual BlasLibrary blas_library() const { return {false, std::string(no_blas_library)}; }

  // ---- SDK 1.9: called only on plugins of ABI 1.9 or later --------------------------------

  /// A context on `devices` (all of one platform, the core checks) that shares objects with
  /// the GL context `gl` (OpenCL: made with CL_GL_CONTEXT_KHR and CL_EGL_DISPLAY_KHR or
  /// CL_GLX_DISPLAY_KHR, after clGetGLContextInfoKHR says the devices can share with it).
  /// A backend whose interop needs no special context (CUDA, HIP) returns a context as
  /// create_context() does, having checked what it can (that the GL context runs on the
  /// devices). Called with `gl` current on the calling thread. Throws LogicError naming why
  /// the devices cannot share with `gl` (the default: the backend does not share with
  /// OpenGL), BackendError.
  virtual std::unique_ptr<ContextAdapter> create_gl_context(
      std::span<const DeviceAdapter* const> devices, const GlContext& gl);
};

inline std::vector<std::byte> ApiAdapter::create_communicator_id() const {
  throw LogicError("this backend has no collectives library");
}

inline TargetBinary ApiAdapter::compile_for_target(std::string_view, const ProgramInput&,
                                                   const BuildOptions&) const {
  throw LogicError("this backend cannot compile for a named target");
}

inline std::unique_ptr<ContextAdapter> ApiAdapter::create_gl_context(
    std::span<const DeviceAdapter* const>, const GlContext&) {
  throw LogicError("this backend does not share with OpenGL");
}

}  // namespace plinth::backend
