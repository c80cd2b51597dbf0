#include "algorithms/sort_codegen.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace plinth::detail {

namespace {

constexpr std::size_t radix_bins = 256;
constexpr std::size_t sort_max_items = 16;
constexpr std::size_t local_budget = 44 * 1024;

const char* bits_type(unsigned bits) {
  switch (bits) {
    case 8: return "unsigned char";
    case 16: return "unsigned short";
    case 64: return "unsigned long";
    default: return "unsigned int";
  }
}

/// Every occurrence of `from` in `text` replaced by `to`.
std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The bytes the scatter kernel declares besides its key and payload tiles.
std::size_t fixed_bytes(const RadixGeometry& geometry) {
  return geometry.sub_groups * radix_bins * 2 + radix_bins * (4 + 4 + 8) + geometry.local_size * 4;
}

constexpr std::string_view common_source = R"(
#define _SORT_L @L@u
#define _SORT_K @K@u
#define _SORT_T (_SORT_L * _SORT_K)
#define _SORT_NSG @NSG@u
#define _SORT_CHUNK (256u / _SORT_L)
#if defined(PLINTH_CUDA_API) || defined(PLINTH_HIP_API)
#define _SORT_POPC(x) ((unsigned int)__popcll(x))
#else
#define _SORT_POPC(x) ((unsigned int)popcount(x))
#endif

// `shift` holds the digit's shift in its low byte and the keys' kind above (radix_mode()).
FUNCTION unsigned int _sort_digit(_sort_KB x, unsigned int shift)
{
    return (unsigned int)((_sort_order(x, shift >> 8) >> (shift & 0xFFu)) & (_sort_KB)0xFFu);
}

// Tile t of rows of `row` keys, `tpr` tiles per row: its first key and how many it has.
#define _SORT_TILE_RANGE \
    const VSIZE_T _sort_r = _sort_t / (VSIZE_T)_sort_tpr; \
    const VSIZE_T _sort_tr = _sort_t - _sort_r * (VSIZE_T)_sort_tpr; \
    const VSIZE_T _sort_first = _sort_tr * (VSIZE_T)_SORT_T; \
    const VSIZE_T _sort_start = _sort_r * (VSIZE_T)_sort_row + _sort_first; \
    VSIZE_T _sort_left = (VSIZE_T)_sort_row - _sort_first; \
    const unsigned int _sort_count = _sort_left < (VSIZE_T)_SORT_T ? (unsigned int)_sort_left : _SORT_T;

// Each tile's count of each digit (local atomics), written digit-major per row. The work
// items count into _SORT_COPIES copies of the histogram (work item i into copy i % copies),
// so that keys sharing a digit (the exponent byte of floats of one range, say) contend less;
// copies are 257 words apart, so that one digit's copies lie in different banks.
#define _SORT_COPIES (_SORT_L < 16u ? _SORT_L : 16u)
KERNEL void _sort_hist(GLOBAL_MEM const _sort_KB *_sort_in_base, long _sort_in_offset,
    unsigned long _sort_row, unsigned long _sort_tpr, unsigned long _sort_tiles,
    unsigned int _sort_shift, GLOBAL_MEM unsigned int *_sort_hist)
{
    LOCAL_MEM unsigned int _sort_h[_SORT_COPIES * 257u];
    GLOBAL_MEM const _sort_KB *const _sort_in = _sort_in_base + _sort_in_offset;
    const unsigned int _sort_lid = (unsigned int)get_local_id(0);
    for (VSIZE_T _sort_t = (VSIZE_T)get_group_id(0); _sort_t < (VSIZE_T)_sort_tiles;
         _sort_t += (VSIZE_T)get_num_groups(0))
    {
        _SORT_TILE_RANGE
        for (unsigned int _sort_i = _sort_lid; _sort_i < _SORT_COPIES * 257u; _sort_i += _SORT_L)
            _sort_h[_sort_i] = 0u;
        LOCAL_BARRIER;
        const unsigned int _sort_copy = (_sort_lid % _SORT_COPIES) * 257u;
        for (unsigned int _sort_k = _sort_lid; _sort_k < _sort_count; _sort_k += _SORT_L)
            atomic_add_local_uint(
                &_sort_h[_sort_copy + _sort_digit(_sort_in[_sort_start + _sort_k], _sort_shift)], 1u);
        LOCAL_BARRIER;
        for (unsigned int _sort_d = _sort_lid; _sort_d < 256u; _sort_d += _SORT_L)
        {
            unsigned int _sort_sum = 0u;
            for (unsigned int _sort_c = 0; _sort_c < _SORT_COPIES; ++_sort_c)
                _sort_sum += _sort_h[_sort_c * 257u + _sort_d];
            _sort_hist[((unsigned long)_sort_r * 256u + _sort_d) * _sort_tpr + _sort_tr] = _sort_sum;
        }
        LOCAL_BARRIER;
    }
}
)";

// The scatter kernel: @NAME@, and the payload's hooks.
constexpr std::string_view scatter_source = R"(
KERNEL void @NAME@(GLOBAL_MEM const _sort_KB *_sort_in_base, long _sort_in_offset,
    GLOBAL_MEM _sort_KB *_sort_out@PAYLOAD_PARAMS@,
    unsigned long _sort_row, unsigned long _sort_tpr, unsigned long _sort_tiles,
    unsigned int _sort_shift, GLOBAL_MEM const unsigned long *_sort_offsets)
{
    LOCAL_MEM unsigned short _sort_wh[_SORT_NSG * 256u];
    LOCAL_MEM unsigned int _sort_tot[256];
    LOCAL_MEM unsigned int _sort_dstart[256];
    LOCAL_MEM unsigned long _sort_base[256];
    LOCAL_MEM unsigned int _sort_part[_SORT_L];
    LOCAL_MEM _sort_KB _sort_lk[_SORT_T];
@PAYLOAD_LOCAL@
    GLOBAL_MEM const _sort_KB *const _sort_in = _sort_in_base + _sort_in_offset;
    const unsigned int _sort_lid = (unsigned int)get_local_id(0);
    const unsigned int _sort_sg = get_sub_group_id();
    const unsigned int _sort_lane = get_sub_group_local_id();
    const unsigned int _sort_sgs = get_max_sub_group_size();
    const unsigned long _sort_below = (1UL << _sort_lane) - 1UL;
    for (VSIZE_T _sort_t = (VSIZE_T)get_group_id(0); _sort_t < (VSIZE_T)_sort_tiles;
         _sort_t += (VSIZE_T)get_num_groups(0))
    {
        _SORT_TILE_RANGE
        for (unsigned int _sort_i = _sort_lid; _sort_i < _SORT_NSG * 256u; _sort_i += _SORT_L)
            _sort_wh[_sort_i] = 0;
        LOCAL_BARRIER;
        // Rank each key among the keys of its digit before it in the tile: the tile's keys
        // are ordered by (sub-group, round, lane); within a round, a sub-group's lanes with
        // the same digit find each other by ballots on the digit's bits (bit 8: no key).
        // (A key's digit is recomputed where it is needed again, rather than kept: fewer
        // registers; a rank of ~0u marks a slot past the tile's end.)
        _sort_KB _sort_k[_SORT_K];
        unsigned int _sort_rank[_SORT_K];
@PAYLOAD_REGS@
        for (unsigned int _sort_j = 0; _sort_j < _SORT_K; ++_sort_j)
        {
            const unsigned int _sort_pos =
                _sort_sg * (_SORT_K * _sort_sgs) + _sort_j * _sort_sgs + _sort_lane;
            unsigned int _sort_d = 256u;
            if (_sort_pos < _sort_count)
            {
                _sort_k[_sort_j] = _sort_in[_sort_start + _sort_pos];
                _sort_d = _sort_digit(_sort_k[_sort_j], _sort_shift);
@PAYLOAD_LOAD@
            }
            unsigned long _sort_peers = sub_group_ballot(1);
            for (unsigned int _sort_b = 0; _sort_b < 9u; ++_sort_b)
            {
                const int _sort_bit = (int)((_sort_d >> _sort_b) & 1u);
                const unsigned long _sort_votes = sub_group_ballot(_sort_bit);
                _sort_peers &= _sort_bit ? _sort_votes : ~_sort_votes;
            }
            unsigned int _sort_before = 0u;
            if (_sort_d < 256u)
                _sort_before = _sort_wh[_sort_sg * 256u + _sort_d];
            SUB_GROUP_BARRIER;
            if (_sort_d < 256u && (_sort_peers & _sort_below) == 0UL)
                _sort_wh[_sort_sg * 256u + _sort_d] =
                    (unsigned short)(_sort_before + _SORT_POPC(_sort_peers));
            SUB_GROUP_BARRIER;
            _sort_rank[_sort_j] =
                _sort_d < 256u ? _sort_before + _SORT_POPC(_sort_peers & _sort_below) : ~0u;
        }
        LOCAL_BARRIER;
        // Per digit: exclusive counts over the sub-groups, and the tile's total.
        for (unsigned int _sort_d = _sort_lid; _sort_d < 256u; _sort_d += _SORT_L)
        {
            unsigned int _sort_run = 0u;
            for (unsigned int _sort_w = 0; _sort_w < _SORT_NSG; ++_sort_w)
            {
                const unsigned int _sort_c = _sort_wh[_sort_w * 256u + _sort_d];
                _sort_wh[_sort_w * 256u + _sort_d] = (unsigned short)_sort_run;
                _sort_run += _sort_c;
            }
            _sort_tot[_sort_d] = _sort_run;
        }
        LOCAL_BARRIER;
        // The exclusive scan of the totals over the digits: where each digit starts in the tile.
        {
            unsigned int _sort_sum = 0u;
            for (unsigned int _sort_c = 0; _sort_c < _SORT_CHUNK; ++_sort_c)
                _sort_sum += _sort_tot[_sort_lid * _SORT_CHUNK + _sort_c];
            _sort_part[_sort_lid] = _sort_sum;
            LOCAL_BARRIER;
            for (unsigned int _sort_o = 1; _sort_o < _SORT_L; _sort_o <<= 1)
            {
                unsigned int _sort_x = _sort_part[_sort_lid];
                if (_sort_lid >= _sort_o)
                    _sort_x += _sort_part[_sort_lid - _sort_o];
                LOCAL_BARRIER;
                _sort_part[_sort_lid] = _sort_x;
                LOCAL_BARRIER;
            }
            unsigned int _sort_run = _sort_part[_sort_lid] - _sort_sum;
            for (unsigned int _sort_c = 0; _sort_c < _SORT_CHUNK; ++_sort_c)
            {
                const unsigned int _sort_d = _sort_lid * _SORT_CHUNK + _sort_c;
                _sort_dstart[_sort_d] = _sort_run;
                _sort_base[_sort_d] =
                    _sort_offsets[((unsigned long)_sort_r * 256u + _sort_d) * _sort_tpr + _sort_tr] -
                    (unsigned long)_sort_run;
                _sort_run += _sort_tot[_sort_d];
            }
        }
        LOCAL_BARRIER;
        // The keys in digit order in local memory, then written out in runs per digit.
        for (unsigned int _sort_j = 0; _sort_j < _SORT_K; ++_sort_j)
        {
            if (_sort_rank[_sort_j] != ~0u)
            {
                const unsigned int _sort_d = _sort_digit(_sort_k[_sort_j], _sort_shift);
                const unsigned int _sort_p = _sort_dstart[_sort_d] +
                    _sort_wh[_sort_sg * 256u + _sort_d] + _sort_rank[_sort_j];
                _sort_lk[_sort_p] = _sort_k[_sort_j];
@PAYLOAD_TO_LOCAL@
            }
        }
        LOCAL_BARRIER;
        for (unsigned int _sort_p = _sort_lid; _sort_p < _sort_count; _sort_p += _SORT_L)
        {
            const _sort_KB _sort_key = _sort_lk[_sort_p];
            const unsigned long _sort_g = _sort_base[_sort_digit(_sort_key, _sort_shift)] + _sort_p;
            _sort_out[_sort_g] = _sort_key;
@PAYLOAD_STORE@
        }
        LOCAL_BARRIER;
    }
}
)";

std::string scatter_kernel(std::string_view name, bool payload) {
  std::string text = replace_all(std::string(scatter_source), "@NAME@", name);
  if (!payload) {
    for (const auto* hook : {"@PAYLOAD_PARAMS@", "@PAYLOAD_LOCAL@\n", "@PAYLOAD_REGS@\n",
                             "@PAYLOAD_LOAD@\n", "@PAYLOAD_TO_LOCAL@\n", "@PAYLOAD_STORE@\n"}) {
      text = replace_all(std::move(text), hook, "");
    }
    return text;
  }
  // flags bit 0: the payload is each key's index in its row (the first pass); bit 1: it is
  // written as int64 to `_sort_pfinal` (the last pass), else to `_sort_pmid`.
  text = replace_all(std::move(text), "@PAYLOAD_PARAMS@",
                     ",\n    GLOBAL_MEM const _sort_PI *_sort_pin, GLOBAL_MEM _sort_PI *_sort_pmid,"
                     "\n    GLOBAL_MEM long *_sort_pfinal, unsigned int _sort_flags");
  text =
      replace_all(std::move(text), "@PAYLOAD_LOCAL@", "    LOCAL_MEM _sort_PI _sort_lv[_SORT_T];");
  text = replace_all(std::move(text), "@PAYLOAD_REGS@", "        _sort_PI _sort_v[_SORT_K];");
  text = replace_all(std::move(text), "@PAYLOAD_LOAD@",
                     "                _sort_v[_sort_j] = (_sort_flags & 1u)\n"
                     "                    ? (_sort_PI)(_sort_first + _sort_pos)\n"
                     "                    : _sort_pin[_sort_start + _sort_pos];");
  text = replace_all(std::move(text), "@PAYLOAD_TO_LOCAL@",
                     "                _sort_lv[_sort_p] = _sort_v[_sort_j];");
  text = replace_all(std::move(text), "@PAYLOAD_STORE@",
                     "            if (_sort_flags & 2u)\n"
                     "                _sort_pfinal[_sort_g] = (long)_sort_lv[_sort_p];\n"
                     "            else\n"
                     "                _sort_pmid[_sort_g] = _sort_lv[_sort_p];");
  return text;
}

}  // namespace

std::size_t radix_local_bytes(const RadixGeometry& geometry, const RadixKeySpec& spec) {
  return fixed_bytes(geometry) + geometry.tile() * (spec.bits + spec.payload_bits) / 8;
}

RadixGeometry choose_radix_geometry(const RadixLimits& limits, const RadixKeySpec& spec) noexcept {
  RadixGeometry geometry;
  const std::size_t min_sg = std::max<std::size_t>(limits.min_sub_group_size, 1);
  const std::size_t max_sg = std::max<std::size_t>(limits.max_sub_group_size, min_sg);
  std::size_t local = max_sg > 1 ? 256 : 32;
  while (local > std::max<std::size_t>(limits.max_local_size, 1) && local > max_sg) local /= 2;
  local = std::max(local, max_sg);
  geometry.local_size = local;
  geometry.sub_groups = std::max<std::size_t>(local / min_sg, 1);
  std::size_t budget = local_budget;
  // Every byte the kernel uses is declared: leave the device a little of its own.
  if (limits.local_mem_size != 0) {
    budget = std::min(budget, limits.local_mem_size > 8192 ? limits.local_mem_size - 4096
                                                           : limits.local_mem_size / 2);
  }
  const std::size_t per_item = local * (spec.bits + spec.payload_bits) / 8;
  const std::size_t fixed = fixed_bytes(geometry);
  geometry.items = budget > fixed ? (budget - fixed) / per_item : 1;
  geometry.items = std::clamp<std::size_t>(geometry.items, 1, sort_max_items);
  return geometry;
}

std::string radix_order_function(const RadixKeySpec& spec) {
  const unsigned bits = spec.bits;
  const std::string sign = fmt::format("((_sort_KB)((_sort_KB)1 << {}))", bits - 1);
  std::string body;
  switch (spec.kind) {
    case RadixKeyKind::unsigned_integer: body = "    _sort_KB y = x;\n"; break;
    case RadixKeyKind::signed_integer:
      body = fmt::format("    _sort_KB y = (_sort_KB)(x ^ {});\n", sign);
      break;
    case RadixKeyKind::floating: {
      const char* exponent = bits == 64 ? "0x7ff0000000000000UL" : "0x7f800000u";
      body = fmt::format(
          "    _sort_KB y;\n"
          "    if ((_sort_KB)(x & (_sort_KB)~{0}) > (_sort_KB){1})\n"
          "        y = (_sort_KB)~(_sort_KB)0;\n"
          "    else if ((x & {0}) != (_sort_KB)0)\n"
          "        y = (_sort_KB)~x;\n"
          "    else\n"
          "        y = (_sort_KB)(x | {0});\n",
          sign, exponent);
      break;
    }
  }
  if (spec.descending) body += "    y = (_sort_KB)~y;\n";
  return fmt::format("FUNCTION _sort_KB _sort_order(_sort_KB x)\n{{\n{}    return y;\n}}\n", body);
}

std::string sort_key_prelude(const RadixKeySpec& spec) {
  std::string text = fmt::format("typedef {} _sort_KB;\n", bits_type(spec.bits));
  text += radix_order_function(spec);
  text += "FUNCTION _sort_KB _sort_key(_sort_KB x)\n{\n";
  if (spec.kind == RadixKeyKind::floating) {
    text += fmt::format(
        "    if ((_sort_KB)(x & (_sort_KB)~((_sort_KB)1 << {})) == (_sort_KB)0)\n"
        "        x = (_sort_KB)0;\n",
        spec.bits - 1);
  }
  text += "    return _sort_order(x);\n}\n";
  return text;
}

unsigned radix_mode(const RadixKeySpec& spec) noexcept {
  return (spec.kind == RadixKeyKind::signed_integer ? 1U : 0U) |
         (spec.kind == RadixKeyKind::floating ? 2U : 0U) | (spec.descending ? 4U : 0U);
}

std::string radix_source(const RadixKeySpec& spec, const RadixGeometry& geometry) {
  std::string text = fmt::format("typedef {} _sort_KB;\n", bits_type(spec.bits));
  if (spec.payload_bits != 0) {
    text += fmt::format("typedef {} _sort_PI;\n", bits_type(spec.payload_bits));
  }
  // The transform of radix_order_function() with the kind a kernel argument (radix_mode()),
  // so that one program serves every kind of key of one width. Exponent masks of 8 and 16
  // bits are placeholders: no float keys of those widths are sorted.
  const char* exponent = spec.bits == 64   ? "0x7ff0000000000000UL"
                         : spec.bits == 32 ? "0x7f800000u"
                         : spec.bits == 16 ? "0x7c00u"
                                           : "0x78u";
  text += fmt::format(
      "FUNCTION _sort_KB _sort_order(_sort_KB x, unsigned int mode)\n"
      "{{\n"
      "    const _sort_KB sign = (_sort_KB)((_sort_KB)1 << {0});\n"
      "    _sort_KB y = x;\n"
      "    if (mode & 2u)\n"
      "    {{\n"
      "        if ((_sort_KB)(x & (_sort_KB)~sign) > (_sort_KB){1})\n"
      "            y = (_sort_KB)~(_sort_KB)0;\n"
      "        else if ((x & sign) != (_sort_KB)0)\n"
      "            y = (_sort_KB)~x;\n"
      "        else\n"
      "            y = (_sort_KB)(x | sign);\n"
      "    }}\n"
      "    else if (mode & 1u)\n"
      "        y = (_sort_KB)(x ^ sign);\n"
      "    if (mode & 4u)\n"
      "        y = (_sort_KB)~y;\n"
      "    return y;\n"
      "}}\n",
      spec.bits - 1, exponent);
  std::string common =
      replace_all(std::string(common_source), "@L@", fmt::format("{}", geometry.local_size));
  common = replace_all(std::move(common), "@K@", fmt::format("{}", geometry.items));
  common = replace_all(std::move(common), "@NSG@", fmt::format("{}", geometry.sub_groups));
  text += common;
  text += scatter_kernel("_sort_scatter", spec.payload_bits != 0);
  return text;
}

}  // namespace plinth::detail
