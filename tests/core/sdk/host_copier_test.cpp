// The SDK's multi-threaded memcpy (<plinth/backend/host_copier.hpp>).

#include <plinth/backend/host_copier.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace plinth::backend {
namespace host_copier_test {
namespace {

// `size` bytes that depend on `seed` and on their position, none of them zero.
std::vector<std::byte> pattern(std::size_t size, std::uint64_t seed) {
  std::vector<std::byte> bytes(size);
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
  for (std::size_t i = 0; i < size; i += 8) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint64_t word = x | 0x0101010101010101ULL;  // odd bytes
    std::memcpy(bytes.data() + i, &word, std::min<std::size_t>(8, size - i));
  }
  return bytes;
}

// The index of the first byte where `a` and `b` differ, or their size if none does.
std::size_t first_difference(const std::vector<std::byte>& a, const std::vector<std::byte>& b) {
  const std::size_t size = std::min(a.size(), b.size());
  if (size == 0 || std::memcmp(a.data(), b.data(), size) == 0) return size;
  std::size_t i = 0;
  while (a[i] == b[i]) ++i;
  return i;
}

// A helper that started after the destructor had moved the generation on waited for a change
// that never came, so the destructor's join hung (seen on 16 cores, where helpers exist).
TEST(HostCopier, DestroyedRightAfterItIsMadeReturns) {
  for (int i = 0; i < 300; ++i) HostCopier copier(8);
}

TEST(HostCopier, CopiesEverySize) {
  HostCopier copier(4);  // helpers even on a machine of 2 cores
  const std::size_t KiB = 1024;
  const std::size_t MiB = 1024 * KiB;
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, 64 * KiB - 1, 128 * KiB - 1, 128 * KiB,
                           128 * KiB + 1, MiB + 3, 16 * MiB + 5, 40 * MiB + 7}) {
    SCOPED_TRACE(size);
    const auto src = pattern(size, size);
    std::vector<std::byte> dst(size + 1, std::byte{0});
    copier.copy(dst.data(), src.data(), size);
    EXPECT_EQ(dst[size], std::byte{0});  // nothing past the end
    dst.pop_back();
    EXPECT_EQ(first_difference(dst, src), size);
  }
}

TEST(HostCopier, CopiesAfterAWakeAndAfterTheHelpersSleep) {
  HostCopier copier(4);  // helpers even on a machine of 2 cores
  const std::size_t size = (std::size_t{8} << 20) + 11;
  const auto src = pattern(size, 1);
  std::vector<std::byte> dst(size);
  copier.wake(size);  // the helpers spin ahead of the copy
  copier.copy(dst.data(), src.data(), size);
  EXPECT_EQ(first_difference(dst, src), size);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // they have gone to sleep
  const auto again = pattern(size, 2);
  copier.copy(dst.data(), again.data(), size);
  EXPECT_EQ(first_difference(dst, again), size);
  copier.wake(size);  // a wake that no copy follows, then the destructor
}

// One copy has the helpers; the other, finding them busy, copies on its own thread. Both
// are right either way, whichever wins.
TEST(HostCopier, CopiesFromTwoThreadsAtOnce) {
  HostCopier copier(4);  // helpers even on a machine of 2 cores
  const std::size_t size = (std::size_t{6} << 20) + 5;
  const int rounds = 30;
  auto copy_rounds = [&](std::uint64_t seed, int& wrong) {
    const auto src = pattern(size, seed);
    std::vector<std::byte> dst(size);
    for (int round = 0; round < rounds; ++round) {
      std::memset(dst.data(), 0, size);
      copier.copy(dst.data(), src.data(), size);
      if (first_difference(dst, src) != size) ++wrong;
    }
  };
  int wrong_a = 0, wrong_b = 0;
  std::thread a(copy_rounds, 10, std::ref(wrong_a));
  std::thread b(copy_rounds, 20, std::ref(wrong_b));
  a.join();
  b.join();
  EXPECT_EQ(wrong_a, 0);
  EXPECT_EQ(wrong_b, 0);
}

}  // namespace
}  // namespace host_copier_test
}  // namespace plinth::backend
