#include "clblast.hpp"

#include "error.hpp"

#include <plinth/backend/vendor_library.hpp>

#include <mutex>

namespace plinth::opencl::clblast {

namespace {

// The functions of an opened library (the names of those it lacks in opened.missing()).
Functions resolve_all(backend::VendorLibrary& opened) {
  Functions f;
#define PLINTH_CLBLAST_TYPED(prefix, letter)                                             \
  opened.resolve(f.letter.gemm, "CLBlast" #prefix "gemm");                               \
  opened.resolve(f.letter.gemm_strided_batched, "CLBlast" #prefix "gemmStridedBatched"); \
  opened.resolve(f.letter.gemv, "CLBlast" #prefix "gemv")
  PLINTH_CLBLAST_TYPED(S, s);
  PLINTH_CLBLAST_TYPED(D, d);
  PLINTH_CLBLAST_TYPED(C, c);
  PLINTH_CLBLAST_TYPED(Z, z);
#undef PLINTH_CLBLAST_TYPED
  return f;
}

struct StatusName {
  Status status;
  const char* name;
};

// clblast_c.h's names of CLBlast's own codes.
constexpr StatusName clblast_names[] = {{-1024, "CLBlastNotImplemented"},
                                        {-1022, "CLBlastInvalidMatrixA"},
                                        {-1021, "CLBlastInvalidMatrixB"},
                                        {-1020, "CLBlastInvalidMatrixC"},
                                        {-1019, "CLBlastInvalidVectorX"},
                                        {-1018, "CLBlastInvalidVectorY"},
                                        {-1017, "CLBlastInvalidDimension"},
                                        {-1016, "CLBlastInvalidLeadDimA"},
                                        {-1015, "CLBlastInvalidLeadDimB"},
                                        {-1014, "CLBlastInvalidLeadDimC"},
                                        {-1013, "CLBlastInvalidIncrementX"},
                                        {-1012, "CLBlastInvalidIncrementY"},
                                        {-1011, "CLBlastInsufficientMemoryA"},
                                        {-1010, "CLBlastInsufficientMemoryB"},
                                        {-1009, "CLBlastInsufficientMemoryC"},
                                        {-1008, "CLBlastInsufficientMemoryX"},
                                        {-1007, "CLBlastInsufficientMemoryY"},
                                        {-2050, "CLBlastInsufficientMemoryTemp"},
                                        {-2049, "CLBlastInvalidBatchCount"},
                                        {-2048, "CLBlastInvalidOverrideKernel"},
                                        {-2047, "CLBlastMissingOverrideParameter"},
                                        {-2046, "CLBlastInvalidLocalMemUsage"},
                                        {-2045, "CLBlastNoHalfPrecision"},
                                        {-2044, "CLBlastNoDoublePrecision"},
                                        {-2043, "CLBlastInvalidVectorScalar"},
                                        {-2042, "CLBlastInsufficientMemoryScalar"},
                                        {-2041, "CLBlastDatabaseError"},
                                        {-2040, "CLBlastUnknownError"},
                                        {-2039, "CLBlastUnexpectedError"}};

}  // namespace

Library open_library(const char* name) {
  Library library;
  auto opened = backend::VendorLibrary::open(name, library.description);
  if (!opened) return library;
  const Functions functions = resolve_all(opened);
  if (!opened.missing().empty()) {
    library.description =
        std::string(name) + " has no " + opened.missing() + ": it is not CLBlast 1.5+";
    return library;
  }
  opened.keep();  // CLBlast keeps its compiled kernels for the process
  library.available = true;
  library.description = std::string("CLBlast (") + name + ")";
  library.functions = functions;
  return library;
}

const Library& library() {
  static std::once_flag once;
  static Library loaded;
  std::call_once(once, [] { loaded = open_library("libclblast.so.1"); });
  return loaded;
}

const char* status_name(Status status) noexcept {
  for (const auto& entry : clblast_names) {
    if (entry.status == status) return entry.name;
  }
  return code_name(status);
}

void check(Status status, backend::VendorCall call) {
  if (status == 0) [[likely]]
    return;
  backend::VendorError error;
  error.name = status_name(status);
  error.out_of_memory = status == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
                        status == CL_OUT_OF_HOST_MEMORY || status == CL_OUT_OF_RESOURCES;
  backend::throw_vendor_error("CLBlast", call, status, error);
}

}  // namespace plinth::opencl::clblast
