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

/// The root object of a backend plugin, made by the plugin's exported factory
/// (PLINTH_BACKEND_PLUGIN, PluginFactory).
///
/// Loading calls name(), initialize(), platform_count() and platform() once each, in that
/// order, on one thread while every other thread that uses plinth waits; the other methods
/// may then be called from any thread, at the same time as any other. The core owns the
/// adapter and destroys it last, after every platform, device and context adapter it made:
/// when the process exits, or at once if loading fails.
///
/// ABI rule: every class of the SDK only ever grows at its end. The methods below an
/// "SDK 1.x" line are absent from the vtables of older plugins, and the core calls them only
/// on plugins that export ABI 1.x or later (docs/plugin-interface.md, "Versions"). Every
/// method may throw types derived from plinth::Error, as it says; no other exception type.
class ApiAdapter {
 public:
  /// Destroyed last, after every adapter the plugin made; must not throw (LDP_5).
  virtual ~ApiAdapter() = default;
  /// The API's display name, such as "OpenCL" or "CUDA".
  ///
  /// Called once, at loading, before initialize(), so it must not need the vendor runtime.
  /// The core keeps the name, made printable(). Since SDK 1.0; required.
  virtual std::string name() const = 0;
  /// Starts the vendor runtime (cuInit, zeInit...).
  ///
  /// Called once, at loading, after the factory and name(). Throws BackendError when the
  /// runtime cannot start; the plugin is then reported as `init failed` with the error's text.
  /// Zero devices is not an error (the plugin's state is then `no devices`; LDP_4). A backend
  /// that is useful without devices (compile_for_target()) returns normally when the vendor
  /// answers "no device" or "no driver" too, and says why in no_devices_reason(). Since SDK
  /// 1.0; required.
  virtual void initialize() = 0;
  /// How many platforms the API has (CUDA and HIP: one).
  ///
  /// Called once, at loading, after initialize(). An exception fails the whole plugin
  /// (`init failed`). Since SDK 1.0; required.
  virtual std::size_t platform_count() const = 0;
  /// Platform `index` (< platform_count()), a new adapter, never null.
  ///
  /// Called once per index, at loading, in order. The core keeps the platform adapters until
  /// the ApiAdapter goes. An exception, or a null result, fails the whole plugin (`init
  /// failed`, naming which). Since SDK 1.0; required.
  virtual std::unique_ptr<PlatformAdapter> platform(std::size_t index) const = 0;
  /// A new context on `devices`.
  ///
  /// Called by Context::from_devices() (and from_criteria(), from_backend_devices()) on the
  /// user's thread. `devices` holds one or more adapters this API made, all of one platform,
  /// without repeats, in the order the context indexes them (the core checks all of this).
  /// The pointers stay valid for the context's whole life: the device adapters outlive every
  /// context. Throws BackendError, OutOfMemoryError. Since SDK 1.0; required.
  virtual std::unique_ptr<ContextAdapter> create_context(
      std::span<const DeviceAdapter* const> devices) = 0;
  /// Wraps an existing native context covering `devices`.
  ///
  /// Called by Context::from_backend_context(). The core checks `devices` as for
  /// create_context(), but not the native context, which must cover those devices. With
  /// `take_ownership`, the adapter releases the native context in its destructor; without,
  /// never. Throws BackendError. Since SDK 1.0; required.
  virtual std::unique_ptr<ContextAdapter> wrap_context(
      NativeHandle context, std::span<const DeviceAdapter* const> devices, bool take_ownership) = 0;
  /// The kernel dialect's definitions (docs/kernel-dialect.md; docs/plugin-interface.md, "The
  /// kernel dialect"), with PLINTH_FAST_MATH defined when `fast_math` is set.
  ///
  /// Called at every program build from source, unless ProgramOptions::no_prelude, on the
  /// building thread (any thread); not for SPIR-V or binaries. A 1.0 plugin gets the prelude
  /// joined to the source (ContextAdapter::build_program()), a 1.1 plugin as
  /// ProgramInput::prelude. In both cases Program::source() shows the prelude, a newline and
  /// the source (only the source with `no_prelude`). dialect.hpp writes the whole text for
  /// CUDA, HIP and OpenCL C. Since SDK 1.0; required.
  virtual std::string prelude(bool fast_math) const = 0;

  // ---- SDK 1.1: called only on plugins of ABI 1.1 or later --------------------------------

  /// The ProgramInputKinds that ContextAdapter::create_program() takes, as a bit mask.
  ///
  /// Called at every program creation, before create_program(), from any thread. The core
  /// refuses other kinds with a LogicError without calling the backend (and SPIR-V and
  /// binaries on 1.0 plugins without asking). Since SDK 1.1; optional: the default is
  /// ProgramInputKind::source alone.
  virtual unsigned program_inputs() const {
    return static_cast<unsigned>(ProgramInputKind::source);
  }

  // ---- SDK 1.3: called only on plugins of ABI 1.3 or later --------------------------------

  /// Why the backend has no devices, in the vendor's words ("hipGetDeviceCount:
  /// hipErrorNoDevice", the `dlopen` error of a missing libcuda.so.1).
  ///
  /// Called once, at loading, after the platforms were enumerated, and only when no platform
  /// has a device. The core shows it as the plugin's `no devices` reason (plinth-info,
  /// PluginError). A backend that is useful without devices (compile_for_target()) returns
  /// from initialize() normally when the vendor says there are none, and explains here. Must
  /// not throw (the core catches an exception anyway). Since SDK 1.3; optional: the default,
  /// empty, makes the core say "found no devices".
  virtual std::string no_devices_reason() const { return {}; }

  /// The targets compile_for_target() builds for, in the order a user would look for them.
  ///
  /// Called by plinth::compile_targets() and at every plinth::compile_for_target(), from any
  /// thread, also when the backend has no devices. The core drops entries whose name is not 1
  /// to 64 letters, digits, '_', '-', '.', ':' and '+', takes "bin" for an extension that is
  /// not such a name either, makes the descriptions printable and clears
  /// DeviceParameters::driver_version (see CompileTarget). Since SDK 1.3; optional: the
  /// default, none, means the backend cannot compile without a device.
  virtual std::vector<CompileTarget> compile_targets() const { return {}; }

  /// Compiles `input` for the named `target`, touching no device, context or driver.
  ///
  /// Called by plinth::compile_for_target() (and plinth-compile) with a `target` among
  /// compile_targets()' names (the core checks) and an input of kind
  /// ProgramInputKind::source, from any thread, concurrently. Compiles as create_program()
  /// would (the prelude, the declarations of options.constant_arrays, then the source;
  /// options.keep honoured as there). `input`, `options` and all they refer to are valid for
  /// the call only. Returns the binary and the compiler's log. Throws CompileError (the log,
  /// the options and the source as compiled) when the compiler refuses the source,
  /// BackendError when the compiler itself fails. The backend refuses a target its compiler
  /// cannot take rather than hand it on (hiprtc 5.2 corrupts its heap on an ISA its comgr
  /// does not know). Since SDK 1.3; optional: the default throws LogicError.
  virtual TargetBinary compile_for_target(std::string_view target, const ProgramInput& input,
                                          const BuildOptions& options) const;

  // ---- SDK 1.4: called only on plugins of ABI 1.4 or later --------------------------------

  /// Whether the backend's collectives library (NCCL, RCCL) can be used, and which it is, or
  /// why not.
  ///
  /// Called by Communicator, CommunicatorId::create() and collectives_support(), from any
  /// thread, after initialize(). The backend loads the library on the first call (never at
  /// plugin load, so that a machine without it still loads the plugin and lists its devices)
  /// and answers the same ever after: available, with the library and its version ("NCCL
  /// 2.28.3"), or why not in the loader's words. Must not throw. Since SDK 1.4; optional: the
  /// default says the backend has none (no_collectives_library); the core then runs
  /// collectives within one process with its own copies and kernels, and refuses
  /// multi-process communicators with this reason.
  virtual CollectivesLibrary collectives() const {
    return {false, std::string(no_collectives_library)};
  }

  /// A new communicator id (ncclGetUniqueId): opaque bytes (NCCL: 128; at most 4096) that one
  /// rank creates and the user hands to every rank, for ContextAdapter::join_communicator().
  ///
  /// Called by CommunicatorId::create() only when collectives() is available, from any
  /// thread. Throws BackendError. Since SDK 1.4; optional: the default throws LogicError.
  virtual std::vector<std::byte> create_communicator_id() const;

  // ---- SDK 1.5: called only on plugins of ABI 1.5 or later --------------------------------

  /// DeviceAdapter::features() for a typical device of `target`, one of compile_targets()'
  /// names.
  ///
  /// Called by plinth::compile_targets() and plinth::compile_for_target() for each target of
  /// compile_targets(), from any thread, with `features` default-constructed. The answer is
  /// CompileTarget::features, and templates rendered for the target see it, with
  /// CompileTarget::params, in the render global `device_params`. Since SDK 1.5; optional:
  /// the default leaves `features` as it came.
  virtual void target_features(std::string_view target, DeviceFeatures& features) const {
    (void)target;
    (void)features;
  }

  // ---- SDK 1.7: called only on plugins of ABI 1.7 or later --------------------------------

  /// Whether the backend's BLAS library (cuBLAS, CLBlast, hipBLAS) can be used, and which it
  /// is, or why not.
  ///
  /// Called by every product of plinth/blas.hpp that runs on a queue of the API (unless
  /// PLINTH_BLAS=plinth) and by blas_support(), from any thread, after initialize(). The
  /// backend opens the library on the first call (never at plugin load, so that a machine
  /// without it still lists the backend) and answers the same ever after: available, with
  /// the library and its version ("cuBLAS 13.0.2 (libcublas.so.13)"), or why not in the
  /// loader's words. Must not throw. Since SDK 1.7; optional: the default says the backend
  /// has none (no_blas_library), and the core then runs its own generated kernels.
  virtual BlasLibrary blas_library() const { return {false, std::string(no_blas_library)}; }

  // ---- SDK 1.9: called only on plugins of ABI 1.9 or later --------------------------------

  /// A context on `devices` that shares objects with the GL context `gl` (gl_interop.hpp).
  ///
  /// Called by plinth::make_gl_context() with devices of one platform (the core checks, as
  /// for create_context()) and non-null handles, `gl` current on the calling thread. OpenCL
  /// refuses platforms without cl_khr_gl_sharing, asks
  /// clGetGLContextInfoKHR(CL_DEVICES_FOR_GL_CONTEXT_KHR) whether the devices can share with
  /// `gl`, and makes the context with CL_GL_CONTEXT_KHR and CL_EGL_DISPLAY_KHR or
  /// CL_GLX_DISPLAY_KHR. A backend whose interop needs no special context (CUDA, HIP) checks
  /// what it can (cuGLGetDevices: that the GL context runs on the devices), then returns what
  /// create_context() would. Throws LogicError naming why the devices cannot share with `gl`,
  /// BackendError. Since SDK 1.9; optional: the default throws LogicError (the backend does
  /// not share with OpenGL).
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
