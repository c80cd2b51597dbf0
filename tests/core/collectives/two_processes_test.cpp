// Collectives across processes: two ranks, one CUDA device each, in two processes that
// plinth-collective-rank (collective_rank.cpp) runs; rank 0 hands the communicator id to rank
// 1 through a file. Needs two CUDA devices and NCCL (the GPU machines); elsewhere the helpers
// exit with 77 and the test is skipped, saying why. NCCL_NVLS_ENABLE=0 is in the children's
// environment (and the helper sets it again): the shared GPU hosts must never use NVLink
// multicast.

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
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

struct Rank {
  pid_t pid = -1;
  fs::path output;
  int status = -1;  // the exit status, -1 while running or when killed
};

Rank start(std::size_t rank, std::size_t ranks, const fs::path& dir) {
  Rank child;
  child.output = dir / ("rank" + std::to_string(rank) + ".txt");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, child.output.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  const std::string rank_text = std::to_string(rank), ranks_text = std::to_string(ranks);
  const std::string id_file = (dir / "id").string();
  std::vector<char*> argv{
      const_cast<char*>(PLINTH_COLLECTIVE_RANK_PATH), const_cast<char*>(rank_text.c_str()),
      const_cast<char*>(ranks_text.c_str()), const_cast<char*>(id_file.c_str()), nullptr};
  if (posix_spawn(&child.pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
    child.pid = -1;
  }
  posix_spawn_file_actions_destroy(&actions);
  return child;
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

TEST(TwoProcesses, EveryCollectiveAcrossTwoRanks) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // inherited by the ranks
  // Under ASan, LeakSanitizer reports the vendor libraries' own leaks at the ranks' exit
  // ("<unknown module>", once they are unloaded) and would turn a rank's status into 1.
  const char* asan = std::getenv("ASAN_OPTIONS");
  setenv("ASAN_OPTIONS", (std::string(asan != nullptr ? asan : "") + ":detect_leaks=0").c_str(), 1);
  const fs::path dir =
      fs::temp_directory_path() / ("plinth-two-processes-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<Rank> ranks{start(0, 2, dir), start(1, 2, dir)};
  ASSERT_GT(ranks[0].pid, 0);
  ASSERT_GT(ranks[1].pid, 0);
  wait_all(ranks, std::chrono::seconds(240));
  const std::string out0 = read(ranks[0].output), out1 = read(ranks[1].output);
  fs::remove_all(dir);
  if (ranks[0].status == 77) GTEST_SKIP() << out0;
  EXPECT_EQ(ranks[0].status, 0) << "rank 0:\n" << out0;
  EXPECT_EQ(ranks[1].status, 0) << "rank 1:\n" << out1;
  EXPECT_NE(out0.find("rank 0: OK"), std::string::npos) << out0;
  EXPECT_NE(out1.find("rank 1: OK"), std::string::npos) << out1;
}

}  // namespace
