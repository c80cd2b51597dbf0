#pragma once

// SDK 1.7: matrix products through a vendor BLAS library (cuBLAS, CLBlast, hipBLAS). Optional:
// a backend without one leaves ApiAdapter::blas_library() at its default, and the core runs
// plinth's own generated kernels.
//
// Every call is column-major, as BLAS is: the core turns row-major and transposed views into
// column-major operands with leading dimensions (and swaps A and B where C is row-major), and
// takes its own kernels for views no leading dimension describes. The core has checked every
// size and offset against the buffers before a call reaches the backend.

#include <plinth/backend/buffer.hpp>

#include <complex>
#include <cstddef>
#include <string>
#include <string_view>

namespace plinth::backend {

/// The element types a BLAS library multiplies: every backend that offers one takes all four.
enum class BlasType { float32, float64, complex64, complex128 };

/// How an operand enters a product: as stored, transposed, or conjugated and transposed
/// (BLAS's 'N', 'T' and 'C').
enum class BlasOp { none, transpose, conjugate_transpose };

/// A column-major matrix in a buffer: stored element (i, j) of batch item b is the element at
/// byte `offset` + (i + j × ld + b × batch_stride) × the element's size.
struct BlasMatrix {
  /// A buffer of the queue's device, possibly a sub-region.
  BufferAdapter* buffer = nullptr;
  std::size_t offset = 0;        ///< bytes, a multiple of the element's size
  std::size_t ld = 1;            ///< elements, at least the stored rows (and at least 1)
  std::size_t batch_stride = 0;  ///< elements; 0 repeats the matrix for every batch item
};

/// C = alpha op(A) op(B) + beta C for `batch` items (cublas<t>gemmStridedBatched's semantics):
/// op(A) is m × k, op(B) k × n, C m × n; m, n, k and batch are at least 1. C's items do not
/// overlap each other or A and B. With beta 0, C is written without being read (it may hold
/// NaN). alpha and beta have no imaginary part for real types.
struct BlasGemm {
  BlasType type = BlasType::float32;  ///< the element type of A, B and C
  BlasOp op_a = BlasOp::none;         ///< how A enters the product
  BlasOp op_b = BlasOp::none;         ///< how B enters the product
  /// @var m
  /// Rows of op(A) and C.
  /// @var n
  /// Columns of op(B) and C.
  /// @var k
  /// Columns of op(A), rows of op(B).
  std::size_t m = 1, n = 1, k = 1;
  std::size_t batch = 1;             ///< products: item b of each operand lies b × batch_stride on
  std::complex<double> alpha = 1.0;  ///< the factor of op(A) op(B)
  std::complex<double> beta = 0.0;   ///< the factor of C; 0: C is not read
  /// @var a
  /// A as stored (its batch_stride possibly 0).
  /// @var b
  /// B as stored (its batch_stride possibly 0).
  /// @var c
  /// C, its batch items apart.
  BlasMatrix a, b, c;
  /// float32 only: the library may round the inputs to TF32 on tensor cores (cuBLAS's
  /// CUBLAS_TF32_TENSOR_OP_MATH). Off, the product is strict FP32, as numpy's is.
  bool tensor_float32 = false;
};

/// A vector in a buffer: element i is the element at byte `offset` + i × inc × its size.
struct BlasVector {
  /// A buffer of the queue's device, possibly a sub-region.
  BufferAdapter* buffer = nullptr;
  std::size_t offset = 0;  ///< bytes, a multiple of the element's size
  std::size_t inc = 1;     ///< elements, at least 1
};

/// y = alpha op(A) x + beta y (BLAS's gemv): A is stored m × n; x has n elements and y m for
/// op_a none, x m and y n otherwise; m and n are at least 1. y does not overlap A or x; with
/// beta 0 it is written without being read.
struct BlasGemv {
  BlasType type = BlasType::float32;  ///< the element type of A, x and y
  BlasOp op_a = BlasOp::none;         ///< how A enters the product
  /// @var m
  /// Rows of A as stored.
  /// @var n
  /// Columns of A as stored.
  std::size_t m = 1, n = 1;
  std::complex<double> alpha = 1.0;  ///< the factor of op(A) x
  std::complex<double> beta = 0.0;   ///< the factor of y; 0: y is not read
  BlasMatrix a;                      ///< A; batch_stride unused
  /// @var x
  /// The vector multiplied.
  /// @var y
  /// The result, read first unless beta is 0.
  BlasVector x, y;
};

/// The library bound to one queue (QueueAdapter::create_blas()): its handle and workspace.
/// Destroyed by the core before the queue. The core calls it from one thread at a time, as it
/// does the queue. The core turns plinth's strided views into column-major operands with
/// leading dimensions (a row-major C by computing C^T = B^T A^T), copies the views no leading
/// dimension describes, and runs its own generated kernels where there is no library, for
/// empty inner dimensions, under PLINTH_BLAS=plinth, and on plugins before 1.7.
class BlasAdapter {
 public:
  virtual ~BlasAdapter() = default;
  /// Enqueues one strided batched GEMM on the queue and returns without waiting for it.
  ///
  /// Buffers are of the queue's device, possibly sub-regions, with byte offsets that are
  /// multiples of the element size; sizes and batch are at least 1, leading dimensions at
  /// least the stored rows, the batch strides of A and B possibly 0, C's items apart; beta 0
  /// means C is not read (it may hold NaN). BlasGemm::tensor_float32 allows TF32 tensor
  /// cores for float32 (cuBLAS: CUBLAS_TF32_TENSOR_OP_MATH for that call; libraries without
  /// such a mode ignore it). Throws BackendError with the library's status and text,
  /// LogicError for a size the library cannot take (cuBLAS: beyond its `int`). Since SDK
  /// 1.7; required of a BLAS adapter.
  virtual void gemm(const BlasGemm& call) = 0;
  /// Enqueues one GEMV on the queue and returns without waiting for it, as gemm() does.
  ///
  /// Throws BackendError with the library's status and text, LogicError for a size the
  /// library cannot take. Since SDK 1.7; required of a BLAS adapter.
  virtual void gemv(const BlasGemv& call) = 0;
};

/// The reason ApiAdapter::blas_library() gives by default (a backend without a library).
inline constexpr std::string_view no_blas_library = "the backend has no BLAS library";

/// What ApiAdapter::blas_library() says about the backend's BLAS library.
struct BlasLibrary {
  bool available = false;  ///< whether the core may run products through the library
  /// When available, the library and its version ("cuBLAS 13.0.0"); otherwise why not, in the
  /// loader's or the library's words ("libcublas.so.13: cannot open shared object file...").
  std::string description;
};

}  // namespace plinth::backend
