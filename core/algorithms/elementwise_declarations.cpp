// parse_elementwise_args: PyCUDA's C argument lists ("float a, float *x") as ElementwiseArgs.

#include "templates/identifiers.hpp"

#include <plinth/elementwise_args.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace plinth {
namespace {
using detail::is_ident_char;

const std::array<std::pair<const char*, const char*>, 36> type_names{{
    {"bool", "bool"},
    {"char", "int8"},
    {"signed char", "int8"},
    {"int8_t", "int8"},
    {"unsigned char", "uint8"},
    {"uchar", "uint8"},
    {"uint8_t", "uint8"},
    {"short", "int16"},
    {"short int", "int16"},
    {"signed short", "int16"},
    {"int16_t", "int16"},
    {"unsigned short", "uint16"},
    {"ushort", "uint16"},
    {"uint16_t", "uint16"},
    {"int", "int32"},
    {"signed", "int32"},
    {"signed int", "int32"},
    {"int32_t", "int32"},
    {"unsigned int", "uint32"},
    {"unsigned", "uint32"},
    {"uint", "uint32"},
    {"uint32_t", "uint32"},
    {"long", "int64"},
    {"long long", "int64"},
    {"int64_t", "int64"},
    {"unsigned long", "uint64"},
    {"unsigned long long", "uint64"},
    {"ulong", "uint64"},
    {"uint64_t", "uint64"},
    {"size_t", "uint64"},
    {"half", "float16"},
    {"float", "float32"},
    {"double", "float64"},
    {"plinth_complex64", "complex64"},
    {"plinth_complex128", "complex128"},
    {"long int", "int64"},
}};

bool is_qualifier(std::string_view word) {
  return word == "const" || word == "volatile" || word == "restrict" || word == "__restrict__" ||
         word == "__restrict" || word == "GLOBAL_MEM" || word == "__global" || word == "global";
}

ElementwiseArg parse_one(std::string_view declaration, ElementwiseArg::Kind pointer_kind) {
  const auto fail = [&](const std::string& why) {
    return LogicError(fmt::format("the argument declaration '{}' {}", declaration, why));
  };
  std::vector<std::string> words;
  int stars = 0;
  bool is_const = false;
  for (std::size_t i = 0; i < declaration.size();) {
    const char c = declaration[i];
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      ++i;
    } else if (c == '*') {
      ++stars;
      ++i;
    } else if (c == '[' && i + 1 < declaration.size() && declaration[i + 1] == ']') {
      ++stars;
      i += 2;
    } else if (is_ident_char(c)) {
      std::size_t end = i;
      while (end < declaration.size() && is_ident_char(declaration[end])) ++end;
      const std::string word(declaration.substr(i, end - i));
      if (word == "const") is_const = true;
      if (!is_qualifier(word)) words.push_back(word);
      i = end;
    } else {
      throw fail(fmt::format("has a '{}' where a type, a name or '*' belongs", c));
    }
  }
  if (stars > 1) throw fail("has more than one '*': an argument is a scalar or an array");
  if (words.size() < 2) throw fail("needs a type and a name, as in 'float *x' or 'int n'");
  const std::string name = words.back();
  words.pop_back();
  std::string type;
  for (const auto& word : words) type += (type.empty() ? "" : " ") + word;
  const char* dtype_name = nullptr;
  for (const auto& [c_name, numpy_name] : type_names) {
    if (type == c_name) dtype_name = numpy_name;
  }
  if (dtype_name == nullptr) {
    throw fail(
        fmt::format("has the type '{}', which is not a scalar C type plinth knows "
                    "(int, unsigned int, long, float, double, plinth_complex64, "
                    "int32_t...)",
                    type));
  }
  const DType dtype = DType::from_name(dtype_name);
  if (stars == 0) return ElementwiseArg::scalar(name, dtype);
  if (is_const) return ElementwiseArg::input(name, dtype);
  switch (pointer_kind) {
    case ElementwiseArg::Kind::input: return ElementwiseArg::input(name, dtype);
    case ElementwiseArg::Kind::output: return ElementwiseArg::output(name, dtype);
    default: return ElementwiseArg::inout(name, dtype);
  }
}

}  // namespace

std::vector<ElementwiseArg> parse_elementwise_args(std::string_view declarations,
                                                   ElementwiseArg::Kind pointer_kind) {
  if (pointer_kind == ElementwiseArg::Kind::scalar) {
    throw LogicError("parse_elementwise_args: pointers cannot be scalars (pointer_kind)");
  }
  std::vector<ElementwiseArg> args;
  std::size_t start = 0;
  while (start <= declarations.size()) {
    std::size_t end = declarations.find(',', start);
    if (end == std::string_view::npos) end = declarations.size();
    const std::string_view part = declarations.substr(start, end - start);
    if (part.find_first_not_of(" \t\r\n") != std::string_view::npos) {
      const std::size_t first = part.find_first_not_of(" \t\r\n");
      const std::size_t last = part.find_last_not_of(" \t\r\n");
      args.push_back(parse_one(part.substr(first, last - first + 1), pointer_kind));
    }
    start = end + 1;
  }
  return args;
}

}  // namespace plinth
