#pragma once

// The fixture the cache tests share: a fresh private temporary directory per test.

#include <gtest/gtest.h>

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <string>
#include <system_error>

namespace plinth::detail {

/// Gives each test `root_`, a new temporary directory (0700, from mkdtemp), and `dir_`, the
/// path of a cache directory inside it that the test creates or not; removes both afterwards,
/// also when the test made `dir_` unreadable.
class TempCacheDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "plinth-cache-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    dir_ = root_ / "cache";
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::permissions(dir_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(root_, ec);
  }

  std::filesystem::path root_, dir_;
};

}  // namespace plinth::detail
