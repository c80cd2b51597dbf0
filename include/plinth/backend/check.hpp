#pragma once

// Checking vendor calls (SDK 1.1): one way for every backend, so that an error names the
// call as it was written and where it was made, and destructors survive a driver that has
// already shut down.
//
//     PLINTH_CHECK(cuMemAlloc(&pointer, size));          // throws when the call fails
//     PLINTH_CHECK_IN_DESTRUCTOR(cuMemFree(pointer));    // never throws; says so on stderr
//     plinth::backend::check(code, "clCreateBuffer");    // a code returned through a pointer
//
// A backend tells the SDK what its result type means by specialising VendorResult once,
// next to its other error code (backends/cuda/error.hpp is an example):
//
//     template <> struct plinth::backend::VendorResult<CUresult> {
//       static constexpr const char* api = "CUDA";
//       static bool ok(CUresult r) noexcept { return r == CUDA_SUCCESS; }
//       static bool shut_down(CUresult r) noexcept { return r == CUDA_ERROR_DEINITIALIZED; }
//       static plinth::backend::VendorError describe(CUresult r) noexcept;
//     };
//
// Every function here may be called from any thread.

#include <plinth/export.hpp>

#include <cstdint>
#include <source_location>
#include <string_view>

namespace plinth::backend {

/// A vendor call as the source code wrote it, and where: what an error reports.
struct VendorCall {
  /// Takes the call's text ("cuMemAlloc(&pointer, size)", or a bare name such as
  /// "clCreateBuffer"); the location defaults to the caller's.
  constexpr VendorCall(  // NOLINT(google-explicit-constructor): converts a name at call sites
      const char* call_text,
      std::source_location location = std::source_location::current()) noexcept
      : text(call_text), where(location) {}

  /// The function called: the text up to its argument list, such as "cuMemAlloc".
  PLINTH_EXPORT std::string_view function() const noexcept;

  std::string_view text;       ///< the call as written (PLINTH_CHECK: its text)
  std::source_location where;  ///< where the call was made
};

/// What a failed result means, as a backend describes it for an error message.
struct VendorError {
  const char* name = "";         ///< the code's name, e.g. "CUDA_ERROR_OUT_OF_MEMORY"
  const char* description = "";  ///< the vendor's text for it, or "" if it has none
  bool out_of_memory = false;    ///< throw OutOfMemoryError rather than BackendError
};

/// Specialised by each backend for each result type it checks (see the top of this file):
/// `api`, `ok(result)`, `shut_down(result)` (the driver is gone, as at process exit) and
/// `describe(result)`.
template <class Result>
struct VendorResult;

/// Throws OutOfMemoryError (when `error.out_of_memory`) or BackendError naming the API, the
/// function, the code, its name, the description and the source location.
[[noreturn]] PLINTH_EXPORT void throw_vendor_error(const char* api, const VendorCall& call,
                                                   std::int64_t code, const VendorError& error);

/// Writes one line about a failure in a destructor on stderr: "plinth: CUDA: cuMemFree
/// failed in a destructor: CUDA_ERROR_INVALID_VALUE (1): invalid argument [cuda/buffer.cpp:12]".
PLINTH_EXPORT void report_vendor_error(const char* api, const VendorCall& call, std::int64_t code,
                                       const VendorError& error) noexcept;

/// Throws (see throw_vendor_error) unless `result` is a success.
template <class Result>
inline void check(Result result, VendorCall call) {
  using Traits = VendorResult<Result>;
  if (!Traits::ok(result)) [[unlikely]]
    throw_vendor_error(Traits::api, call, static_cast<std::int64_t>(result),
                       Traits::describe(result));
}

/// For destructors and other places that must not throw: returns whether `result` is a
/// success, and reports a failure on stderr unless it only says that the driver has shut down.
template <class Result>
inline bool check_in_destructor(Result result, VendorCall call) noexcept {
  using Traits = VendorResult<Result>;
  if (Traits::ok(result)) [[likely]]
    return true;
  if (!Traits::shut_down(result))
    report_vendor_error(Traits::api, call, static_cast<std::int64_t>(result),
                        Traits::describe(result));
  return false;
}

}  // namespace plinth::backend

/// Checks a vendor call, naming it as written: PLINTH_CHECK(cuStreamSynchronize(stream)).
#define PLINTH_CHECK(call) ::plinth::backend::check((call), ::plinth::backend::VendorCall(#call))

/// As PLINTH_CHECK, in a destructor: never throws (see check_in_destructor).
#define PLINTH_CHECK_IN_DESTRUCTOR(call) \
  ::plinth::backend::check_in_destructor((call), ::plinth::backend::VendorCall(#call))
