#include "compile/program_job.hpp"

#include <plinth/backend/compiler_option_allow_list.hpp>
#include <plinth/errors.hpp>
#include <plinth/printable.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

namespace plinth::detail {

namespace {

using nlohmann::json;

constexpr std::size_t max_excerpt = 80;          // bytes of the input a message quotes
constexpr std::uint64_t max_count = 1ULL << 31;  // a constant array's length, itemsize, bytes

constexpr std::string_view base64_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `text` printable, cut to max_excerpt bytes.
std::string excerpt(std::string_view text) {
  std::string quoted = printable(text.substr(0, max_excerpt));
  if (text.size() > max_excerpt) quoted += "...";
  return quoted;
}

std::string to_base64(std::string_view bytes) {
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t group = 0;
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    for (std::size_t j = 0; j < 3; ++j)
      group = group << 8 | (j < n ? static_cast<unsigned char>(bytes[i + j]) : 0U);
    for (std::size_t j = 0; j < 4; ++j)
      text += j <= n ? base64_alphabet[(group >> (18 - 6 * j)) & 63] : '=';
  }
  return text;
}

/// The bytes of base64 `text` (with its '=' padding); throws LogicError for anything else.
std::string from_base64(std::string_view text, std::string_view field) {
  const auto refuse = [&](const std::string& why) {
    throw LogicError("\"" + std::string(field) + "\" is not base64: " + why);
  };
  if (text.size() % 4 != 0) refuse("its length is not a multiple of 4");
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  const auto data = text.substr(0, text.size() - padding);
  std::string bytes;
  bytes.reserve(data.size() / 4 * 3 + 2);
  std::uint32_t group = 0;
  int bits = 0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    const auto value = base64_alphabet.find(data[i]);
    if (value == std::string_view::npos)
      refuse("'" + excerpt(data.substr(i, 1)) + "' at character " + std::to_string(i));
    group = group << 6 | static_cast<std::uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((group >> bits) & 0xffU);
    }
  }
  return bytes;
}

/// A value for a message: a short excerpt of a number, string, true, false or null; the type of
/// an array or object (dumping one may recurse as deep as the input nests).
std::string describe(const json& value) {
  if (value.is_structured()) return std::string("a JSON ") + value.type_name();
  return excerpt(value.dump());
}

/// Whether nlohmann::json can write `text` as a JSON string (it is valid UTF-8).
bool is_utf8(std::string_view text) {
  try {
    (void)json(std::string(text)).dump();
    return true;
  } catch (const json::type_error&) {
    return false;
  }
}

/// `text` as a JSON string, or as {"base64": ...} when it is not UTF-8 (setting `base64`).
json text_value(std::string_view text, bool& base64) {
  if (is_utf8(text)) return std::string(text);
  base64 = true;
  return json{{"base64", to_base64(text)}};
}

/// A text field: a JSON string, or (version 2) {"base64": "..."}.
std::string text_of(const json& value, std::string_view field, int version) {
  if (value.is_string()) return value.get<std::string>();
  if (version >= 2 && value.is_object() && value.size() == 1 && value.contains("base64") &&
      value.at("base64").is_string())
    return from_base64(value.at("base64").get_ref<const std::string&>(), field);
  throw LogicError("\"" + std::string(field) + "\" is not " +
                   (version >= 2 ? "a string or {\"base64\": \"...\"}" : "a string") + " but " +
                   describe(value));
}

bool flag_of(const json& job, const char* field) {
  const auto it = job.find(field);
  if (it == job.end()) return false;
  if (!it->is_boolean())
    throw LogicError("\"" + std::string(field) + "\" is not true or false but " + describe(*it));
  return it->get<bool>();
}

/// An integer from 1 to max_count: a JSON number without fraction or exponent that fits.
std::size_t count_of(const json& array, const char* field) {
  const auto it = array.find(field);
  if (it == array.end()) throw LogicError("a constant array has no \"" + std::string(field) + "\"");
  if (!it->is_number_unsigned() || it->get<std::uint64_t>() == 0 ||
      it->get<std::uint64_t>() > max_count)
    throw LogicError("a constant array's \"" + std::string(field) + "\" is " + describe(*it) +
                     ", not an integer from 1 to 2^31");
  return static_cast<std::size_t>(it->get<std::uint64_t>());
}

int version_of(const json& job) {
  const auto it = job.find("plinth_program");
  if (it != job.end() && it->is_number_unsigned()) {
    const auto version = it->get<std::uint64_t>();
    if (version == 1 || version == 2) return static_cast<int>(version);
  }
  throw LogicError(
      "not a plinth program job (\"plinth_program\": 1 or 2 is missing; a newer plinth may "
      "have written it)");
}

ProgramJob read_job(const json& document) {
  if (!document.is_object()) throw LogicError("not a plinth program job (not a JSON object)");
  const int version = version_of(document);
  ProgramJob job;
  if (!document.contains("api")) throw LogicError("\"api\" is missing");
  job.api = text_of(document.at("api"), "api", version);
  if (job.api.empty() || job.api.size() > 64 ||
      !std::all_of(job.api.begin(), job.api.end(), [](char c) {
        return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9');
      }))
    throw LogicError("\"api\" is '" + excerpt(job.api) +
                     "', not an API's shortcut (letters, digits and '_', at most 64)");
  if (!document.contains("source")) throw LogicError("\"source\" is missing");
  job.source = text_of(document.at("source"), "source", version);
  job.options.no_prelude = flag_of(document, "no_prelude");
  job.options.fast_math = flag_of(document, "fast_math");
  if (const auto it = document.find("compiler_options"); it != document.end()) {
    if (!it->is_array()) throw LogicError("\"compiler_options\" is not a list");
    for (const auto& option : *it)
      job.options.compiler_options.push_back(text_of(option, "compiler_options", version));
  }
  if (auto problem = backend::compiler_option_problem(job.api, job.options.compiler_options);
      !problem.empty())
    throw LogicError(problem);
  if (const auto it = document.find("constant_arrays"); it != document.end()) {
    if (!it->is_array()) throw LogicError("\"constant_arrays\" is not a list");
    for (const auto& array : *it) {
      if (!array.is_object()) throw LogicError("a constant array is not a JSON object");
      if (!array.contains("name") || !array.contains("ctype"))
        throw LogicError("a constant array has no \"name\" or no \"ctype\"");
      ConstantArray constant{text_of(array.at("name"), "name", version),
                             text_of(array.at("ctype"), "ctype", version),
                             count_of(array, "length"), count_of(array, "itemsize")};
      if (constant.length > max_count / constant.itemsize)
        throw LogicError("the constant array '" + excerpt(constant.name) +
                         "' is larger than 2^31 bytes");
      job.options.constant_arrays.push_back(std::move(constant));
    }
  }
  return job;
}

}  // namespace

std::string program_job_text(std::string_view api, std::string_view source,
                             const ProgramOptions& options) {
  bool base64 = false;
  json job;
  job["plinth_program"] = 1;
  job["api"] = text_value(api, base64);
  job["source"] = text_value(source, base64);
  job["no_prelude"] = options.no_prelude;
  job["fast_math"] = options.fast_math;
  auto compiler_options = json::array();
  for (const auto& option : options.compiler_options)
    compiler_options.push_back(text_value(option, base64));
  job["compiler_options"] = std::move(compiler_options);
  auto arrays = json::array();
  for (const auto& array : options.constant_arrays) {
    arrays.push_back({{"name", text_value(array.name, base64)},
                      {"ctype", text_value(array.ctype, base64)},
                      {"length", array.length},
                      {"itemsize", array.itemsize}});
  }
  job["constant_arrays"] = std::move(arrays);
  if (base64) job["plinth_program"] = 2;
  return job.dump(1) + "\n";
}

ProgramJob parse_program_job(std::string_view text) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's message quotes the whole last token, which may be the whole input.
    const std::size_t at = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const std::size_t from = at > max_excerpt / 2 ? at - max_excerpt / 2 : 0;
    throw LogicError("not JSON: a syntax error at byte " + std::to_string(e.byte) + ", near '" +
                     excerpt(text.substr(from, max_excerpt)) + "'");
  } catch (const json::exception& e) {  // a number too large for a double, ...
    throw LogicError("not JSON: " + excerpt(e.what()));
  }
  try {
    return read_job(document);
  } catch (const json::exception& e) {  // not expected: every access above is checked
    throw LogicError("not a plinth program job: " + excerpt(e.what()));
  }
}

}  // namespace plinth::detail
