#include "compile/program_recorder.hpp"

#include "compile/program_job.hpp"
#include "diagnostics/debug.hpp"
#include "plugins/file_safety.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace plinth::detail {

namespace fs = std::filesystem;

namespace {

/// Writes all of `text` to `fd`; false on an error.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const auto n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

/// PLINTH_RECORD_PROGRAMS's recorder, made once: nullptr when unset, empty, relative or refused
/// (the latter two warned about).
ProgramRecorder* environment_recorder() {
  static const std::unique_ptr<ProgramRecorder> recorder =
      []() -> std::unique_ptr<ProgramRecorder> {
    const char* value = ::secure_getenv("PLINTH_RECORD_PROGRAMS");
    if (value == nullptr || *value == '\0') return nullptr;
    const fs::path path(value);
    if (!path.is_absolute()) {
      warn(fmt::format(
          "PLINTH_RECORD_PROGRAMS='{}' is not an absolute path: no programs are recorded", value));
      return nullptr;
    }
    auto made = std::make_unique<ProgramRecorder>(path);
    if (!made->problem().empty()) {
      warn(fmt::format("PLINTH_RECORD_PROGRAMS: {}: no programs are recorded", made->problem()));
      return nullptr;
    }
    return made;
  }();
  return recorder.get();
}

}  // namespace

ProgramRecorder::ProgramRecorder(std::filesystem::path directory)
    : directory_(std::move(directory)) {
  std::error_code ec;
  if (directory_.has_parent_path()) fs::create_directories(directory_.parent_path(), ec);
  if (::mkdir(directory_.c_str(), 0700) == 0) {
    debug(DebugTopic::compile, "{}: created (mode 0700) for recorded programs",
          directory_.string());
  } else if (errno != EEXIST) {
    problem_ = fmt::format("cannot create {}: {}", directory_.string(), std::strerror(errno));
    return;
  }
  problem_ = directory_problem(directory_);
}

void ProgramRecorder::record(std::string_view api_shortcut, std::string_view source,
                             const ProgramOptions& options) {
  if (!problem_.empty()) return;
  const std::string text = program_job_text(api_shortcut, source, options);
  const auto hash = XXH3_64bits(text.data(), text.size());
  {
    const std::lock_guard lock(mutex_);
    if (written_.contains(hash)) return;
  }
  const fs::path final_path = directory_ / fmt::format("{:016x}.json", hash);
  // A new file of our own (mkstemp: O_CREAT | O_EXCL, mode 0600), renamed over whatever sits
  // under the job's name: a file we did not write is never reused, a link never followed.
  std::string temporary = (directory_ / fmt::format(".{:016x}-XXXXXX", hash)).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) {
    throw std::runtime_error(
        fmt::format("cannot create a file in {}: {}", directory_.string(), std::strerror(errno)));
  }
  const bool written = write_all(fd, text);
  const bool closed = ::close(fd) == 0;
  if (!written || !closed || ::rename(temporary.c_str(), final_path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw std::runtime_error(
        fmt::format("cannot write {}: {}", final_path.string(), std::strerror(error)));
  }
  {
    const std::lock_guard lock(mutex_);
    written_.insert(hash);
  }
  debug(DebugTopic::compile, "recorded the program in {}", final_path.string());
}

void record_program(std::string_view api_shortcut, std::string_view source,
                    const ProgramOptions& options) noexcept {
  try {
    if (auto* recorder = environment_recorder()) recorder->record(api_shortcut, source, options);
  } catch (const std::exception& e) {
    static std::once_flag once;
    std::call_once(once, [&] { warn(fmt::format("PLINTH_RECORD_PROGRAMS: {}", e.what())); });
  } catch (...) {
  }
}

}  // namespace plinth::detail
