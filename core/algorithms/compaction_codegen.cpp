#include "algorithms/compaction_codegen.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

namespace plinth::detail {

namespace {

/// The unsigned type of a word of `size` bytes, or a struct of bytes.
std::string word_type(std::size_t size) {
  switch (size) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    case 8: return "unsigned long";
    default: return fmt::format("struct {{ unsigned char b[{}]; }}", size);
  }
}

/// Whether flag element `w` (of `recipe`'s flag type) is nonzero, as C.
std::string flag_expression(const CompactionRecipe& recipe) {
  const auto size = recipe.flag_itemsize;
  if (size == 16) {  // complex128: two doubles
    return "((w.lo & 0x7fffffffffffffffUL) != 0 || (w.hi & 0x7fffffffffffffffUL) != 0)";
  }
  const auto bits = 8 * size;
  std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  if (recipe.flag_test == NonzeroTest::real) {
    mask &= ~(std::uint64_t{1} << (bits - 1));
  } else if (recipe.flag_test == NonzeroTest::complex) {
    const auto half = bits / 2;
    mask &= ~(std::uint64_t{1} << (bits - 1)) & ~(std::uint64_t{1} << (half - 1));
  }
  return fmt::format("((w & ({})0x{:x}UL) != 0)", word_type(size), mask);
}

}  // namespace

NonzeroTest nonzero_test(const DType& dtype) {
  if (dtype.is_struct()) {
    throw LogicError(fmt::format("the struct dtype {} has no zero", dtype.name()));
  }
  if (dtype.kind() == DTypeKind::complex) return NonzeroTest::complex;
  if (dtype.kind() == DTypeKind::floating) return NonzeroTest::real;
  return NonzeroTest::word;
}

std::string compaction_source(const CompactionRecipe& recipe) {
  const auto fsize = recipe.flag_itemsize;
  if (fsize != 1 && fsize != 2 && fsize != 4 && fsize != 8 && fsize != 16) {
    throw LogicError(fmt::format("compaction: flags of {} bytes", fsize));
  }
  const std::string flag_type = fsize == 16 ? "struct { unsigned long lo, hi; }" : word_type(fsize);
  const std::string value_type =
      recipe.value_itemsize == 0 ? "long" : word_type(recipe.value_itemsize);
  const std::string value = recipe.value_itemsize == 0 ? "(long)(k)" : "_v[_v_off + (long)(k)]";
  return fmt::format(
      R"(// compaction: flags of {fsize} bytes, {what}
#define _CP_L {local}u
#define _CP_V {items}u
typedef {flag_type} _cp_f;
typedef {value_type} _cp_v;

FUNCTION INLINE unsigned int _cp_flag(GLOBAL_MEM const _cp_f *_f, long k)
{{
    const _cp_f w = _f[k];
    return {flag} ? 1u : 0u;
}}

KERNEL void _cp_count(GLOBAL_MEM const _cp_f *_f, long _f_off, unsigned long _n,
                      unsigned long _chunk, GLOBAL_MEM unsigned long *_counts)
{{
    LOCAL_MEM unsigned long _part[_CP_L];
    const unsigned int lid = (unsigned int)get_local_id(0);
    const unsigned int L = (unsigned int)get_local_size(0);
    const unsigned long start = (unsigned long)get_group_id(0) * _chunk;
    const unsigned long end = start + _chunk < _n ? start + _chunk : _n;
    unsigned long c = 0;
    for (unsigned long i = start + lid; i < end; i += L) c += _cp_flag(_f, _f_off + (long)i);
    _part[lid] = c;
    LOCAL_BARRIER;
    for (unsigned int s = _CP_L / 2u; s > 0u; s >>= 1) {{
        if (lid < s && lid + s < L) _part[lid] += _part[lid + s];
        LOCAL_BARRIER;
    }}
    if (lid == 0u) _counts[get_group_id(0)] = _part[0];
}}

KERNEL void _cp_offsets(GLOBAL_MEM unsigned long *_counts, unsigned long _groups)
{{
    LOCAL_MEM unsigned long _tot[_CP_L];
    const unsigned int lid = (unsigned int)get_local_id(0);
    const unsigned int L = (unsigned int)get_local_size(0);
    const unsigned long per = (_groups + L - 1u) / L;
    const unsigned long b = lid * per < _groups ? lid * per : _groups;
    const unsigned long e = b + per < _groups ? b + per : _groups;
    unsigned long s = 0;
    for (unsigned long k = b; k < e; ++k) s += _counts[k];
    _tot[lid] = s;
    LOCAL_BARRIER;
    if (lid == 0u) {{
        unsigned long run = 0;
        for (unsigned int t = 0; t < L; ++t) {{
            const unsigned long v = _tot[t];
            _tot[t] = run;
            run += v;
        }}
        _counts[_groups] = run;
    }}
    LOCAL_BARRIER;
    unsigned long run = _tot[lid];
    for (unsigned long k = b; k < e; ++k) {{
        const unsigned long v = _counts[k];
        _counts[k] = run;
        run += v;
    }}
}}

KERNEL void _cp_scatter(GLOBAL_MEM const _cp_f *_f, long _f_off, unsigned long _n,
                        unsigned long _chunk, GLOBAL_MEM const unsigned long *_offsets,
                        GLOBAL_MEM _cp_v *_out, long _out_off,
                        GLOBAL_MEM const _cp_v *_v, long _v_off)
{{
    LOCAL_MEM unsigned int _sg[_CP_L];
    LOCAL_MEM unsigned int _total;
    const unsigned int lid = (unsigned int)get_local_id(0);
    const unsigned int L = (unsigned int)get_local_size(0);
    const unsigned long start = (unsigned long)get_group_id(0) * _chunk;
    const unsigned long end = start + _chunk < _n ? start + _chunk : _n;
    unsigned long base = _offsets[get_group_id(0)];
    for (unsigned long t = start; t < end; t += (unsigned long)L * _CP_V) {{
        const unsigned long first = t + (unsigned long)lid * _CP_V;
        unsigned int bits = 0u, c = 0u;
        for (unsigned int v = 0; v < _CP_V; ++v) {{
            const unsigned long k = first + v;
            if (k < end && _cp_flag(_f, _f_off + (long)k) != 0u) {{
                bits |= 1u << v;
                ++c;
            }}
        }}
        const unsigned int inc = sub_group_scan_inclusive_add_uint(c);
        if (get_sub_group_local_id() == get_sub_group_size() - 1u) _sg[get_sub_group_id()] = inc;
        LOCAL_BARRIER;
        if (lid == 0u) {{
            unsigned int run = 0u;
            const unsigned int m = get_num_sub_groups();
            for (unsigned int s = 0; s < m; ++s) {{
                const unsigned int x = _sg[s];
                _sg[s] = run;
                run += x;
            }}
            _total = run;
        }}
        LOCAL_BARRIER;
        unsigned long pos = base + _sg[get_sub_group_id()] + inc - c;
        for (unsigned int v = 0; v < _CP_V; ++v) {{
            if ((bits >> v) & 1u) {{
                const unsigned long k = first + v;
                _out[_out_off + (long)pos] = {value};
                ++pos;
            }}
        }}
        base += _total;
        LOCAL_BARRIER;
    }}
}}

KERNEL void _cp_gather(GLOBAL_MEM _cp_v *_out, long _out_off, GLOBAL_MEM const _cp_v *_v,
                       long _v_off, GLOBAL_MEM const long *_idx, long _idx_off,
                       unsigned long _total, unsigned long _k, unsigned long _inner,
                       unsigned long _extent)
{{
    for (unsigned long i = get_global_id(0); i < _total; i += get_global_size(0)) {{
        const unsigned long r = i % _inner;
        const unsigned long q = i / _inner;
        const unsigned long o = q / _k;
        const unsigned long k = (o * _extent + (unsigned long)_idx[_idx_off + (long)(q % _k)]) *
                                _inner + r;
        _out[_out_off + (long)i] = {value};
    }}
}}

KERNEL void _cp_unravel(GLOBAL_MEM long *_out, long _out_off, GLOBAL_MEM const long *_flat,
                        unsigned long _count, unsigned long _stride, unsigned long _extent)
{{
    for (unsigned long i = get_global_id(0); i < _count; i += get_global_size(0))
        _out[_out_off + (long)i] = (long)(((unsigned long)_flat[i] / _stride) % _extent);
}}
)",
      fmt::arg("fsize", fsize),
      fmt::arg("what", recipe.value_itemsize == 0
                           ? std::string("flat indices")
                           : fmt::format("values of {} bytes", recipe.value_itemsize)),
      fmt::arg("local", recipe.local_size), fmt::arg("items", compaction_items_per_work_item),
      fmt::arg("flag_type", flag_type), fmt::arg("value_type", value_type),
      fmt::arg("flag", flag_expression(recipe)), fmt::arg("value", value));
}

}  // namespace plinth::detail
