#pragma once

// hiprtc, the one compile function of the backend: Program (for a device's architecture) and
// ApiAdapter::compile_for_target (for a named target) both build through compile(). No HIP
// runtime call: any thread may call these, concurrently (compile() runs hiprtc for one caller
// at a time: hiprtc 5.2 cannot compile on two threads at once).

#include <plinth/backend/types.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::hip {

/// The prelude, then `__constant__ <ctype> <name>[<length>];` for each constant array (so that
/// the prelude's types can be used in them), then the user's source.
std::string full_source(const backend::ProgramInput& input, const backend::BuildOptions& build);

/// What compile() made.
struct CodeObject {
  std::vector<std::byte> code;       ///< the AMD GPU code object (an ELF file)
  std::string log;                   ///< hiprtc's log (warnings)
  std::vector<std::string> options;  ///< the options hiprtc got, for error messages
};

/// Compiles `source` with hiprtc for `target` (a target ID: "gfx90a", "gfx90a:sramecc+:xnack-")
/// with `build`'s fast_math and compiler_options, and leaves "program_<target>.log" and
/// ".hsaco" in `build.keep` when set. `device` names the device or target in errors.
/// Throws LogicError for a target this installation cannot compile for (target_problem(), so
/// hiprtc never sees one) or a compiler option that chooses the target, CompileError with the
/// log, the options and the numbered source when hiprtc refuses the source, BackendError when
/// hiprtc fails otherwise.
CodeObject compile(const std::string& source, std::string_view target,
                   const backend::BuildOptions& build, const std::string& device);

/// "hiprtc 9.0 (HIP 5.2.21153)": the compiler and the HIP release it comes with.
std::string compiler_version();

/// "5.2.21153" from HIP's 50221153 (major * 10000000 + minor * 100000 + patch).
std::string hip_version_string(int version);

}  // namespace plinth::hip
