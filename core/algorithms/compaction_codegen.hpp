#pragma once

// The pure parts of stream compaction (compaction.hpp), with no device: how an element is
// tested for "nonzero" from its bits, and the source of the program that counts, offsets and
// scatters the selected elements (or their indices), gathers rows along an axis and unravels
// flat indices.

#include <plinth/dtype.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace plinth::detail {

/// How an element's bits say whether it is nonzero.
enum class NonzeroTest : std::uint8_t {
  word,     ///< any bit set (integers, bool)
  real,     ///< any bit but the sign set (floats: -0.0 is zero, NaN is not)
  complex,  ///< either half has a bit but its sign set
};

/// How the elements of `dtype` are tested, read as unsigned words of their size. Throws
/// LogicError for a struct dtype (no meaning of zero).
NonzeroTest nonzero_test(const DType& dtype);

/// What one compaction program is built for.
struct CompactionRecipe {
  /// The flags' element size in bytes (1, 2, 4, 8 or 16) and test.
  std::size_t flag_itemsize = 1;
  NonzeroTest flag_test = NonzeroTest::word;
  /// The selected values' element size in bytes (any); 0: write flat indices (int64).
  std::size_t value_itemsize = 0;
  /// Work items per group at most (the size of the kernels' local arrays).
  std::size_t local_size = 256;
};

/// Elements each work item takes per round of the scatter (a tile is local size x this).
inline constexpr std::size_t compaction_items_per_work_item = 4;

/// The kernel functions, in the program built from compaction_source.
inline constexpr const char* compaction_count_function = "_cp_count";
inline constexpr const char* compaction_offsets_function = "_cp_offsets";
inline constexpr const char* compaction_scatter_function = "_cp_scatter";
inline constexpr const char* compaction_gather_function = "_cp_gather";
inline constexpr const char* compaction_unravel_function = "_cp_unravel";

/// The program of `recipe`:
/// - `_cp_count(f, f_off, n, chunk, counts)`: group g counts the nonzero flags of elements
///   [g * chunk, (g + 1) * chunk) into counts[g];
/// - `_cp_offsets(counts, groups)` (one group): counts[0..groups) become their exclusive
///   prefix sums in place, counts[groups] the total;
/// - `_cp_scatter(f, f_off, n, chunk, offsets, out, out_off, v, v_off)`: group g writes the
///   values v[k] (or the indices k) of its elements with a nonzero flag, in order, from
///   out[offsets[g]] on;
/// - `_cp_gather(out, out_off, v, v_off, idx, idx_off, total, k, inner, extent)`:
///   out[(o * k + j) * inner + r] = v[(o * extent + idx[j]) * inner + r];
/// - `_cp_unravel(out, out_off, flat, count, stride, extent)`: out[i] = flat[i] / stride %
///   extent.
/// Throws LogicError for a flag size other than 1, 2, 4, 8 and 16.
std::string compaction_source(const CompactionRecipe& recipe);

}  // namespace plinth::detail
