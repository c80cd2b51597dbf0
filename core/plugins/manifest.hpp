#pragma once

// Plugin manifests: small JSON files in plugins.d/ that name a plugin file, as OpenCL ICD
// files do (DESIGN.md, "Plugins"): {"file": "/usr/lib/x86_64-linux-gnu/libplinth-backend-x.so"}.

#include <plinth/export.hpp>

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace plinth::detail {

/// The largest manifest read; a larger file is refused without being parsed.
inline constexpr std::size_t max_manifest_size = 64 * 1024;

/// The plugin file named by the manifest text `json` read from `manifest` (a relative "file"
/// is relative to the manifest's directory). Throws plinth::Error naming the manifest and the
/// problem: not JSON, not an object, no "file", "file" not a string, empty, or holding a NUL
/// (which the C library would cut short, loading another file than the one listed).
/// Any thread may call it.
PLINTH_EXPORT std::filesystem::path parse_manifest(std::string_view json,
                                                   const std::filesystem::path& manifest);

}  // namespace plinth::detail
