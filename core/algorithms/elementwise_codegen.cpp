#include "algorithms/elementwise_codegen.hpp"
#include "templates/identifiers.hpp"

#include "dtypes/float32_rounding.hpp"

#include <plinth/dtype_c.hpp>

#include <fmt/format.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <type_traits>

namespace plinth::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// The end of a `${...}` placeholder starting at `pos` (the `$`): one past its `}` (string
// literals inside may hold braces), or the end of the text if it is not closed.
std::size_t placeholder_end(std::string_view text, std::size_t pos) {
  std::size_t p = pos + 2;
  while (p < text.size()) {
    const char c = text[p];
    if (c == '}') return p + 1;
    if (c == '"') {
      ++p;
      while (p < text.size() && text[p] != '"') p += text[p] == '\\' ? 2 : 1;
    }
    ++p;
  }
  return text.size();
}

// The end of a string or character literal starting at `pos` (its quote): one past the
// closing quote, or the end of the line if it is not closed.
std::size_t literal_end(std::string_view text, std::size_t pos) {
  const char quote = text[pos];
  std::size_t p = pos + 1;
  while (p < text.size() && text[p] != quote && text[p] != '\n') p += text[p] == '\\' ? 2 : 1;
  return std::min(text.size(), p + 1);
}

// If `[ i ]` (whitespace allowed, `i` a whole identifier) starts at `pos`, one past its `]`.
std::optional<std::size_t> index_i_end(std::string_view text, std::size_t pos) {
  std::size_t p = pos;
  while (p < text.size() && is_space(text[p])) ++p;
  if (p >= text.size() || text[p] != '[') return std::nullopt;
  ++p;
  while (p < text.size() && is_space(text[p])) ++p;
  if (p >= text.size() || text[p] != 'i') return std::nullopt;
  ++p;
  if (p < text.size() && is_ident_char(text[p])) return std::nullopt;
  while (p < text.size() && is_space(text[p])) ++p;
  if (p >= text.size() || text[p] != ']') return std::nullopt;
  return p + 1;
}

}  // namespace

std::string elementwise_offset_name(std::size_t k) { return fmt::format("_elw_o{}", k); }

std::string elementwise_strided_name(std::size_t k) { return fmt::format("_elw_a{}", k); }

std::string generated_kernel_name(std::string_view prefix, std::string_view name) {
  return fmt::format("{}kernel_{}", prefix, name);
}

std::string generated_kernel_comment(std::string_view what, std::string_view name,
                                     std::string_view functions) {
  return fmt::format("// {} '{}': {}\n", what, name, functions);
}

RewrittenOperation rewrite_operation(std::string_view operation,
                                     std::span<const std::string> array_names,
                                     const std::vector<bool>& strided) {
  std::vector<std::string> replacements(array_names.size());
  for (std::size_t k = 0; k < array_names.size() && k < strided.size(); ++k) {
    if (strided[k]) {
      replacements[k] =
          fmt::format("{}[{}]", elementwise_strided_name(k), elementwise_offset_name(k));
    }
  }
  return rewrite_operation_with(operation, array_names, replacements);
}

RewrittenOperation rewrite_operation_with(std::string_view operation,
                                          std::span<const std::string> array_names,
                                          std::span<const std::string> replacements) {
  RewrittenOperation result;
  result.raw_use.assign(array_names.size(), false);
  std::string& out = result.text;
  out.reserve(operation.size() + 64);
  // The last two characters of code (not whitespace or comments) copied, to tell members.
  char last = '\0', before_last = '\0';
  const auto copy = [&](std::size_t from, std::size_t to) {
    out.append(operation.substr(from, to - from));
    for (std::size_t p = from; p < to; ++p) {
      if (!is_space(operation[p])) {
        before_last = last;
        last = operation[p];
      }
    }
  };

  std::size_t pos = 0;
  while (pos < operation.size()) {
    const char c = operation[pos];
    const char next = pos + 1 < operation.size() ? operation[pos + 1] : '\0';
    if (c == '$' && next == '{') {
      copy(pos, placeholder_end(operation, pos));
      pos = placeholder_end(operation, pos);
    } else if (c == '/' && next == '/') {
      const auto end = operation.find('\n', pos);
      const auto stop = end == std::string_view::npos ? operation.size() : end;
      out.append(operation.substr(pos, stop - pos));  // comments do not count as code
      pos = stop;
    } else if (c == '/' && next == '*') {
      const auto end = operation.find("*/", pos + 2);
      const auto stop = end == std::string_view::npos ? operation.size() : end + 2;
      out.append(operation.substr(pos, stop - pos));
      pos = stop;
    } else if (c == '"' || c == '\'') {
      const auto stop = literal_end(operation, pos);
      copy(pos, stop);
      pos = stop;
    } else if (is_digit(c) || (c == '.' && is_digit(next))) {
      // A preprocessing number: digits, letters, `.`, and a sign after an exponent letter.
      std::size_t p = pos + 1;
      while (p < operation.size()) {
        const char d = operation[p];
        const char prev = operation[p - 1];
        if (is_ident_char(d) || d == '.' ||
            ((d == '+' || d == '-') &&
             (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'))) {
          ++p;
        } else {
          break;
        }
      }
      copy(pos, p);
      pos = p;
    } else if (is_ident_start(c)) {
      std::size_t p = pos + 1;
      while (p < operation.size() && is_ident_char(operation[p])) ++p;
      const std::string_view ident = operation.substr(pos, p - pos);
      const bool member = last == '.' || (last == '>' && before_last == '-');
      std::size_t k = array_names.size();
      if (!member) {
        for (std::size_t a = 0; a < array_names.size(); ++a) {
          if (!array_names[a].empty() && array_names[a] == ident) k = a;
        }
      }
      if (k == array_names.size()) {
        if (ident == "i" && !member) result.index_use = true;
        copy(pos, p);
        pos = p;
        continue;
      }
      const auto end = index_i_end(operation, p);
      if (!end) {
        result.raw_use[k] = true;
        copy(pos, p);
        pos = p;
      } else if (k < replacements.size() && !replacements[k].empty()) {
        out.append(replacements[k]);
        before_last = '[';
        last = ']';
        pos = *end;
      } else {
        copy(pos, *end);
        pos = *end;
      }
    } else {
      copy(pos, pos + 1);
      ++pos;
    }
  }
  return result;
}

MergedLayout merge_layout(std::span<const std::size_t> iteration_shape,
                          std::span<const AlignedStrides> arrays) {
  MergedLayout result;
  result.strides.resize(arrays.size());
  bool any = false;
  for (const auto& array : arrays) any = any || array.has_value();
  if (!any) return result;

  for (std::size_t d = 0; d < iteration_shape.size(); ++d) {
    const std::size_t extent = iteration_shape[d];
    if (extent == 1) continue;  // contributes nothing to any offset
    // Merge into the previous kept dimension if every strided array steps through both as
    // through one: its outer stride is the inner one times the inner extent.
    bool merge = !result.shape.empty();
    for (std::size_t k = 0; merge && k < arrays.size(); ++k) {
      if (!arrays[k]) continue;
      const std::int64_t inner = (*arrays[k])[d];
      merge = result.strides[k].back() == inner * static_cast<std::int64_t>(extent);
    }
    if (merge) {
      result.shape.back() *= extent;
      for (std::size_t k = 0; k < arrays.size(); ++k) {
        if (arrays[k]) result.strides[k].back() = (*arrays[k])[d];
      }
    } else {
      result.shape.push_back(extent);
      for (std::size_t k = 0; k < arrays.size(); ++k) {
        if (arrays[k]) result.strides[k].push_back((*arrays[k])[d]);
      }
    }
  }
  if (result.shape.empty()) {  // a single element
    result.shape.push_back(1);
    for (std::size_t k = 0; k < arrays.size(); ++k) {
      if (arrays[k]) result.strides[k].push_back(0);
    }
  }
  return result;
}

std::string elementwise_type_text(const ElementwiseArg& arg, std::size_t k) {
  if (arg.dtype().is_struct()) return fmt::format("${{_elw_type{}}}", k);
  return ctype(arg.dtype()).as_string();
}

namespace {

/// The kernel's parameter list, in the order elementwise_source documents.
std::string parameter_list(std::span<const ElementwiseArg> args, const LayoutSignature& signature) {
  const auto strided = [&](std::size_t k) {
    return k < signature.strided.size() && signature.strided[k];
  };
  std::vector<std::string> params;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    const auto type = elementwise_type_text(arg, k);
    if (!arg.is_array()) {
      params.push_back(fmt::format("{} {}", type, arg.name()));
      continue;
    }
    const char* constness = arg.is_written() ? "" : "const ";
    const char* restrict = !arg.is_written() && signature.restrict_inputs ? "_elw_restrict " : "";
    params.push_back(fmt::format("GLOBAL_MEM {}{} *{}_elw_p{}", constness, type, restrict, k));
    params.push_back(fmt::format("long _elw_b{}", k));
  }
  params.emplace_back("unsigned long _elw_begin");
  params.emplace_back("unsigned long _elw_end");
  const std::size_t rank = signature.rank;
  for (std::size_t d = 1; d < rank; ++d) params.push_back(fmt::format("unsigned long _elw_n{}", d));
  if (signature.index32) {
    for (std::size_t d = 1; d < rank; ++d) {
      params.push_back(fmt::format("unsigned long _elw_m{}", d));
      params.push_back(fmt::format("unsigned int _elw_h{}", d));
    }
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!strided(k)) continue;
    for (std::size_t d = 0; d < rank; ++d) params.push_back(fmt::format("long _elw_s{}_{}", k, d));
  }
  std::string joined;
  for (std::size_t p = 0; p < params.size(); ++p) {
    joined += p == 0 ? "\n    " : ",\n    ";
    joined += params[p];
  }
  return joined;
}

/// Each array's name (a strided one's elementwise_strided_name) pointed at its first element.
std::string pointer_lines(std::span<const ElementwiseArg> args, const LayoutSignature& signature) {
  std::string pointers;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    if (!arg.is_array()) continue;
    const bool strided = k < signature.strided.size() && signature.strided[k];
    const auto pointer = strided ? elementwise_strided_name(k) : arg.name();
    pointers +=
        fmt::format("    GLOBAL_MEM {}{} *const {} = _elw_p{} + _elw_b{};\n",
                    arg.is_written() ? "" : "const ", elementwise_type_text(arg, k), pointer, k, k);
  }
  return pointers;
}

/// The strided arrays' element offsets from the flat index `i`, last dimension first: in
/// 64-bit arithmetic, or with signature.index32 in 32-bit arithmetic dividing by FastDivisors.
std::string offset_lines(std::span<const ElementwiseArg> args, const LayoutSignature& signature) {
  const std::size_t rank = signature.rank;
  if (rank == 0) return {};
  const auto strided = [&](std::size_t k) {
    return k < signature.strided.size() && signature.strided[k];
  };
  const bool narrow = signature.index32;
  const char* offset_type = narrow ? "int" : "long";
  std::string offsets;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (strided(k)) {
      offsets += fmt::format("        {} {} = 0;\n", offset_type, elementwise_offset_name(k));
    }
  }
  if (rank > 1) {
    offsets += narrow ? "        unsigned int _elw_r = (unsigned int)i;\n"
                      : "        VSIZE_T _elw_r = i;\n";
  }
  for (std::size_t d = rank - 1; d >= 1; --d) {
    if (narrow) {
      offsets += fmt::format(
          "        {{\n"
          "            const unsigned int _elw_q = (unsigned int)(((unsigned long)_elw_r * "
          "_elw_m{0}) >> _elw_h{0});\n"
          "            const int _elw_j = (int)(_elw_r - _elw_q * (unsigned int)_elw_n{0});\n"
          "            _elw_r = _elw_q;\n",
          d);
    } else {
      offsets += fmt::format(
          "        {{\n"
          "            const VSIZE_T _elw_q = _elw_r / _elw_n{0};\n"
          "            const long _elw_j = (long)(_elw_r - _elw_q * _elw_n{0});\n"
          "            _elw_r = _elw_q;\n",
          d);
    }
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (strided(k)) {
        offsets += fmt::format("            {} += _elw_j * ({})_elw_s{}_{};\n",
                               elementwise_offset_name(k), offset_type, k, d);
      }
    }
    offsets += "        }\n";
  }
  const char* outer = rank > 1 ? "_elw_r" : "i";
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (strided(k)) {
      offsets += fmt::format("        {0} += ({1}){2} * ({1})_elw_s{3}_0;\n",
                             elementwise_offset_name(k), offset_type, outer, k);
    }
  }
  return offsets;
}

}  // namespace

const char* vector_type(std::size_t bytes) {
  switch (bytes) {
    case 16: return "_elw_vec16";
    case 8: return "_elw_vec8";
    case 4: return "unsigned int";
    case 2: return "unsigned short";
    default: return "unsigned char";
  }
}

namespace {

/// Defines _elw_vec16 and _elw_vec8: plain 16- and 8-byte types aligned to their size (HIP's
/// uint4 has constructors, which a union member may not have).
constexpr std::string_view vector_definitions_text =
    "#if defined(PLINTH_HIP_API)\n"
    "typedef struct ALIGN(16) { unsigned int w[4]; } _elw_vec16;\n"
    "typedef struct ALIGN(8) { unsigned int w[2]; } _elw_vec8;\n"
    "#else\n"
    "typedef uint4 _elw_vec16;\n"
    "typedef uint2 _elw_vec8;\n"
    "#endif\n";

/// The vectorised kernel body (signature.vector_width > 1, no array strided): each work item
/// takes `width` consecutive elements at a time, loading every array it reads (and storing
/// every array whose lanes the operation writes, see vector_lane_name) as one vector, then
/// runs the rest one element at a time.
std::string vector_body(std::span<const ElementwiseArg> args, std::string_view operation,
                        std::string_view vector_operation, const LayoutSignature& signature) {
  const std::size_t width = signature.vector_width;
  std::string loads, lanes, stores;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    if (!arg.is_array()) continue;
    const bool reads = arg.kind() != ElementwiseArg::Kind::output;
    const bool vector_store =
        arg.kind() == ElementwiseArg::Kind::inout ||
        (arg.kind() == ElementwiseArg::Kind::output && signature.vector_stores);
    if (!reads && !vector_store) continue;  // written one element at a time
    const auto raw = vector_type(width * arg.dtype().itemsize());
    const auto type = elementwise_type_text(arg, k);
    loads += fmt::format("        union {{ {} v; {} e[{}]; }} _elw_u{};\n", raw, type, width, k);
    if (reads) {
      loads += fmt::format("        _elw_u{0}.v = *(GLOBAL_MEM const {1} *)({2} + _elw_e);\n", k,
                           raw, arg.name());
    }
    if (vector_store) {
      stores += fmt::format("        *(GLOBAL_MEM {1} *)({2} + _elw_e) = _elw_u{0}.v;\n", k, raw,
                            arg.name());
    }
  }
  for (std::size_t lane = 0; lane < width; ++lane) {
    lanes += fmt::format(
        "        {{\n"
        "        const int _elw_j = {0};\n"
        "        const VSIZE_T i = _elw_e + {0};\n"
        "{1}\n"
        "        ;\n"
        "        }}\n",
        lane, vector_operation);
  }
  return fmt::format(
      "    const VSIZE_T _elw_step = (VSIZE_T)get_global_size(0);\n"
      "    const VSIZE_T _elw_vectors = ((VSIZE_T)_elw_end - (VSIZE_T)_elw_begin) / {width};\n"
      "    for (VSIZE_T _elw_v = (VSIZE_T)get_global_id(0); _elw_v < _elw_vectors; _elw_v += "
      "_elw_step)\n"
      "    {{\n"
      "        const VSIZE_T _elw_e = (VSIZE_T)_elw_begin + _elw_v * {width};\n"
      "{loads}{lanes}{stores}"
      "    }}\n"
      "    for (VSIZE_T i = (VSIZE_T)_elw_begin + _elw_vectors * {width} + "
      "(VSIZE_T)get_global_id(0);\n"
      "         i < (VSIZE_T)_elw_end; i += _elw_step)\n"
      "    {{\n"
      "{operation}\n"
      "        ;\n"
      "    }}\n",
      fmt::arg("width", width), fmt::arg("loads", loads), fmt::arg("lanes", lanes),
      fmt::arg("stores", stores), fmt::arg("operation", operation));
}

/// The plain body: a grid-stride loop, one index at a time.
std::string simple_body(std::string_view operation, std::string_view offsets) {
  return fmt::format(
      "    for (VSIZE_T i = (VSIZE_T)_elw_begin + (VSIZE_T)get_global_id(0); i < "
      "(VSIZE_T)_elw_end;\n"
      "         i += (VSIZE_T)get_global_size(0))\n"
      "    {{\n"
      "{offsets}"
      "{operation}\n"
      "        ;\n"
      "    }}\n",
      fmt::arg("offsets", offsets), fmt::arg("operation", operation));
}

/// The body for restrict inputs: four indices a grid stride apart in each step, then one at a
/// time for the rest.
std::string unrolled_body(std::string_view operation, std::string_view offsets) {
  // One index's work, in a block of its own: `i` is a variable as in the simple loop.
  const auto step = [&](std::string_view index) {
    return fmt::format(
        "        {{\n"
        "        VSIZE_T i = {index};\n"
        "{offsets}"
        "{operation}\n"
        "        ;\n"
        "        }}\n",
        fmt::arg("index", index), fmt::arg("offsets", offsets), fmt::arg("operation", operation));
  };
  return fmt::format(
      "    const VSIZE_T _elw_step = (VSIZE_T)get_global_size(0);\n"
      "    const VSIZE_T _elw_stop = (VSIZE_T)_elw_end;\n"
      "    VSIZE_T _elw_i = (VSIZE_T)_elw_begin + (VSIZE_T)get_global_id(0);\n"
      "    for (; _elw_i + 3 * _elw_step < _elw_stop; _elw_i += 4 * _elw_step)\n"
      "    {{\n"
      "{step0}{step1}{step2}{step3}"
      "    }}\n"
      "    for (; _elw_i < _elw_stop; _elw_i += _elw_step)\n"
      "    {{\n"
      "{step0}"
      "    }}\n",
      fmt::arg("step0", step("_elw_i")), fmt::arg("step1", step("_elw_i + _elw_step")),
      fmt::arg("step2", step("_elw_i + 2 * _elw_step")),
      fmt::arg("step3", step("_elw_i + 3 * _elw_step")));
}

}  // namespace

std::string_view vector_definitions() { return vector_definitions_text; }

std::string vector_lane_name(std::size_t k) { return fmt::format("_elw_u{}.e[_elw_j]", k); }

std::string elementwise_source(std::span<const ElementwiseArg> args, std::string_view operation,
                               std::string_view preamble, std::string_view name,
                               const LayoutSignature& signature,
                               std::string_view vector_operation) {
  std::string body;
  if (signature.vector_width > 1 && signature.rank == 0) {
    body = vector_body(args, operation, vector_operation, signature);
  } else if (signature.restrict_inputs) {
    body = unrolled_body(operation, offset_lines(args, signature));
  } else {
    body = simple_body(operation, offset_lines(args, signature));
  }
  const bool vectors = signature.vector_width > 1 && signature.rank == 0;
  return fmt::format(
      "{restrict}{vectors}"
      "{preamble}\n"
      "KERNEL void {name}({params})\n"
      "{{\n"
      "{pointers}"
      "{body}"
      "}}\n",
      fmt::arg("restrict", signature.restrict_inputs ? restrict_definition : ""),
      fmt::arg("vectors", vectors ? vector_definitions_text : ""), fmt::arg("preamble", preamble),
      fmt::arg("name", name), fmt::arg("params", parameter_list(args, signature)),
      fmt::arg("pointers", pointer_lines(args, signature)), fmt::arg("body", body));
}

namespace {

template <class T>
ScalarBytes bytes_of(const T& value) {
  ScalarBytes result;
  static_assert(sizeof(T) <= 16);
  std::memcpy(result.bytes.data(), &value, sizeof(T));
  result.size = sizeof(T);
  return result;
}

// An integer `value` as the integer type I, if it fits.
template <class I, class V>
std::optional<I> integer_as(V value) {
  if constexpr (std::is_signed_v<V>) {
    if (value < 0) {
      if constexpr (std::is_unsigned_v<I>) {
        return std::nullopt;
      } else {
        if (value < static_cast<std::int64_t>(std::numeric_limits<I>::min())) return std::nullopt;
        return static_cast<I>(value);
      }
    }
  }
  const auto magnitude = static_cast<std::uint64_t>(value);
  if (magnitude > static_cast<std::uint64_t>(std::numeric_limits<I>::max())) return std::nullopt;
  return static_cast<I>(value);
}

// A double as the integer type I, if it is a whole number in range.
template <class I>
std::optional<I> double_as_integer(double value) {
  if (!std::isfinite(value) || std::trunc(value) != value) return std::nullopt;
  // 2^63 and 2^64 are exact doubles; every double below them converts without overflow.
  if (value < 0) {
    if (value < -9223372036854775808.0) return std::nullopt;
    return integer_as<I>(static_cast<std::int64_t>(value));
  }
  if (value >= 18446744073709551616.0) return std::nullopt;
  return integer_as<I>(static_cast<std::uint64_t>(value));
}

// An integer as the floating type F, if F holds it exactly.
template <class F, class V>
std::optional<F> integer_as_floating(V value) {
  const F converted = static_cast<F>(value);
  // F's maximum exceeds every 64-bit integer; the conversion rounds, possibly up to 2^63 or
  // 2^64, which do not convert back.
  if constexpr (std::is_signed_v<V>) {
    if (converted >= static_cast<F>(9223372036854775808.0)) return std::nullopt;
  } else {
    if (converted >= static_cast<F>(18446744073709551616.0)) return std::nullopt;
  }
  if (static_cast<V>(converted) != value) return std::nullopt;
  return converted;
}

// A double as the floating type F, if F holds it exactly (infinities and NaN included).
template <class F>
std::optional<F> double_as_floating(double value) {
  if constexpr (std::is_same_v<F, double>) {
    return value;
  } else {
    static_assert(std::is_same_v<F, float>);
    if (std::isnan(value)) return std::numeric_limits<F>::quiet_NaN();
    // Checked without narrowing and widening again, which GCC 12 at -O2 may fold away
    // (float32_rounding.hpp); the conversion of an exact value then loses nothing.
    if (!is_exact_float32(value)) return std::nullopt;
    return static_cast<F>(value);
  }
}

// A real scalar alternative (bool excluded) as the floating type F.
template <class F>
std::optional<F> real_as_floating(const detail::ElementwiseVariant& value) {
  if (const auto* v = std::get_if<std::int64_t>(&value)) return integer_as_floating<F>(*v);
  if (const auto* v = std::get_if<std::uint64_t>(&value)) return integer_as_floating<F>(*v);
  if (const auto* v = std::get_if<double>(&value)) return double_as_floating<F>(*v);
  return std::nullopt;
}

template <class I>
std::optional<ScalarBytes> as_integer(const detail::ElementwiseVariant& value) {
  std::optional<I> converted;
  if (const auto* v = std::get_if<std::int64_t>(&value)) converted = integer_as<I>(*v);
  if (const auto* v = std::get_if<std::uint64_t>(&value)) converted = integer_as<I>(*v);
  if (const auto* v = std::get_if<double>(&value)) converted = double_as_integer<I>(*v);
  if (!converted) return std::nullopt;
  return bytes_of(*converted);
}

template <class F>
std::optional<ScalarBytes> as_complex(const detail::ElementwiseVariant& value) {
  std::optional<F> re, im;
  if (const auto* v = std::get_if<std::complex<double>>(&value)) {
    re = double_as_floating<F>(v->real());
    im = double_as_floating<F>(v->imag());
  } else {
    re = real_as_floating<F>(value);
    im = F(0);
  }
  if (!re || !im) return std::nullopt;
  const F parts[2] = {*re, *im};
  return bytes_of(parts);
}

}  // namespace

std::optional<ScalarBytes> convert_scalar(const detail::ElementwiseVariant& value,
                                          const DType& dtype) noexcept {
  if (std::holds_alternative<Array>(value) || std::holds_alternative<MultiArray>(value)) {
    return std::nullopt;
  }
  const bool is_bool = std::holds_alternative<bool>(value);
  const auto size = dtype.itemsize();
  switch (dtype.kind()) {
    case DTypeKind::boolean:
      if (!is_bool) return std::nullopt;
      return bytes_of(std::get<bool>(value));
    case DTypeKind::complex:
      if (is_bool) return std::nullopt;
      if (size == 8) return as_complex<float>(value);
      if (size == 16) return as_complex<double>(value);
      return std::nullopt;
    case DTypeKind::floating:
      if (is_bool || std::holds_alternative<std::complex<double>>(value)) return std::nullopt;
      if (size == 4) {
        const auto f = real_as_floating<float>(value);
        return f ? std::optional(bytes_of(*f)) : std::nullopt;
      }
      if (size == 8) {
        const auto f = real_as_floating<double>(value);
        return f ? std::optional(bytes_of(*f)) : std::nullopt;
      }
      return std::nullopt;  // float16
    case DTypeKind::signed_integer:
      if (size == 1) return as_integer<std::int8_t>(value);
      if (size == 2) return as_integer<std::int16_t>(value);
      if (size == 4) return as_integer<std::int32_t>(value);
      if (size == 8) return as_integer<std::int64_t>(value);
      return std::nullopt;
    case DTypeKind::unsigned_integer:
      if (size == 1) return as_integer<std::uint8_t>(value);
      if (size == 2) return as_integer<std::uint16_t>(value);
      if (size == 4) return as_integer<std::uint32_t>(value);
      if (size == 8) return as_integer<std::uint64_t>(value);
      return std::nullopt;
    case DTypeKind::structure: break;
  }
  return std::nullopt;
}

}  // namespace plinth::detail
