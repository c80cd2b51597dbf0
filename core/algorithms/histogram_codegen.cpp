#include "algorithms/histogram_codegen.hpp"

#include <fmt/format.h>

namespace plinth::detail {

namespace {

/// The body of `_hg_bin`: sets `long b` to the bin of `x`, or -1.
std::string bin_statements(BinRule rule) {
  switch (rule) {
    case BinRule::even:
      // numpy's _histogram: the index from the offset (scaled: numpy divides by the width
      // and multiplies by the bins, which may round the other way, but the steps below
      // settle any difference of one bin), the last edge into the last bin, then one step
      // down or up where the edges (as numpy's linspace made them) disagree.
      return "    const _hg_b v = (_hg_b)x;\n"
             "    long b = -1;\n"
             "    if (v >= _lo && v <= _hi) {\n"
             "        b = (long)((v - _lo) * _scale);\n"
             "        if (b >= (long)_bins) b = (long)_bins - 1;\n"
             "        if (v < _e[b]) b -= 1;\n"
             "        else if (b != (long)_bins - 1 && v >= _e[b + 1]) b += 1;\n"
             "    }\n";
    case BinRule::edges:
      // The last edge not above v (numpy's searchsorted differences); v at the last edge
      // goes into the last bin.
      return "    const _hg_b v = (_hg_b)x;\n"
             "    long b = -1;\n"
             "    if (v >= _lo && v <= _hi) {\n"
             "        unsigned long first = 0, count = _bins + 1;\n"
             "        while (count > 0) {\n"
             "            const unsigned long step = count / 2;\n"
             "            if (!(v < _e[first + step])) {\n"
             "                first += step + 1;\n"
             "                count -= step + 1;\n"
             "            } else {\n"
             "                count = step;\n"
             "            }\n"
             "        }\n"
             "        b = (long)first - 1;\n"
             "        if (b >= (long)_bins) b = (long)_bins - 1;\n"
             "    }\n";
    case BinRule::integer:
    default:
      return "    long b = (long)x;\n"
             "    if (b >= (long)_bins) b = -1;\n";
  }
}

/// OpenCL's vector type of 4 `element`s ("float4", "uchar4"...).
std::string vector4(const std::string& element) {
  std::string name = element;
  if (name.rfind("unsigned ", 0) == 0) name = "u" + name.substr(9);
  return name + "4";
}

}  // namespace

std::string histogram_source(const HistogramRecipe& recipe) {
  const bool local = recipe.local_bins != 0;
  // Equal-width bins read their edges from local memory where the counts are there too.
  const bool local_edges = local && recipe.rule == BinRule::even;
  std::string weighted;
  if (!recipe.weight_type.empty()) {
    weighted = fmt::format(
        "typedef {} _hg_w;\n"
        "KERNEL void _hg_weighted(GLOBAL_MEM const _hg_x *_x, long _x_off, unsigned long _n,\n"
        "                         GLOBAL_MEM double *_out, unsigned long _bins,\n"
        "                         GLOBAL_MEM const _hg_w *_w, long _w_off)\n"
        "{{\n"
        "    for (unsigned long k = get_global_id(0); k < _n; k += get_global_size(0)) {{\n"
        "        const long b = _hg_bin(_x[_x_off + (long)k], 0, _bins, 0, 0, 0);\n"
        "        if (b >= 0) atomic_add_global_double(_out + b, (double)_w[_w_off + (long)k]);\n"
        "    }}\n"
        "}}\n",
        recipe.weight_type);
  }
  const std::string count_one =
      local ? "{ const long b = _hg_bin(X, _edges_here, _bins, _lo, _hi, _scale); "
              "if (b >= 0) atomic_add_local_uint(&_h[b], 1u); }"
            : "{ const long b = _hg_bin(X, _edges_here, _bins, _lo, _hi, _scale); "
              "if (b >= 0) atomic_add_global_uint(_row + b, 1u); }";
  const auto count = [&](const std::string& x) {
    std::string text = count_one;
    text.replace(text.find('X'), 1, x);
    return text;
  };
  return fmt::format(
      R"(// histogram: {rule} bins of {element} elements{where}
typedef {element} _hg_x;
typedef {vector} _hg_x4;
typedef {bin} _hg_b;
#define _HG_EDGES {edges_space} const _hg_b *

FUNCTION INLINE long _hg_bin(_hg_x x, _HG_EDGES _e, unsigned long _bins, _hg_b _lo, _hg_b _hi,
                             _hg_b _scale)
{{
{statements}    return b;
}}

KERNEL void _hg_count(GLOBAL_MEM const _hg_x *_x, long _x_off, unsigned long _n,
                      GLOBAL_MEM unsigned int *_partial, unsigned long _bins,
                      GLOBAL_MEM const _hg_b *_edges, _hg_b _lo, _hg_b _hi, _hg_b _scale)
{{
{declare}    const unsigned int lid = (unsigned int)get_local_id(0);
    const unsigned int L = (unsigned int)get_local_size(0);
    GLOBAL_MEM unsigned int *_row = _partial + (unsigned long)get_group_id(0) * _bins;
    for (unsigned long j = lid; j < _bins; j += L) {zero} = 0u;
{copy_edges}    {barrier};
    GLOBAL_MEM const _hg_x *_xs = _x + _x_off;
    const unsigned long _n4 = _n / 4u;
    for (unsigned long q = get_global_id(0); q < _n4; q += get_global_size(0)) {{
        const _hg_x4 v = vload4(q, _xs);
        {count_x}
        {count_y}
        {count_z}
        {count_w}
    }}
    for (unsigned long k = 4u * _n4 + get_global_id(0); k < _n; k += get_global_size(0))
        {count_k}
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
      fmt::arg("element", recipe.element_type), fmt::arg("vector", vector4(recipe.element_type)),
      fmt::arg("bin", recipe.bin_type),
      fmt::arg("where",
               local ? fmt::format(", counted in local memory (at most {} bins)", recipe.local_bins)
                     : std::string(", counted in global memory")),
      fmt::arg("edges_space", local_edges ? "LOCAL_MEM_ARG" : "GLOBAL_MEM"),
      fmt::arg("declare",
               local ? fmt::format("    LOCAL_MEM unsigned int _h[{0}];\n{1}", recipe.local_bins,
                                   local_edges ? fmt::format("    LOCAL_MEM _hg_b _le[{}];\n",
                                                             recipe.local_bins + 1)
                                               : std::string())
                     : std::string()),
      fmt::arg("zero", local ? "_h[j]" : "_row[j]"),
      fmt::arg("copy_edges", local_edges
                                 ? "    for (unsigned long j = lid; j <= _bins; j += L) _le[j] = "
                                   "_edges[j];\n"
                                   "    LOCAL_MEM_ARG const _hg_b *_edges_here = _le;\n"
                                 : "    GLOBAL_MEM const _hg_b *_edges_here = _edges;\n"),
      fmt::arg("barrier", local ? "LOCAL_BARRIER" : "LOCAL_GLOBAL_BARRIER"),
      fmt::arg("statements", bin_statements(recipe.rule)), fmt::arg("count_x", count("v.x")),
      fmt::arg("count_y", count("v.y")), fmt::arg("count_z", count("v.z")),
      fmt::arg("count_w", count("v.w")), fmt::arg("count_k", count("_xs[k]")),
      fmt::arg("flush", local ? "    LOCAL_BARRIER;\n"
                                "    for (unsigned long j = lid; j < _bins; j += L) _row[j] = "
                                "_h[j];\n"
                              : ""),
      fmt::arg("weighted", weighted));
}

}  // namespace plinth::detail
