// A stand-in libcublas.so.13 for tests/backends/cuda/blas_test.cpp: the functions the backend
// resolves, with the signatures of backends/cuda/cublas.hpp (checked against cublas_api.h by
// cublas_declarations_test), recording every call as a line of text instead of multiplying.
// The test reads the record through fake_cublas_log(). A GEMM with m = 13 fails with
// CUBLAS_STATUS_INVALID_VALUE.

#include "cublas.hpp"

#include <complex>
#include <cstdint>
#include <mutex>
#include <sstream>
#include <string>

using plinth::cuda::cublas::Complex128;
using plinth::cuda::cublas::Complex64;
using plinth::cuda::cublas::Context;
using plinth::cuda::cublas::Math;
using plinth::cuda::cublas::Operation;
using plinth::cuda::cublas::Property;
using plinth::cuda::cublas::Status;

namespace {

std::mutex log_mutex;
std::string log_text;  // one line per call

void record(const std::string& line) {
  const std::lock_guard lock(log_mutex);
  log_text += line + "\n";
}

std::string hex(const void* pointer) {
  std::ostringstream out;
  out << "0x" << std::hex << reinterpret_cast<std::uintptr_t>(pointer);
  return out.str();
}

const char* op(Operation operation) {
  switch (operation) {
    case Operation::none: return "N";
    case Operation::transpose: return "T";
    case Operation::conjugate_transpose: return "C";
  }
  return "?";
}

std::string value(float v) { return std::to_string(v); }
std::string value(double v) { return std::to_string(v); }
std::string value(const Complex64& v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + ")";
}
std::string value(const Complex128& v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + ")";
}

Context* const the_handle = reinterpret_cast<Context*>(std::uintptr_t{0xb1a5});

template <class T>
Status gemm(const char* name, Operation ta, Operation tb, int m, int n, int k, const T* alpha,
            const T* a, int lda, const T* b, int ldb, const T* beta, T* c, int ldc,
            const std::string& batched = "") {
  record(std::string(name) + " " + op(ta) + op(tb) + " m=" + std::to_string(m) +
         " n=" + std::to_string(n) + " k=" + std::to_string(k) + " alpha=" + value(*alpha) + " A=" +
         hex(a) + " lda=" + std::to_string(lda) + " B=" + hex(b) + " ldb=" + std::to_string(ldb) +
         " beta=" + value(*beta) + " C=" + hex(c) + " ldc=" + std::to_string(ldc) + batched);
  return m == 13 ? Status::invalid_value : Status::success;
}

template <class T>
Status gemm_batched(const char* name, Operation ta, Operation tb, int m, int n, int k,
                    const T* alpha, const T* a, int lda, long long sa, const T* b, int ldb,
                    long long sb, const T* beta, T* c, int ldc, long long sc, int count) {
  return gemm(name, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
              " strides=" + std::to_string(sa) + "," + std::to_string(sb) + "," +
                  std::to_string(sc) + " batch=" + std::to_string(count));
}

template <class T>
Status gemv(const char* name, Operation t, int m, int n, const T* alpha, const T* a, int lda,
            const T* x, int incx, const T* beta, T* y, int incy) {
  record(std::string(name) + " " + op(t) + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
         " alpha=" + value(*alpha) + " A=" + hex(a) + " lda=" + std::to_string(lda) +
         " x=" + hex(x) + " incx=" + std::to_string(incx) + " beta=" + value(*beta) +
         " y=" + hex(y) + " incy=" + std::to_string(incy));
  return Status::success;
}

}  // namespace

#define FAKE __attribute__((visibility("default")))
#define FAKE_TYPED(prefix, T)                                                                      \
  FAKE Status cublas##prefix##gemm_v2(Context*, Operation ta, Operation tb, int m, int n, int k,   \
                                      const T* alpha, const T* a, int lda, const T* b, int ldb,    \
                                      const T* beta, T* c, int ldc) {                              \
    return gemm("cublas" #prefix "gemm_v2", ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc); \
  }                                                                                                \
  FAKE Status cublas##prefix##gemmStridedBatched(                                                  \
      Context*, Operation ta, Operation tb, int m, int n, int k, const T* alpha, const T* a,       \
      int lda, long long sa, const T* b, int ldb, long long sb, const T* beta, T* c, int ldc,      \
      long long sc, int count) {                                                                   \
    return gemm_batched("cublas" #prefix "gemmStridedBatched", ta, tb, m, n, k, alpha, a, lda, sa, \
                        b, ldb, sb, beta, c, ldc, sc, count);                                      \
  }                                                                                                \
  FAKE Status cublas##prefix##gemv_v2(Context*, Operation t, int m, int n, const T* alpha,         \
                                      const T* a, int lda, const T* x, int incx, const T* beta,    \
                                      T* y, int incy) {                                            \
    return gemv("cublas" #prefix "gemv_v2", t, m, n, alpha, a, lda, x, incx, beta, y, incy);       \
  }

extern "C" {

FAKE const char* fake_cublas_log() { return log_text.c_str(); }
FAKE void fake_cublas_reset() {
  const std::lock_guard lock(log_mutex);
  log_text.clear();
}

FAKE Status cublasGetProperty(Property property, int* value) {
  *value = property == Property::major_version ? 13 : property == Property::minor_version ? 0 : 7;
  return Status::success;
}
FAKE const char* cublasGetStatusName(Status status) {
  return status == Status::invalid_value ? "CUBLAS_STATUS_INVALID_VALUE" : "CUBLAS_STATUS_?";
}
FAKE const char* cublasGetStatusString(Status) { return "the fake says no"; }
FAKE Status cublasCreate_v2(Context** handle) {
  *handle = the_handle;
  record("cublasCreate_v2");
  return Status::success;
}
FAKE Status cublasDestroy_v2(Context* handle) {
  record("cublasDestroy_v2 " + hex(handle));
  return Status::success;
}
FAKE Status cublasSetStream_v2(Context*, CUstream stream) {
  record("cublasSetStream_v2 " + hex(stream));
  return Status::success;
}
FAKE Status cublasSetWorkspace_v2(Context*, void* workspace, std::size_t bytes) {
  record("cublasSetWorkspace_v2 " + hex(workspace) + " bytes=" + std::to_string(bytes));
  return Status::success;
}
FAKE Status cublasSetMathMode(Context*, Math mode) {
  record(std::string("cublasSetMathMode ") +
         (mode == Math::tf32_tensor_op ? "tf32_tensor_op" : "default"));
  return Status::success;
}

FAKE_TYPED(S, float)
FAKE_TYPED(D, double)
FAKE_TYPED(C, Complex64)
FAKE_TYPED(Z, Complex128)

}  // extern "C"
