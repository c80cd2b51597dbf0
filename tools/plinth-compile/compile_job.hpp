#pragma once

// One thing plinth-compile compiles: a kernel source file with the command line's options, or
// a job file that PLINTH_RECORD_PROGRAMS wrote (core/compile/program_recorder.hpp).

#include <plinth/program.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace plinth_compile {

struct CompileJob {
  std::string name;  ///< for messages and output files: the input file's stem
  std::filesystem::path path;
  std::string source;
  plinth::ProgramOptions options;
  /// A recorded job: the API that built it (its compiler options and a no-prelude source
  /// belong to that API). Empty for a source file.
  std::string recorded_api;
};

/// Reads a kernel source file (or a job file). Throws std::runtime_error naming the file, also
/// for a directory.
std::string read_text(const std::filesystem::path& path);

/// Parses a job file's text (core/compile/program_job.hpp: compiler options off the job's API's
/// allow-list are refused). Throws std::runtime_error naming the file and what is wrong with it,
/// quoting at most a short excerpt of the text.
CompileJob parse_job(const std::filesystem::path& path, const std::string& text);

/// `name=value` as a render global: an integer, true/false, or else the text.
/// Throws std::runtime_error for text without '=' or an empty name.
std::pair<std::string, plinth::RenderValue> parse_define(const std::string& definition);

/// `name:ctype:length:itemsize` as a constant array. Throws std::runtime_error.
plinth::ConstantArray parse_constant_array(const std::string& text);

}  // namespace plinth_compile
