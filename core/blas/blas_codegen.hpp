#pragma once

// The pure parts of plinth's own BLAS kernels, with no device: how a device's GEMM is tiled
// (gemm_tiling), and the sources of the GEMM and GEMV kernels for a recipe. Exported for the
// unit tests (tests/core/blas/).

#include <plinth/export.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace plinth::detail {

/// The element types of the BLAS kernels.
enum class BlasType { float32, float64, complex64, complex128 };

/// The kernels' names.
inline constexpr std::string_view gemm_function = "plinth_gemm";
inline constexpr std::string_view gemv_function = "plinth_gemv";

/// Elements of padding after each row of a local-memory tile (spreads the work items that
/// store one column of a tile read along k over the banks).
inline constexpr std::size_t gemm_tile_pad = 4;

/// How a group computes its tile of C: a tile of `rows` x `cols` elements, stepping through
/// k by `depth`, each work item accumulating `item_rows` x `item_cols` of them in registers
/// (rows `item_rows` apart by rows / item_rows, columns likewise, so that neighbouring work
/// items touch neighbouring elements). Work items per group: (rows / item_rows) x
/// (cols / item_cols).
struct GemmTiling {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::size_t depth = 0;
  std::size_t item_rows = 0;
  std::size_t item_cols = 0;

  std::size_t work_items() const noexcept {
    return item_rows == 0 || item_cols == 0 ? 0 : (rows / item_rows) * (cols / item_cols);
  }
  /// Bytes of local memory the two tiles take for elements of `itemsize` (with the padding
  /// gemm_source adds).
  std::size_t local_bytes(std::size_t itemsize) const noexcept {
    return depth * (rows + gemm_tile_pad + cols + gemm_tile_pad) * itemsize;
  }
  bool operator==(const GemmTiling&) const = default;
};

/// The tiling for elements of `itemsize` bytes on a device of SIMD width `warp_size`
/// (GPUs: 128 x 128 tiles of 8 x 8 per work item for 4-byte elements, smaller ones for larger
/// elements; devices of width 1, the CPUs: 32 x 32 tiles of 4 x 4), made smaller until it
/// fits `max_work_items` per group and `local_bytes` of local memory. A tiling of 0 work
/// items when nothing fits. Throws nothing.
PLINTH_EXPORT GemmTiling gemm_tiling(std::size_t itemsize, std::size_t warp_size,
                                     std::size_t max_work_items, std::size_t local_bytes) noexcept;

/// What one GEMM program is built for. The operands' layouts and conjugations are kernel
/// arguments: one program per dtype and tiling serves every transpose and stride.
struct GemmRecipe {
  BlasType type = BlasType::float32;
  GemmTiling tiling;
};

/// The GEMM kernel's source: C[i] = alpha A[i] B[i] + beta C[i] over a batch of matrices
/// given by base offsets and row, column and batch strides (in elements), beta = 0 writing C
/// without reading it. Its last arguments say how the tiles are read (neighbouring work items
/// along A's rows or along k, along B's columns or along k: the operand's smaller stride) and
/// whether A and B are conjugated. Throws LogicError for a tiling whose items do not divide its
/// tile.
PLINTH_EXPORT std::string gemm_source(const GemmRecipe& recipe);

/// What one GEMV program is built for: `rows` x `lanes` work items per group, each row of
/// the group one element of y, its lanes summing every lanes-th product of that row;
/// neighbouring work items are neighbouring lanes (`lanes_fast`, when A's column stride is
/// the smaller) or neighbouring rows.
struct GemvRecipe {
  BlasType type = BlasType::float32;
  std::size_t rows = 0;
  std::size_t lanes = 0;
  bool lanes_fast = true;
};

/// The GEMV kernel's source: y = alpha A x + beta y with strided A, x and y (A conjugated
/// where its last argument is nonzero). Throws
/// LogicError for a lane count that is not a power of two.
PLINTH_EXPORT std::string gemv_source(const GemvRecipe& recipe);

}  // namespace plinth::detail
