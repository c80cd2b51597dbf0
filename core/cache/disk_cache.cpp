#include "cache/disk_cache.hpp"

#include "cache/cache_entry.hpp"
#include "diagnostics/debug.hpp"
#include "plugins/file_safety.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <exception>
#include <span>
#include <string_view>
#include <utility>

namespace plinth::detail {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view entry_extension = ".bin";
constexpr std::string_view temporary_prefix = ".tmp-";
/// Entries larger than this are not read (a binary is megabytes at most).
constexpr std::uint64_t max_entry_size = std::uint64_t{1} << 31;
/// Age after which a temporary file is taken as left by a crashed writer.
constexpr std::time_t stale_temporary_seconds = 3600;

std::string error_text(int error) { return std::strerror(error); }

bool is_entry_name(const std::string& name) {
  if (name.size() != 32 + entry_extension.size() || !name.ends_with(entry_extension)) return false;
  return std::all_of(name.begin(), name.begin() + 32,
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

/// Closes a file descriptor at the end of a scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

/// Reads into `out` until it is full, the file ends or an error; returns the bytes read.
std::size_t read_fully(int fd, std::span<std::byte> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const auto n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

/// What a file of `mode` is, in words.
std::string_view file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// Removes `path`, something other than a regular file (`mode`) at an entry's path, never
/// following or opening it (a directory only when empty); says what it was and whether it went.
std::string remove_non_regular(const fs::path& path, mode_t mode) {
  const bool removed = (S_ISDIR(mode) ? ::rmdir(path.c_str()) : ::unlink(path.c_str())) == 0;
  const int error = errno;
  return fmt::format("{}, not a regular file ({})", file_kind(mode),
                     removed ? "removed" : "not removed: " + error_text(error));
}

struct EntryFile {
  fs::path path;
  std::uint64_t size;
  struct timespec mtime;
};

bool older(const EntryFile& a, const EntryFile& b) {
  if (a.mtime.tv_sec != b.mtime.tv_sec) return a.mtime.tv_sec < b.mtime.tv_sec;
  return a.mtime.tv_nsec < b.mtime.tv_nsec;
}

/// The entries of `dir` (files vanishing meanwhile are skipped); with `clean_temporaries`,
/// removes stale temporary files on the way.
std::vector<EntryFile> list_entries(const fs::path& dir, bool clean_temporaries) {
  std::vector<EntryFile> entries;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  const fs::directory_iterator end;
  const std::time_t now = std::time(nullptr);
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool entry = is_entry_name(name);
    const bool temporary = name.starts_with(temporary_prefix);
    if (!entry && !temporary) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (entry) {
      entries.push_back({it->path(), static_cast<std::uint64_t>(st.st_size), st.st_mtim});
    } else if (clean_temporaries && now - st.st_mtim.tv_sec > stale_temporary_seconds) {
      if (::unlink(it->path().c_str()) == 0) {
        debug(DebugTopic::cache, "{}: a temporary file over an hour old: removed",
              it->path().string());
      }
    }
  }
  return entries;
}

}  // namespace

DiskCache::DiskCache(std::filesystem::path directory, std::uint64_t size_limit)
    : directory_(std::move(directory)), size_limit_(size_limit) {
  try {
    std::error_code ec;
    if (directory_.has_parent_path()) fs::create_directories(directory_.parent_path(), ec);
    if (::mkdir(directory_.c_str(), 0700) == 0) {
      debug(DebugTopic::cache, "{}: created (mode 0700)", directory_.string());
    } else if (errno != EEXIST) {
      problem_ = fmt::format("cannot create {}: {}", directory_.string(), error_text(errno));
      return;
    }
    problem_ = directory_problem(directory_);
  } catch (const std::exception& e) {
    problem_ = fmt::format("{}: {}", directory_.string(), e.what());
  }
}

fs::path DiskCache::entry_path(const CacheKey& key) const {
  return directory_ / (key.hex() + std::string(entry_extension));
}

std::optional<std::vector<std::byte>> DiskCache::read(const CacheKey& key, bool* rejected) const {
  if (!usable()) return std::nullopt;
  const auto path = entry_path(key);
  auto reject = [&](std::string_view problem) {
    debug(DebugTopic::cache, "{}: {}: not trusted; rebuilding and replacing it", path.string(),
          problem);
    if (rejected != nullptr) *rejected = true;
    return std::nullopt;
  };
  try {
    if (auto problem = directory_problem(directory_); !problem.empty()) {
      debug(DebugTopic::cache, "{}: not read: {}", path.string(), problem);
      return std::nullopt;
    }
    // Only a regular file is opened: a FIFO would block the open or the read (O_NONBLOCK
    // guards the race between lstat and open), a device is never opened at all, and a symlink
    // is never followed (O_NOFOLLOW). Anything else is removed so the rebuilt entry can take
    // its place (rename cannot replace a directory).
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) {
        debug(DebugTopic::cache, "{}: miss", path.string());
        return std::nullopt;
      }
      return reject(fmt::format("cannot stat ({})", error_text(errno)));
    }
    if (!S_ISREG(st.st_mode)) return reject(remove_non_regular(path, st.st_mode));
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC));
    if (fd.get() < 0) {
      if (errno == ENOENT) {  // removed meanwhile (another process evicting)
        debug(DebugTopic::cache, "{}: miss", path.string());
        return std::nullopt;
      }
      if (errno == ELOOP) return reject(remove_non_regular(path, S_IFLNK));
      return reject(fmt::format("cannot open ({})", error_text(errno)));
    }
    if (::fstat(fd.get(), &st) != 0) return reject(fmt::format("fstat: {}", error_text(errno)));
    if (!S_ISREG(st.st_mode)) return reject(remove_non_regular(path, st.st_mode));
    if (st.st_uid != ::geteuid()) {
      return reject(fmt::format("owned by another user (uid {})", st.st_uid));
    }
    // The header and the file's size decide before the payload is read or allocated: a huge
    // file under an entry's name is never read whole.
    const auto file_size = static_cast<std::uint64_t>(st.st_size);
    std::array<std::byte, cache_entry_header_size> header{};
    const std::size_t header_read = read_fully(fd.get(), header);
    if (auto problem = cache_entry_header_problem(key, std::span(header).first(header_read),
                                                  file_size, std::min(size_limit_, max_entry_size));
        !problem.empty()) {
      return reject(problem);
    }
    std::vector<std::byte> bytes(static_cast<std::size_t>(file_size));
    std::copy(header.begin(), header.end(), bytes.begin());
    const std::size_t done =
        cache_entry_header_size +
        read_fully(fd.get(), std::span(bytes).subspan(cache_entry_header_size));
    bytes.resize(done);  // shorter when the file shrank meanwhile: decoding says so
    auto decoded = decode_cache_entry(key, bytes);
    if (auto* problem = std::get_if<std::string>(&decoded)) return reject(*problem);
    ::futimens(fd.get(), nullptr);  // least recently used: reading counts as use
    debug(DebugTopic::cache, "{}: hit ({} bytes)", path.string(), bytes.size());
    return std::move(std::get<std::vector<std::byte>>(decoded));
  } catch (const std::exception& e) {
    debug(DebugTopic::cache, "{}: not read: {}", path.string(), e.what());
    return std::nullopt;
  }
}

bool DiskCache::write(const CacheKey& key, std::span<const std::byte> payload) const {
  if (!usable()) return false;
  const auto path = entry_path(key);
  try {
    const auto bytes = encode_cache_entry(key, payload);
    std::string temporary =
        (directory_ / fmt::format("{}{}-{}-XXXXXX", temporary_prefix, key.hex(), ::getpid()))
            .string();
    Fd fd(::mkstemp(temporary.data()));  // mode 0600
    if (fd.get() < 0) {
      debug(DebugTopic::cache, "{}: not stored: cannot create a temporary file: {}", path.string(),
            error_text(errno));
      return false;
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
      const auto n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    const int write_error = done == bytes.size() ? 0 : errno;
    const bool closed = ::close(fd.release()) == 0;
    if (write_error != 0 || !closed || ::rename(temporary.c_str(), path.c_str()) != 0) {
      const int error = write_error != 0 ? write_error : errno;
      ::unlink(temporary.c_str());
      debug(DebugTopic::cache, "{}: not stored: {}", path.string(), error_text(error));
      return false;
    }
    debug(DebugTopic::cache, "{}: stored ({} bytes)", path.string(), bytes.size());
  } catch (const std::exception& e) {
    debug(DebugTopic::cache, "{}: not stored: {}", path.string(), e.what());
    return false;
  }
  evict();
  return true;
}

void DiskCache::remove(const CacheKey& key) const {
  if (!usable()) return;
  const auto path = entry_path(key);
  if (::unlink(path.c_str()) == 0) debug(DebugTopic::cache, "{}: removed", path.string());
}

void DiskCache::evict() const {
  if (!usable()) return;
  try {
    auto entries = list_entries(directory_, true);
    std::uint64_t total = 0;
    for (const auto& entry : entries) total += entry.size;
    if (total <= size_limit_) return;
    std::sort(entries.begin(), entries.end(), older);
    for (const auto& entry : entries) {
      if (total <= size_limit_) break;
      // Gone already (another process evicted it) counts as evicted.
      if (::unlink(entry.path.c_str()) == 0 || errno == ENOENT) {
        total -= entry.size;
        debug(DebugTopic::cache, "{}: evicted (least recently used; the cache is over {} bytes)",
              entry.path.string(), size_limit_);
      }
    }
  } catch (const std::exception& e) {
    debug(DebugTopic::cache, "{}: eviction stopped: {}", directory_.string(), e.what());
  }
}

DiskCache::Usage DiskCache::usage() const {
  Usage usage;
  try {
    for (const auto& entry : list_entries(directory_, false)) {
      usage.bytes += entry.size;
      ++usage.entries;
    }
  } catch (const std::exception&) {
  }
  return usage;
}

}  // namespace plinth::detail
