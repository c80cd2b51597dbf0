// Fuzzes the OpenCL backend's check of PoCL program binaries: plinth::opencl::
// pocl_binary_problem (backends/opencl/pocl_binary.hpp), which stands between a user's (or a
// cache entry's) binary and clCreateProgramWithBinary on PoCL. Input: the binary (libFuzzer's
// buffer is exactly that size, so AddressSanitizer sees any read beyond it). It never throws
// but std::bad_alloc; a binary it accepts starts with the magic and holds a whole header.

#include "fuzz_common.hpp"

#include "pocl_binary.hpp"

#include <span>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  const std::string problem = plinth::opencl::pocl_binary_problem(bytes);
  if (problem.empty()) {
    PLINTH_FUZZ_CHECK(plinth::opencl::is_pocl_binary(bytes));
    PLINTH_FUZZ_CHECK(size >= 77 + 8);  // the header and a root entry's size
  }
  PLINTH_FUZZ_CHECK(problem.size() < 400);
  return 0;
}
