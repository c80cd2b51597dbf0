#include "blas.hpp"

#include "buffer.hpp"
#include "context.hpp"
#include "driver.hpp"

#include <plinth/errors.hpp>

#include <climits>
#include <complex>
#include <string>
#include <type_traits>

namespace plinth::cuda {

namespace {

cublas::Operation operation(backend::BlasOp op) {
  switch (op) {
    case backend::BlasOp::none: return cublas::Operation::none;
    case backend::BlasOp::transpose: return cublas::Operation::transpose;
    case backend::BlasOp::conjugate_transpose: return cublas::Operation::conjugate_transpose;
  }
  return cublas::Operation::none;
}

/// `value` as cuBLAS's int; LogicError naming `what` beyond it.
int as_int(std::size_t value, const char* what) {
  if (value > static_cast<std::size_t>(INT_MAX)) {
    throw LogicError("cuBLAS takes " + std::string(what) + " up to 2^31 - 1, not " +
                     std::to_string(value) + " (PLINTH_BLAS=plinth runs plinth's kernels)");
  }
  return static_cast<int>(value);
}

/// The device address of `matrix` or `vector`'s first element.
template <class T, class Operand>
T* address(const Operand& operand) {
  return reinterpret_cast<T*>(device_pointer(*operand.buffer) + operand.offset);
}

/// alpha or beta in the element type.
template <class T>
T scalar(std::complex<double> value) {
  if constexpr (std::is_same_v<T, cublas::Complex64>) {
    return {static_cast<float>(value.real()), static_cast<float>(value.imag())};
  } else if constexpr (std::is_same_v<T, cublas::Complex128>) {
    return {value.real(), value.imag()};
  } else {
    return static_cast<T>(value.real());
  }
}

template <class T>
void typed_gemm(const cublas::Typed<T>& f, cublas::Context* handle, const backend::BlasGemm& call) {
  const int m = as_int(call.m, "m"), n = as_int(call.n, "n"), k = as_int(call.k, "k");
  const int lda = as_int(call.a.ld, "lda"), ldb = as_int(call.b.ld, "ldb");
  const int ldc = as_int(call.c.ld, "ldc");
  const T alpha = scalar<T>(call.alpha);
  const T beta = scalar<T>(call.beta);
  const auto* a = address<const T>(call.a);
  const auto* b = address<const T>(call.b);
  auto* c = address<T>(call.c);
  if (call.batch == 1) {
    cublas::check(f.gemm(handle, operation(call.op_a), operation(call.op_b), m, n, k, &alpha, a,
                         lda, b, ldb, &beta, c, ldc),
                  backend::VendorCall("cublas<t>gemm_v2"));
    return;
  }
  cublas::check(f.gemm_strided_batched(handle, operation(call.op_a), operation(call.op_b), m, n, k,
                                       &alpha, a, lda, static_cast<long long>(call.a.batch_stride),
                                       b, ldb, static_cast<long long>(call.b.batch_stride), &beta,
                                       c, ldc, static_cast<long long>(call.c.batch_stride),
                                       as_int(call.batch, "batch")),
                backend::VendorCall("cublas<t>gemmStridedBatched"));
}

template <class T>
void typed_gemv(const cublas::Typed<T>& f, cublas::Context* handle, const backend::BlasGemv& call) {
  const T alpha = scalar<T>(call.alpha);
  const T beta = scalar<T>(call.beta);
  cublas::check(
      f.gemv(handle, operation(call.op_a), as_int(call.m, "m"), as_int(call.n, "n"), &alpha,
             address<const T>(call.a), as_int(call.a.ld, "lda"), address<const T>(call.x),
             as_int(call.x.inc, "incx"), &beta, address<T>(call.y), as_int(call.y.inc, "incy")),
      backend::VendorCall("cublas<t>gemv_v2"));
}

/// Calls `call` with the table of `type`'s functions (S, D, C or Z).
template <class Call>
void with_typed(const cublas::Functions& f, backend::BlasType type, Call&& call) {
  switch (type) {
    case backend::BlasType::float32: return call(f.s);
    case backend::BlasType::float64: return call(f.d);
    case backend::BlasType::complex64: return call(f.c);
    case backend::BlasType::complex128: return call(f.z);
  }
}

}  // namespace

std::size_t Blas::workspace_for(int cc_major) noexcept {
  return cc_major >= 9 ? std::size_t{32} << 20 : std::size_t{4} << 20;
}

std::unique_ptr<Blas> Blas::create(CUcontext context, CUstream stream,
                                   std::size_t workspace_bytes) {
  const auto& library = cublas::library();
  if (!library.available) throw LogicError("no cuBLAS: " + library.description);
  const ScopedContext scope(context);
  CUdeviceptr workspace = 0;
  CU_CHECK(cuMemAlloc(&workspace, workspace_bytes));
  cublas::Context* handle = nullptr;
  const auto& f = library.functions;
  auto status = f.cublasCreate_v2(&handle);
  if (status == cublas::Status::success) status = f.cublasSetStream_v2(handle, stream);
  if (status == cublas::Status::success) {
    status = f.cublasSetWorkspace_v2(handle, reinterpret_cast<void*>(workspace), workspace_bytes);
  }
  if (status == cublas::Status::success) {
    status = f.cublasSetMathMode(handle, cublas::Math::default_math);
  }
  if (status != cublas::Status::success) {
    if (handle != nullptr) f.cublasDestroy_v2(handle);
    CU_CHECK_IN_DESTRUCTOR(cuMemFree(workspace));
    cublas::check(status, backend::VendorCall("cublasCreate_v2 and its settings"));
  }
  return std::unique_ptr<Blas>(new Blas(context, handle, workspace));
}

Blas::~Blas() {
  const ScopedContext scope(context_, std::nothrow);
  backend::check_in_destructor(cublas::functions().cublasDestroy_v2(handle_),
                               backend::VendorCall("cublasDestroy_v2"));
  // cuMemFree waits for the work on the stream that still uses the workspace.
  CU_CHECK_IN_DESTRUCTOR(cuMemFree(workspace_));
}

void Blas::gemm(const backend::BlasGemm& call) {
  const ScopedContext scope(context_);
  const auto& f = cublas::functions();
  const auto math = call.tensor_float32 && call.type == backend::BlasType::float32
                        ? cublas::Math::tf32_tensor_op
                        : cublas::Math::default_math;
  if (math != math_) {
    CUBLAS_CHECK(cublasSetMathMode(handle_, math));
    math_ = math;
  }
  with_typed(f, call.type, [&](const auto& typed) { typed_gemm(typed, handle_, call); });
}

void Blas::gemv(const backend::BlasGemv& call) {
  const ScopedContext scope(context_);
  const auto& f = cublas::functions();
  with_typed(f, call.type, [&](const auto& typed) { typed_gemv(typed, handle_, call); });
}

}  // namespace plinth::cuda
