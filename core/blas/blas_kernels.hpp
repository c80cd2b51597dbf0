#pragma once

// What runs a checked BLAS operation on a queue: plinth's generated GEMM and GEMV kernels
// (blas_codegen.hpp), with every operand read through its strides. Internal to the core; the
// public functions (blas.cpp, matmul.cpp) check the arguments and make the views first.

#include "blas/blas_codegen.hpp"

#include <plinth/array.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/queue.hpp>

#include <complex>
#include <initializer_list>
#include <optional>

namespace plinth::detail {

/// The kernels' element type of `dtype`, or nothing for another dtype.
std::optional<BlasType> blas_type(const DType& dtype) noexcept;

/// One checked product's scalars and conjugations (the operands are already the views of
/// op(A) and op(B)).
struct ProductTerms {
  std::complex<double> alpha = 1.0;
  std::complex<double> beta = 0.0;
  bool conjugate_a = false;
  bool conjugate_b = false;
  bool tensor_float32 = false;  ///< GemmOptions::tensor_float32 (a library's float32 GEMM)
};

/// A new C-order array to compute `out` into where it cannot be written in place (it
/// overlaps an input, or the kernels cannot address it): `out`'s elements copied where `beta`
/// reads them, uninitialized otherwise. Copy it into `out` afterwards.
Array output_temporary(const Queue& queue, const Array& out, std::complex<double> beta);

/// Runs `product` into `out`, or into a temporary copied into `out` afterwards when `out`
/// may share memory with one of `inputs` (the kernels read the inputs while writing `out`).
template <class Product>
void into_output(const Queue& queue, const Array& out, std::initializer_list<const Array*> inputs,
                 std::complex<double> beta, Product&& product) {
  bool overlaps = false;
  for (const auto* input : inputs) overlaps = overlaps || may_share_memory(out, *input);
  if (!overlaps) {
    product(out);
    return;
  }
  const Array temporary = output_temporary(queue, out, beta);
  product(temporary);
  out.set(queue, temporary);
}

/// C[...] = alpha A[...] B[...] + beta C[...] for arrays of one BLAS dtype and one number of
/// dimensions (at least 2): A (..., m, k), B (..., k, n), C (..., m, n), with one batch shape
/// (the caller has broadcast it; a batch stride may be 0). C must not overlap A or B. Runs
/// through the queue's BLAS library where there is one (vendor_blas.hpp; operands it cannot
/// address are copied first, an output it cannot address replaced by a temporary), else
/// through the generated kernels (operands whose strides are not whole elements copied
/// first); batch dimensions that cannot be merged into one are looped over here. Throws LogicError
/// for a device without doubles where the dtype needs them, CompileError, BackendError.
void stacked_gemm(const Queue& queue, const Array& a, const Array& b, const Array& c,
                  const ProductTerms& terms);

/// y = alpha A x + beta y for A (m, k), x (k) and y (m) of one BLAS dtype (`terms.conjugate_a`
/// conjugates A; conjugate_b is ignored). y must not overlap A or x. Runs as stacked_gemm
/// does; throws as it does.
void strided_gemv(const Queue& queue, const Array& a, const Array& x, const Array& y,
                  const ProductTerms& terms);

}  // namespace plinth::detail
