#include "plugins/file_safety.hpp"

#include <fmt/format.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace plinth::detail {

namespace {

/// Checks each component of the absolute `path` with lstat (so a symbolic link is judged by
/// its own owner and directory, not by its target).
std::optional<std::string> check_components(const std::filesystem::path& path) {
  const uid_t me = ::geteuid();
  const gid_t my_group = ::getegid();
  std::filesystem::path component;
  for (const auto& part : path) {
    component /= part;
    struct stat st {};
    if (::lstat(component.c_str(), &st) != 0) return std::nullopt;  // reported when opened
    if (st.st_uid != 0 && st.st_uid != me) {
      return fmt::format("{} is owned by another user (uid {})", component.string(), st.st_uid);
    }
    if (S_ISLNK(st.st_mode)) continue;  // a link's own mode means nothing
    // A sticky directory (/tmp) lets others add entries but not replace ours: the entries
    // below it are judged by their own owners.
    const bool sticky_directory = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0;
    const bool others_write = (st.st_mode & S_IWOTH) != 0;
    const bool group_write = (st.st_mode & S_IWGRP) != 0 && st.st_gid != 0 && st.st_gid != my_group;
    if ((others_write || group_write) && !sticky_directory) {
      return fmt::format("{} is writable by {} (mode {:o})", component.string(),
                         others_write ? "every user" : fmt::format("group {}", st.st_gid),
                         st.st_mode & 07777);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> writable_by_others(const std::filesystem::path& path) noexcept {
  try {
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec);
    if (ec) return std::nullopt;
    if (auto unsafe = check_components(absolute.lexically_normal())) return unsafe;
    const auto resolved = std::filesystem::canonical(absolute, ec);
    if (ec || resolved == absolute.lexically_normal()) return std::nullopt;
    return check_components(resolved);
  } catch (...) {
    return std::nullopt;
  }
}

std::string directory_problem(const std::filesystem::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    return fmt::format("{}: {}", dir.string(), std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return fmt::format("{} is not a directory", dir.string());
  if (st.st_uid != ::geteuid()) {
    return fmt::format("{} is owned by another user (uid {})", dir.string(), st.st_uid);
  }
  if (auto unsafe = writable_by_others(dir)) return *unsafe;
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return fmt::format("{} is not writable: {}", dir.string(), std::strerror(errno));
  }
  return {};
}

}  // namespace plinth::detail
