#pragma once

// PLINTH_RECORD_PROGRAMS=<absolute directory>: every program that a Program builds from
// source is also written to that directory as a job file (compile/program_job.hpp), which
// `plinth-compile --job` compiles again for named targets. This is how CI builds every kernel
// of the conformance suite and the examples for GPUs that no machine here has (tests/targets/).
// A job file is named after the XXH3-64 hash of its contents (so a program built many times is
// recorded once); any source is recorded, UTF-8 or not.
//
// The directory follows the program cache's rules: created with mode 0700 if missing, and
// refused (a warning, once, and nothing recorded) when it is not a directory of this user that
// only this user can write (plugins/file_safety.hpp). A job is written to a new temporary file
// (O_EXCL, mode 0600) and renamed over its name: a file already there that this process did not
// write (planted under a predictable name, or a link) is replaced, never reused.

#include <plinth/export.hpp>
#include <plinth/program.hpp>

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>

namespace plinth::detail {

/// Records programs into one directory. Any thread.
class PLINTH_EXPORT ProgramRecorder {
 public:
  /// Creates `directory` (mode 0700; its parents as needed) unless it exists, and checks it:
  /// problem() says why it is refused. Throws std::bad_alloc only.
  explicit ProgramRecorder(std::filesystem::path directory);

  /// Why programs are not recorded here (the directory is unsafe or unusable), or "".
  const std::string& problem() const noexcept { return problem_; }

  /// Writes the job file of a program that `api_shortcut` built from `source` (rendered,
  /// without the prelude) with `options`, unless this recorder wrote it already. Does nothing
  /// when problem() is set. Throws std::runtime_error when the file cannot be written.
  void record(std::string_view api_shortcut, std::string_view source,
              const ProgramOptions& options);

 private:
  std::filesystem::path directory_;
  std::string problem_;
  std::mutex mutex_;
  std::unordered_set<std::uint64_t> written_;  // hashes of the jobs written
};

/// Records a program as ProgramRecorder::record() does, into the directory that
/// PLINTH_RECORD_PROGRAMS names (read once per process). Never throws: a relative or refused
/// directory, and a failure to write, are each a warning on stderr, once per process. Any
/// thread.
void record_program(std::string_view api_shortcut, std::string_view source,
                    const ProgramOptions& options) noexcept;

}  // namespace plinth::detail
