#pragma once

// Whether users other than the one running the program (or root) could change a file the
// loader is about to trust: a plugin, or a manifest that names one (DESIGN.md, "Plugins").

#include <filesystem>
#include <optional>
#include <string>

namespace plinth::detail {

/// Empty if `path` and every directory above it are owned by root or the current user and
/// writable only by their owner (a directory writable by others that has the sticky bit,
/// like /tmp, protects the entries it holds that are owned by root or the user). Otherwise
/// says which component is unsafe and why, e.g. "/opt/x is writable by other users".
/// The check follows symbolic links to the file they name. Never throws.
std::optional<std::string> writable_by_others(const std::filesystem::path& path) noexcept;

}  // namespace plinth::detail
