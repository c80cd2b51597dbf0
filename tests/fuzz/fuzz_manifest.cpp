// Fuzzes plugin manifests: plinth::detail::parse_manifest (core/detail/manifest.hpp), the
// JSON text of a file in plugins.d/ that names a plugin file. Input: the file's text. It is
// read as a manifest in an absolute and in a relative directory; where it names a plugin,
// the path must be non-empty, hold no NUL, and be absolute if the manifest's is (a relative
// "file" is relative to the manifest's directory).

#include "fuzz_common.hpp"

#include <plinth/errors.hpp>

#include "plugins/manifest.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace {

void parse_in(std::string_view json, const std::filesystem::path& manifest) {
  std::filesystem::path file;
  try {
    file = plinth::detail::parse_manifest(json, manifest);
  } catch (const plinth::Error&) {
    return;
  }
  PLINTH_FUZZ_CHECK(json.size() <= plinth::detail::max_manifest_size);
  const std::string& name = file.native();
  PLINTH_FUZZ_CHECK(!name.empty());
  PLINTH_FUZZ_CHECK(name.find('\0') == std::string::npos);
  if (manifest.is_absolute()) PLINTH_FUZZ_CHECK(file.is_absolute());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  parse_in(json, "/etc/plinth/plugins.d/fuzz.json");
  parse_in(json, "plugins.d/fuzz.json");
  return 0;
}
