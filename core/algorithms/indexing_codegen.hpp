#pragma once

// The pure part of take/put and integer-array indexing (indexing.hpp), with no device: the
// source of the program that gathers elements through index arrays, or scatters them.

#include <plinth/dtype.hpp>
#include <plinth/indexing.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace plinth::detail {

/// What one index program is built for.
struct IndexRecipe {
  /// The element size in bytes (any: copied as words).
  std::size_t itemsize = 4;
  /// The dtype of each index array (integers or bool), in the order of the dimensions they
  /// index.
  std::vector<DType> index_dtypes;
  IndexMode mode = IndexMode::raise;
  /// Scatter (dst[at] = values[o]) rather than gather (out[o] = src[at]).
  bool scatter = false;
  /// No dimensions before or after the indexed ones (the flat position is the index).
  bool simple = false;
  /// Scatter only: as many values as positions (else values[o % nv], numpy.put's cycling).
  bool full_values = true;
};

/// The kernel function of index_source's program.
inline constexpr const char* index_function = "_ix_run";

/// The words of the recipe's VariantWords key, one per field (dtypes by their enum value and
/// size).
std::vector<std::uint64_t> index_variant(const IndexRecipe& recipe);

/// The program of `recipe`: `_ix_run(out, out_off, src, src_off, [idx_j, idx_off_j, n_j,
/// stride_j]..., nb, post, span, total, nv, bad)` runs for every position o < total:
/// r = o % post, b = o / post % nb, the source position at = (o / post / nb) * span + r +
/// sum_j fix_j(idx_j[b]) * stride_j (at = b + sum... when simple), where fix_j applies the
/// mode to an index of a dimension of extent n_j (raise: a negative index counts from the
/// end, one out of range sets bad[2j] = 1 and bad[2j + 1] = the index, and the position is
/// skipped); then gather: out[o] = src[at]; scatter: out[at] = src[full ? o : o % nv].
std::string index_source(const IndexRecipe& recipe);

}  // namespace plinth::detail
