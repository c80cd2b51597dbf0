#pragma once

// PLINTH_RECORD_PROGRAMS=<absolute directory>: every program that a Program builds from
// source is also written to that directory as a job file, which `plinth-compile --job`
// compiles again for named targets. This is how CI builds every kernel of the conformance
// suite and the examples for GPUs that no machine here has (tests/targets/).
//
// A job file is JSON, named after the XXH3-64 hash of its contents (so a program built many
// times is recorded once):
//   {"plinth_program": 1, "api": "opencl", "source": "<rendered, without prelude>",
//    "no_prelude": false, "fast_math": false, "compiler_options": ["..."],
//    "constant_arrays": [{"name": "c", "ctype": "float", "length": 16, "itemsize": 4}]}
// "api" is the API that built it: its compiler options and no-prelude sources belong to it.

#include <plinth/program.hpp>

#include <string_view>

namespace plinth::detail {

/// Writes a job file for a program that `api_shortcut` built from `source` (rendered, without
/// the prelude) with `options`, when PLINTH_RECORD_PROGRAMS names an absolute directory
/// (created if missing). The file is written to a temporary name and renamed into place, so
/// that processes and threads may record into one directory at once. Never throws: a failure
/// is a warning, once per process (as is a relative or unusable directory). Any thread.
void record_program(std::string_view api_shortcut, std::string_view source,
                    const ProgramOptions& options) noexcept;

}  // namespace plinth::detail
