#pragma once

// Which compiler options plinth passes on from input it does not trust: a job file that
// `plinth-compile --job` compiles (a user may receive one from elsewhere), and
// ProgramOptions::compiler_options wherever plinth itself starts a compiler process (the
// Level Zero backend runs clang-15). Options such as `-fplugin=`, `-Xclang -load`, `-I`,
// `-include` or `@file` make a compiler read files or load code, so each API has an
// allow-list and everything else is refused:
// - every API: `-DNAME`, `-DNAME=value` and `-UNAME` (one option each; NAME an identifier);
// - opencl: `-cl-<name>[=<value>]` (OpenCL's build options), `-w`, `-Werror`; no option may
//   hold a space (clBuildProgram takes them joined into one string);
// - level_zero (clang in OpenCL C mode): as opencl, and the warnings `-W<name>` (no comma:
//   `-Wl,`, `-Wa,`, `-Wp,` hand options to other programs);
// - cuda (NVRTC): its documented code-generation options by name: `-G`/`--device-debug`,
//   `-lineinfo`/`--generate-line-info`, `-dopt=on|off`, `-maxrregcount=N`,
//   `-ftz=`/`-prec-sqrt=`/`-prec-div=`/`-fmad=`/`-modify-stack-limit=` with true or false,
//   `-use_fast_math`, `-extra-device-vectorization`, `-restrict`, `-default-device`,
//   `-std=c++11|14|17|20`, `-w`/`--disable-warnings` (each also with two dashes);
// - hip (hiprtc): `-O0` to `-O3`, `-std=c++11|14|17|20`, `-g`, `-w`, the warnings `-W<name>`
//   (no comma), `-mcumode`, `-mno-cumode`, `-mwavefrontsize64`, `-mno-wavefrontsize64`;
// - any other API: the macros only.
// Fuzzed through the job-file parser (tests/fuzz/fuzz_job.cpp).

#include <plinth/export.hpp>

#include <span>
#include <string>
#include <string_view>

namespace plinth::backend {

/// Returns "" when every option of `options` is on the allow-list of the API `api_shortcut`
/// ("opencl", "cuda", "hip", "level_zero"; others get the macros only); otherwise says which
/// option is refused and why, such as "the compiler option '-fplugin=/tmp/x.so' is not accepted
/// for level_zero (...)". The option is quoted printable() and at most 200 bytes of it.
/// Never throws but std::bad_alloc; any thread may call it.
PLINTH_EXPORT std::string compiler_option_problem(std::string_view api_shortcut,
                                                  std::span<const std::string> options);

}  // namespace plinth::backend
