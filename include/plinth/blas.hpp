#pragma once

/// \file
/// Matrix products on Arrays (pygpu.blas, numpy.matmul): gemm, gemv, ger, batched gemm and
/// matmul. The vector inner product is dot() in <plinth/array_reductions.hpp> (pygpu's
/// blas.dot): one home.
///
///     Array c = matmul(queue, a, b);                        // numpy's a @ b
///     gemm(queue, a, b, c, {.alpha = 2.0, .beta = 1.0,     // c = 2 a^T b + c, in place
///                           .trans_a = Transpose::transpose});
///     Array y = gemv(queue, a, x);                          // y = a x
///     ger(queue, x, y, a, {.alpha = -1.0});                 // a -= x y^T
///
/// **Matrices are Arrays** with numpy's meaning of shape: a matrix of shape (m, n) has m
/// rows, whatever its strides. Any strided view is taken as it is (C order, Fortran order,
/// transposed views, slices with steps, negative strides): the kernels read each operand
/// through its two strides, so nothing is copied, except an output that overlaps an input
/// (may_share_memory): the result is then computed into a temporary and copied in.
///
/// **Element types**: float32, float64, complex64 and complex128; the operands and the
/// output of gemm, gemv, ger and gemm_batched have one dtype (LogicError otherwise, naming
/// both). matmul converts its operands to numpy's result_type first. float64 and complex128
/// need a device with doubles. Products are accumulated in the element type, in no fixed
/// order (as every BLAS): results may differ from a sequential sum in the last bits.
///
/// **Scalars**: alpha and beta are std::complex<double> (a real number converts to one),
/// rounded to the element type; a real dtype with an imaginary part is a LogicError. With
/// beta = 0 the output is only written (its old elements, NaN included, are not read), as
/// BLAS defines it.
///
/// **Engines**: the vendor's BLAS library where the backend finds one (cuBLAS on CUDA,
/// CLBlast on OpenCL; blas_support() says which, or why none), opened when the first product
/// runs, with a handle and workspace kept per queue; plinth's generated kernels elsewhere
/// (tiled, with local-memory tiles and register blocking sized from the device's parameters,
/// built once per device and dtype and kept in the Context: clear_kernel_caches()), and for
/// products with an empty inner dimension. `PLINTH_BLAS=library` or `PLINTH_BLAS=plinth`
/// forces one (read at each call; `library` where there is none is a LogicError saying why).
/// The library takes each operand whose matrices it can address in place (one stride 1, the
/// other a leading dimension; batch strides of 0 or more): other views (steps in both
/// dimensions, negative strides, a conjugated column-major operand) are copied first into a
/// new C-order array, and an output it cannot address is computed into a temporary and copied
/// in. The generated kernels read any strided view in place. Every call is asynchronous,
/// ordered on `queue`; the Arrays must stay alive until it has run (Arrays hold their buffers,
/// so a temporary is kept by the launch). Any thread may call these functions, with the queue
/// rules of <plinth/queue.hpp>. Errors: LogicError for the argument problems each function
/// names, CompileError or BackendError from the device or the library, OutOfMemoryError.

#include <plinth/api.hpp>
#include <plinth/array.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>

#include <complex>
#include <optional>
#include <string>

namespace plinth {

/// What a BLAS operation does to a matrix operand before using it (BLAS's 'N', 'T', 'C').
/// `conjugate_transpose` of a real matrix is its transpose.
enum class Transpose { none, transpose, conjugate_transpose };

/// gemm's and gemm_batched's scalars and transposes: C = alpha op(A) op(B) + beta C. A
/// scalar with an imaginary part for a real dtype is a LogicError.
/// Designated initializers name them (`{.alpha = 2.0, .trans_b = Transpose::transpose}`).
struct GemmOptions {
  std::complex<double> alpha = 1.0;     ///< scales op(A) op(B); real only for a real dtype
  std::complex<double> beta = 0.0;      ///< scales C; with 0, C's old contents are not read
  Transpose trans_a = Transpose::none;  ///< op(A)
  Transpose trans_b = Transpose::none;  ///< op(B)
  /// float32 through a library with tensor cores (cuBLAS): the inputs may be rounded to
  /// TF32 (10 bits of mantissa), for speed. Off by default: products are strict FP32, as
  /// numpy's are. The generated kernels ignore it.
  bool tensor_float32 = false;
};

/// gemv's: y = alpha op(A) x + beta y.
struct GemvOptions {
  std::complex<double> alpha = 1.0;   ///< scales op(A) x; real only for a real dtype
  std::complex<double> beta = 0.0;    ///< scales y; with 0, y's old contents are not read
  Transpose trans = Transpose::none;  ///< op(A)
};

/// ger's: A = alpha x y^T + A, or alpha x y^H + A with `conjugate_y` (BLAS's gerc).
struct GerOptions {
  std::complex<double> alpha = 1.0;  ///< scales the outer product; real only for a real dtype
  bool conjugate_y = false;          ///< x y^H (gerc) rather than x y^T; no effect on reals
};

/// C = alpha op(A) op(B) + beta C for matrices (2-D arrays): op(A) is m x k, op(B) k x n and
/// C m x n. Writes into `c` (any view of that shape on the queue's device) and returns it,
/// or returns a new C-order array when `c` is not given (beta must then be 0). Throws
/// LogicError for arrays that are not 2-D, inner dimensions that differ, a `c` of another
/// shape, mixed or unsupported dtypes, an imaginary scalar for a real dtype, arrays on
/// another device, and beta != 0 without `c`.
PLINTH_EXPORT Array gemm(const Queue& queue, const Array& a, const Array& b,
                         const std::optional<Array>& c = std::nullopt,
                         const GemmOptions& options = {});

/// gemm for every matrix of a stack (pygpu's gemmBatch_3d): `a` (batch, ., .), `b`
/// (batch, ., .) and `c` (batch, m, n), C[i] = alpha op(A[i]) op(B[i]) + beta C[i]. The
/// batch may be of any stride (0 included: one matrix used for every product). Throws as
/// gemm, and LogicError for arrays that are not 3-D or batches of different sizes.
PLINTH_EXPORT Array gemm_batched(const Queue& queue, const Array& a, const Array& b,
                                 const std::optional<Array>& c = std::nullopt,
                                 const GemmOptions& options = {});

/// gemm_batched on several devices: each device multiplies its part of the stack. `a`, `b`
/// and `c` are MultiArrays split along axis 0 alike (EqualSplay, say), one part per device
/// of `queues`; a new `c` is split as `a` is. Throws as gemm_batched, and LogicError for
/// MultiArrays not split along axis 0 alike or without a part on a device of `queues`.
PLINTH_EXPORT MultiArray gemm_batched(const MultiQueue& queues, const MultiArray& a,
                                      const MultiArray& b,
                                      const std::optional<MultiArray>& c = std::nullopt,
                                      const GemmOptions& options = {});

/// y = alpha op(A) x + beta y for a matrix `a` (2-D) and vectors (1-D). Writes into `y`
/// when given and returns it, else returns a new array (beta must then be 0). Throws as gemm
/// for the matching problems (not 1-D or 2-D, lengths that differ, ...).
PLINTH_EXPORT Array gemv(const Queue& queue, const Array& a, const Array& x,
                         const std::optional<Array>& y = std::nullopt,
                         const GemvOptions& options = {});

/// A = alpha x y^T + A (y^H with `conjugate_y`) for vectors `x` (m) and `y` (n) and the
/// matrix `a` (m x n), in place; returns `a`. Without `a`, returns the new matrix
/// alpha x y^T. Throws as gemm for the matching problems.
PLINTH_EXPORT Array ger(const Queue& queue, const Array& x, const Array& y,
                        const std::optional<Array>& a = std::nullopt,
                        const GerOptions& options = {});

/// numpy.matmul (`a @ b`): 2-D arrays are matrices; a 1-D `a` is a row and a 1-D `b` a
/// column, their dimension removed from the result; arrays of more dimensions are stacks of
/// matrices in the last two, the stacks broadcast against each other by numpy's rules. Both
/// 1-D: their inner product, shape (). The operands are converted to result_type(a, b)
/// first (one of the four element types above). Writes into `out` (the result's shape and
/// dtype) when given, else a new C-order array. Throws LogicError for 0-D operands, inner
/// dimensions that differ, stacks that do not broadcast, a dtype other than the four, an
/// `out` of another shape or dtype, and arrays on another device.
PLINTH_EXPORT Array matmul(const Queue& queue, const Array& a, const Array& b,
                           const std::optional<Array>& out = std::nullopt);

/// What blas_support() returns.
struct BlasSupport {
  bool library = false;     ///< the library is found: products use it unless PLINTH_BLAS=plinth
  std::string description;  ///< the library and its version, or why there is none
};
/// Whether the products on `api`'s queues can run through a vendor BLAS library, and which
/// ("cuBLAS 13.0.2", "CLBlast 1.5.3"), or why not ("libcublas.so.13: cannot open shared
/// object file..."). The backend opens the library on the first call. Never throws; any
/// thread may call it.
PLINTH_EXPORT BlasSupport blas_support(const API& api);

}  // namespace plinth
