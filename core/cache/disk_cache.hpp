#pragma once

// The compiled-program cache's directory: one file per entry (cache_entry.hpp), named by its
// key, written to a temporary file and renamed into place, so that many processes can fill
// one cache at once; read only from a private directory; kept under a size limit by evicting
// the least recently used entries (reads touch an entry's mtime). Other processes may evict or
// replace any file at any time: a vanished file is a miss, never an error.

#include "cache/cache_key.hpp"

#include <plinth/export.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace plinth::detail {

/// One cache directory. Every member may be called from any thread and never throws (besides
/// std::bad_alloc): a problem becomes a PLINTH_DEBUG=cache line and a miss or a skipped write.
class PLINTH_EXPORT DiskCache {
 public:
  /// Opens the cache at the absolute `directory`, creating it with mode 0700 (and its
  /// parents as needed). The cache is unusable when the directory cannot be created or
  /// written, is not owned by the current user, or it or a directory above it is writable by
  /// other users (file_safety.hpp): see usable() and problem().
  DiskCache(std::filesystem::path directory, std::uint64_t size_limit);

  /// Whether entries may be read and written.
  bool usable() const { return problem_.empty(); }
  /// Why the cache is unusable; empty when usable.
  const std::string& problem() const { return problem_; }
  const std::filesystem::path& directory() const { return directory_; }
  std::uint64_t size_limit() const { return size_limit_; }

  /// The payload stored under `key`, its file's mtime touched; nullopt on a miss, or for an
  /// entry that fails its checks (said on PLINTH_DEBUG=cache; the caller rebuilds it and
  /// write() replaces it; `*rejected` is then set when given). Checks again that the
  /// directory is private before reading. Only a regular file of this user is opened, and
  /// never blocks: anything else at the entry's path (a FIFO, a symlink, a device, an empty
  /// directory) is rejected and removed. The header and the file's size are checked before
  /// the payload is read: a file larger than size_limit() or than its header declares is
  /// rejected unread.
  std::optional<std::vector<std::byte>> read(const CacheKey& key, bool* rejected = nullptr) const;
  /// Stores `payload` under `key` (replacing any entry), then evicts the least recently used
  /// entries while the cache is over its limit. Returns whether the entry was written.
  bool write(const CacheKey& key, std::span<const std::byte> payload) const;
  /// Removes the entry of `key` (e.g. one the backend refused), if there is one.
  void remove(const CacheKey& key) const;
  /// Evicts the least recently used entries until the entries' total size is within the
  /// limit; removes temporary files that crashed writers left over an hour ago.
  void evict() const;

  /// The entries' total size in bytes and their count.
  struct Usage {
    std::uint64_t bytes = 0;
    std::size_t entries = 0;
  };
  Usage usage() const;

  /// The file of `key`'s entry: "<directory>/<32 hex digits>.bin".
  std::filesystem::path entry_path(const CacheKey& key) const;

 private:
  std::filesystem::path directory_;
  std::uint64_t size_limit_;
  std::string problem_;
};

}  // namespace plinth::detail
