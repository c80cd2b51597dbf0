#pragma once

// Compiling kernels for a GPU that is not there: "does my kernel build for an MI300 (gfx942)
// and an H100 (sm_90)?", answered on a laptop or in CI. Backends whose compiler needs no
// device (CUDA's NVRTC, HIP's hiprtc) offer it; `plinth-compile` is its command line.

#include <plinth/api.hpp>
#include <plinth/device_features.hpp>
#include <plinth/device_parameters.hpp>
#include <plinth/export.hpp>
#include <plinth/program.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace plinth {

/// A target an API compiles for with no device present.
struct CompileTarget {
  std::string name;         ///< what compile_for_target() takes: "sm_90", "compute_90", "gfx90a"
  std::string description;  ///< one line, e.g. "cubin for compute capability 9.0"
  std::string extension;    ///< the binary's usual file extension: "cubin", "ptx", "hsaco"
  /// A typical device of the target. A template compiled for the target sees these as its
  /// `device_params` render global, as a Program's template sees its device's.
  DeviceParameters params;
  /// What a device of the target supports of the dialect's atomics, fences and sub-groups;
  /// also in `device_params`. All false for a plugin older than SDK 1.5.
  DeviceFeatures features;
};

/// A program compiled for a named target (compile_for_target()).
struct TargetBinary {
  APIID api;                      ///< the API it was compiled by
  std::string target;             ///< the target's name as given, e.g. "sm_90"
  std::string extension;          ///< the target's file extension, e.g. "cubin"
  std::vector<std::byte> binary;  ///< the cubin, PTX text, AMD GPU code object...
  std::string log;                ///< the compiler's log (warnings); often empty
  std::string source;             ///< the source as compiled (prelude included)
  std::string kept_directory;     ///< with ProgramOptions::keep: where the files are
};

/// The targets that `api`'s plugin compiles for without a device, in its order. The plugin
/// needs to be loaded, not to have devices: on a machine with the CUDA toolkit and no GPU,
/// compile_targets({"cuda"}) lists NVRTC's architectures. Throws PluginError when the API's
/// plugin is not loaded (naming its state and reason) and LogicError when it cannot compile
/// for named targets (it offers none, or implements an SDK older than 1.3). Any thread may
/// call it.
PLINTH_EXPORT std::vector<CompileTarget> compile_targets(const APIID& api);

/// Renders `source` as Program does, with `device_params` bound to the target's typical
/// parameters (CompileTarget::params), and compiles it for `target` (one of
/// compile_targets(api)'s names) with no device, driver or context. What the binary is depends
/// on the target: load it with Program::from_binaries() on a device of that target. The
/// program cache is not used. Throws PluginError and LogicError as compile_targets() does,
/// LogicError for a target the API does not offer (listing those it does) or a render global
/// named `device_params`, RenderError, CompileError with the compiler's log, the options and
/// the numbered source. Any thread may call it, concurrently.
PLINTH_EXPORT TargetBinary compile_for_target(const APIID& api, std::string_view target,
                                              const ProgramSource& source,
                                              const ProgramOptions& options = {});

}  // namespace plinth
