#pragma once

// Running a child program from a test: its exit status and everything it printed.

#include <sys/wait.h>

#include <array>
#include <cstdio>
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

}  // namespace plinth::test
