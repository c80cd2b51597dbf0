#include "compile_job.hpp"

#include "compile/program_job.hpp"

#include <plinth/errors.hpp>
#include <plinth/printable.hpp>

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace plinth_compile {

namespace {

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
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw std::runtime_error(
        fmt::format("{} is a directory, not a file to compile", plinth::printable(path.string())));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error(fmt::format("cannot open {}", plinth::printable(path.string())));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    throw std::runtime_error(fmt::format("cannot read {}", plinth::printable(path.string())));
  return text.str();
}

CompileJob parse_job(const std::filesystem::path& path, const std::string& text) {
  CompileJob job;
  job.name = path.stem().string();
  job.path = path;
  try {
    auto recorded = plinth::detail::parse_program_job(text);
    job.recorded_api = std::move(recorded.api);
    job.source = std::move(recorded.source);
    job.options = std::move(recorded.options);
  } catch (const plinth::Error& e) {
    throw std::runtime_error(fmt::format("{}: {}", plinth::printable(path.string()), e.what()));
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
