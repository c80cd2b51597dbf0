#pragma once

// What the dialect's generators (gpu_cxx.cpp, opencl_c.cpp) share: the scalar types that
// atomics and sub-group operations exist for, the operations, and the one text substitution
// they write their per-type functions with. Internal to the SDK's sources.

#include <array>
#include <string>
#include <string_view>
#include <utility>

namespace plinth::backend::dialect {

/// A scalar type of the dialect's typed functions (docs/kernel-dialect.md, "Scalar types").
struct Scalar {
  std::string_view suffix;  ///< in function names: atomic_add_global_<suffix>
  std::string_view ctype;   ///< the dialect's C type
  unsigned bits;
  bool is_float;
  bool is_signed;
};

inline constexpr std::array<Scalar, 6> scalars{{
    {"int", "int", 32, false, true},
    {"uint", "unsigned int", 32, false, false},
    {"long", "long", 64, false, true},
    {"ulong", "unsigned long", 64, false, false},
    {"float", "float", 32, true, true},
    {"double", "double", 64, true, true},
}};

/// Read-modify-write operations (besides cmpxchg) of integer atomics, and of float ones.
inline constexpr std::array<std::string_view, 8> integer_atomic_ops{"add", "sub", "min", "max",
                                                                    "and", "or",  "xor", "xchg"};
inline constexpr std::array<std::string_view, 5> float_atomic_ops{"add", "sub", "min", "max",
                                                                  "xchg"};
/// Operations of sub-group reductions and scans.
inline constexpr std::array<std::string_view, 3> group_ops{"add", "min", "max"};
/// The memory spaces of atomics: the suffix and the dialect's qualifier.
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 2> spaces{{
    {"global", "GLOBAL_MEM"},
    {"local", "LOCAL_MEM"},
}};

/// The element types of vload2/vload4/vstore2/vstore4: the dialect's C type, and the prefix of
/// its vector types (`uchar` of `uchar2`, `uchar4`).
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 10> vector_elements{{
    {"char", "char"},
    {"unsigned char", "uchar"},
    {"short", "short"},
    {"unsigned short", "ushort"},
    {"int", "int"},
    {"unsigned int", "uint"},
    {"long", "long"},
    {"unsigned long", "ulong"},
    {"float", "float"},
    {"double", "double"},
}};

/// `text` with every `$NAME` of `substitutions` replaced (longest names first is the caller's
/// business: `$T` and `$TYPE` should not both be used). Throws only std::bad_alloc.
inline std::string expand(
    std::string_view text,
    std::initializer_list<std::pair<std::string_view, std::string_view>> substitutions) {
  std::string out;
  out.reserve(text.size() + 64);
  for (std::size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (text[i] == '$') {
      for (const auto& [name, value] : substitutions) {
        if (text.substr(i + 1, name.size()) == name) {
          out += value;
          i += 1 + name.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

}  // namespace plinth::backend::dialect
