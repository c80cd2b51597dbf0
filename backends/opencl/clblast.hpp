#pragma once

// CLBlast, loaded at run time, as the CUDA backend loads cuBLAS: the plugin never links
// libclblast. The first use opens libclblast.so.1 (Debian's libclblast1) and resolves the
// functions the backend calls (blas.hpp) into a table; where it does not open, the core runs
// its own kernels.
//
// The declarations below are plinth's own (clblast_c.h is not included: it is in the -dev
// package, which a user need not have), taken from CLBlast's C API, which has kept these since
// 1.0; tests/backends/opencl/clblast_declarations_test.cpp checks them against clblast_c.h
// where it is installed.

#include <plinth/backend/check.hpp>

#include <CL/cl.h>

#include <cstddef>
#include <string>

namespace plinth::opencl::clblast {

// ---- clblast_c.h's types, with its values ---------------------------------------------------

/// CLBlastStatusCode: OpenCL's codes (CL_SUCCESS is 0) and CLBlast's own (-1024 and below).
using Status = int;

/// CLBlastLayout.
enum class Layout : int { row_major = 101, column_major = 102 };

/// CLBlastTranspose.
enum class Transpose : int { no = 111, yes = 112, conjugate = 113 };

// ---- the functions ----------------------------------------------------------------------------

/// One element type's GEMM, strided batched GEMM and GEMV, as CLBlast declares them (`T` the
/// element type, cl_float2 and cl_double2 for the complex ones, passed by value).
template <class T>
struct Typed {
  Status (*gemm)(Layout layout, Transpose a_transpose, Transpose b_transpose, std::size_t m,
                 std::size_t n, std::size_t k, T alpha, cl_mem a, std::size_t a_offset,
                 std::size_t a_ld, cl_mem b, std::size_t b_offset, std::size_t b_ld, T beta,
                 cl_mem c, std::size_t c_offset, std::size_t c_ld, cl_command_queue* queue,
                 cl_event* event) = nullptr;
  Status (*gemm_strided_batched)(Layout layout, Transpose a_transpose, Transpose b_transpose,
                                 std::size_t m, std::size_t n, std::size_t k, T alpha, cl_mem a,
                                 std::size_t a_offset, std::size_t a_ld, std::size_t a_stride,
                                 cl_mem b, std::size_t b_offset, std::size_t b_ld,
                                 std::size_t b_stride, T beta, cl_mem c, std::size_t c_offset,
                                 std::size_t c_ld, std::size_t c_stride, std::size_t batch_count,
                                 cl_command_queue* queue, cl_event* event) = nullptr;
  Status (*gemv)(Layout layout, Transpose a_transpose, std::size_t m, std::size_t n, T alpha,
                 cl_mem a, std::size_t a_offset, std::size_t a_ld, cl_mem x, std::size_t x_offset,
                 std::size_t x_inc, T beta, cl_mem y, std::size_t y_offset, std::size_t y_inc,
                 cl_command_queue* queue, cl_event* event) = nullptr;
};

/// The CLBlast functions the backend calls, by element type (S, D, C, Z).
struct Functions {
  Typed<cl_float> s;
  Typed<cl_double> d;
  Typed<cl_float2> c;
  Typed<cl_double2> z;
};

/// A loaded (or unloadable) CLBlast.
struct Library {
  /// Whether every function was found (CLBlast 1.5 or later: strided batched GEMM).
  bool available = false;
  /// When available, "CLBlast (libclblast.so.1)"; otherwise why not, in the loader's words or
  /// naming the missing functions.
  std::string description;
  Functions functions;
};

/// Opens the library file `name` (dlopen, RTLD_NOW | RTLD_LOCAL) and resolves the functions,
/// every call anew (tests use it with other names; the backend calls library()). Where it is
/// available the library stays loaded for the rest of the process. Never throws but
/// std::bad_alloc; any thread may call it.
Library open_library(const char* name);

/// open_library("libclblast.so.1"), once per process. Any thread may call it.
const Library& library();

/// "CLBlastInvalidLeadDimA" for -1016, OpenCL's names (code_name()) for OpenCL's codes.
const char* status_name(Status status) noexcept;

/// Throws BackendError ("CLBlast", `call`, the status and its name) unless `status` is 0;
/// OutOfMemoryError for CL_MEM_OBJECT_ALLOCATION_FAILURE and CL_OUT_OF_HOST_MEMORY.
void check(Status status, backend::VendorCall call);

}  // namespace plinth::opencl::clblast
