#include "compile/program_recorder.hpp"

#include "diagnostics/debug.hpp"

#include <fmt/format.h>
#include <xxhash.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <system_error>

namespace plinth::detail {

namespace fs = std::filesystem;

namespace {

/// PLINTH_RECORD_PROGRAMS, read once: the directory, or nothing (unset, empty or unusable,
/// the latter warned about).
const std::optional<fs::path>& record_directory() {
  static const std::optional<fs::path> directory = []() -> std::optional<fs::path> {
    const char* value = ::secure_getenv("PLINTH_RECORD_PROGRAMS");
    if (value == nullptr || *value == '\0') return std::nullopt;
    const fs::path path(value);
    if (!path.is_absolute()) {
      warn(
          fmt::format("PLINTH_RECORD_PROGRAMS='{}' is not an absolute path: no programs are "
                      "recorded",
                      value));
      return std::nullopt;
    }
    std::error_code error;
    fs::create_directories(path, error);
    if (error || !fs::is_directory(path, error)) {
      warn(fmt::format("PLINTH_RECORD_PROGRAMS: cannot create the directory {}: {}", value,
                       error ? error.message() : "not a directory"));
      return std::nullopt;
    }
    return path;
  }();
  return directory;
}

std::string job_text(std::string_view api, std::string_view source, const ProgramOptions& options) {
  nlohmann::json job;
  job["plinth_program"] = 1;
  job["api"] = std::string(api);
  job["source"] = std::string(source);
  job["no_prelude"] = options.no_prelude;
  job["fast_math"] = options.fast_math;
  job["compiler_options"] = options.compiler_options;
  auto arrays = nlohmann::json::array();
  for (const auto& array : options.constant_arrays) {
    arrays.push_back({{"name", array.name},
                      {"ctype", array.ctype},
                      {"length", array.length},
                      {"itemsize", array.itemsize}});
  }
  job["constant_arrays"] = std::move(arrays);
  return job.dump(1) + "\n";  // throws for text that is not UTF-8
}

void write_job(const fs::path& directory, const std::string& text) {
  const auto hash = XXH3_64bits(text.data(), text.size());
  const fs::path final_path = directory / fmt::format("{:016x}.json", hash);
  std::error_code error;
  if (fs::exists(final_path, error)) return;
  thread_local std::mt19937_64 random{std::random_device{}()};
  const fs::path temporary = directory / fmt::format(".{:016x}.{:016x}.tmp", hash, random());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, error);
      throw std::runtime_error(fmt::format("cannot write {}", temporary.string()));
    }
  }
  fs::rename(temporary, final_path);
  debug(DebugTopic::compile, "recorded the program in {}", final_path.string());
}

}  // namespace

void record_program(std::string_view api_shortcut, std::string_view source,
                    const ProgramOptions& options) noexcept {
  try {
    const auto& directory = record_directory();
    if (!directory) return;
    std::string text;
    try {
      text = job_text(api_shortcut, source, options);
    } catch (const nlohmann::json::exception&) {
      debug(DebugTopic::compile, "not recording a program whose source is not UTF-8");
      return;
    }
    write_job(*directory, text);
  } catch (const std::exception& e) {
    static std::once_flag once;
    std::call_once(once, [&] { warn(fmt::format("PLINTH_RECORD_PROGRAMS: {}", e.what())); });
  } catch (...) {
  }
}

}  // namespace plinth::detail
