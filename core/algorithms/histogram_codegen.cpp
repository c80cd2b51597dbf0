#include "algorithms/histogram_codegen.hpp"

#include <fmt/format.h>

namespace plinth::detail {

namespace {

/// The statements that set `long b` to element k's bin, or -1.
std::string bin_statements(BinRule rule) {
  switch (rule) {
    case BinRule::even:
      // numpy's _histogram: the index from the offset, the last edge into the last bin, then
      // one step down or up where the edges (as numpy's linspace made them) disagree.
      return "        const _hg_b v = (_hg_b)_x[_x_off + (long)k];\n"
             "        long b = -1;\n"
             "        if (v >= _lo && v <= _hi) {\n"
             "            b = (long)(((v - _lo) / _denom) * (_hg_b)_bins);\n"
             "            if (b >= (long)_bins) b = (long)_bins - 1;\n"
             "            if (v < _edges[b]) b -= 1;\n"
             "            else if (b != (long)_bins - 1 && v >= _edges[b + 1]) b += 1;\n"
             "        }\n";
    case BinRule::edges:
      // The last edge not above v (numpy's searchsorted differences); v at the last edge
      // goes into the last bin.
      return "        const _hg_b v = (_hg_b)_x[_x_off + (long)k];\n"
             "        long b = -1;\n"
             "        if (v >= _lo && v <= _hi) {\n"
             "            unsigned long first = 0, count = _bins + 1;\n"
             "            while (count > 0) {\n"
             "                const unsigned long step = count / 2;\n"
             "                if (!(v < _edges[first + step])) {\n"
             "                    first += step + 1;\n"
             "                    count -= step + 1;\n"
             "                } else {\n"
             "                    count = step;\n"
             "                }\n"
             "            }\n"
             "            b = (long)first - 1;\n"
             "            if (b >= (long)_bins) b = (long)_bins - 1;\n"
             "        }\n";
    case BinRule::integer:
    default:
      return "        long b = (long)_x[_x_off + (long)k];\n"
             "        if (b >= (long)_bins) b = -1;\n";
  }
}

}  // namespace

std::string histogram_source(const HistogramRecipe& recipe) {
  const bool local = recipe.local_bins != 0;
  std::string weighted;
  if (!recipe.weight_type.empty()) {
    weighted = fmt::format(
        "typedef {} _hg_w;\n"
        "KERNEL void _hg_weighted(GLOBAL_MEM const _hg_x *_x, long _x_off, unsigned long _n,\n"
        "                         GLOBAL_MEM double *_out, unsigned long _bins,\n"
        "                         GLOBAL_MEM const _hg_w *_w, long _w_off)\n"
        "{{\n"
        "    for (unsigned long k = get_global_id(0); k < _n; k += get_global_size(0)) {{\n"
        "{}"
        "        if (b >= 0) atomic_add_global_double(_out + b, (double)_w[_w_off + (long)k]);\n"
        "    }}\n"
        "}}\n",
        recipe.weight_type, bin_statements(BinRule::integer));
  }
  return fmt::format(
      R"(// histogram: {rule} bins of {element} elements{where}
typedef {element} _hg_x;
typedef {bin} _hg_b;

KERNEL void _hg_count(GLOBAL_MEM const _hg_x *_x, long _x_off, unsigned long _n,
                      GLOBAL_MEM unsigned int *_partial, unsigned long _bins,
                      GLOBAL_MEM const _hg_b *_edges, _hg_b _lo, _hg_b _hi, _hg_b _denom)
{{
{declare}    const unsigned int lid = (unsigned int)get_local_id(0);
    const unsigned int L = (unsigned int)get_local_size(0);
    GLOBAL_MEM unsigned int *_row = _partial + (unsigned long)get_group_id(0) * _bins;
    for (unsigned long j = lid; j < _bins; j += L) {zero} = 0u;
    {barrier};
    for (unsigned long k = get_global_id(0); k < _n; k += get_global_size(0)) {{
{statements}        if (b >= 0) {add};
    }}
{flush}}}

KERNEL void _hg_merge(GLOBAL_MEM const unsigned int *_partial, unsigned long _rows,
                      unsigned long _bins, GLOBAL_MEM long *_counts)
{{
    for (unsigned long j = get_global_id(0); j < _bins; j += get_global_size(0)) {{
        unsigned long total = 0;
        for (unsigned long r = 0; r < _rows; ++r) total += _partial[r * _bins + j];
        _counts[j] = (long)total;
    }}
}}
{weighted})",
      fmt::arg("rule", recipe.rule == BinRule::even    ? "equal-width"
                       : recipe.rule == BinRule::edges ? "edge-bounded"
                                                       : "integer"),
      fmt::arg("element", recipe.element_type), fmt::arg("bin", recipe.bin_type),
      fmt::arg("where",
               local ? fmt::format(", counted in local memory (at most {} bins)", recipe.local_bins)
                     : std::string(", counted in global memory")),
      fmt::arg("declare",
               local ? fmt::format("    LOCAL_MEM unsigned int _h[{}];\n", recipe.local_bins)
                     : std::string()),
      fmt::arg("zero", local ? "_h[j]" : "_row[j]"),
      fmt::arg("barrier", local ? "LOCAL_BARRIER" : "LOCAL_GLOBAL_BARRIER"),
      fmt::arg("statements", bin_statements(recipe.rule)),
      fmt::arg("add", local ? "atomic_add_local_uint(&_h[b], 1u)"
                            : "atomic_add_global_uint(_row + b, 1u)"),
      fmt::arg("flush", local ? "    LOCAL_BARRIER;\n"
                                "    for (unsigned long j = lid; j < _bins; j += L) _row[j] = "
                                "_h[j];\n"
                              : ""),
      fmt::arg("weighted", weighted));
}

}  // namespace plinth::detail
