#include "algorithms/tiled_copy_codegen.hpp"

#include "algorithms/elementwise_codegen.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace plinth::detail {

namespace {

std::int64_t magnitude(std::int64_t stride) { return stride < 0 ? -stride : stride; }

/// Whether `outer` and `inner` (neighbours, `outer` first) step as one dimension in both
/// operands.
bool contiguous(const TiledDim& outer, const TiledDim& inner) {
  const auto extent = static_cast<std::int64_t>(inner.extent);
  return outer.dest_stride == inner.dest_stride * extent &&
         outer.src_stride == inner.src_stride * extent;
}

std::string_view word_type(std::size_t word) {
  switch (word) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    case 8: return "unsigned long";
    default: return "uint4";
  }
}

}  // namespace

std::optional<TiledCopyPlan> plan_tiled_copy(std::span<const std::size_t> shape,
                                             std::span<const std::int64_t> dest_strides,
                                             std::span<const std::int64_t> src_strides) {
  std::vector<TiledDim> dims;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return std::nullopt;
    if (shape[d] != 1) dims.push_back({shape[d], dest_strides[d], src_strides[d]});
  }
  std::stable_sort(dims.begin(), dims.end(), [](const TiledDim& a, const TiledDim& b) {
    return magnitude(a.dest_stride) > magnitude(b.dest_stride);
  });
  std::vector<TiledDim> merged;
  for (const auto& dim : dims) {
    if (!merged.empty() && contiguous(merged.back(), dim)) {
      merged.back() = {merged.back().extent * dim.extent, dim.dest_stride, dim.src_stride};
    } else {
      merged.push_back(dim);
    }
  }
  if (merged.size() < 2) return std::nullopt;
  const std::size_t a = merged.size() - 1;  // the destination's fastest
  std::optional<std::size_t> b;             // the source's fastest (nonzero stride)
  for (std::size_t d = merged.size(); d-- > 0;) {
    const auto stride = magnitude(merged[d].src_stride);
    if (stride != 0 && (!b || stride < magnitude(merged[*b].src_stride))) b = d;
  }
  if (!b || *b == a) return std::nullopt;
  if (merged.size() - 2 > max_tiled_batch_rank) return std::nullopt;
  TiledCopyPlan plan{merged[a], merged[*b], {}};
  for (std::size_t d = 0; d < merged.size(); ++d) {
    if (d != a && d != *b) plan.batch.push_back(merged[d]);
  }
  return plan;
}

std::size_t tiled_copy_word(std::size_t itemsize, std::span<const std::size_t> offsets) noexcept {
  std::size_t word = 16;
  while (word > 1) {
    bool fits = itemsize % word == 0;
    for (const auto offset : offsets) fits = fits && offset % word == 0;
    if (fits) break;
    word /= 2;
  }
  return word;
}

std::size_t tiled_copy_rows(std::size_t max_total_local_size, std::size_t max_local_size) noexcept {
  std::size_t local = std::min<std::size_t>(256, max_total_local_size);
  if (max_local_size != 0) local = std::min(local, max_local_size);
  std::size_t rows = 0;
  for (std::size_t r = 1; r <= tile_edge && r * tile_edge <= local; r *= 2) rows = r;
  return rows;
}

std::string tiled_copy_source(const TiledCopyRecipe& recipe) {
  if (recipe.rows == 0 || tile_edge % recipe.rows != 0) {
    throw LogicError(
        fmt::format("tiled copy: {} rows of work items do not divide a tile", recipe.rows));
  }
  if (recipe.word == 0 || recipe.word > 16 || (recipe.word & (recipe.word - 1)) != 0 ||
      recipe.itemsize == 0 || recipe.itemsize % recipe.word != 0) {
    throw LogicError(fmt::format("tiled copy: a word of {} bytes does not move elements of {}",
                                 recipe.word, recipe.itemsize));
  }
  if (recipe.batch_rank > max_tiled_batch_rank) {
    throw LogicError(fmt::format("tiled copy: {} batch dimensions (at most {})", recipe.batch_rank,
                                 max_tiled_batch_rank));
  }
  const auto words = recipe.itemsize / recipe.word;
  std::string element;
  std::string store = "_tc_tile[lx][y]";
  if (recipe.conversion) {
    const auto& conversion = *recipe.conversion;
    element = fmt::format("{}\ntypedef {} _tc_elem;\ntypedef {} _tc_out;\n", conversion.preamble,
                          conversion.src_type, conversion.dest_type);
    element += fmt::format("FUNCTION INLINE _tc_out _tc_convert(_tc_elem _tc_v) {{ return {}; }}\n",
                           conversion.expression);
    store = "_tc_convert(_tc_tile[lx][y])";
  } else if (words == 1) {
    element = fmt::format("typedef {} _tc_elem;\n", word_type(recipe.word));
  } else {
    element =
        fmt::format("typedef struct {{ {} w[{}]; }} _tc_elem;\n", word_type(recipe.word), words);
  }
  if (!recipe.conversion) element += "typedef _tc_elem _tc_out;\n";
  std::string batch_params, batch_index;
  for (std::size_t k = 0; k < recipe.batch_rank; ++k) {
    batch_params +=
        fmt::format(",\n    unsigned long _tc_n{0}, long _tc_dst{0}, long _tc_src{0}", k);
    batch_index += fmt::format(
        "        {{ const long c = (long)(r % _tc_n{0}); r /= _tc_n{0};\n"
        "          d += c * _tc_dst{0}; s += c * _tc_src{0}; }}\n",
        k);
  }
  // The tile is [a][b] with a pad column, so reading a column (fixed b) in the write phase
  // touches tile_edge different banks.
  return fmt::format(
      "// tiled copy: elements of {itemsize} bytes as {words} x {word}, {rank} batch "
      "dimensions{what}\n"
      "{restrict}"
      "{element}"
      "KERNEL void {name}(\n"
      "    GLOBAL_MEM _tc_out *_elw_restrict _tc_d, long _tc_d_base,\n"
      "    GLOBAL_MEM const _tc_elem *_elw_restrict _tc_s, long _tc_s_base,\n"
      "    unsigned long _tc_na, unsigned long _tc_nb,\n"
      "    long _tc_da, long _tc_db, long _tc_sa, long _tc_sb,\n"
      "    unsigned long _tc_tiles_a, unsigned long _tc_tiles_b, unsigned long _tc_tiles{params})\n"
      "{{\n"
      "    LOCAL_MEM _tc_elem _tc_tile[{edge}][{edge} + 1];\n"
      "    const unsigned int lx = (unsigned int)get_local_id(0) % {edge}u;\n"
      "    const unsigned int ly = (unsigned int)get_local_id(0) / {edge}u;\n"
      "    for (unsigned long t = get_group_id(0); t < _tc_tiles; t += get_num_groups(0)) {{\n"
      "        unsigned long r = t;\n"
      "        const unsigned long a0 = (r % _tc_tiles_a) * {edge}u; r /= _tc_tiles_a;\n"
      "        const unsigned long b0 = (r % _tc_tiles_b) * {edge}u; r /= _tc_tiles_b;\n"
      "        long d = _tc_d_base, s = _tc_s_base;\n"
      "{batch}"
      "        // Read rows along b (the source's fastest dimension).\n"
      "        for (unsigned int y = ly; y < {edge}u; y += {rows}u) {{\n"
      "            const unsigned long a = a0 + y, b = b0 + lx;\n"
      "            if (a < _tc_na && b < _tc_nb)\n"
      "                _tc_tile[y][lx] = _tc_s[s + (long)a * _tc_sa + (long)b * _tc_sb];\n"
      "        }}\n"
      "        LOCAL_BARRIER;\n"
      "        // Write rows along a (the destination's fastest dimension).\n"
      "        for (unsigned int y = ly; y < {edge}u; y += {rows}u) {{\n"
      "            const unsigned long a = a0 + lx, b = b0 + y;\n"
      "            if (a < _tc_na && b < _tc_nb)\n"
      "                _tc_d[d + (long)a * _tc_da + (long)b * _tc_db] = {store};\n"
      "        }}\n"
      "        LOCAL_BARRIER;\n"
      "    }}\n"
      "}}\n",
      fmt::arg("what", recipe.conversion ? ", converted" : ""),
      fmt::arg("itemsize", recipe.itemsize), fmt::arg("words", words),
      fmt::arg("word", recipe.word), fmt::arg("rank", recipe.batch_rank),
      fmt::arg("restrict", restrict_definition), fmt::arg("element", element),
      fmt::arg("name", tiled_copy_function), fmt::arg("params", batch_params),
      fmt::arg("edge", tile_edge), fmt::arg("batch", batch_index), fmt::arg("store", store),
      fmt::arg("rows", recipe.rows));
}

}  // namespace plinth::detail
