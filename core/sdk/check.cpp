// The out-of-line half of <plinth/backend/check.hpp>: building the errors.

#include <plinth/backend/check.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <string>

namespace plinth::backend {

namespace {

// "cuda/queue.cpp:42": the file and its folder, enough to find it among the backends.
std::string location(const std::source_location& where) {
  std::string_view file = where.file_name();
  auto slash = file.rfind('/');
  if (slash != std::string_view::npos && slash > 0) {
    const auto parent = file.rfind('/', slash - 1);
    file.remove_prefix(parent == std::string_view::npos ? 0 : parent + 1);
  }
  return fmt::format("{}:{}", file, where.line());
}

std::string detail(const VendorCall& call, const VendorError& error) {
  const std::string_view description = error.description != nullptr ? error.description : "";
  return description.empty() ? fmt::format("[{}]", location(call.where))
                             : fmt::format("{} [{}]", description, location(call.where));
}

}  // namespace

std::string_view VendorCall::function() const noexcept {
  std::string_view name = text.substr(0, text.find('('));
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
  while (!name.empty() && (name.front() == ' ' || name.front() == ':')) name.remove_prefix(1);
  return name;
}

void throw_vendor_error(const char* api, const VendorCall& call, std::int64_t code,
                        const VendorError& error) {
  const char* name = error.name != nullptr && *error.name != '\0' ? error.name : "UNKNOWN_ERROR";
  std::string function(call.function());
  if (error.out_of_memory) throw OutOfMemoryError(api, function, code, name, detail(call, error));
  throw BackendError(api, function, code, name, detail(call, error));
}

void report_vendor_error(const char* api, const VendorCall& call, std::int64_t code,
                         const VendorError& error) noexcept {
  const std::string_view function = call.function();
  const char* name = error.name != nullptr && *error.name != '\0' ? error.name : "UNKNOWN_ERROR";
  const char* description = error.description != nullptr ? error.description : "";
  std::string where;
  try {
    where = location(call.where);
  } catch (...) {
    // No memory for the location: report the rest.
  }
  std::fprintf(stderr, "plinth: %s: %.*s failed in a destructor: %s (%lld)%s%s [%s]\n", api,
               static_cast<int>(function.size()), function.data(), name,
               static_cast<long long>(code), *description != '\0' ? ": " : "", description,
               where.c_str());
}

}  // namespace plinth::backend
