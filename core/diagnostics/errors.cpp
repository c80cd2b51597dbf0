#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string_view>

namespace plinth {

Error::~Error() = default;
PluginError::~PluginError() = default;
BackendError::~BackendError() = default;
OutOfMemoryError::~OutOfMemoryError() = default;
CompileError::~CompileError() = default;
RenderError::~RenderError() = default;
LogicError::~LogicError() = default;
VirtualSizeError::~VirtualSizeError() = default;

namespace {

std::string backend_message(const std::string& api, const std::string& call, std::int64_t code,
                            const std::string& code_name, const std::string& detail) {
  auto message = fmt::format("{}: {} failed: {} ({})", api, call, code_name, code);
  if (!detail.empty()) message += ": " + detail;
  return message;
}

// The dialect operations the log says the device lacks: a prelude spells an operation it
// cannot give a device as the identifier `plinth_unsupported__<operation>`
// (docs/kernel-dialect.md), and the compiler names that identifier when the source uses it.
std::vector<std::string> unsupported_operations(const std::string& log) {
  static constexpr std::string_view marker = "plinth_unsupported__";
  std::vector<std::string> found;
  for (auto at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    auto end = at + marker.size();
    while (end < log.size() &&
           (std::isalnum(static_cast<unsigned char>(log[end])) != 0 || log[end] == '_')) {
      ++end;
    }
    std::string operation = log.substr(at + marker.size(), end - at - marker.size());
    if (!operation.empty() && std::find(found.begin(), found.end(), operation) == found.end()) {
      found.push_back(std::move(operation));
    }
  }
  return found;
}

std::string compile_message(const std::string& log, const std::vector<std::string>& options,
                            const std::string& source, const std::string& device) {
  std::string message = "compilation failed";
  if (!device.empty()) message += " for " + device;
  const auto unsupported = unsupported_operations(log);
  if (!unsupported.empty()) {
    message += fmt::format(
        ": the kernel uses {}, which {} does not support (see Device::features() and "
        "docs/kernel-dialect.md)",
        fmt::join(unsupported, ", "), device.empty() ? "the device" : device);
  }
  message += fmt::format("\noptions: {}\nbuild log:\n{}\nsource:\n{}", fmt::join(options, " "), log,
                         number_lines(source));
  return message;
}

}  // namespace

BackendError::BackendError(std::string api, std::string call, std::int64_t code,
                           std::string code_name, const std::string& detail)
    : Error(backend_message(api, call, code, code_name, detail)),
      api_(std::move(api)),
      call_(std::move(call)),
      code_(code),
      code_name_(std::move(code_name)) {}

CompileError::CompileError(std::string log, std::vector<std::string> options, std::string source,
                           const std::string& device)
    : Error(compile_message(log, options, source, device)),
      log_(std::move(log)),
      options_(std::move(options)),
      source_(std::move(source)) {}

std::string number_lines(const std::string& source) {
  std::istringstream in(source);
  std::string line;
  std::string out;
  std::size_t number = 0;
  while (std::getline(in, line)) out += fmt::format("{:5} | {}\n", ++number, line);
  return out;
}

}  // namespace plinth
