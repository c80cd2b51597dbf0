#include "compile_job.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace plinth_compile {

namespace {

template <class T>
T json_field(const nlohmann::json& job, const char* name, T fallback) {
  const auto it = job.find(name);
  if (it == job.end()) return fallback;
  return it->get<T>();
}

std::size_t parse_size(const std::string& text, const char* what, const std::string& whole) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    throw std::runtime_error(fmt::format("'{}': the {} '{}' is not a number", whole, what, text));
  }
  return value;
}

}  // namespace

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot open {}", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error(fmt::format("cannot read {}", path.string()));
  return text.str();
}

CompileJob parse_job(const std::filesystem::path& path, const std::string& text) {
  CompileJob job;
  job.name = path.stem().string();
  job.path = path;
  try {
    const auto json = nlohmann::json::parse(text);
    if (!json.is_object() || json_field(json, "plinth_program", 0) != 1) {
      throw std::runtime_error("not a plinth program job (\"plinth_program\": 1 is missing)");
    }
    job.recorded_api = json.at("api").get<std::string>();
    job.source = json.at("source").get<std::string>();
    job.options.no_prelude = json_field(json, "no_prelude", false);
    job.options.fast_math = json_field(json, "fast_math", false);
    job.options.compiler_options = json_field(json, "compiler_options", std::vector<std::string>{});
    for (const auto& array : json.value("constant_arrays", nlohmann::json::array())) {
      job.options.constant_arrays.push_back(
          {array.at("name").get<std::string>(), array.at("ctype").get<std::string>(),
           array.at("length").get<std::size_t>(), array.at("itemsize").get<std::size_t>()});
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
  }
  return job;
}

std::pair<std::string, plinth::RenderValue> parse_define(const std::string& definition) {
  const auto equals = definition.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw std::runtime_error(
        fmt::format("-D '{}': expected name=value (a render global)", definition));
  }
  std::string name = definition.substr(0, equals);
  const std::string value = definition.substr(equals + 1);
  if (value == "true" || value == "false") return {name, plinth::RenderValue(value == "true")};
  long long number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (!value.empty() && error == std::errc() && end == value.data() + value.size()) {
    return {name, plinth::RenderValue(number)};
  }
  return {name, plinth::RenderValue(value)};
}

plinth::ConstantArray parse_constant_array(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const auto colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() != 4 || parts[0].empty() || parts[1].empty()) {
    throw std::runtime_error(
        fmt::format("--constant-array '{}': expected name:ctype:length:itemsize", text));
  }
  return {parts[0], parts[1], parse_size(parts[2], "length", text),
          parse_size(parts[3], "itemsize", text)};
}

}  // namespace plinth_compile
