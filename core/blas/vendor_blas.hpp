#pragma once

// Products through the backend's BLAS library (SDK 1.7, <plinth/backend/blas_library.hpp>):
// which engine a product takes (PLINTH_BLAS, the API's library), and the column-major
// leading-dimension form of plinth's strided operands. Internal to the core; blas_kernels.cpp
// calls it for every product it runs.

#include <plinth/array.hpp>
#include <plinth/backend/blas_library.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace plinth::detail {

struct LoadedApi;

/// The API's BLAS library as the backend describes it (none for plugins before SDK 1.7).
/// Never throws.
backend::BlasLibrary blas_library(const LoadedApi& api) noexcept;

/// The library bound to `queue` (made on first use, kept with the queue) when its products
/// are to run through it: PLINTH_BLAS unset and the API has a library, or PLINTH_BLAS=library.
/// Null for PLINTH_BLAS=plinth or an API without one. Throws LogicError for another
/// PLINTH_BLAS value and for PLINTH_BLAS=library where the API has no library (saying why);
/// BackendError from creating the handle.
backend::BlasAdapter* queue_blas(const Queue& queue);

/// How BLAS sees an r x c matrix whose element (i, j) is `row_stride` i + `col_stride` j
/// elements from its first (conjugated with `conjugate`): as stored column-major (op none,
/// ld = col_stride) or as the transpose of a column-major matrix (op transpose, or
/// conjugate_transpose, with ld = row_stride). A stride of a dimension of extent 1 is free.
struct BlasLayout {
  backend::BlasOp op = backend::BlasOp::none;
  std::size_t ld = 1;
};

/// The layout of such a matrix, or nothing where no leading dimension describes it (negative
/// or overlapping strides, neither stride 1, a conjugated column-major matrix). Never throws.
std::optional<BlasLayout> blas_layout(std::size_t rows, std::size_t cols, std::int64_t row_stride,
                                      std::int64_t col_stride, bool conjugate) noexcept;

/// The SDK's element type of a BLAS dtype (float32, float64, complex64, complex128).
backend::BlasType sdk_blas_type(const DType& dtype);

/// The SDK's description of `buffer` at `elements` elements of `itemsize` bytes in.
backend::BlasMatrix blas_matrix(const Buffer& buffer, std::int64_t elements, std::size_t itemsize,
                                std::size_t ld, std::int64_t batch_stride);

}  // namespace plinth::detail
