#include "blas/blas_codegen.hpp"

#include "algorithms/elementwise_codegen.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace plinth::detail {

namespace {

bool is_complex(BlasType type) {
  return type == BlasType::complex64 || type == BlasType::complex128;
}

/// The element type, its real type, and the arithmetic the kernels use on them: _b_zero(),
/// _b_conj_if(v, conjugate), _B_MAD(acc, a, b) (acc += a b), _B_ADD(acc, a) and
/// _b_scale(acc, re, im, old, beta_re, beta_im) (alpha acc + beta old).
std::string element_definitions(BlasType type) {
  const bool complex = is_complex(type);
  const bool wide = type == BlasType::float64 || type == BlasType::complex128;
  const std::string_view real = wide ? "double" : "float";
  const std::string_view element =
      complex ? (wide ? "plinth_complex128" : "plinth_complex64") : real;
  if (!complex) {
    return fmt::format(
        "typedef {0} _b_t;\n"
        "typedef {1} _b_real;\n"
        "FUNCTION INLINE _b_t _b_zero(void) {{ return (_b_t)0; }}\n"
        "FUNCTION INLINE _b_t _b_conj_if(_b_t v, int conjugate) {{ return v; }}\n"
        "#define _B_MAD(acc, a, b) ((acc) += (a) * (b))\n"
        "#define _B_ADD(acc, a) ((acc) += (a))\n"
        "FUNCTION INLINE _b_t _b_scale(_b_t v, _b_real re, _b_real im, _b_t old, _b_real bre,\n"
        "                              _b_real bim) {{ return re * v + bre * old; }}\n",
        element, real);
  }
  return fmt::format(
      "typedef {0} _b_t;\n"
      "typedef {1} _b_real;\n"
      "FUNCTION INLINE _b_t _b_zero(void) {{ _b_t z; z.x = 0; z.y = 0; return z; }}\n"
      "FUNCTION INLINE _b_t _b_conj_if(_b_t v, int conjugate) {{\n"
      "    if (conjugate) v.y = -v.y;\n"
      "    return v;\n"
      "}}\n"
      "#define _B_MAD(acc, a, b) do {{ \\\n"
      "    (acc).x += (a).x * (b).x - (a).y * (b).y; \\\n"
      "    (acc).y += (a).x * (b).y + (a).y * (b).x; }} while (0)\n"
      "#define _B_ADD(acc, a) do {{ (acc).x += (a).x; (acc).y += (a).y; }} while (0)\n"
      "FUNCTION INLINE _b_t _b_scale(_b_t v, _b_real re, _b_real im, _b_t old, _b_real bre,\n"
      "                              _b_real bim) {{\n"
      "    _b_t r;\n"
      "    r.x = re * v.x - im * v.y + (bre * old.x - bim * old.y);\n"
      "    r.y = re * v.y + im * v.x + (bre * old.y + bim * old.x);\n"
      "    return r;\n"
      "}}\n",
      element, real);
}

std::string_view type_name(BlasType type) {
  switch (type) {
    case BlasType::float32: return "float32";
    case BlasType::float64: return "float64";
    case BlasType::complex64: return "complex64";
    case BlasType::complex128: return "complex128";
  }
  return "?";
}

bool is_power_of_two(std::size_t value) { return value != 0 && (value & (value - 1)) == 0; }

/// The code that moves one operand's tile between global memory, the registers `regs` (the
/// work item's share of the tile, prefetched while the group computes the previous tile) and
/// local memory `tile[kk][x]`: x along the operand's own dimension (`extent` of it in a tile,
/// `limit` in the matrix, `origin` the tile's first), kk along k. Neighbouring work items
/// step along x where the kernel argument `x_fast` is nonzero, along k otherwise; elements
/// are conjugated where `conjugate` is.
struct TileCode {
  std::string declare;  // the registers
  std::string load;     // global memory (k from `k_next`) into the registers
  std::string store;    // the registers into local memory
};

TileCode tile_code(std::string_view name, std::string_view tile, std::string_view source,
                   std::size_t extent, std::size_t depth, std::size_t work_items,
                   std::string_view x_fast, std::string_view conjugate, std::string_view origin,
                   std::string_view limit, std::string_view base, std::string_view x_stride,
                   std::string_view k_stride) {
  const std::size_t count = extent * depth;
  const std::size_t per_item = (count + work_items - 1) / work_items;
  // The element of the tile that register r holds: e = tid + r * work_items.
  const auto position = fmt::format(
      "const unsigned int e = tid + r * {items}u;\n"
      "{indent}const unsigned int x = {x_fast} ? e % {extent}u : e / {depth}u;\n"
      "{indent}const unsigned int kk = {x_fast} ? e / {extent}u : e % {depth}u;\n",
      fmt::arg("items", work_items), fmt::arg("x_fast", x_fast), fmt::arg("extent", extent),
      fmt::arg("depth", depth), fmt::arg("indent", "                "));
  const auto guard = count % work_items == 0 ? std::string() : fmt::format(" if (e < {}u)", count);
  TileCode code;
  code.declare = fmt::format("        _b_t {}[{}];\n", name, per_item);
  code.load = fmt::format(
      "            #pragma unroll\n"
      "            for (unsigned int r = 0; r < {per_item}u; ++r) {{\n"
      "                {position}"
      "                const unsigned long gx = {origin} + x, gk = k_next + kk;\n"
      "                _b_t v = _b_zero();\n"
      "                if (gx < {limit} && gk < _b_k{extra})\n"
      "                    v = {source}[{base} + (long)gx * {x_stride} + (long)gk * {k_stride}];\n"
      "                {name}[r] = _b_conj_if(v, {conjugate});\n"
      "            }}\n",
      fmt::arg("per_item", per_item), fmt::arg("position", position), fmt::arg("origin", origin),
      fmt::arg("limit", limit),
      fmt::arg("extra",
               count % work_items == 0 ? std::string() : fmt::format(" && e < {}u", count)),
      fmt::arg("source", source), fmt::arg("base", base), fmt::arg("x_stride", x_stride),
      fmt::arg("k_stride", k_stride), fmt::arg("name", name), fmt::arg("conjugate", conjugate));
  code.store = fmt::format(
      "            #pragma unroll\n"
      "            for (unsigned int r = 0; r < {per_item}u; ++r) {{\n"
      "                {position}"
      "               {guard} {tile}[kk][x] = {name}[r];\n"
      "            }}\n",
      fmt::arg("per_item", per_item), fmt::arg("position", position), fmt::arg("guard", guard),
      fmt::arg("tile", tile), fmt::arg("name", name));
  return code;
}

}  // namespace

GemmTiling gemm_tiling(std::size_t itemsize, std::size_t warp_size, std::size_t max_work_items,
                       std::size_t local_bytes) noexcept {
  GemmTiling tiling;
  if (warp_size <= 1) {
    tiling = {32, 32, 8, 4, 4};
  } else if (itemsize <= 4) {
    tiling = {128, 128, 8, 8, 8};
  } else if (itemsize <= 8) {
    tiling = {64, 64, 8, 4, 4};
  } else {
    tiling = {32, 32, 8, 2, 2};
  }
  // Halve the tile (fewer work items, less local memory) until it fits the device.
  while (tiling.work_items() > max_work_items || tiling.local_bytes(itemsize) > local_bytes) {
    if (tiling.rows > tiling.item_rows && tiling.rows >= tiling.cols) {
      tiling.rows /= 2;
    } else if (tiling.cols > tiling.item_cols) {
      tiling.cols /= 2;
    } else if (tiling.item_rows > 1 || tiling.item_cols > 1) {
      tiling.item_rows = std::max<std::size_t>(1, tiling.item_rows / 2);
      tiling.item_cols = std::max<std::size_t>(1, tiling.item_cols / 2);
      tiling.rows = tiling.item_rows;
      tiling.cols = tiling.item_cols;
      if (tiling.local_bytes(itemsize) > local_bytes) return {};
    } else {
      return {};
    }
  }
  return tiling;
}

std::string gemm_source(const GemmRecipe& recipe) {
  const auto& t = recipe.tiling;
  if (t.item_rows == 0 || t.item_cols == 0 || t.depth == 0 || t.rows % t.item_rows != 0 ||
      t.cols % t.item_cols != 0) {
    throw LogicError(fmt::format("gemm: a tile of {}x{} does not split into {}x{} per work item",
                                 t.rows, t.cols, t.item_rows, t.item_cols));
  }
  const std::size_t items = t.work_items();
  const std::size_t col_groups = t.cols / t.item_cols;
  const auto a = tile_code("_b_pa", "_b_as", "_b_a", t.rows, t.depth, items, "_b_a_rows_fast",
                           "_b_conj_a", "m0", "_b_m", "a0", "_b_a_rs", "_b_a_cs");
  const auto b = tile_code("_b_pb", "_b_bs", "_b_b", t.cols, t.depth, items, "_b_b_cols_fast",
                           "_b_conj_b", "n0", "_b_n", "b0", "_b_b_cs", "_b_b_rs");
  // Work item (ty, tx) computes rows ty * item_rows + i and columns tx * item_cols + j of the
  // tile: its fragments of a tile row are neighbours in local memory (read as vectors where
  // the compiler can), and the tiles are padded (gemm_tile_pad) so that the stores of a tile
  // read along k spread over the banks. The next tile is read from global memory into
  // registers while the group computes on the current one.
  return fmt::format(
      "// plinth gemm: {type}, tiles of {rows}x{cols}x{depth}, {irows}x{icols} per work item\n"
      "{restrict}"
      "{element}"
      "KERNEL void {name}(\n"
      "    GLOBAL_MEM _b_t *_elw_restrict _b_c, long _b_c_base, long _b_c_rs, long _b_c_cs,\n"
      "    long _b_c_bs,\n"
      "    GLOBAL_MEM const _b_t *_b_a, long _b_a_base, long _b_a_rs, long _b_a_cs, long _b_a_bs,\n"
      "    GLOBAL_MEM const _b_t *_b_b, long _b_b_base, long _b_b_rs, long _b_b_cs, long _b_b_bs,\n"
      "    unsigned long _b_m, unsigned long _b_n, unsigned long _b_k,\n"
      "    unsigned long _b_tiles_m, unsigned long _b_tiles_n, unsigned long _b_tiles,\n"
      "    _b_real _b_alpha_re, _b_real _b_alpha_im, _b_real _b_beta_re, _b_real _b_beta_im,\n"
      "    int _b_a_rows_fast, int _b_b_cols_fast, int _b_conj_a, int _b_conj_b)\n"
      "{{\n"
      "    LOCAL_MEM _b_t _b_as[{depth}][{a_width}];\n"
      "    LOCAL_MEM _b_t _b_bs[{depth}][{b_width}];\n"
      "    const unsigned int tid = (unsigned int)get_local_id(0);\n"
      "    const unsigned int tx = tid % {col_groups}u, ty = tid / {col_groups}u;\n"
      "    const int read_c = _b_beta_re != 0 || _b_beta_im != 0;\n"
      "    for (unsigned long t = get_group_id(0); t < _b_tiles; t += get_num_groups(0)) {{\n"
      "        unsigned long r0 = t;\n"
      "        const unsigned long n0 = (r0 % _b_tiles_n) * {cols}u; r0 /= _b_tiles_n;\n"
      "        const unsigned long m0 = (r0 % _b_tiles_m) * {rows}u; r0 /= _b_tiles_m;\n"
      "        const long batch = (long)r0;\n"
      "        const long a0 = _b_a_base + batch * _b_a_bs;\n"
      "        const long b0 = _b_b_base + batch * _b_b_bs;\n"
      "        const long c0 = _b_c_base + batch * _b_c_bs;\n"
      "        _b_t acc[{irows}][{icols}];\n"
      "        #pragma unroll\n"
      "        for (unsigned int i = 0; i < {irows}u; ++i) {{\n"
      "            #pragma unroll\n"
      "            for (unsigned int j = 0; j < {icols}u; ++j) acc[i][j] = _b_zero();\n"
      "        }}\n"
      "{declare_a}"
      "{declare_b}"
      "        {{\n"
      "            const unsigned long k_next = 0;\n"
      "{load_a}"
      "{load_b}"
      "        }}\n"
      "        for (unsigned long k0 = 0; k0 < _b_k; k0 += {depth}u) {{\n"
      "{store_a}"
      "{store_b}"
      "            LOCAL_BARRIER;\n"
      "            if (k0 + {depth}u < _b_k) {{\n"
      "                const unsigned long k_next = k0 + {depth}u;\n"
      "{load_a}"
      "{load_b}"
      "            }}\n"
      "            #pragma unroll\n"
      "            for (unsigned int kk = 0; kk < {depth}u; ++kk) {{\n"
      "                _b_t ra[{irows}], rb[{icols}];\n"
      "                #pragma unroll\n"
      "                for (unsigned int i = 0; i < {irows}u; ++i)\n"
      "                    ra[i] = _b_as[kk][ty * {irows}u + i];\n"
      "                #pragma unroll\n"
      "                for (unsigned int j = 0; j < {icols}u; ++j)\n"
      "                    rb[j] = _b_bs[kk][tx * {icols}u + j];\n"
      "                #pragma unroll\n"
      "                for (unsigned int i = 0; i < {irows}u; ++i) {{\n"
      "                    #pragma unroll\n"
      "                    for (unsigned int j = 0; j < {icols}u; ++j) {{\n"
      "                        _B_MAD(acc[i][j], ra[i], rb[j]);\n"
      "                    }}\n"
      "                }}\n"
      "            }}\n"
      "            LOCAL_BARRIER;\n"
      "        }}\n"
      "        #pragma unroll\n"
      "        for (unsigned int i = 0; i < {irows}u; ++i) {{\n"
      "            const unsigned long gm = m0 + ty * {irows}u + i;\n"
      "            #pragma unroll\n"
      "            for (unsigned int j = 0; j < {icols}u; ++j) {{\n"
      "                const unsigned long gn = n0 + tx * {icols}u + j;\n"
      "                if (gm < _b_m && gn < _b_n) {{\n"
      "                    const long at = c0 + (long)gm * _b_c_rs + (long)gn * _b_c_cs;\n"
      "                    const _b_t old = read_c ? _b_c[at] : _b_zero();\n"
      "                    _b_c[at] = _b_scale(acc[i][j], _b_alpha_re, _b_alpha_im, old,\n"
      "                                        _b_beta_re, _b_beta_im);\n"
      "                }}\n"
      "            }}\n"
      "        }}\n"
      "    }}\n"
      "}}\n",
      fmt::arg("type", type_name(recipe.type)), fmt::arg("rows", t.rows), fmt::arg("cols", t.cols),
      fmt::arg("depth", t.depth), fmt::arg("irows", t.item_rows), fmt::arg("icols", t.item_cols),
      fmt::arg("restrict", restrict_definition),
      fmt::arg("element", element_definitions(recipe.type)), fmt::arg("name", gemm_function),
      fmt::arg("a_width", t.rows + gemm_tile_pad), fmt::arg("b_width", t.cols + gemm_tile_pad),
      fmt::arg("col_groups", col_groups), fmt::arg("declare_a", a.declare),
      fmt::arg("declare_b", b.declare), fmt::arg("load_a", a.load), fmt::arg("load_b", b.load),
      fmt::arg("store_a", a.store), fmt::arg("store_b", b.store));
}

std::string gemv_source(const GemvRecipe& recipe) {
  if (!is_power_of_two(recipe.lanes) || recipe.rows == 0) {
    throw LogicError(fmt::format("gemv: {} rows of {} lanes (lanes must be a power of two)",
                                 recipe.rows, recipe.lanes));
  }
  const auto split =
      recipe.lanes_fast
          ? fmt::format("const unsigned int lane = tid % {0}u, row = tid / {0}u;", recipe.lanes)
          : fmt::format("const unsigned int row = tid % {0}u, lane = tid / {0}u;", recipe.rows);
  return fmt::format(
      "// plinth gemv: {type}, {rows} rows of {lanes} lanes a group, neighbours along {along}\n"
      "{restrict}"
      "{element}"
      "KERNEL void {name}(\n"
      "    GLOBAL_MEM _b_t *_elw_restrict _b_y, long _b_y_base, long _b_y_s,\n"
      "    GLOBAL_MEM const _b_t *_b_a, long _b_a_base, long _b_a_rs, long _b_a_cs,\n"
      "    GLOBAL_MEM const _b_t *_b_x, long _b_x_base, long _b_x_s,\n"
      "    unsigned long _b_m, unsigned long _b_k, unsigned long _b_blocks,\n"
      "    _b_real _b_alpha_re, _b_real _b_alpha_im, _b_real _b_beta_re, _b_real _b_beta_im,\n"
      "    int _b_conj_a)\n"
      "{{\n"
      "    LOCAL_MEM _b_t _b_part[{rows}][{lanes}];\n"
      "    const unsigned int tid = (unsigned int)get_local_id(0);\n"
      "    {split}\n"
      "    const int read_y = _b_beta_re != 0 || _b_beta_im != 0;\n"
      "    for (unsigned long blk = get_group_id(0); blk < _b_blocks; blk += get_num_groups(0)) "
      "{{\n"
      "        const unsigned long gm = blk * {rows}u + row;\n"
      "        _b_t acc = _b_zero();\n"
      "        if (gm < _b_m) {{\n"
      "            const long a0 = _b_a_base + (long)gm * _b_a_rs;\n"
      "            for (unsigned long kk = lane; kk < _b_k; kk += {lanes}u) {{\n"
      "                const _b_t av = _b_conj_if(_b_a[a0 + (long)kk * _b_a_cs], _b_conj_a);\n"
      "                _B_MAD(acc, av, _b_x[_b_x_base + (long)kk * _b_x_s]);\n"
      "            }}\n"
      "        }}\n"
      "        _b_part[row][lane] = acc;\n"
      "        for (unsigned int s = {lanes}u / 2; s > 0; s >>= 1) {{\n"
      "            LOCAL_BARRIER;\n"
      "            if (lane < s) _B_ADD(_b_part[row][lane], _b_part[row][lane + s]);\n"
      "        }}\n"
      "        if (lane == 0 && gm < _b_m) {{\n"
      "            const long at = _b_y_base + (long)gm * _b_y_s;\n"
      "            const _b_t old = read_y ? _b_y[at] : _b_zero();\n"
      "            _b_y[at] = _b_scale(_b_part[row][0], _b_alpha_re, _b_alpha_im, old,\n"
      "                                _b_beta_re, _b_beta_im);\n"
      "        }}\n"
      "        LOCAL_BARRIER;\n"
      "    }}\n"
      "}}\n",
      fmt::arg("type", type_name(recipe.type)), fmt::arg("rows", recipe.rows),
      fmt::arg("lanes", recipe.lanes), fmt::arg("along", recipe.lanes_fast ? "k" : "m"),
      fmt::arg("restrict", restrict_definition),
      fmt::arg("element", element_definitions(recipe.type)), fmt::arg("name", gemv_function),
      fmt::arg("split", split));
}

}  // namespace plinth::detail
