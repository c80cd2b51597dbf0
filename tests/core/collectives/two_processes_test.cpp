// Collectives across processes: one rank per process, one CUDA device each, in processes that
// plinth-collective-rank (collective_rank.cpp) runs; rank 0 hands the communicator id to the
// others through a file. TwoProcesses runs two ranks; ManyProcesses one per CUDA device (4 or
// 8 on the GPU machines; CUDA_VISIBLE_DEVICES chooses fewer). Needs two CUDA devices and NCCL
// (the GPU machines); elsewhere the helpers exit with 77 and the tests are skipped, saying why.
// NCCL_NVLS_ENABLE=0 is in the children's environment (and the helper sets it again): the shared
// GPU hosts must never use NVLink multicast.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace two_processes_test {
namespace {

namespace fs = std::filesystem;

struct Rank {
  pid_t pid = -1;
  fs::path output;
  int status = -1;  // the exit status, -1 while running or when killed
};

/// Runs plinth-collective-rank with `arguments`, its stdout and stderr into `output`.
Rank spawn(const std::vector<std::string>& arguments, const fs::path& output) {
  Rank child;
  child.output = output;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, child.output.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> argv{const_cast<char*>(PLINTH_COLLECTIVE_RANK_PATH)};
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  if (posix_spawn(&child.pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
    child.pid = -1;
  }
  posix_spawn_file_actions_destroy(&actions);
  return child;
}

Rank start(std::size_t rank, std::size_t ranks, const fs::path& dir) {
  return spawn({std::to_string(rank), std::to_string(ranks), (dir / "id").string()},
               dir / ("rank" + std::to_string(rank) + ".txt"));
}

/// Waits for every child, killing all of them after `limit`.
void wait_all(std::vector<Rank>& ranks, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (auto& rank : ranks) {
    while (rank.pid > 0) {
      int status = 0;
      const pid_t done = waitpid(rank.pid, &status, WNOHANG);
      if (done == rank.pid) {
        rank.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        rank.pid = -1;
      } else if (std::chrono::steady_clock::now() > deadline) {
        for (auto& other : ranks) {
          if (other.pid > 0) kill(other.pid, SIGKILL);
        }
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
  }
}

std::string read(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The children's environment: NCCL_NVLS_ENABLE=0 (inherited by the ranks) and, under ASan,
/// no leak check: LeakSanitizer reports the vendor libraries' own leaks at the ranks' exit
/// ("<unknown module>", once they are unloaded) and would turn a rank's status into 1.
void prepare_environment() {
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  const char* asan = std::getenv("ASAN_OPTIONS");
  setenv("ASAN_OPTIONS", (std::string(asan != nullptr ? asan : "") + ":detect_leaks=0").c_str(), 1);
}

/// A new private directory for one test's files (the id, each rank's output).
fs::path fresh_directory(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("plinth-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// Runs `count` ranks, one process each, and checks that every one joined, ran every
/// collective and said OK. Skips, with rank 0's reason, where rank 0 exits with 77.
void run_ranks(std::size_t count, const fs::path& dir) {
  std::vector<Rank> ranks;
  for (std::size_t r = 0; r < count; ++r) {
    ranks.push_back(start(r, count, dir));
    ASSERT_GT(ranks.back().pid, 0) << "rank " << r << " did not start";
  }
  wait_all(ranks, std::chrono::seconds(240));
  std::vector<std::string> outputs;
  for (const auto& rank : ranks) outputs.push_back(read(rank.output));
  fs::remove_all(dir);
  if (ranks[0].status == 77) GTEST_SKIP() << outputs[0];
  for (std::size_t r = 0; r < count; ++r) {
    EXPECT_EQ(ranks[r].status, 0) << "rank " << r << " of " << count << ":\n" << outputs[r];
    EXPECT_NE(outputs[r].find("rank " + std::to_string(r) + ": OK"), std::string::npos)
        << outputs[r];
  }
}

TEST(TwoProcesses, EveryCollectiveAcrossTwoRanks) {
  prepare_environment();
  run_ranks(2, fresh_directory("two-processes"));
}

TEST(ManyProcesses, EveryCollectiveOnOneRankPerCudaDevice) {
  prepare_environment();
  const fs::path dir = fresh_directory("many-processes");
  std::vector<Rank> counter{spawn({"--count"}, dir / "count.txt")};
  ASSERT_GT(counter[0].pid, 0);
  wait_all(counter, std::chrono::seconds(60));
  const std::string said = read(counter[0].output);
  if (counter[0].status == 77) {
    fs::remove_all(dir);
    GTEST_SKIP() << said;
  }
  ASSERT_EQ(counter[0].status, 0) << said;
  std::size_t devices = 0;
  std::istringstream(said) >> devices;
  if (devices < 2) {
    fs::remove_all(dir);
    GTEST_SKIP() << "needs two CUDA devices or more, found " << devices;
  }
  std::cout << "ManyProcesses: " << devices << " ranks, one per CUDA device" << std::endl;
  run_ranks(devices, dir);
}

}  // namespace
}  // namespace two_processes_test
