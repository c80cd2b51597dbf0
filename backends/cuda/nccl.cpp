#include "nccl.hpp"

#include <plinth/backend/vendor_library.hpp>

#include <array>
#include <mutex>
#include <type_traits>

namespace plinth::cuda::nccl {

namespace {

// nccl.h's names of the results, by code.
constexpr std::array<const char*, 8> result_names{
    "ncclSuccess",         "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
    "ncclInvalidArgument", "ncclInvalidUsage",       "ncclRemoteError", "ncclInProgress"};

// The functions of an opened library (the names of the required ones it lacks in
// opened.missing()).
Functions resolve_all(backend::VendorLibrary& opened) {
  Functions f;
#define PLINTH_NCCL_REQUIRED(function) opened.resolve(f.function, #function)
#define PLINTH_NCCL_OPTIONAL(function) opened.resolve(f.function, #function, true)
  PLINTH_NCCL_REQUIRED(ncclGetVersion);
  PLINTH_NCCL_REQUIRED(ncclGetErrorString);
  PLINTH_NCCL_OPTIONAL(ncclGetLastError);
  PLINTH_NCCL_REQUIRED(ncclGetUniqueId);
  PLINTH_NCCL_REQUIRED(ncclCommInitAll);
  PLINTH_NCCL_REQUIRED(ncclCommInitRank);
  PLINTH_NCCL_OPTIONAL(ncclCommFinalize);
  PLINTH_NCCL_REQUIRED(ncclCommDestroy);
  PLINTH_NCCL_REQUIRED(ncclGroupStart);
  PLINTH_NCCL_REQUIRED(ncclGroupEnd);
  PLINTH_NCCL_REQUIRED(ncclAllReduce);
  PLINTH_NCCL_REQUIRED(ncclReduce);
  PLINTH_NCCL_REQUIRED(ncclBroadcast);
  PLINTH_NCCL_REQUIRED(ncclAllGather);
  PLINTH_NCCL_REQUIRED(ncclReduceScatter);
#undef PLINTH_NCCL_REQUIRED
#undef PLINTH_NCCL_OPTIONAL
  return f;
}

// The description of a failed check: ncclGetErrorString's text, and ncclGetLastError's (the
// last error on this thread, with NCCL's detail: "Cuda failure 'out of memory'").
std::string error_text(Result result) {
  const auto error = backend::VendorResult<Result>::describe(result);
  std::string text = error.description;
  const Functions& f = functions();
  if (f.ncclGetLastError != nullptr) {
    const char* last = f.ncclGetLastError(nullptr);  // comm: unused by every NCCL so far
    if (last != nullptr && *last != '\0') text += std::string(text.empty() ? "" : "; ") + last;
  }
  return text;
}

}  // namespace

std::string version_string(int code) {
  // NCCL_VERSION(X, Y, Z): X * 1000 + Y * 100 + Z up to 2.8, X * 10000 + Y * 100 + Z after.
  const bool old = code < 10000;
  const int major = old ? code / 1000 : code / 10000;
  const int minor = old ? code % 1000 / 100 : code % 10000 / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

Library open_library(const char* name) {
  Library library;
  auto opened = backend::VendorLibrary::open(name, library.description);
  if (!opened) return library;
  const Functions functions = resolve_all(opened);
  if (!opened.missing().empty()) {
    library.description = std::string(name) + " has no " + opened.missing() + ": it is not NCCL";
    return library;
  }
  int version = 0;
  if (const Result result = functions.ncclGetVersion(&version); result != Result::success) {
    const auto code = static_cast<unsigned>(result);
    library.description = std::string(name) + ": ncclGetVersion failed (" +
                          (code < result_names.size() ? result_names[code] : "unknown result") +
                          ")";
    return library;
  }
  if (version < minimum_version) {
    library.description = std::string(name) + " is NCCL " + version_string(version) +
                          "; plinth needs NCCL " + version_string(minimum_version) + " or later";
    return library;
  }
  opened.keep();  // communicators and their threads live as long as the process may
  library.available = true;
  library.description = "NCCL " + version_string(version);
  library.version = version;
  library.functions = functions;
  return library;
}

const Library& library() {
  static std::once_flag once;
  static Library loaded;
  std::call_once(once, [] { loaded = open_library("libnccl.so.2"); });
  return loaded;
}

void check(Result result, const backend::VendorCall& call) {
  if (result == Result::success) [[likely]]
    return;
  auto error = backend::VendorResult<Result>::describe(result);
  const std::string text = error_text(result);
  error.description = text.c_str();
  backend::throw_vendor_error("NCCL", call, static_cast<std::int64_t>(result), error);
}

bool check_in_destructor(Result result, const backend::VendorCall& call) noexcept {
  return backend::check_in_destructor(result, call);
}

}  // namespace plinth::cuda::nccl

namespace plinth::backend {

VendorError VendorResult<cuda::nccl::Result>::describe(cuda::nccl::Result result) noexcept {
  const auto code = static_cast<unsigned>(result);
  const auto& f = cuda::nccl::library().functions;
  VendorError error;
  error.name = code < cuda::nccl::result_names.size() ? cuda::nccl::result_names[code]
                                                      : "ncclResult_t (unknown)";
  error.description = f.ncclGetErrorString != nullptr ? f.ncclGetErrorString(result) : "";
  return error;
}

}  // namespace plinth::backend
