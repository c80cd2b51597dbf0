#pragma once

// What OpenCL codes mean to the SDK's checks (<plinth/backend/check.hpp>), the checks that
// OpenCL needs besides PLINTH_CHECK, and typed clGet*Info helpers built on them.

#include <plinth/backend/check.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <string>
#include <vector>

namespace plinth::opencl {

/// "CL_INVALID_VALUE" for -30, ...; "CL_UNKNOWN_ERROR" for a code no header names.
const char* code_name(cl_int code) noexcept;

}  // namespace plinth::opencl

namespace plinth::backend {

/// OpenCL codes: OutOfMemoryError for CL_MEM_OBJECT_ALLOCATION_FAILURE and
/// CL_OUT_OF_HOST_MEMORY; no code says that the driver has shut down.
template <>
struct VendorResult<cl_int> {
  static constexpr const char* api = "OpenCL";
  static bool ok(cl_int code) noexcept { return code == CL_SUCCESS; }
  static bool shut_down(cl_int /*code*/) noexcept { return false; }
  static VendorError describe(cl_int code) noexcept;
};

}  // namespace plinth::backend

namespace plinth::opencl {

/// Throws BackendError (OutOfMemoryError for CL_MEM_OBJECT_ALLOCATION_FAILURE and
/// CL_OUT_OF_HOST_MEMORY) naming `call` (a function name; the location defaults to the
/// caller's) and `detail`.
[[noreturn]] void throw_error(cl_int code, backend::VendorCall call,
                              const std::string& detail = {});

/// As plinth::backend::check(), for calls that allocate: CL_OUT_OF_RESOURCES is then out of memory
/// too.
void check_alloc(cl_int code, backend::VendorCall call);

/// A string-valued info parameter, read through `query(size, value, size_ret)`; `call` names
/// the info function.
template <class Query>
std::string info_string(Query query, backend::VendorCall call) {
  std::size_t size = 0;
  plinth::backend::check(query(0, nullptr, &size), call);
  std::string value(size, '\0');
  if (size > 0) plinth::backend::check(query(size, value.data(), nullptr), call);
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

/// A fixed-size info parameter of type T.
template <class T, class Query>
T info_value(Query query, backend::VendorCall call) {
  T value{};
  plinth::backend::check(query(sizeof(T), &value, nullptr), call);
  return value;
}

/// An array-valued info parameter of elements T.
template <class T, class Query>
std::vector<T> info_array(Query query, backend::VendorCall call) {
  std::size_t size = 0;
  plinth::backend::check(query(0, nullptr, &size), call);
  std::vector<T> value(size / sizeof(T));
  if (!value.empty())
    plinth::backend::check(query(value.size() * sizeof(T), value.data(), nullptr), call);
  return value;
}

}  // namespace plinth::opencl
