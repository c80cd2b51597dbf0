#pragma once

// The pieces of the OpenCL C prelude (opencl_c.cpp), each generated from dialect_tables.hpp.
// Internal to the SDK's sources.

#include <string>

namespace plinth::backend::dialect {

/// The atomics, ordered loads and stores, and fences in OpenCL C (opencl_c_atomics.cpp).
/// Expects the PLINTH_CL_* feature macros of opencl_c.cpp. Throws only std::bad_alloc.
std::string opencl_c_atomics();

/// The sub-group functions in OpenCL C, native or of size 1 (opencl_c_sub_groups.cpp).
/// Expects the PLINTH_CL_* feature macros of opencl_c.cpp. Throws only std::bad_alloc.
std::string opencl_c_sub_groups();

}  // namespace plinth::backend::dialect
