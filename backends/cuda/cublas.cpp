#include "cublas.hpp"

#include <plinth/backend/vendor_library.hpp>

#include <mutex>

namespace plinth::cuda::cublas {

namespace {

// The functions of an opened library, and the names of those it lacks.
Functions resolve_all(backend::VendorLibrary& opened) {
  Functions f;
#define PLINTH_CUBLAS(function) opened.resolve(f.function, #function)
#define PLINTH_CUBLAS_TYPED(prefix, letter)                                             \
  opened.resolve(f.letter.gemm, "cublas" #prefix "gemm_v2");                            \
  opened.resolve(f.letter.gemm_strided_batched, "cublas" #prefix "gemmStridedBatched"); \
  opened.resolve(f.letter.gemv, "cublas" #prefix "gemv_v2")
  PLINTH_CUBLAS(cublasGetProperty);
  PLINTH_CUBLAS(cublasGetStatusName);
  PLINTH_CUBLAS(cublasGetStatusString);
  PLINTH_CUBLAS(cublasCreate_v2);
  PLINTH_CUBLAS(cublasDestroy_v2);
  PLINTH_CUBLAS(cublasSetStream_v2);
  PLINTH_CUBLAS(cublasSetWorkspace_v2);
  PLINTH_CUBLAS(cublasSetMathMode);
  PLINTH_CUBLAS_TYPED(S, s);
  PLINTH_CUBLAS_TYPED(D, d);
  PLINTH_CUBLAS_TYPED(C, c);
  PLINTH_CUBLAS_TYPED(Z, z);
#undef PLINTH_CUBLAS
#undef PLINTH_CUBLAS_TYPED
  return f;
}

}  // namespace

Library open_library(const char* name) {
  Library library;
  auto opened = backend::VendorLibrary::open(name, library.description);
  if (!opened) return library;
  const Functions functions = resolve_all(opened);
  if (!opened.missing().empty()) {
    library.description =
        std::string(name) + " has no " + opened.missing() + ": it is not cuBLAS 11+";
    return library;
  }
  int version[3] = {0, 0, 0};
  for (int part = 0; part < 3; ++part) {
    const Status status = functions.cublasGetProperty(static_cast<Property>(part), &version[part]);
    if (status != Status::success) {
      library.description = std::string(name) + ": cublasGetProperty failed (" +
                            functions.cublasGetStatusName(status) + ")";
      return library;
    }
  }
  opened.keep();  // handles made from it live as long as their queues
  library.available = true;
  library.major = version[0];
  library.description = "cuBLAS " + std::to_string(version[0]) + "." + std::to_string(version[1]) +
                        "." + std::to_string(version[2]) + " (" + name + ")";
  library.functions = functions;
  return library;
}

const Library& library() {
  static std::once_flag once;
  static Library loaded;
  std::call_once(once, [] {
    loaded = open_library("libcublas.so.13");
    if (loaded.available) return;
    const std::string first = loaded.description;
    loaded = open_library("libcublas.so.12");
    if (!loaded.available) loaded.description = first + "; and " + loaded.description;
  });
  return loaded;
}

void check(Status status, const backend::VendorCall& call) {
  if (status == Status::success) [[likely]]
    return;
  backend::throw_vendor_error("cuBLAS", call, static_cast<std::int64_t>(status),
                              backend::VendorResult<Status>::describe(status));
}

}  // namespace plinth::cuda::cublas

namespace plinth::backend {

VendorError VendorResult<cuda::cublas::Status>::describe(cuda::cublas::Status status) noexcept {
  const auto& f = cuda::cublas::library().functions;
  VendorError error;
  error.name =
      f.cublasGetStatusName != nullptr ? f.cublasGetStatusName(status) : "cublasStatus_t (unknown)";
  error.description = f.cublasGetStatusString != nullptr ? f.cublasGetStatusString(status) : "";
  error.out_of_memory = status == cuda::cublas::Status::alloc_failed;
  return error;
}

}  // namespace plinth::backend
