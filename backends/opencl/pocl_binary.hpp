#pragma once

// Checking a PoCL program binary (what clGetProgramInfo(CL_PROGRAM_BINARIES) gives on PoCL)
// before clCreateProgramWithBinary sees it: PoCL reads its container trusting every size and
// count in it, so a truncated or corrupted binary makes it read past the end, abort on an
// assert or crash. The container: an 8-byte magic "poclbin\0", a header (device hash,
// format version, kernel count, flags, root entry count, the program's build hash; a
// program-scope variable size from version 10 on), the root entries (a byte count and files:
// a length-prefixed relative path and a length-prefixed content each), then one record per
// kernel (its sizes, name, argument and local counts, work-group sizes, attributes, metadata,
// argument info, its files). Format 9 is PoCL 3.x, 11 PoCL 5.0; others are refused, being
// unchecked. A well-formed hostile binary is not caught: a binary is code. No OpenCL call:
// any thread may call it; fuzzed by tests/fuzz/fuzz_pocl_binary.cpp.

#include <cstddef>
#include <span>
#include <string>

namespace plinth::opencl {

/// Whether `bytes` begins with PoCL's binary magic "poclbin\0".
bool is_pocl_binary(std::span<const std::byte> bytes) noexcept;

/// Returns "" when every size, count and length in PoCL binary `bytes` lies inside it and its
/// records add up to exactly its length; otherwise a short description of what is wrong,
/// e.g. "kernel 2's record (1200 bytes) runs past the end (at byte 900 of 1000)". Never
/// throws but std::bad_alloc.
std::string pocl_binary_problem(std::span<const std::byte> bytes);

}  // namespace plinth::opencl
