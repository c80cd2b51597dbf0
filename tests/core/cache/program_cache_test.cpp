// The compiled-program cache end to end, through plinth-cache-helper (cache_helper.cpp) in
// child processes on the machine's first platform (PoCL in CI), each test with a cache
// directory of its own: a hit skips compiling, damaged entries are rebuilt and replaced, a
// directory writable by others is never read, 16 processes fill one cache at once, eviction
// keeps the limit, and PLINTH_CACHE_DIR=off disables the cache.

#include "cache/cache_entry.hpp"
#include "temp_cache_dir.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

namespace program_cache_test {
namespace {

namespace fs = std::filesystem;
using plinth::detail::TempCacheDirTest;

struct Result {
  int status = -1;
  std::string output;  // stdout and stderr
  /// The counters of the helper's last line: compiled, loaded, stored, rejected, ...
  std::map<std::string, std::string> values;
  long count(const std::string& name) const {
    const auto it = values.find(name);
    return it == values.end() ? -1 : std::stol(it->second);
  }
};

FILE* start(const std::string& environment, const std::string& arguments) {
  const std::string command = "env ASAN_OPTIONS=detect_leaks=0 " + environment + " " +
                              PLINTH_CACHE_HELPER_PATH + " " + arguments + " 2>&1";
  return ::popen(command.c_str(), "r");
}

Result finish(FILE* pipe) {
  Result result;
  if (pipe == nullptr) return result;
  std::array<char, 4096> chunk{};
  while (const std::size_t n = std::fread(chunk.data(), 1, chunk.size(), pipe))
    result.output.append(chunk.data(), n);
  const int status = ::pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  const auto line = result.output.rfind("compiled=");
  if (line != std::string::npos) {
    std::istringstream words(result.output.substr(line));
    std::string word;
    while (words >> word) {
      const auto eq = word.find('=');
      if (eq != std::string::npos) result.values[word.substr(0, eq)] = word.substr(eq + 1);
    }
  }
  return result;
}

class ProgramCacheTest : public TempCacheDirTest {
 protected:
  /// Runs the helper with the cache in dir_ (and `environment`); skips without a device.
  Result helper(const std::string& arguments, const std::string& environment = {}) {
    auto result = finish(start(
        "PLINTH_DEBUG=cache PLINTH_CACHE_DIR=" + dir_.string() + " " + environment, arguments));
    if (result.status == 77) skip_ = true;
    return result;
  }
  std::vector<fs::path> files() const {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir_, ec)) out.push_back(entry.path());
    return out;
  }
  /// Builds one program into the empty cache; `entry` is then its one entry file (empty
  /// when the helper found no device: the caller's SKIP_WITHOUT_DEVICE() skips).
  void build_one_entry(fs::path& entry) {
    const auto cold = helper("1");
    if (skip_) return;
    ASSERT_EQ(cold.status, 0) << cold.output;
    const auto entries = files();
    ASSERT_EQ(entries.size(), 1u);
    entry = entries.front();
  }

  bool skip_ = false;
};

#define SKIP_WITHOUT_DEVICE() \
  if (skip_) GTEST_SKIP() << "no device to build programs on"

TEST_F(ProgramCacheTest, AHitSkipsCompiling) {
  const auto cold = helper("2");
  SKIP_WITHOUT_DEVICE();
  ASSERT_EQ(cold.status, 0) << cold.output;
  EXPECT_EQ(cold.count("compiled"), 2) << cold.output;
  EXPECT_EQ(cold.count("loaded"), 0) << cold.output;
  EXPECT_EQ(cold.count("entries"), 2) << cold.output;
  EXPECT_EQ(fs::status(dir_).permissions() & fs::perms::all, fs::perms::owner_all);
  const auto warm = helper("2 --twice");
  ASSERT_EQ(warm.status, 0) << warm.output;
  EXPECT_EQ(warm.count("compiled"), 0) << warm.output;
  EXPECT_EQ(warm.count("loaded"), 4) << warm.output;
  EXPECT_NE(warm.output.find(": hit"), std::string::npos) << warm.output;
}

TEST_F(ProgramCacheTest, DamagedEntriesAreRebuiltAndReplaced) {
  fs::path entry;
  build_one_entry(entry);
  SKIP_WITHOUT_DEVICE();
  if (HasFatalFailure()) return;
  const auto size = fs::file_size(entry);
  for (int damage = 0; damage < 3; ++damage) {
    if (damage == 0) {  // one byte of the payload
      std::fstream file(entry, std::ios::in | std::ios::out | std::ios::binary);
      file.seekg(static_cast<std::streamoff>(size / 2));
      const char c = static_cast<char>(file.get());
      file.seekp(static_cast<std::streamoff>(size / 2));
      file.put(static_cast<char>(c ^ 0x10));
    } else if (damage == 1) {
      fs::resize_file(entry, size / 3);
    } else {
      std::ofstream(entry, std::ios::binary | std::ios::trunc) << std::string(4096, 'g');
    }
    const auto rebuilt = helper("1");
    ASSERT_EQ(rebuilt.status, 0) << "damage " << damage << ": " << rebuilt.output;
    EXPECT_EQ(rebuilt.count("compiled"), 1) << rebuilt.output;
    EXPECT_EQ(rebuilt.count("rejected"), 1) << rebuilt.output;
    EXPECT_NE(rebuilt.output.find(entry.filename().string()), std::string::npos)
        << "PLINTH_DEBUG=cache names the file: " << rebuilt.output;
    EXPECT_EQ(fs::file_size(entry), size) << "replaced";
    const auto warm = helper("1");
    EXPECT_EQ(warm.count("loaded"), 1) << warm.output;
    EXPECT_EQ(warm.count("compiled"), 0) << warm.output;
  }
}

TEST_F(ProgramCacheTest, AValidEntryTheBackendRefusesIsRebuiltAndReplaced) {
  fs::path entry;
  build_one_entry(entry);
  SKIP_WITHOUT_DEVICE();
  if (HasFatalFailure()) return;
  const auto original = fs::file_size(entry);
  // A well-formed entry (right key, checksum) whose payload is no binary at all.
  const std::string hex = entry.stem().string();
  const plinth::detail::CacheKey key{std::stoull(hex.substr(0, 16), nullptr, 16),
                                     std::stoull(hex.substr(16), nullptr, 16)};
  const std::vector<std::byte> garbage(256, std::byte{0x5a});
  const auto file = plinth::detail::encode_cache_entry(key, garbage);
  std::ofstream(entry, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
  const auto rebuilt = helper("1");
  ASSERT_EQ(rebuilt.status, 0) << rebuilt.output;
  EXPECT_EQ(rebuilt.count("compiled"), 1) << rebuilt.output;
  EXPECT_EQ(rebuilt.count("rejected"), 1) << rebuilt.output;
  EXPECT_NE(rebuilt.output.find("refused the cached binaries"), std::string::npos)
      << rebuilt.output;
  EXPECT_EQ(fs::file_size(entry), original) << "replaced";
  EXPECT_EQ(helper("1").count("loaded"), 1);
}

/// The key that entry file `entry` is named by.
plinth::detail::CacheKey key_of(const fs::path& entry) {
  const std::string hex = entry.stem().string();
  return {std::stoull(hex.substr(0, 16), nullptr, 16), std::stoull(hex.substr(16), nullptr, 16)};
}

std::vector<std::byte> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto span = std::as_bytes(std::span(bytes.data(), bytes.size()));
  return {span.begin(), span.end()};
}

/// The payload of entry file `entry` (which must decode).
std::vector<std::byte> payload_of(const fs::path& entry) {
  auto decoded = plinth::detail::decode_cache_entry(key_of(entry), read_file(entry));
  if (const auto* problem = std::get_if<std::string>(&decoded)) {
    ADD_FAILURE() << entry << ": " << *problem;
    return {};
  }
  return std::get<std::vector<std::byte>>(std::move(decoded));
}

/// Replaces entry file `entry` by a well-formed entry (its key, a valid checksum) of `payload`.
void plant(const fs::path& entry, std::span<const std::byte> payload) {
  const auto file = plinth::detail::encode_cache_entry(key_of(entry), payload);
  std::ofstream(entry, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
}

// Before: PoCL aborted on the truncated binary in every later build of the program.
TEST_F(ProgramCacheTest, AValidEntryOfATruncatedBinaryIsRebuiltAndReplaced) {
  fs::path entry;
  build_one_entry(entry);
  SKIP_WITHOUT_DEVICE();
  if (HasFatalFailure()) return;
  const auto binary = payload_of(entry);
  ASSERT_GT(binary.size(), 64u);
  for (const std::size_t size : {binary.size() / 2, binary.size() - 1, std::size_t{40}}) {
    plant(entry, std::span(binary).first(size));
    const auto rebuilt = helper("1");
    ASSERT_EQ(rebuilt.status, 0) << "truncated to " << size << ": " << rebuilt.output;
    EXPECT_EQ(rebuilt.count("compiled"), 1) << rebuilt.output;
    EXPECT_EQ(rebuilt.count("rejected"), 1) << rebuilt.output;
    EXPECT_NE(rebuilt.output.find("refused the cached binaries"), std::string::npos)
        << rebuilt.output;
    EXPECT_EQ(payload_of(entry), binary) << "replaced";
  }
  const auto warm = helper("1");
  EXPECT_EQ(warm.count("loaded"), 1) << warm.output;
  EXPECT_EQ(warm.count("compiled"), 0) << warm.output;
}

// Before: every later build failed with "program has no kernel 'add'".
TEST_F(ProgramCacheTest, AValidEntryOfAnotherProgramIsRebuiltAndReplaced) {
  fs::path entry;
  build_one_entry(entry);
  SKIP_WITHOUT_DEVICE();
  if (HasFatalFailure()) return;
  const auto binary = payload_of(entry);
  // The same program with its kernel named otherwise, built into a cache of its own.
  const auto other_dir = root_ / "other";
  const auto other =
      helper("1", "PLINTH_CACHE_DIR=" + other_dir.string() + " PLINTH_CACHE_HELPER_KERNEL=other");
  ASSERT_EQ(other.status, 0) << other.output;
  std::vector<fs::path> others;
  for (const auto& file : fs::directory_iterator(other_dir)) others.push_back(file.path());
  ASSERT_EQ(others.size(), 1u);
  const auto foreign = payload_of(others.front());
  ASSERT_NE(foreign, binary);
  plant(entry, foreign);
  const auto rebuilt = helper("1");
  ASSERT_EQ(rebuilt.status, 0) << rebuilt.output;
  EXPECT_EQ(rebuilt.count("loaded"), 1) << rebuilt.output;
  EXPECT_EQ(rebuilt.count("compiled"), 1) << rebuilt.output;
  EXPECT_EQ(rebuilt.count("rejected"), 1) << rebuilt.output;
  EXPECT_NE(rebuilt.output.find("lacks kernel 'add'"), std::string::npos) << rebuilt.output;
  EXPECT_EQ(payload_of(entry), binary) << "replaced";
  const auto warm = helper("1");
  EXPECT_EQ(warm.count("loaded"), 1) << warm.output;
  EXPECT_EQ(warm.count("compiled"), 0) << warm.output;
}

TEST_F(ProgramCacheTest, ADirectoryWritableByOthersIsNeverRead) {
  const auto cold = helper("1");
  SKIP_WITHOUT_DEVICE();
  ASSERT_EQ(cold.status, 0) << cold.output;
  fs::permissions(dir_, fs::perms::others_write | fs::perms::group_write, fs::perm_options::add);
  const auto unsafe = helper("1 --twice");
  ASSERT_EQ(unsafe.status, 0) << unsafe.output;
  EXPECT_EQ(unsafe.count("loaded"), 1) << "the second build, from memory: " << unsafe.output;
  EXPECT_EQ(unsafe.count("compiled"), 1) << unsafe.output;
  EXPECT_EQ(unsafe.output.find(": hit"), std::string::npos) << unsafe.output;
  EXPECT_NE(unsafe.output.find("writable by"), std::string::npos) << unsafe.output;
}

TEST_F(ProgramCacheTest, SixteenProcessesFillOneCacheAtOnce) {
  const auto probe = finish(start("PLINTH_CACHE_DIR=off", "0"));
  if (probe.status == 77) GTEST_SKIP() << "no device to build programs on";
  const auto go = root_ / "go";
  std::vector<FILE*> pipes;
  for (int i = 0; i < 16; ++i) {
    // Each process has its own PoCL kernel cache: PoCL's is not safe for processes compiling
    // into it at once (pocl/pocl#430, #1480; README): with one, a process may crash in
    // clGetProgramInfo(CL_PROGRAM_BINARIES) reading a directory another one renamed.
    const auto pocl_cache = root_ / ("pocl-" + std::to_string(i));
    pipes.push_back(start("PLINTH_CACHE_DIR=" + dir_.string() + " POCL_CACHE_DIR=" +
                              pocl_cache.string() + " PLINTH_CACHE_HELPER_START=" + go.string(),
                          "2"));
  }
  std::ofstream(go) << "go";
  for (FILE* pipe : pipes) {
    const auto result = finish(pipe);
    EXPECT_EQ(result.status, 0) << result.output;
    EXPECT_EQ(result.count("compiled") + result.count("loaded"), 2) << result.output;
  }
  std::size_t entries = 0;
  for (const auto& file : files()) {
    EXPECT_EQ(file.extension(), ".bin") << "left behind: " << file;
    ++entries;
  }
  EXPECT_EQ(entries, 2u);
  const auto warm = helper("2");
  EXPECT_EQ(warm.count("loaded"), 2) << warm.output;
}

TEST_F(ProgramCacheTest, EvictionKeepsTheSizeUnderTheLimit) {
  const auto one = helper("1");
  SKIP_WITHOUT_DEVICE();
  ASSERT_EQ(one.status, 0) << one.output;
  const long entry = one.count("size");
  ASSERT_GT(entry, 0) << one.output;
  fs::remove_all(dir_);
  const long limit = entry * 5 / 2;
  const auto many = helper("5", "PLINTH_CACHE_SIZE=" + std::to_string(limit));
  ASSERT_EQ(many.status, 0) << many.output;
  EXPECT_LE(many.count("size"), limit) << many.output;
  EXPECT_GE(many.count("entries"), 1) << many.output;
  EXPECT_LT(many.count("entries"), 5) << many.output;
  EXPECT_NE(many.output.find("evicted"), std::string::npos) << many.output;
}

TEST_F(ProgramCacheTest, OffDisablesTheCache) {
  const auto off = finish(start("PLINTH_DEBUG=cache PLINTH_CACHE_DIR=off", "2 --twice"));
  if (off.status == 77) GTEST_SKIP() << "no device to build programs on";
  ASSERT_EQ(off.status, 0) << off.output;
  EXPECT_EQ(off.count("compiled"), 4) << off.output;
  EXPECT_EQ(off.count("loaded"), 0) << off.output;
  EXPECT_NE(off.output.find("state=off"), std::string::npos) << off.output;
}

}  // namespace
}  // namespace program_cache_test
