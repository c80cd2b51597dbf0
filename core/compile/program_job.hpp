#pragma once

// The job file: a program that a run built from source, as PLINTH_RECORD_PROGRAMS records it
// (compile/program_recorder.hpp) and `plinth-compile --job` compiles it again for named targets.
// Job files are data a user may receive from elsewhere (a CI artefact, a colleague's file), so
// reading one trusts nothing in it. Fuzzed by tests/fuzz/fuzz_job.cpp.
//
// A job file is JSON:
//   {"plinth_program": 1, "api": "opencl", "source": "<rendered, without prelude>",
//    "no_prelude": false, "fast_math": false, "compiler_options": ["..."],
//    "constant_arrays": [{"name": "c", "ctype": "float", "length": 16, "itemsize": 4}]}
// "api" is the API that built it: its compiler options and no-prelude sources belong to it.
// Text that is not UTF-8 (a source with Latin-1 comments, say) cannot be a JSON string: such a
// string is written as {"base64": "<its bytes in base64>"} instead, and the file says
// "plinth_program": 2 (version 1 files, which have none, read as they always did).

#include <plinth/export.hpp>
#include <plinth/program.hpp>

#include <string>
#include <string_view>

namespace plinth::detail {

/// What a job file holds.
struct ProgramJob {
  std::string api;     ///< the shortcut of the API that built the program
  std::string source;  ///< rendered, without the prelude; any bytes
  /// no_prelude, fast_math, compiler_options and constant_arrays; the rest is left default.
  ProgramOptions options;
};

/// The job file's text for a program that `api` built from `source` with `options` (only the
/// fields above are written). Any bytes in any string. Throws std::bad_alloc only.
PLINTH_EXPORT std::string program_job_text(std::string_view api, std::string_view source,
                                           const ProgramOptions& options);

/// Reads a job file's text. Throws LogicError saying what is wrong, quoting at most a short
/// printable excerpt of the text: not JSON, not a plinth program job of version 1 or 2, a field
/// of the wrong type, an "api" that is not a shortcut (letters, digits, '_'; at most 64), a
/// constant array's length or itemsize that is not an integer from 1 to 2^31 (nor their product), a
/// string in base64 that is not, or a compiler option that is not on the allow-list of the job's
/// API (<plinth/backend/compiler_option_allow_list.hpp>).
PLINTH_EXPORT ProgramJob parse_program_job(std::string_view text);

}  // namespace plinth::detail
