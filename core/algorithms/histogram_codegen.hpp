#pragma once

// The pure parts of histogram and bincount (histogram.hpp), with no device: the source of
// the program that counts elements into bins (per-group histograms in local memory, or in
// the group's row of a global array where the bins do not fit) and merges the groups'
// counts, and of bincount's weighted sums.

#include <cstddef>
#include <cstdint>
#include <string>

namespace plinth::detail {

/// How an element's bin is found.
enum class BinRule : std::uint8_t {
  even,     ///< equal-width bins: numpy's computed index, corrected against the edges
  edges,    ///< explicit monotonic edges: a binary search
  integer,  ///< the element is its bin (bincount)
};

/// What one histogram program is built for.
struct HistogramRecipe {
  BinRule rule = BinRule::even;
  /// The C type elements are read as ("float", "int", "unsigned char"...).
  std::string element_type = "float";
  /// The C type the bin is computed in ("float" or "double"; unused by BinRule::integer).
  std::string bin_type = "float";
  /// Bins a group counts in local memory at most (a power of two); 0: the group counts in
  /// its row of the partial counts with global atomics.
  std::size_t local_bins = 0;
  /// Work items per group at most.
  std::size_t local_size = 256;
  /// The C type of bincount's weights, converted to double; empty: no weighted kernel.
  std::string weight_type;
};

/// The kernel functions, in the program built from histogram_source.
inline constexpr const char* histogram_count_function = "_hg_count";
inline constexpr const char* histogram_merge_function = "_hg_merge";
inline constexpr const char* histogram_weighted_function = "_hg_weighted";

/// The program of `recipe`:
/// - `_hg_count(x, x_off, n, partial, bins, edges, lo, hi, scale)`: group g counts its
///   share of the n elements (read 4 at a time, vload4) into partial[g * bins ...] (32-bit
///   counts); equal-width bins find an element's bin from `(x - lo) * scale` (scale = bins /
///   (hi - lo)) and the edges (copied to local memory where the counts are there);
/// - `_hg_merge(partial, rows, bins, counts)`: counts[k] (int64) = the sum over the rows of
///   partial[row * bins + k];
/// - with a weight type, `_hg_weighted(x, x_off, n, out, bins, w, w_off)`: out[x[k]] +=
///   w[k] (double atomics).
/// An element outside [lo, hi] (NaN too) or whose bin is outside [0, bins) is not counted.
std::string histogram_source(const HistogramRecipe& recipe);

}  // namespace plinth::detail
