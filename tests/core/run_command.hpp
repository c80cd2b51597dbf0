#pragma once

// Running a child program from a test: its exit status and everything it printed.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

namespace plinth::test {

/// Runs `command` through the shell (append "2>&1" to capture stderr too); returns its exit
/// status (-1 if it did not exit normally or could not start) and its standard output.
inline std::pair<int, std::string> run_command(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string output;
  std::array<char, 4096> chunk{};
  while (const std::size_t n = std::fread(chunk.data(), 1, chunk.size(), pipe))
    output.append(chunk.data(), n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, std::move(output)};
}

/// This test program again, in a child with `environment` (e.g. "PLINTH_API=hostv15"),
/// running the gtest `filter` (disabled tests included, so that a child-only test can be
/// DISABLED_ in the parent): its exit status and everything it printed. Leak checks belong to
/// the test processes, not to their children: the child runs without them.
inline std::pair<int, std::string> run_self(const std::string& environment,
                                            const std::string& filter) {
  // Resolved here: in the shell, /proc/self/exe would be the shell's own program.
  const auto self = std::filesystem::read_symlink("/proc/self/exe").string();
  return run_command("env ASAN_OPTIONS=detect_leaks=0 " + environment + " '" + self +
                     "' --gtest_also_run_disabled_tests --gtest_filter='" + filter + "' 2>&1");
}

}  // namespace plinth::test
