#pragma once

// cuBLAS, loaded at run time, as NCCL is (nccl.hpp): the plugin never links libcublas. The
// first use opens libcublas.so.13, else libcublas.so.12, and resolves the functions the
// backend calls (blas.hpp) into a table; where neither opens, the core runs its own kernels.
//
// The declarations below are plinth's own (cublas_api.h is not included: the plugin must
// build where only the driver API and NVRTC are installed), taken from cuBLAS's C API, which
// has kept these types and signatures since CUDA 11;
// tests/backends/cuda/cublas_declarations_test.cpp checks them against cublas_api.h.

#include <plinth/backend/check.hpp>

#include <cuda.h>

#include <cstddef>
#include <string>

namespace plinth::cuda::cublas {

// ---- cublas_api.h's types, with its values --------------------------------------------------

/// cublasStatus_t.
enum class Status : int {
  success = 0,
  not_initialized = 1,
  alloc_failed = 3,
  invalid_value = 7,
  arch_mismatch = 8,
  mapping_error = 11,
  execution_failed = 13,
  internal_error = 14,
  not_supported = 15,
  license_error = 16,
};

/// cublasOperation_t.
enum class Operation : int { none = 0, transpose = 1, conjugate_transpose = 2 };

/// cublasMath_t (the two modes plinth sets).
enum class Math : int { default_math = 0, tf32_tensor_op = 3 };

/// libraryPropertyType, for cublasGetProperty.
enum class Property : int { major_version = 0, minor_version = 1, patch_level = 2 };

/// cuComplex and cuDoubleComplex: float2 and double2.
struct alignas(8) Complex64 {
  float x, y;
};
struct alignas(16) Complex128 {
  double x, y;
};

/// The opaque handle behind cublasHandle_t.
struct Context;

// ---- the functions ----------------------------------------------------------------------------

/// One element type's GEMM, strided batched GEMM and GEMV, as cuBLAS declares them.
template <class T>
struct Typed {
  Status (*gemm)(Context* handle, Operation transa, Operation transb, int m, int n, int k,
                 const T* alpha, const T* a, int lda, const T* b, int ldb, const T* beta, T* c,
                 int ldc) = nullptr;
  Status (*gemm_strided_batched)(Context* handle, Operation transa, Operation transb, int m, int n,
                                 int k, const T* alpha, const T* a, int lda, long long stride_a,
                                 const T* b, int ldb, long long stride_b, const T* beta, T* c,
                                 int ldc, long long stride_c, int batch_count) = nullptr;
  Status (*gemv)(Context* handle, Operation trans, int m, int n, const T* alpha, const T* a,
                 int lda, const T* x, int incx, const T* beta, T* y, int incy) = nullptr;
};

/// The cuBLAS functions the backend calls, named as cublas_api.h names them where one function
/// has one name; the typed ones by element type (S, D, C, Z).
struct Functions {
  Status (*cublasGetProperty)(Property type, int* value) = nullptr;
  const char* (*cublasGetStatusName)(Status status) = nullptr;
  const char* (*cublasGetStatusString)(Status status) = nullptr;
  Status (*cublasCreate_v2)(Context** handle) = nullptr;
  Status (*cublasDestroy_v2)(Context* handle) = nullptr;
  Status (*cublasSetStream_v2)(Context* handle, CUstream stream) = nullptr;
  Status (*cublasSetWorkspace_v2)(Context* handle, void* workspace, std::size_t bytes) = nullptr;
  Status (*cublasSetMathMode)(Context* handle, Math mode) = nullptr;
  Typed<float> s;
  Typed<double> d;
  Typed<Complex64> c;
  Typed<Complex128> z;
};

/// A loaded (or unloadable) cuBLAS.
struct Library {
  /// Whether every function was found and the version is 11 or later.
  bool available = false;
  /// When available, "cuBLAS 13.0.2 (libcublas.so.13)"; otherwise why not, in the loader's
  /// words or naming the missing functions.
  std::string description;
  int major = 0;  ///< 0 if unavailable
  Functions functions;
};

/// Opens the library file `name` (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves the functions,
/// every call anew (tests use it with other names; the backend calls library()). Where it is
/// available the library stays loaded for the rest of the process; otherwise it is closed
/// again. Never throws but std::bad_alloc; any thread may call it.
Library open_library(const char* name);

/// open_library("libcublas.so.13"), else open_library("libcublas.so.12") (the description
/// then says why neither), once per process. Any thread may call it.
const Library& library();

/// Throws BackendError ("cuBLAS", the call, the status's name and cuBLAS's text) unless
/// `status` is a success.
void check(Status status, const backend::VendorCall& call);

/// The loaded library's functions (library().functions).
inline const Functions& functions() { return library().functions; }

}  // namespace plinth::cuda::cublas

namespace plinth::backend {

/// cuBLAS statuses, for the SDK's checks: named as cublas_api.h names them.
template <>
struct VendorResult<cuda::cublas::Status> {
  static constexpr const char* api = "cuBLAS";
  static bool ok(cuda::cublas::Status status) noexcept {
    return status == cuda::cublas::Status::success;
  }
  static bool shut_down(cuda::cublas::Status /*status*/) noexcept { return false; }
  static VendorError describe(cuda::cublas::Status status) noexcept;
};

}  // namespace plinth::backend

/// Checks a call through the loaded library's table, written as the direct call would be:
/// CUBLAS_CHECK(cublasSetStream_v2(handle, stream)).
#define CUBLAS_CHECK(call)                                                \
  ::plinth::cuda::cublas::check(::plinth::cuda::cublas::functions().call, \
                                ::plinth::backend::VendorCall(#call))
