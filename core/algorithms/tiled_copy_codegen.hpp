#pragma once

// The pure parts of the tiled copy (tiled_copy.hpp), with no device: whether a copy between
// two layouts goes through a local-memory tile and over which dimensions (plan_tiled_copy),
// the word an element is moved as (tiled_copy_word), and the kernel's source for a recipe
// (tiled_copy_source). Exported for the unit tests (tests/core/algorithms/).

#include <plinth/export.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

/// Edge of the square tile, in elements: a group moves tile_edge x tile_edge elements at a
/// time, reading rows of tile_edge along the source's fastest dimension and writing rows of
/// tile_edge along the destination's.
inline constexpr std::size_t tile_edge = 32;

/// Dimensions besides the two tiled ones (after merging) the kernel walks at most: a layout
/// with more takes the elementwise path.
inline constexpr std::size_t max_tiled_batch_rank = 6;

/// One dimension of a planned copy: its extent and the strides (in elements) of the
/// destination and the source along it.
struct TiledDim {
  std::size_t extent = 0;
  std::int64_t dest_stride = 0;
  std::int64_t src_stride = 0;
  bool operator==(const TiledDim&) const = default;
};

/// How a copy runs through the tile.
struct TiledCopyPlan {
  /// The destination's fastest dimension (smallest |stride|): written coalesced.
  TiledDim dest_fast;
  /// The source's fastest dimension (smallest nonzero |stride|): read coalesced.
  TiledDim src_fast;
  /// The other dimensions, outermost (largest destination |stride|) first.
  std::vector<TiledDim> batch;
};

/// The plan for copying `shape` from a source with element strides `src_strides` into a
/// destination with `dest_strides` (one per dimension each): dimensions of extent 1 are
/// dropped, the rest ordered by the destination's |stride| (largest first), and neighbours
/// contiguous in both operands merged. Gives a plan when the destination's fastest dimension
/// is not the source's (a source that is broadcast (stride 0) in every remaining dimension
/// has no fastest one); nothing when they are the same (the elementwise copy is coalesced on
/// both sides then), when there is nothing to copy, or when more than max_tiled_batch_rank
/// other dimensions remain. Throws nothing but std::bad_alloc.
PLINTH_EXPORT std::optional<TiledCopyPlan> plan_tiled_copy(
    std::span<const std::size_t> shape, std::span<const std::int64_t> dest_strides,
    std::span<const std::int64_t> src_strides);

/// The word size (1, 2, 4, 8 or 16 bytes) an element of `itemsize` bytes is moved in: the
/// largest that divides the itemsize and every byte offset in `offsets` (the operands' first
/// element offsets from their allocations, which are aligned to at least 16 bytes). Throws
/// nothing.
PLINTH_EXPORT std::size_t tiled_copy_word(std::size_t itemsize,
                                          std::span<const std::size_t> offsets) noexcept;

/// A dtype conversion made on the way through the tile (astype of a view).
struct TiledConversion {
  /// The C types of a source and of a destination element.
  std::string src_type;
  std::string dest_type;
  /// The converted value: a C expression of `_tc_v`, the source element.
  std::string expression;
  /// Helper functions the expression calls.
  std::string preamble;
  bool operator==(const TiledConversion&) const = default;
};

/// What a tiled copy program is built from: all a launch needs besides its arguments.
struct TiledCopyRecipe {
  /// Bytes of a source element (any size). Without a conversion, elements are moved as
  /// itemsize / word words of `word` bytes; with one, `word` is the itemsize.
  std::size_t itemsize = 0;
  std::size_t word = 0;
  /// Dimensions the kernel walks besides the tiled two.
  std::size_t batch_rank = 0;
  /// Rows of tile_edge work items per group (1, 2, 4, 8 or ... dividing tile_edge): a
  /// compile-time constant, so each work item's loop over the tile's rows unrolls.
  std::size_t rows = 8;
  std::optional<TiledConversion> conversion;
  bool operator==(const TiledCopyRecipe&) const = default;
};

/// Rows of work items per group for a device whose groups hold at most `max_total_local_size`
/// work items in all and `max_local_size` along dimension 0 (0: no limit besides the total):
/// the largest power of two that gives at most 256 work items and divides tile_edge, or 0
/// when not even one row of tile_edge fits. Throws nothing.
PLINTH_EXPORT std::size_t tiled_copy_rows(std::size_t max_total_local_size,
                                          std::size_t max_local_size) noexcept;

/// The name of the kernel function in tiled_copy_source: `_tc_copy`.
inline constexpr std::string_view tiled_copy_function = "_tc_copy";

/// The source of the tiled copy kernel for `recipe` (a plain source, no template
/// placeholders):
///
///     KERNEL void _tc_copy(GLOBAL_MEM E *dst, long dst_base, GLOBAL_MEM const E *src,
///                          long src_base, unsigned long n_a, unsigned long n_b,
///                          long dst_a, long dst_b, long src_a, long src_b,
///                          unsigned long tiles_a, unsigned long tiles_b, unsigned long tiles,
///                          per batch dimension k (innermost first): unsigned long n<k>,
///                          long dst<k>, long src<k>)
///
/// where E is the element type (the word, or a struct of words; with a conversion, the
/// destination is of the destination's type and the source of the source's, and each element
/// is stored as the conversion's expression), `a` the destination's fastest
/// dimension and `b` the source's, bases and strides in elements. Each group walks tiles
/// (tile index = a tile + tiles_a * (b tile + tiles_b * batch index)) in a group-stride loop;
/// its local size is tile_edge * recipe.rows. Throws LogicError for a recipe with a word
/// that does not divide the itemsize, a batch rank over max_tiled_batch_rank, or a number of
/// rows that does not divide tile_edge.
PLINTH_EXPORT std::string tiled_copy_source(const TiledCopyRecipe& recipe);

}  // namespace plinth::detail
