#include "plugins/manifest.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <plinth/errors.hpp>

namespace plinth::detail {

std::filesystem::path parse_manifest(std::string_view json, const std::filesystem::path& manifest) {
  const auto fail = [&](std::string_view why) -> Error {
    return Error(fmt::format("unreadable manifest {}: {}", manifest.string(), why));
  };
  if (json.size() > max_manifest_size) {
    throw fail(fmt::format("larger than {} bytes", max_manifest_size));
  }
  const auto document = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) throw fail("not valid JSON");
  if (!document.is_object()) throw fail("expected a JSON object such as {\"file\": \"/path\"}");
  const auto file = document.find("file");
  if (file == document.end()) throw fail("no \"file\" entry naming the plugin");
  if (!file->is_string()) throw fail("the \"file\" entry is not a string");
  const auto& name = file->get_ref<const std::string&>();
  if (name.empty()) throw fail("the \"file\" entry is empty");
  if (name.find('\0') != std::string::npos)
    throw fail("the \"file\" entry contains a NUL character");
  std::filesystem::path path(name);
  if (path.is_relative()) path = manifest.parent_path() / path;
  return path;
}

}  // namespace plinth::detail
