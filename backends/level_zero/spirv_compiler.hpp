#pragma once

// The kernel dialect's OpenCL C form to SPIR-V, for Level Zero (zeModuleCreate takes SPIR-V).
// clang and llvm-spirv (Debian: clang-15, llvm-spirv-15) run as programs, not in-process:
// see spirv_compiler.cpp for why. No Level Zero call: any thread may call these, concurrently.
//
// Which programs, looked up once per process:
// - PLINTH_CLANG, PLINTH_LLVM_SPIRV: the programs to run, as a path or a name looked up in PATH
//   (e.g. PLINTH_CLANG=/opt/llvm-15/bin/clang); they must be LLVM 15's, as the bitcode
//   passes from one to the other. A value that names no executable program is an error
//   (compiler_problem()), never a fall-back to another program.
// - otherwise clang-15 and llvm-spirv-15 in PATH's absolute directories, then clang and
//   llvm-spirv in /usr/lib/llvm-15/bin.

#include <plinth/backend/types.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::level_zero {

/// A SPIR-V module (the bytes of its little-endian 32-bit words) and the compiler's log.
struct SpirvModule {
  std::vector<std::byte> binary;
  std::string log;
};

/// The OpenCL C translation unit of a program: `input.prelude`, a newline, `input.source` (only
/// the source when the prelude is empty: ProgramOptions::no_prelude).
/// Throws LogicError for options.constant_arrays (Level Zero takes such data as CONSTANT_MEM
/// kernel arguments, as OpenCL does), naming the first array.
std::string translation_unit(const backend::ProgramInput& input,
                             const backend::BuildOptions& options);

/// Compiles one OpenCL C translation unit (translation_unit()) to SPIR-V for spir64, with
/// options.compiler_options passed to clang and -cl-fast-relaxed-math for options.fast_math.
/// With options.keep, leaves "program.cl", "program.spv" and "build.log" there. Throws
/// LogicError, before any program starts, for a compiler option that is not on Level Zero's
/// allow-list (<plinth/backend/compiler_option_allow_list.hpp>: -D/-U, -cl-*, -w, -W<warning>);
/// CompileError (the log, the options and the source) when clang refuses the source, and
/// when clang or llvm-spirv is not there (its log names the missing program and the Debian
/// packages to install); BackendError with the tool's output when one fails otherwise.
/// `device_flags` go to clang before the user's options (device_dialect_flags()).
SpirvModule compile_to_spirv(std::string_view source, const backend::BuildOptions& options,
                             const std::vector<std::string>& device_flags = {});

/// The clang options that make the prelude's preprocessor agree with features_from() for
/// devices of which some lack 64-bit atomics (`int64_atomics` false): the
/// cl_khr_int64_*_atomics macros turned off, so that the long, ulong and double atomics name
/// themselves as unsupported. Empty when every device has them. Throws only std::bad_alloc.
std::vector<std::string> device_dialect_flags(bool int64_atomics);

/// Why this machine cannot compile to SPIR-V (a missing clang or llvm-spirv, with what to
/// install), or nullopt when it can. Looked up once per process.
std::optional<std::string> compiler_problem();

/// "clang 15.0.6; llvm-spirv 15.0.0; SPIR-V 1.x": what decides the SPIR-V a build makes, for
/// the devices' compiler_identity() (the program cache's key). Empty when compiler_problem().
std::string compiler_version();

}  // namespace plinth::level_zero
