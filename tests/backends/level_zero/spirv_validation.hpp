#pragma once

// spirv-val (SPIRV-Tools) for the Level Zero tests: PLINTH_SPIRV_VAL is its path, found by
// CMake, or empty when it is not installed (the tests that need it skip, saying so).

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

namespace plinth::level_zero::testing {

/// Why modules cannot be validated here, or "" when they can.
inline std::string validator_missing() {
  const std::string path = PLINTH_SPIRV_VAL;
  return path.empty() ? "spirv-val was not found when CMake ran: install spirv-tools" : "";
}

/// spirv-val's report on the module at `path` under `environment` ("" when it is valid).
inline std::string run_validator(const char* path, const char* environment) {
  // The test's own arguments only: fixed paths and names, quoted.
  const std::string command = std::string("'") + PLINTH_SPIRV_VAL + "' --target-env " +
                              environment + " '" + path + "' 2>&1";
  std::string report;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) report.append(buffer, got);
    const int status = ::pclose(pipe);
    if (status == 0)
      report.clear();
    else if (report.empty())
      report = "spirv-val failed with status " + std::to_string(status);
  } else {
    report = "cannot run spirv-val";
  }
  return report;
}

/// spirv-val's verdict on `module` under OpenCL 2.2's rules (OpenCL C 2.0 kernels, SPIR-V 1.2
/// at most, what compile_to_spirv makes): "" for a valid module, else its report. The one
/// exception: spirv-val refuses the Int64Atomics capability in every OpenCL environment,
/// though OpenCL's SPIR-V environment allows it with cl_khr_int64_base_atomics (the dialect's
/// long and ulong atomics); a module whose only fault is that is checked under SPIR-V 1.2's
/// own rules instead.
inline std::string validation_errors(std::span<const std::byte> module) {
  char path[] = "/tmp/plinth-level-zero-test-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return "cannot make a temporary file";
  const bool written =
      ::write(fd, module.data(), module.size()) == static_cast<::ssize_t>(module.size());
  ::close(fd);
  std::string report;
  if (!written) {
    report = "cannot write the temporary file";
  } else {
    report = run_validator(path, "opencl2.2");
    const auto only_int64_atomics = [&] {
      const auto at = report.find("Capability Int64Atomics is not allowed by OpenCL");
      return at != std::string::npos && report.find("error", at) == std::string::npos &&
             report.rfind("error", at) == report.find("error");
    };
    if (!report.empty() && only_int64_atomics()) report = run_validator(path, "spv1.2");
  }
  ::unlink(path);
  return report;
}

}  // namespace plinth::level_zero::testing

/// Skips the test when spirv-val is not installed.
#define PLINTH_NEED_SPIRV_VAL()                                                                    \
  do {                                                                                             \
    if (const auto missing = ::plinth::level_zero::testing::validator_missing(); !missing.empty()) \
      GTEST_SKIP() << missing;                                                                     \
  } while (false)
