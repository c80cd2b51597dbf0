#pragma once

// Checking a binary for NVIDIA's OpenCL before clCreateProgramWithBinary sees it: its
// binaries are PTX, a NUL-terminated text that NVIDIA's driver reads as a C string, so one
// without its terminator is read past its end. PTX begins with comments, then `.version` and
// `.target` directives. Only the container is checked: a truncated or corrupted binary is
// refused; PTX that is merely wrong gets the driver's own compile log. No OpenCL call: any
// thread may call it; fuzzed by tests/fuzz/fuzz_ptx_binary.cpp.

#include <cstddef>
#include <span>
#include <string>

namespace plinth::opencl {

/// Returns "" when `bytes` is text (tab, newline and carriage return the only control
/// characters) ending in one or more NUL bytes, whose first lines past comments are a
/// `.version` directive and then a `.target` directive; otherwise a short description of what
/// is wrong, e.g. "PTX without its NUL terminator". Never throws but std::bad_alloc.
std::string ptx_binary_problem(std::span<const std::byte> bytes);

}  // namespace plinth::opencl
