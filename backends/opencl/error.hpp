#pragma once

// The one wrapper around OpenCL calls, and typed clGet*Info helpers built on it.

#include <CL/cl.h>

#include <cstddef>
#include <string>
#include <vector>

namespace plinth::opencl {

/// "CL_INVALID_VALUE" for -30, ...; "CL_UNKNOWN_ERROR" for a code no header names.
const char* code_name(cl_int code) noexcept;

/// Throws BackendError (OutOfMemoryError for CL_MEM_OBJECT_ALLOCATION_FAILURE and
/// CL_OUT_OF_HOST_MEMORY) naming `call` and `detail`.
[[noreturn]] void throw_error(cl_int code, const char* call, const std::string& detail = {});

/// Throws for any code but CL_SUCCESS.
inline void check(cl_int code, const char* call) {
  if (code != CL_SUCCESS) [[unlikely]]
    throw_error(code, call);
}

/// As check(), for calls that allocate: CL_OUT_OF_RESOURCES is then out of memory too.
void check_alloc(cl_int code, const char* call);

/// For destructors: never throws; prints one line on stderr on failure.
void check_release(cl_int code, const char* call) noexcept;

/// A string-valued info parameter, read through `query(size, value, size_ret)`.
template <class Query>
std::string info_string(Query query, const char* call) {
  std::size_t size = 0;
  check(query(0, nullptr, &size), call);
  std::string value(size, '\0');
  if (size > 0) check(query(size, value.data(), nullptr), call);
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

/// A fixed-size info parameter of type T.
template <class T, class Query>
T info_value(Query query, const char* call) {
  T value{};
  check(query(sizeof(T), &value, nullptr), call);
  return value;
}

/// An array-valued info parameter of elements T.
template <class T, class Query>
std::vector<T> info_array(Query query, const char* call) {
  std::size_t size = 0;
  check(query(0, nullptr, &size), call);
  std::vector<T> value(size / sizeof(T));
  if (!value.empty()) check(query(value.size() * sizeof(T), value.data(), nullptr), call);
  return value;
}

}  // namespace plinth::opencl
