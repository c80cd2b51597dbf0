// The program recorder (compile/program_recorder.hpp): the directory follows the program
// cache's rules, a file it did not write is never reused, and any source is recorded.

#include "compile/program_recorder.hpp"
#include "../run_command.hpp"
#include "compile/program_job.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace program_recorder_test {
namespace {

namespace fs = std::filesystem;
using plinth::detail::ProgramRecorder;

/// A fresh private directory for one test, removed at its end.
class RecorderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "plinth-recorder-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(root_ / "shared", fs::perms::owner_all, ignored);
    fs::remove_all(root_, ignored);
  }

  static std::vector<fs::path> jobs_in(const fs::path& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) files.push_back(entry.path());
    return files;
  }

  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  fs::path root_;
};

TEST_F(RecorderTest, CreatesAPrivateDirectoryAndRecordsOnce) {
  const auto dir = root_ / "new" / "recorded";
  ProgramRecorder recorder(dir);
  EXPECT_EQ(recorder.problem(), "");
  struct stat st {};
  ASSERT_EQ(::stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700U);
  plinth::ProgramOptions options;
  options.compiler_options = {"-DX=1"};
  recorder.record("opencl", "KERNEL void k() {}", options);
  recorder.record("opencl", "KERNEL void k() {}", options);
  const auto files = jobs_in(dir);
  ASSERT_EQ(files.size(), 1U);
  EXPECT_EQ(files[0].extension(), ".json");
  const auto job = plinth::detail::parse_program_job(read(files[0]));
  EXPECT_EQ(job.api, "opencl");
  EXPECT_EQ(job.source, "KERNEL void k() {}");
  EXPECT_EQ(job.options.compiler_options, options.compiler_options);
}

TEST_F(RecorderTest, RefusesADirectoryOthersCanWrite) {
  const auto dir = root_ / "shared";
  fs::create_directory(dir);
  fs::permissions(dir, fs::perms::all);  // 0777, no sticky bit
  ProgramRecorder recorder(dir);
  EXPECT_NE(recorder.problem().find("writable by every user"), std::string::npos)
      << recorder.problem();
  recorder.record("opencl", "KERNEL void k() {}", {});
  EXPECT_TRUE(jobs_in(dir).empty());
}

TEST_F(RecorderTest, RefusesADirectoryOfAnotherUser) {
  if (::geteuid() != 0) GTEST_SKIP() << "only root can give a directory to another user";
  const auto dir = root_ / "theirs";
  fs::create_directory(dir);
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace);
  ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);
  ProgramRecorder recorder(dir);
  EXPECT_NE(recorder.problem().find("owned by another user"), std::string::npos)
      << recorder.problem();
  recorder.record("opencl", "KERNEL void k() {}", {});
  EXPECT_TRUE(jobs_in(dir).empty());
}

TEST_F(RecorderTest, NeverReusesAFileItDidNotWrite) {
  // The job's name, from a first recording elsewhere.
  const auto first = root_ / "first";
  ProgramRecorder(first).record("cuda", "KERNEL void k() {}", {});
  ASSERT_EQ(jobs_in(first).size(), 1U);
  const auto name = jobs_in(first)[0].filename();
  const std::string expected = read(jobs_in(first)[0]);

  // Another process's recorder meets a file planted under that name, and a link there.
  for (const bool link : {false, true}) {
    const auto dir = root_ / (link ? "linked" : "planted");
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace);
    const auto outside = root_ / "outside.json";
    std::ofstream(outside) << R"({"plinth_program": 1, "api": "cuda", "source": "planted"})";
    if (link)
      fs::create_symlink(outside, dir / name);
    else
      fs::copy_file(outside, dir / name);
    ProgramRecorder(dir).record("cuda", "KERNEL void k() {}", {});
    SCOPED_TRACE(link ? "a link" : "a file");
    EXPECT_FALSE(fs::is_symlink(dir / name));
    EXPECT_EQ(read(dir / name), expected);
    EXPECT_NE(read(outside).find("planted"), std::string::npos);  // a link's target untouched
    EXPECT_EQ(jobs_in(dir).size(), 1U);                           // no temporary left
    fs::remove(outside);
  }
}

TEST_F(RecorderTest, RecordsASourceThatIsNotUtf8ByteExactly) {
  const auto dir = root_ / "bytes";
  std::string source = "KERNEL void k() {} // caf\xe9 \xff\xfe\x80";
  source += '\0';
  source += "\x01 end";
  plinth::ProgramOptions options;
  options.compiler_options = {"-DNOTE=\xe9t\xe9"};
  options.constant_arrays = {
      {"t\xe4"
       "ble",
       "float", 4, 4}};
  ProgramRecorder recorder(dir);
  recorder.record("level_zero", source, options);
  const auto files = jobs_in(dir);
  ASSERT_EQ(files.size(), 1U);
  const auto job = plinth::detail::parse_program_job(read(files[0]));
  EXPECT_EQ(job.source, source);
  EXPECT_EQ(job.options.compiler_options, options.compiler_options);
  ASSERT_EQ(job.options.constant_arrays.size(), 1U);
  EXPECT_EQ(job.options.constant_arrays[0].name,
            "t\xe4"
            "ble");
}

/// Runs plinth-cache-helper (tests/core/cache/cache_helper.cpp: builds `programs` programs on
/// the first device) with PLINTH_RECORD_PROGRAMS=`dir`; its exit status (77: no device) and
/// its output.
std::pair<int, std::string> build_programs_recording_into(const fs::path& dir, int programs) {
  const std::string command =
      "env ASAN_OPTIONS=detect_leaks=0 POCL_DEVICES=pthread "
      "PLINTH_CACHE_DIR=off PLINTH_RECORD_PROGRAMS=" +
      dir.string() + " " + PLINTH_CACHE_HELPER_PATH + " " + std::to_string(programs) + " 2>&1";
  return plinth::test::run_command(command);
}

// Through the environment, end to end: a refused directory is a warning on stderr, once per
// process however many programs it builds, and nothing is recorded; a good one records them.
TEST_F(RecorderTest, TheEnvironmentsDirectoryIsRefusedWithOneWarning) {
  const auto shared = root_ / "shared";
  fs::create_directory(shared);
  fs::permissions(shared, fs::perms::all);
  const auto [status, output] = build_programs_recording_into(shared, 3);
  if (status == 77) GTEST_SKIP() << "no device: " << output;
  ASSERT_EQ(status, 0) << output;
  const auto first =
      output.find("PLINTH_RECORD_PROGRAMS: " + shared.string() + " is writable by every user");
  EXPECT_NE(first, std::string::npos) << output;
  EXPECT_EQ(output.find("PLINTH_RECORD_PROGRAMS", first + 1), std::string::npos) << output;
  EXPECT_TRUE(jobs_in(shared).empty());

  const auto good = root_ / "good";
  const auto [good_status, good_output] = build_programs_recording_into(good, 3);
  ASSERT_EQ(good_status, 0) << good_output;
  EXPECT_EQ(good_output.find("PLINTH_RECORD_PROGRAMS"), std::string::npos) << good_output;
  EXPECT_EQ(jobs_in(good).size(), 3U);
}

}  // namespace
}  // namespace program_recorder_test
