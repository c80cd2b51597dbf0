#pragma once

// Whether users other than the one running the program (or root) could change a file the
// loader is about to trust: a plugin, or a manifest that names one (DESIGN.md, "Plugins"); and
// whether a directory may hold files this user writes and later trusts (the program cache, the
// recorded programs).

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

/// Why the directory `dir` must not hold files this user writes and later trusts, or "": it
/// must be a directory, owned by the current user, safe by writable_by_others(), and writable
/// by this user, e.g. "/tmp/x is owned by another user (uid 65534)". Throws std::bad_alloc only.
std::string directory_problem(const std::filesystem::path& dir);

}  // namespace plinth::detail
