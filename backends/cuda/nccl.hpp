#pragma once

// NCCL, loaded at run time. The plugin never links libnccl (ldd shows none): the first use
// opens libnccl.so.2 and resolves the few functions the backend calls into a table, so the
// plugin loads, lists its devices and compiles where NCCL is missing, and the core then runs
// collectives with its own copies and kernels.
//
// The declarations below are plinth's own (nccl.h is not included: it is not always installed
// next to the toolkit), taken from NCCL's C API, which has kept these types and signatures
// since 2.0; tests/backends/cuda/nccl_declarations_test.cpp checks them against nccl.h.
//
//     const auto& library = nccl::library();                     // loads once per process
//     if (!library.available) ... library.description ...
//     NCCL_CHECK(ncclAllReduce(send, recv, count, type, op, comm, stream));

#include <plinth/backend/check.hpp>

#include <cuda.h>

#include <cstddef>
#include <string>

namespace plinth::cuda::nccl {

// ---- nccl.h's types, with its values ----------------------------------------------------

/// ncclResult_t.
enum class Result : unsigned {
  success = 0,
  unhandled_cuda_error = 1,
  system_error = 2,
  internal_error = 3,
  invalid_argument = 4,
  invalid_usage = 5,
  remote_error = 6,  // 2.13 and later
  in_progress = 7,   // 2.14 and later (nonblocking communicators; plinth's block)
};

/// ncclDataType_t (the types plinth uses).
enum class DataType : unsigned {
  int8 = 0,
  uint8 = 1,
  int32 = 2,
  uint32 = 3,
  int64 = 4,
  uint64 = 5,
  float16 = 6,
  float32 = 7,
  float64 = 8,
};

/// ncclRedOp_t (the built-in operations; note max before min).
enum class RedOp : unsigned { sum = 0, prod = 1, max = 2, min = 3, avg = 4 };

/// ncclUniqueId: what ncclGetUniqueId writes and every rank passes to ncclCommInitRank.
struct UniqueId {
  char internal[128];  // NOLINT(modernize-avoid-c-arrays): nccl.h's layout
};

/// The opaque communicator behind ncclComm_t.
struct Comm;

// ---- the functions ------------------------------------------------------------------------

/// The NCCL functions the backend calls, named as nccl.h names them, so that
/// `library().functions.ncclGroupStart()` reads as the direct call would. Optional members
/// (null where the library is older) are marked.
struct Functions {
  Result (*ncclGetVersion)(int* version) = nullptr;
  const char* (*ncclGetErrorString)(Result result) = nullptr;
  const char* (*ncclGetLastError)(Comm* comm) = nullptr;  // optional: 2.13 and later
  Result (*ncclGetUniqueId)(UniqueId* unique_id) = nullptr;
  Result (*ncclCommInitAll)(Comm** comms, int device_count, const int* devices) = nullptr;
  Result (*ncclCommInitRank)(Comm** comm, int rank_count, UniqueId id, int rank) = nullptr;
  Result (*ncclCommFinalize)(Comm* comm) = nullptr;  // optional: 2.14 and later
  Result (*ncclCommDestroy)(Comm* comm) = nullptr;
  Result (*ncclGroupStart)() = nullptr;
  Result (*ncclGroupEnd)() = nullptr;
  Result (*ncclAllReduce)(const void* send, void* recv, std::size_t count, DataType type, RedOp op,
                          Comm* comm, CUstream stream) = nullptr;
  Result (*ncclReduce)(const void* send, void* recv, std::size_t count, DataType type, RedOp op,
                       int root, Comm* comm, CUstream stream) = nullptr;
  Result (*ncclBroadcast)(const void* send, void* recv, std::size_t count, DataType type, int root,
                          Comm* comm, CUstream stream) = nullptr;
  Result (*ncclAllGather)(const void* send, void* recv, std::size_t send_count, DataType type,
                          Comm* comm, CUstream stream) = nullptr;
  Result (*ncclReduceScatter)(const void* send, void* recv, std::size_t recv_count, DataType type,
                              RedOp op, Comm* comm, CUstream stream) = nullptr;
};

/// A loaded (or unloadable) NCCL.
struct Library {
  /// Whether every required function was found and the version is 2.10 or later (the first
  /// with ncclAvg).
  bool available = false;
  /// When available, "NCCL 2.28.9"; otherwise why not, in the loader's words
  /// ("libnccl.so.2: cannot open shared object file: No such file or directory") or naming
  /// the missing functions or the version found.
  std::string description;
  int version = 0;  ///< ncclGetVersion's code (22809 for 2.28.9); 0 if unavailable
  /// Null unless available; where available, an optional function the library lacks.
  Functions functions;
};

/// The oldest NCCL plinth uses: 2.10.0, as ncclGetVersion encodes it.
inline constexpr int minimum_version = 21000;

/// "2.28.9" for ncclGetVersion's 22809 (and "2.8.4" for the old encoding's 2804).
std::string version_string(int code);

/// Opens the library file `name` (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves the functions,
/// every call anew (tests use it with other names; the backend calls library()). Where it
/// is available the library stays loaded for the rest of the process; otherwise it is closed
/// again. Never throws but std::bad_alloc; any thread may call it.
Library open_library(const char* name);

/// open_library("libnccl.so.2"), once per process (later calls return the first call's
/// result). Any thread may call it.
const Library& library();

/// Throws BackendError ("NCCL", the call, the code and its name, ncclGetErrorString's text and
/// ncclGetLastError's where the library has it) unless `result` is a success.
void check(Result result, const backend::VendorCall& call);

/// As check(), in a destructor: never throws; reports a failure on stderr. Returns whether
/// `result` is a success.
bool check_in_destructor(Result result, const backend::VendorCall& call) noexcept;

/// The loaded library's functions (library().functions).
inline const Functions& functions() { return library().functions; }

}  // namespace plinth::cuda::nccl

namespace plinth::backend {

/// NCCL results, for the SDK's checks: named as nccl.h names them ("ncclInvalidUsage").
template <>
struct VendorResult<cuda::nccl::Result> {
  static constexpr const char* api = "NCCL";
  static bool ok(cuda::nccl::Result result) noexcept {
    return result == cuda::nccl::Result::success;
  }
  static bool shut_down(cuda::nccl::Result /*result*/) noexcept { return false; }
  static VendorError describe(cuda::nccl::Result result) noexcept;
};

}  // namespace plinth::backend

/// Checks a call through the loaded library's table, written as the direct call would be:
/// NCCL_CHECK(ncclGroupEnd()). Errors name the call as written.
#define NCCL_CHECK(call)                                              \
  ::plinth::cuda::nccl::check(::plinth::cuda::nccl::functions().call, \
                              ::plinth::backend::VendorCall(#call))

/// NCCL_CHECK in a destructor: never throws.
#define NCCL_CHECK_IN_DESTRUCTOR(call)                                              \
  ::plinth::cuda::nccl::check_in_destructor(::plinth::cuda::nccl::functions().call, \
                                            ::plinth::backend::VendorCall(#call))
