#include "algorithms/scan_codegen.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace plinth::detail {

namespace {

constexpr std::size_t max_local_size = 256;
constexpr std::size_t scan_max_items = 16;
constexpr std::size_t tile_bytes = 16384;

// Local memory is padded by one element every 32 (_SCAN_PAD), so that work items reading
// consecutive runs of `items` elements hit different banks.
std::size_t padded(std::size_t k) { return k + (k >> 5); }

}  // namespace

std::size_t scan_local_bytes(const ScanGeometry& geometry, std::size_t itemsize) {
  return (padded(geometry.tile() - 1) + 1 + geometry.local_size) * itemsize;
}

ScanGeometry choose_scan_geometry(const ScanLimits& limits) noexcept {
  const std::size_t itemsize = std::max<std::size_t>(limits.itemsize, 1);
  ScanGeometry geometry;
  geometry.local_size = std::clamp<std::size_t>(limits.max_local_size, 1, max_local_size);
  if (limits.warp_size > 1 && geometry.local_size > limits.warp_size) {
    geometry.local_size -= geometry.local_size % limits.warp_size;
  }
  geometry.items =
      std::clamp<std::size_t>(tile_bytes / (geometry.local_size * itemsize), 1, scan_max_items);
  if (limits.local_mem_size == 0) return geometry;
  const std::size_t budget = limits.local_mem_size / 2;
  while (scan_local_bytes(geometry, itemsize) > budget && geometry.items > 1) --geometry.items;
  while (scan_local_bytes(geometry, itemsize) > budget && geometry.local_size > 1) {
    geometry.local_size /= 2;
  }
  return geometry;
}

ScanPartition partition_scan(std::size_t n, std::size_t tile, std::size_t max_groups) noexcept {
  ScanPartition partition;
  if (n == 0) return partition;
  tile = std::max<std::size_t>(tile, 1);
  max_groups = std::max<std::size_t>(max_groups, 1);
  partition.tiles = n / tile + (n % tile != 0 ? 1 : 0);
  const std::size_t groups = std::min(partition.tiles, max_groups);
  partition.tiles_per_group = partition.tiles / groups + (partition.tiles % groups != 0 ? 1 : 0);
  partition.groups = partition.tiles / partition.tiles_per_group +
                     (partition.tiles % partition.tiles_per_group != 0 ? 1 : 0);
  return partition;
}

std::string scan_source(const ScanSourceSpec& spec) {
  const auto& geometry = spec.geometry;
  const std::string load =
      spec.convert_input ? "(_scan_T)(_scan_in[_scan_i])" : "_scan_in[_scan_i]";

  // The tile of `_scan_start`, read with coalesced loads into _scan_tile (neutral beyond n).
  const std::string load_tile = fmt::format(
      "        for (unsigned int _scan_j = 0; _scan_j < _SCAN_K; ++_scan_j)\n"
      "        {{\n"
      "            const unsigned int _scan_k = _scan_j * _SCAN_L + _scan_lid;\n"
      "            const VSIZE_T _scan_i = _scan_start + _scan_k;\n"
      "            if (_scan_i < (VSIZE_T)_scan_n)\n"
      "                _scan_tile[_SCAN_PAD(_scan_k)] = {};\n"
      "            else\n"
      "                _scan_tile[_SCAN_PAD(_scan_k)] = _scan_neutral();\n"
      "        }}\n",
      load);

  // The inclusive scan of each work item's `value` across the group, left in _scan_part.
  const auto group_scan = [](std::string_view value, std::string_view indent) {
    return fmt::format(
        "{0}_scan_part[_scan_lid] = {1};\n"
        "{0}LOCAL_BARRIER;\n"
        "{0}for (unsigned int _scan_d = 1; _scan_d < _SCAN_L; _scan_d <<= 1)\n"
        "{0}{{\n"
        "{0}    _scan_T _scan_x = _scan_part[_scan_lid];\n"
        "{0}    if (_scan_lid >= _scan_d)\n"
        "{0}        _scan_x = _scan_op(_scan_part[_scan_lid - _scan_d], _scan_x);\n"
        "{0}    LOCAL_BARRIER;\n"
        "{0}    _scan_part[_scan_lid] = _scan_x;\n"
        "{0}    LOCAL_BARRIER;\n"
        "{0}}}\n",
        indent, value);
  };

  // The range of tiles of this group.
  const std::string tile_range =
      "    const unsigned int _scan_lid = (unsigned int)get_local_id(0);\n"
      "    const VSIZE_T _scan_group = (VSIZE_T)get_group_id(0);\n"
      "    const VSIZE_T _scan_tiles = ((VSIZE_T)_scan_n + (_SCAN_TILE - 1)) / _SCAN_TILE;\n"
      "    const VSIZE_T _scan_first = _scan_group * (VSIZE_T)_scan_tiles_per_group;\n"
      "    VSIZE_T _scan_last = _scan_first + (VSIZE_T)_scan_tiles_per_group;\n"
      "    if (_scan_last > _scan_tiles)\n"
      "        _scan_last = _scan_tiles;\n";

  const std::string results =
      spec.exclusive ? "        _scan_tile[_SCAN_PAD(_scan_lid * _SCAN_K)] = _scan_prefix;\n"
                       "        for (unsigned int _scan_j = 1; _scan_j < _SCAN_K; ++_scan_j)\n"
                       "            _scan_tile[_SCAN_PAD(_scan_lid * _SCAN_K + _scan_j)] =\n"
                       "                _scan_op(_scan_prefix, _scan_v[_scan_j - 1]);\n"
                     : "        for (unsigned int _scan_j = 0; _scan_j < _SCAN_K; ++_scan_j)\n"
                       "            _scan_tile[_SCAN_PAD(_scan_lid * _SCAN_K + _scan_j)] =\n"
                       "                _scan_op(_scan_prefix, _scan_v[_scan_j]);\n";

  // The rows and single-pass kernels' tile scan. Each work item holds the `_SCAN_K`
  // consecutive elements at its rank; the work items' totals are scanned either in local
  // memory (any type) or, for the dialect's scalar types, within each sub-group by shuffles
  // and then across the sub-groups' totals in local memory (the rank then orders the work
  // items as the sub-groups do). Leaves `_scan_tile_total`, and `_scan_excl`, the combination
  // of the work items before this one (none where `_scan_is_first`).
  const bool shuffles = !spec.sub_group_suffix.empty();
  std::string ranked_scan;
  if (shuffles) {
    ranked_scan = fmt::format(
        "        _scan_T _scan_x = _scan_v[_SCAN_K - 1];\n"
        "        for (unsigned int _scan_d = 1; _scan_d < _scan_sw; _scan_d <<= 1)\n"
        "        {{\n"
        "            const _scan_T _scan_y = sub_group_shuffle_up_{0}(_scan_x, _scan_d);\n"
        "            if (_scan_sl >= _scan_d)\n"
        "                _scan_x = _scan_op(_scan_y, _scan_x);\n"
        "        }}\n"
        "        const _scan_T _scan_up = sub_group_shuffle_up_{0}(_scan_x, 1u);\n"
        "        if (_scan_sl == _scan_sw - 1u)\n"
        "            _scan_part[_scan_sg] = _scan_x;\n"
        "        LOCAL_BARRIER;\n"
        "        for (unsigned int _scan_d = 1; _scan_d < _scan_ns; _scan_d <<= 1)\n"
        "        {{\n"
        "            _scan_T _scan_z = _scan_part[_scan_lid < _scan_ns ? _scan_lid : 0u];\n"
        "            if (_scan_lid < _scan_ns && _scan_lid >= _scan_d)\n"
        "                _scan_z = _scan_op(_scan_part[_scan_lid - _scan_d], _scan_z);\n"
        "            LOCAL_BARRIER;\n"
        "            if (_scan_lid < _scan_ns)\n"
        "                _scan_part[_scan_lid] = _scan_z;\n"
        "            LOCAL_BARRIER;\n"
        "        }}\n"
        "        const _scan_T _scan_tile_total = _scan_part[_scan_ns - 1u];\n"
        "        const int _scan_is_first = _scan_rank == 0u;\n"
        "        _scan_T _scan_excl = _scan_up;\n"
        "        if (_scan_sg > 0u)\n"
        "        {{\n"
        "            _scan_excl = _scan_part[_scan_sg - 1u];\n"
        "            if (_scan_sl > 0u)\n"
        "                _scan_excl = _scan_op(_scan_excl, _scan_up);\n"
        "        }}\n",
        spec.sub_group_suffix);
  } else {
    ranked_scan = group_scan("_scan_v[_SCAN_K - 1]", "        ") +
                  "        const _scan_T _scan_tile_total = _scan_part[_SCAN_L - 1];\n"
                  "        const int _scan_is_first = _scan_lid == 0u;\n"
                  "        _scan_T _scan_excl = _scan_tile_total;\n"
                  "        if (!_scan_is_first)\n"
                  "            _scan_excl = _scan_part[_scan_lid - 1];\n";
  }
  const std::string rank =
      shuffles ? "        const unsigned int _scan_sg = get_sub_group_id();\n"
                 "        const unsigned int _scan_sl = get_sub_group_local_id();\n"
                 "        const unsigned int _scan_sw = get_sub_group_size();\n"
                 "        const unsigned int _scan_ns = get_num_sub_groups();\n"
                 "        const unsigned int _scan_rank = _scan_sg * get_max_sub_group_size() + "
                 "_scan_sl;\n"
               : "        const unsigned int _scan_rank = _scan_lid;\n";
  const std::string scan_loaded_tile = fmt::format(
      "        LOCAL_BARRIER;\n"
      "{}"
      "        _scan_T _scan_v[_SCAN_K];\n"
      "        for (unsigned int _scan_j = 0; _scan_j < _SCAN_K; ++_scan_j)\n"
      "            _scan_v[_scan_j] = _scan_tile[_SCAN_PAD(_scan_rank * _SCAN_K + _scan_j)];\n"
      "        for (unsigned int _scan_j = 1; _scan_j < _SCAN_K; ++_scan_j)\n"
      "            _scan_v[_scan_j] = _scan_op(_scan_v[_scan_j - 1], _scan_v[_scan_j]);\n"
      "{}",
      rank, ranked_scan);
  std::string ranked_results = results;
  for (std::size_t at = 0;
       (at = ranked_results.find("_scan_lid * _SCAN_K", at)) != std::string::npos;) {
    ranked_results.replace(at, 9, "_scan_rank");
  }
  // Writes the tile's results, from `_scan_carry` (everything before the tile), back.
  const std::string store_tile = fmt::format(
      "        _scan_T _scan_prefix = _scan_carry;\n"
      "        if (!_scan_is_first)\n"
      "            _scan_prefix = _scan_op(_scan_carry, _scan_excl);\n"
      "{}"
      "        LOCAL_BARRIER;\n"
      "        for (unsigned int _scan_j = 0; _scan_j < _SCAN_K; ++_scan_j)\n"
      "        {{\n"
      "            const unsigned int _scan_k = _scan_j * _SCAN_L + _scan_lid;\n"
      "            const VSIZE_T _scan_i = _scan_start + _scan_k;\n"
      "            if (_scan_i < (VSIZE_T)_scan_n)\n"
      "                _scan_out[_scan_i] = _scan_tile[_SCAN_PAD(_scan_k)];\n"
      "        }}\n",
      ranked_results);

  const std::string rows_and_clear = fmt::format(
      "\n"
      "// Rows: each of `rows` rows of `row_length` elements scanned on its own, one group a\n"
      "// row at a time.\n"
      "KERNEL void {name}_rows(GLOBAL_MEM const _scan_In *_scan_in_base, long _scan_in_offset,\n"
      "    GLOBAL_MEM _scan_T *_scan_out_base, long _scan_out_offset,\n"
      "    unsigned long _scan_row_length, unsigned long _scan_rows)\n"
      "{{\n"
      "    LOCAL_MEM _scan_T _scan_tile[_SCAN_LOCAL_TILE];\n"
      "    LOCAL_MEM _scan_T _scan_part[_SCAN_L];\n"
      "    const unsigned int _scan_lid = (unsigned int)get_local_id(0);\n"
      "    const VSIZE_T _scan_n = (VSIZE_T)_scan_row_length;\n"
      "    const VSIZE_T _scan_group = (VSIZE_T)get_group_id(0);\n"
      "    const VSIZE_T _scan_groups = (VSIZE_T)get_num_groups(0);\n"
      "    const VSIZE_T _scan_row_tiles = (_scan_n + (_SCAN_TILE - 1)) / _SCAN_TILE;\n"
      "    const VSIZE_T _scan_my_rows = _scan_group < (VSIZE_T)_scan_rows\n"
      "        ? ((VSIZE_T)_scan_rows - _scan_group + _scan_groups - 1) / _scan_groups : 0;\n"
      "    _scan_T _scan_carry = _scan_neutral();\n"
      "    // One loop over this group's (row, tile) pairs, row by row.\n"
      "    for (VSIZE_T _scan_step = 0; _scan_step < _scan_my_rows * _scan_row_tiles; "
      "++_scan_step)\n"
      "    {{\n"
      "        const VSIZE_T _scan_row = _scan_group + (_scan_step / _scan_row_tiles) * "
      "_scan_groups;\n"
      "        const VSIZE_T _scan_start = (_scan_step % _scan_row_tiles) * _SCAN_TILE;\n"
      "        if (_scan_start == 0)\n"
      "            _scan_carry = _scan_neutral();\n"
      "        GLOBAL_MEM const _scan_In *const _scan_in =\n"
      "            _scan_in_base + _scan_in_offset + _scan_row * _scan_n;\n"
      "        GLOBAL_MEM _scan_T *const _scan_out =\n"
      "            _scan_out_base + _scan_out_offset + _scan_row * _scan_n;\n"
      "{load_tile}"
      "{scan_loaded_tile}"
      "{store_tile}"
      "        _scan_carry = _scan_op(_scan_carry, _scan_tile_total);\n"
      "        LOCAL_BARRIER;\n"
      "    }}\n"
      "}}\n"
      "\n"
      "KERNEL void {name}_clear(GLOBAL_MEM unsigned int *_scan_words, unsigned long _scan_count)\n"
      "{{\n"
      "    for (VSIZE_T _scan_i = (VSIZE_T)get_global_id(0); _scan_i < (VSIZE_T)_scan_count;\n"
      "         _scan_i += (VSIZE_T)get_global_size(0))\n"
      "        _scan_words[_scan_i] = 0u;\n"
      "}}\n",
      fmt::arg("name", spec.name), fmt::arg("load_tile", load_tile),
      fmt::arg("scan_loaded_tile", scan_loaded_tile), fmt::arg("store_tile", store_tile));

  // Single pass (Merrill & Garland's decoupled look-back): one group per tile, the tile's
  // number from an atomic counter (so a group waits only for groups that started before it);
  // the tile's aggregate published at once, then its inclusive prefix once the look-back
  // (sub-group 0, one predecessor per lane) has found everything before it.
  const std::string single = fmt::format(
      "\n"
      "#define _SCAN_AGGREGATE 1u\n"
      "#if defined(PLINTH_CUDA_API) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700\n"
      "#define _SCAN_BACK_OFF() __nanosleep(64)\n"
      "#else\n"
      "#define _SCAN_BACK_OFF()\n"
      "#endif\n"
      "#define _SCAN_INCLUSIVE 2u\n"
      "\n"
      "// Single pass: tiles numbered by state[0], tile t's status in state[1 + t], its aggregate\n"
      "// in values[2t], its inclusive prefix in values[2t + 1].\n"
      "KERNEL void {name}_single(GLOBAL_MEM const _scan_In *_scan_in_base, long _scan_in_offset,\n"
      "    GLOBAL_MEM _scan_T *_scan_out_base, long _scan_out_offset, unsigned long _scan_count,\n"
      "    GLOBAL_MEM unsigned int *_scan_state, GLOBAL_MEM _scan_T *_scan_values)\n"
      "{{\n"
      "    LOCAL_MEM _scan_T _scan_tile[_SCAN_LOCAL_TILE];\n"
      "    LOCAL_MEM _scan_T _scan_part[_SCAN_L];\n"
      "    LOCAL_MEM _scan_T _scan_window[64];\n"
      "    LOCAL_MEM _scan_T _scan_before;\n"
      "    LOCAL_MEM unsigned int _scan_tile_number;\n"
      "    GLOBAL_MEM const _scan_In *const _scan_in = _scan_in_base + _scan_in_offset;\n"
      "    GLOBAL_MEM _scan_T *const _scan_out = _scan_out_base + _scan_out_offset;\n"
      "    GLOBAL_MEM unsigned int *const _scan_flags = _scan_state + 1;\n"
      "    const VSIZE_T _scan_n = (VSIZE_T)_scan_count;\n"
      "    const unsigned int _scan_lid = (unsigned int)get_local_id(0);\n"
      "    const int _scan_leader = get_sub_group_id() == 0 && get_sub_group_local_id() == 0;\n"
      "    if (_scan_leader)\n"
      "        _scan_tile_number = atomic_add_global_uint(_scan_state, 1u);\n"
      "    LOCAL_BARRIER;\n"
      "    const unsigned int _scan_t = _scan_tile_number;\n"
      "    const VSIZE_T _scan_start = (VSIZE_T)_scan_t * _SCAN_TILE;\n"
      "{load_tile}"
      "{scan_loaded_tile}"
      "    {{\n"
      "        const _scan_T _scan_total = _scan_tile_total;\n"
      "        if (_scan_leader)\n"
      "        {{\n"
      "            _scan_values[2 * (VSIZE_T)_scan_t + (_scan_t == 0 ? 1 : 0)] = _scan_total;\n"
      "            atomic_store_global_uint(&_scan_flags[_scan_t],\n"
      "                _scan_t == 0 ? _SCAN_INCLUSIVE : _SCAN_AGGREGATE, MEM_ORDER_RELEASE);\n"
      "            _scan_before = _scan_neutral();\n"
      "        }}\n"
      "        if (_scan_t > 0 && get_sub_group_id() == 0)\n"
      "        {{\n"
      "            const unsigned int _scan_lane = get_sub_group_local_id();\n"
      "            const unsigned int _scan_width = get_sub_group_size();\n"
      "            _scan_T _scan_sum = _scan_neutral();\n"
      "            long _scan_first = (long)_scan_t - 1;\n"
      "            for (;;)\n"
      "            {{\n"
      "                const long _scan_look = _scan_first - (long)_scan_lane;\n"
      "                unsigned int _scan_status = _SCAN_INCLUSIVE;\n"
      "                _scan_T _scan_value = _scan_neutral();\n"
      "                if (_scan_look >= 0)\n"
      "                {{\n"
      "                    for (;;)\n"
      "                    {{\n"
      "                        _scan_status = atomic_load_global_uint(&_scan_flags[_scan_look],\n"
      "                                                               MEM_ORDER_ACQUIRE);\n"
      "                        if (_scan_status != 0u)\n"
      "                            break;\n"
      "                        // Waiting (for a tile still loading): let the loads through.\n"
      "                        _SCAN_BACK_OFF();\n"
      "                    }}\n"
      "                    _scan_value = _scan_values[2 * (VSIZE_T)_scan_look +\n"
      "                                               (_scan_status == _SCAN_INCLUSIVE ? 1 : 0)];\n"
      "                }}\n"
      "                // The nearest predecessor with its inclusive prefix ends the window.\n"
      "                const unsigned int _scan_stop = sub_group_reduce_min_uint(\n"
      "                    _scan_status == _SCAN_INCLUSIVE ? _scan_lane : _scan_width);\n"
      "                // The window in the order of the tiles (earliest first), combined by a "
      "tree.\n"
      "                _scan_window[_scan_width - 1 - _scan_lane] =\n"
      "                    _scan_lane <= _scan_stop ? _scan_value : _scan_neutral();\n"
      "                SUB_GROUP_BARRIER;\n"
      "                for (unsigned int _scan_s = 1; _scan_s < _scan_width; _scan_s <<= 1)\n"
      "                {{\n"
      "                    if (_scan_lane % (2u * _scan_s) == 0 && _scan_lane + _scan_s < "
      "_scan_width)\n"
      "                        _scan_window[_scan_lane] =\n"
      "                            _scan_op(_scan_window[_scan_lane], _scan_window[_scan_lane + "
      "_scan_s]);\n"
      "                    SUB_GROUP_BARRIER;\n"
      "                }}\n"
      "                _scan_sum = _scan_op(_scan_window[0], _scan_sum);\n"
      "                SUB_GROUP_BARRIER;\n"
      "                if (_scan_stop < _scan_width)\n"
      "                    break;\n"
      "                _scan_first -= (long)_scan_width;\n"
      "            }}\n"
      "            if (_scan_lane == 0)\n"
      "            {{\n"
      "                _scan_values[2 * (VSIZE_T)_scan_t + 1] = _scan_op(_scan_sum, _scan_total);\n"
      "                atomic_store_global_uint(&_scan_flags[_scan_t], _SCAN_INCLUSIVE,\n"
      "                                         MEM_ORDER_RELEASE);\n"
      "                _scan_before = _scan_sum;\n"
      "            }}\n"
      "        }}\n"
      "    }}\n"
      "    LOCAL_BARRIER;\n"
      "    const _scan_T _scan_carry = _scan_before;\n"
      "{store_tile}"
      "}}\n",
      fmt::arg("name", spec.name), fmt::arg("load_tile", load_tile),
      fmt::arg("scan_loaded_tile", scan_loaded_tile), fmt::arg("store_tile", store_tile));

  return fmt::format(
             "{preamble}\n"
             "\n"
             "typedef ${{_scan_type}} _scan_T;\n"
             "typedef ${{_scan_in_type}} _scan_In;\n"
             "\n"
             "#define _SCAN_L {local}u\n"
             "#define _SCAN_K {items}u\n"
             "#define _SCAN_TILE {tile}u\n"
             "#define _SCAN_PAD(k) ((k) + ((k) >> 5))\n"
             "#define _SCAN_LOCAL_TILE {local_tile}u\n"
             "\n"
             "FUNCTION _scan_T _scan_op(_scan_T a, _scan_T b)\n"
             "{{\n"
             "    return ({expression});\n"
             "}}\n"
             "\n"
             "FUNCTION _scan_T _scan_neutral(void)\n"
             "{{\n"
             "    _scan_T _scan_e = {neutral};\n"
             "    return _scan_e;\n"
             "}}\n"
             "\n"
             "// Stage 1: each group's total over its tiles, in order.\n"
             "KERNEL void {name}_reduce(GLOBAL_MEM const _scan_In *_scan_in_base, long "
             "_scan_in_offset,\n"
             "    unsigned long _scan_n, unsigned long _scan_tiles_per_group,\n"
             "    GLOBAL_MEM _scan_T *_scan_sums)\n"
             "{{\n"
             "    LOCAL_MEM _scan_T _scan_tile[_SCAN_LOCAL_TILE];\n"
             "    LOCAL_MEM _scan_T _scan_part[_SCAN_L];\n"
             "    GLOBAL_MEM const _scan_In *const _scan_in = _scan_in_base + _scan_in_offset;\n"
             "{tile_range}"
             "    _scan_T _scan_carry = _scan_neutral();\n"
             "    for (VSIZE_T _scan_t = _scan_first; _scan_t < _scan_last; ++_scan_t)\n"
             "    {{\n"
             "        const VSIZE_T _scan_start = _scan_t * _SCAN_TILE;\n"
             "{load_tile}"
             "        LOCAL_BARRIER;\n"
             "        _scan_T _scan_acc = _scan_tile[_SCAN_PAD(_scan_lid * _SCAN_K)];\n"
             "        for (unsigned int _scan_j = 1; _scan_j < _SCAN_K; ++_scan_j)\n"
             "            _scan_acc = _scan_op(_scan_acc, _scan_tile[_SCAN_PAD(_scan_lid * _SCAN_K "
             "+ "
             "_scan_j)]);\n"
             "        _scan_part[_scan_lid] = _scan_acc;\n"
             "        LOCAL_BARRIER;\n"
             "        for (unsigned int _scan_s = 1; _scan_s < _SCAN_L; _scan_s <<= 1)\n"
             "        {{\n"
             "            if (_scan_lid % (2u * _scan_s) == 0 && _scan_lid + _scan_s < _SCAN_L)\n"
             "                _scan_part[_scan_lid] =\n"
             "                    _scan_op(_scan_part[_scan_lid], _scan_part[_scan_lid + "
             "_scan_s]);\n"
             "            LOCAL_BARRIER;\n"
             "        }}\n"
             "        if (_scan_lid == 0)\n"
             "            _scan_carry = _scan_op(_scan_carry, _scan_part[0]);\n"
             "    }}\n"
             "    if (_scan_lid == 0)\n"
             "        _scan_sums[_scan_group] = _scan_carry;\n"
             "}}\n"
             "\n"
             "// Stage 2 (one group): the group totals replaced by their exclusive scan.\n"
             "KERNEL void {name}_groups(GLOBAL_MEM _scan_T *_scan_sums, unsigned long "
             "_scan_count)\n"
             "{{\n"
             "    LOCAL_MEM _scan_T _scan_part[_SCAN_L];\n"
             "    const unsigned int _scan_lid = (unsigned int)get_local_id(0);\n"
             "    _scan_T _scan_carry = _scan_neutral();\n"
             "    for (VSIZE_T _scan_base = 0; _scan_base < (VSIZE_T)_scan_count; _scan_base += "
             "_SCAN_L)\n"
             "    {{\n"
             "        const VSIZE_T _scan_i = _scan_base + _scan_lid;\n"
             "        _scan_T _scan_v = _scan_neutral();\n"
             "        if (_scan_i < (VSIZE_T)_scan_count)\n"
             "            _scan_v = _scan_sums[_scan_i];\n"
             "{groups_scan}"
             "        if (_scan_i < (VSIZE_T)_scan_count)\n"
             "        {{\n"
             "            if (_scan_lid == 0)\n"
             "                _scan_sums[_scan_i] = _scan_carry;\n"
             "            else\n"
             "                _scan_sums[_scan_i] = _scan_op(_scan_carry, _scan_part[_scan_lid - "
             "1]);\n"
             "        }}\n"
             "        _scan_carry = _scan_op(_scan_carry, _scan_part[_SCAN_L - 1]);\n"
             "        LOCAL_BARRIER;\n"
             "    }}\n"
             "}}\n"
             "\n"
             "// Stage 3: each group scans its tiles from its prefix.\n"
             "KERNEL void {name}_final(GLOBAL_MEM const _scan_In *_scan_in_base, long "
             "_scan_in_offset,\n"
             "    GLOBAL_MEM _scan_T *_scan_out_base, long _scan_out_offset, unsigned long "
             "_scan_n,\n"
             "    unsigned long _scan_tiles_per_group, GLOBAL_MEM const _scan_T *_scan_sums)\n"
             "{{\n"
             "    LOCAL_MEM _scan_T _scan_tile[_SCAN_LOCAL_TILE];\n"
             "    LOCAL_MEM _scan_T _scan_part[_SCAN_L];\n"
             "    GLOBAL_MEM const _scan_In *const _scan_in = _scan_in_base + _scan_in_offset;\n"
             "    GLOBAL_MEM _scan_T *const _scan_out = _scan_out_base + _scan_out_offset;\n"
             "{tile_range}"
             "    _scan_T _scan_carry = _scan_sums[_scan_group];\n"
             "    for (VSIZE_T _scan_t = _scan_first; _scan_t < _scan_last; ++_scan_t)\n"
             "    {{\n"
             "        const VSIZE_T _scan_start = _scan_t * _SCAN_TILE;\n"
             "{load_tile}"
             "        LOCAL_BARRIER;\n"
             "        _scan_T _scan_v[_SCAN_K];\n"
             "        for (unsigned int _scan_j = 0; _scan_j < _SCAN_K; ++_scan_j)\n"
             "            _scan_v[_scan_j] = _scan_tile[_SCAN_PAD(_scan_lid * _SCAN_K + "
             "_scan_j)];\n"
             "        for (unsigned int _scan_j = 1; _scan_j < _SCAN_K; ++_scan_j)\n"
             "            _scan_v[_scan_j] = _scan_op(_scan_v[_scan_j - 1], _scan_v[_scan_j]);\n"
             "{final_scan}"
             "        _scan_T _scan_prefix = _scan_carry;\n"
             "        if (_scan_lid > 0)\n"
             "            _scan_prefix = _scan_op(_scan_carry, _scan_part[_scan_lid - 1]);\n"
             "{results}"
             "        _scan_carry = _scan_op(_scan_carry, _scan_part[_SCAN_L - 1]);\n"
             "        LOCAL_BARRIER;\n"
             "        for (unsigned int _scan_j = 0; _scan_j < _SCAN_K; ++_scan_j)\n"
             "        {{\n"
             "            const unsigned int _scan_k = _scan_j * _SCAN_L + _scan_lid;\n"
             "            const VSIZE_T _scan_i = _scan_start + _scan_k;\n"
             "            if (_scan_i < (VSIZE_T)_scan_n)\n"
             "                _scan_out[_scan_i] = _scan_tile[_SCAN_PAD(_scan_k)];\n"
             "        }}\n"
             "        LOCAL_BARRIER;\n"
             "    }}\n"
             "}}\n",
             fmt::arg("preamble", spec.preamble), fmt::arg("local", geometry.local_size),
             fmt::arg("items", geometry.items), fmt::arg("tile", geometry.tile()),
             fmt::arg("local_tile", padded(geometry.tile() - 1) + 1),
             fmt::arg("expression", spec.expression), fmt::arg("neutral", spec.neutral),
             fmt::arg("name", spec.name), fmt::arg("tile_range", tile_range),
             fmt::arg("load_tile", load_tile),
             fmt::arg("groups_scan", group_scan("_scan_v", "        ")),
             fmt::arg("final_scan", group_scan("_scan_v[_SCAN_K - 1]", "        ")),
             fmt::arg("results", results)) +
         rows_and_clear + (spec.single_pass ? single : std::string());
}

}  // namespace plinth::detail
