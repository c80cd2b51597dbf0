// Fuzzes the OpenCL backend's check of NVIDIA's binaries: plinth::opencl::ptx_binary_problem
// (backends/opencl/ptx_binary.hpp), which stands between a user's (or a cache entry's) binary
// and clCreateProgramWithBinary on NVIDIA, whose driver reads PTX as a C string. Input: the
// binary. It never throws but std::bad_alloc; a binary it accepts ends in NUL, has no other
// NUL, and contains .version and .target.

#include "fuzz_common.hpp"

#include "ptx_binary.hpp"

#include <cstring>
#include <span>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  const std::string problem = plinth::opencl::ptx_binary_problem(bytes);
  if (problem.empty()) {
    PLINTH_FUZZ_CHECK(size > 0 && data[size - 1] == 0);
    const std::string_view text(reinterpret_cast<const char*>(data),
                                std::strlen(reinterpret_cast<const char*>(data)));
    PLINTH_FUZZ_CHECK(text.find(".version") != std::string_view::npos);
    PLINTH_FUZZ_CHECK(text.find(".target") != std::string_view::npos);
    for (std::size_t i = text.size(); i < size; ++i) PLINTH_FUZZ_CHECK(data[i] == 0);
  }
  PLINTH_FUZZ_CHECK(problem.size() < 200);
  return 0;
}
