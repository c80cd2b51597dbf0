#pragma once

// What Level Zero results mean to the SDK's checks (<plinth/backend/check.hpp>):
// PLINTH_CHECK(zeFoo(...)) throws BackendError (OutOfMemoryError for the out-of-memory
// results) naming the call, the result's name and where; PLINTH_CHECK_IN_DESTRUCTOR(zeFoo(...))
// reports on stderr instead. Any thread may call these.

#include <plinth/backend/check.hpp>

#include <level_zero/ze_api.h>

#include <string>

namespace plinth::backend {

/// ze_result_t: ZE_RESULT_SUCCESS is success; ZE_RESULT_ERROR_OUT_OF_{HOST,DEVICE}_MEMORY
/// throw OutOfMemoryError; ZE_RESULT_ERROR_UNINITIALIZED in a destructor means the driver has
/// gone (at process exit) and is not reported.
template <>
struct VendorResult<ze_result_t> {
  static constexpr const char* api = "Level Zero";
  static bool ok(ze_result_t result) noexcept { return result == ZE_RESULT_SUCCESS; }
  static bool shut_down(ze_result_t result) noexcept {
    return result == ZE_RESULT_ERROR_UNINITIALIZED;
  }
  static VendorError describe(ze_result_t result) noexcept;
};

}  // namespace plinth::backend

namespace plinth::level_zero {

/// The name of `result` as ze_api.h spells it ("ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"), or
/// "ZE_RESULT_<unknown>" for a value the header does not list. Never throws; any thread.
const char* result_name(ze_result_t result) noexcept;

/// A short description of `result` in words ("out of device memory"); "" where there is none.
const char* result_description(ze_result_t result) noexcept;

/// "ZE_RESULT_ERROR_UNINITIALIZED (no Level Zero driver is installed...)": the name and the
/// description, for messages that are not exceptions (no_devices_reason()).
std::string result_text(ze_result_t result);

/// Whether `result` is an out-of-memory result (host or device).
inline bool out_of_memory(ze_result_t result) noexcept {
  return result == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
         result == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}

}  // namespace plinth::level_zero
