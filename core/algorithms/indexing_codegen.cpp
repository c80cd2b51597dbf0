#include "algorithms/indexing_codegen.hpp"

#include <fmt/format.h>

namespace plinth::detail {

namespace {

/// The type of an element of `itemsize` bytes: an unsigned word, or a struct of words.
std::string element_type(std::size_t itemsize) {
  switch (itemsize) {
    case 1: return "unsigned char";
    case 2: return "unsigned short";
    case 4: return "unsigned int";
    case 8: return "unsigned long";
    default: break;
  }
  if (itemsize % 8 == 0) return fmt::format("struct {{ unsigned long w[{}]; }}", itemsize / 8);
  if (itemsize % 4 == 0) return fmt::format("struct {{ unsigned int w[{}]; }}", itemsize / 4);
  if (itemsize % 2 == 0) return fmt::format("struct {{ unsigned short w[{}]; }}", itemsize / 2);
  return fmt::format("struct {{ unsigned char w[{}]; }}", itemsize);
}

/// The C type of index dtype `dtype`.
std::string index_type(const DType& dtype) {
  const bool is_signed = dtype.kind() == DTypeKind::signed_integer;
  switch (dtype.itemsize()) {
    case 1: return is_signed ? "signed char" : "unsigned char";
    case 2: return is_signed ? "short" : "unsigned short";
    case 4: return is_signed ? "int" : "unsigned int";
    default: return is_signed ? "long" : "unsigned long";
  }
}

/// The raise mode's body of `_ix_fix<j>`: `prologue` sets `long v` to the index (negative ones
/// counted from the end where the dtype is signed); one out of [0, n) is noted in `bad` (its
/// flag and the offending value) and answered with -1.
std::string raise_body(std::size_t j, std::string_view prologue) {
  return fmt::format(
      "{0}\n    if ((unsigned long)v >= (unsigned long)n) {{ bad[{1}] = 1; bad[{2}] = (long)x; "
      "return -1; }}\n    return v;",
      prologue, 2 * j, 2 * j + 1);
}

/// `_ix_fix<j>(x, n, bad)`: index x of a dimension of extent n (n > 0) under the mode, or -1
/// (raise: out of range, noted in bad).
std::string fix_function(std::size_t j, const DType& dtype, IndexMode mode) {
  const bool is_signed = dtype.kind() == DTypeKind::signed_integer;
  std::string body;
  if (is_signed) {
    switch (mode) {
      case IndexMode::raise:
        body = raise_body(j, "long v = (long)x;\n    if (v < 0) v += n;");
        break;
      case IndexMode::wrap:
        body =
            "long v = (long)x;\n    if ((unsigned long)v >= (unsigned long)n) {\n"
            "        v %= n;\n        if (v < 0) v += n;\n    }\n    return v;";
        break;
      case IndexMode::clip: body = "return x < 0 ? 0 : (long)x >= n ? n - 1 : (long)x;"; break;
    }
  } else {
    switch (mode) {
      case IndexMode::raise: body = raise_body(j, "long v = (long)x;"); break;
      case IndexMode::wrap:
        body =
            "return (unsigned long)x >= (unsigned long)n ? (long)((unsigned long)x % "
            "(unsigned long)n) : (long)x;";
        break;
      case IndexMode::clip:
        body = "return (unsigned long)x >= (unsigned long)n ? n - 1 : (long)x;";
        break;
    }
  }
  return fmt::format(
      "FUNCTION INLINE long _ix_fix{}({} x, long n, GLOBAL_MEM long *bad)\n{{\n    {}\n}}\n", j,
      index_type(dtype), body);
}

}  // namespace

std::vector<std::uint64_t> index_variant(const IndexRecipe& recipe) {
  std::vector<std::uint64_t> words{recipe.itemsize, static_cast<std::uint64_t>(recipe.mode),
                                   static_cast<std::uint64_t>(recipe.scatter) |
                                       static_cast<std::uint64_t>(recipe.simple) << 1 |
                                       static_cast<std::uint64_t>(recipe.full_values) << 2};
  for (const auto& d : recipe.index_dtypes) {
    words.push_back(static_cast<std::uint64_t>(d.kind()) << 8 | d.itemsize());
  }
  return words;
}

std::string index_source(const IndexRecipe& recipe) {
  std::string fixes, params, pass, sum;
  for (std::size_t j = 0; j < recipe.index_dtypes.size(); ++j) {
    fixes += fix_function(j, recipe.index_dtypes[j], recipe.mode);
    params += fmt::format(", GLOBAL_MEM const {} *_i{}, long _i{}_off, long _n{}, long _s{}",
                          index_type(recipe.index_dtypes[j]), j, j, j, j);
    pass += fmt::format(", _i{0}, _i{0}_off, _n{0}, _s{0}", j);
    sum += fmt::format(
        "    {{\n        const long v = _ix_fix{0}(_i{0}[_i{0}_off + (long)b], _n{0}, _bad);\n"
        "        if (v < 0) return -1;\n        at += v * _s{0};\n    }}\n",
        j);
  }
  const std::string position =
      recipe.simple ? "const unsigned long b = o;\n    long at = 0;"
                    : "const unsigned long r = o % _post;\n    const unsigned long t = o / _post;\n"
                      "    const unsigned long b = t % _nb;\n"
                      "    long at = (long)((t / _nb) * _span + r);";
  const std::string load = recipe.scatter ? fmt::format("_src[_src_off + (long)({})]",
                                                        recipe.full_values ? "o" : "o % _nv")
                                          : std::string("_src[_src_off + at[u]]");
  const char* position_of_u = "const unsigned long o = o0 + (unsigned long)u * step;\n            ";
  const std::string store =
      recipe.scatter ? "_out[_out_off + at[u]] = v[u];" : "_out[_out_off + (long)o] = v[u];";
  return fmt::format(
      R"(// plinth {what}: elements of {itemsize} bytes
typedef {element} _ix_e;

{fixes}
// The source position of position o (gather; the destination's for scatter), or -1 (raise:
// an index out of range).
FUNCTION INLINE long _ix_at(unsigned long o{params}, unsigned long _nb, unsigned long _post,
                            unsigned long _span, GLOBAL_MEM long *_bad)
{{
    {position}
{sum}    return at;
}}

// Four positions a grid stride apart per step: their loads are in flight together.
KERNEL void _ix_run(GLOBAL_MEM _ix_e *_out, long _out_off, GLOBAL_MEM const _ix_e *_src,
                    long _src_off{params}, unsigned long _nb, unsigned long _post,
                    unsigned long _span, unsigned long _total, unsigned long _nv,
                    GLOBAL_MEM long *_bad)
{{
    const unsigned long step = get_global_size(0);
    for (unsigned long o0 = get_global_id(0); o0 < _total; o0 += 4 * step) {{
        long at[4];
        _ix_e v[4];
        for (int u = 0; u < 4; ++u) {{
            const unsigned long o = o0 + (unsigned long)u * step;
            at[u] = o < _total ? _ix_at(o{pass}, _nb, _post, _span, _bad) : -1;
        }}
        for (int u = 0; u < 4; ++u) {{
            {load_o}if (at[u] >= 0) v[u] = {load};
        }}
        for (int u = 0; u < 4; ++u) {{
            {store_o}if (at[u] >= 0) {store}
        }}
    }}
}}
)",
      fmt::arg("what", recipe.scatter ? "scatter" : "gather"),
      fmt::arg("itemsize", recipe.itemsize), fmt::arg("element", element_type(recipe.itemsize)),
      fmt::arg("fixes", fixes), fmt::arg("params", params), fmt::arg("pass", pass),
      fmt::arg("position", position), fmt::arg("sum", sum), fmt::arg("load", load),
      fmt::arg("store", store), fmt::arg("load_o", recipe.scatter ? position_of_u : ""),
      fmt::arg("store_o", recipe.scatter ? "" : position_of_u));
}

}  // namespace plinth::detail
