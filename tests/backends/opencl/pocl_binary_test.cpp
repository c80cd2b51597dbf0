// PoCL's program-binary container check (backends/opencl/pocl_binary.hpp): whole binaries of
// format 9 (PoCL 3.x) and 11 (PoCL 5.0) pass, built here field by field as PoCL writes them
// and as a real binary of this machine's PoCL; every truncation, every oversized count or
// length and every unknown version is refused, naming what is wrong.

#include "pocl_binary.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace plinth::opencl {
namespace pocl_binary_test {
namespace {

/// Writes a PoCL binary as PoCL's serializer does, remembering where its fields are.
class PoclWriter {
 public:
  explicit PoclWriter(std::uint32_t version) : version_(version) {
    raw("poclbin", 8);
    u64(0x1234567890abcdefu);  // device hash
    u32(version);
    u32(1);                        // kernels
    u64(version >= 10 ? 2u : 0u);  // flags: program-scope variables from 10 on
    root_entries_at = bytes.size();
    u32(1);
    raw(std::string(40, 'a').c_str(), 41);  // build hash
    if (version >= 10) u64(0);              // program-scope variable bytes
    // Root entry: /program.bc.
    root_size_at = bytes.size();
    const auto root = bytes.size();
    u64(0);
    file("/program.bc", "BC\xc0\xde-bitcode");
    patch64(root, bytes.size() - root - 8);
    // Kernel "add": two arguments, one local, a file.
    kernel_at = bytes.size();
    u64(0);
    u64(0);
    u32(0);
    str("add");
    u32(2);  // args
    u32(1);  // locals
    for (int i = 0; i < 3; ++i) u64(0);
    u64(64);  // the local's size
    str("");  // attributes
    if (version == 9) {
      u64(1);
    } else {
      u32(1);
      u32(2);  // work-group metadata follows
      for (int i = 0; i < 5; ++i) u32(0);
    }
    const auto args = bytes.size();
    for (int a = 0; a < 2; ++a) {
      u32(0x11A3);
      u32(0x119B);
      u64(0);
      u32(0);
      u32(8);
      str(a == 0 ? "out" : "in");
      str("int*");
    }
    const auto arginfo = bytes.size() - args;
    const auto files = bytes.size();
    file("/add/0-0-0/parallel.so",
         "\x7f"
         "ELF-the-kernel");
    patch64(kernel_at, bytes.size() - kernel_at);
    patch64(kernel_at + 8, bytes.size() - files);
    std::memcpy(bytes.data() + kernel_at + 16, &arginfo, 4);
  }

  std::vector<std::byte> bytes;
  std::size_t root_entries_at = 0, root_size_at = 0, kernel_at = 0;

 private:
  void raw(const char* data, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) bytes.push_back(static_cast<std::byte>(data[i]));
  }
  void u32(std::uint32_t v) { raw(reinterpret_cast<const char*>(&v), 4); }
  void u64(std::uint64_t v) { raw(reinterpret_cast<const char*>(&v), 8); }
  void str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  void file(const std::string& path, const std::string& content) {
    str(path);
    str(content);
  }
  void patch64(std::size_t at, std::uint64_t v) { std::memcpy(bytes.data() + at, &v, 8); }

  std::uint32_t version_;
};

void put32(std::vector<std::byte>& bytes, std::size_t at, std::uint32_t v) {
  std::memcpy(bytes.data() + at, &v, 4);
}
void put64(std::vector<std::byte>& bytes, std::size_t at, std::uint64_t v) {
  std::memcpy(bytes.data() + at, &v, 8);
}

class PoclBinaryTest : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(PoclBinaryTest, AWholeBinaryPasses) {
  const PoclWriter binary(GetParam());
  EXPECT_TRUE(is_pocl_binary(binary.bytes));
  EXPECT_EQ(pocl_binary_problem(binary.bytes), "");
}

TEST_P(PoclBinaryTest, EveryTruncationIsRefused) {
  const PoclWriter binary(GetParam());
  for (std::size_t size = 0; size < binary.bytes.size(); ++size) {
    const std::vector<std::byte> cut(binary.bytes.begin(),
                                     binary.bytes.begin() + static_cast<std::ptrdiff_t>(size));
    EXPECT_NE(pocl_binary_problem(cut), "") << "truncated to " << size << " bytes";
  }
  auto longer = binary.bytes;
  longer.push_back(std::byte{0});
  EXPECT_NE(pocl_binary_problem(longer).find("after its last kernel"), std::string::npos);
}

TEST_P(PoclBinaryTest, CountsAndSizesBeyondTheBytesAreRefused) {
  const PoclWriter binary(GetParam());
  auto bytes = binary.bytes;
  put32(bytes, 20, 0xffffffffu);  // kernels
  EXPECT_NE(pocl_binary_problem(bytes).find("kernels"), std::string::npos);
  bytes = binary.bytes;
  put32(bytes, binary.root_entries_at, 1000);
  EXPECT_NE(pocl_binary_problem(bytes).find("1000 root entries"), std::string::npos);
  bytes = binary.bytes;
  put64(bytes, binary.root_size_at, ~std::uint64_t{0});
  EXPECT_NE(pocl_binary_problem(bytes).find("root entry 0 declares"), std::string::npos);
  bytes = binary.bytes;
  put64(bytes, binary.kernel_at, 1u << 30);  // the kernel's record size
  EXPECT_NE(pocl_binary_problem(bytes).find("runs past the end"), std::string::npos);
  bytes = binary.bytes;
  put64(bytes, binary.kernel_at + 8, 1u << 30);  // its files' size
  EXPECT_NE(pocl_binary_problem(bytes).find("exceed its record"), std::string::npos);
  bytes = binary.bytes;
  put32(bytes, binary.kernel_at + 16, 7);  // its argument info's size
  EXPECT_NE(pocl_binary_problem(bytes).find("argument info"), std::string::npos);
  bytes = binary.bytes;
  put32(bytes, binary.kernel_at + 20, 0xfffffff0u);  // its name's length
  EXPECT_NE(pocl_binary_problem(bytes).find("name"), std::string::npos);
  bytes = binary.bytes;
  put32(bytes, binary.kernel_at + 27, 0x7fffffffu);  // its argument count
  EXPECT_NE(pocl_binary_problem(bytes).find("argument"), std::string::npos);
  bytes = binary.bytes;
  put32(bytes, binary.root_size_at + 8, 0);  // the root file's path is empty
  EXPECT_NE(pocl_binary_problem(bytes), "");
}

TEST_P(PoclBinaryTest, EveryByteChangedIsHarmless) {
  // Whatever one byte becomes, the check answers without reading out of bounds (ASan).
  const PoclWriter binary(GetParam());
  for (std::size_t at = 0; at < binary.bytes.size(); ++at) {
    for (const unsigned value : {0x00u, 0x7fu, 0xffu}) {
      auto bytes = binary.bytes;
      bytes[at] = static_cast<std::byte>(value);
      (void)pocl_binary_problem(bytes);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, PoclBinaryTest, ::testing::Values(9u, 11u));

TEST(PoclBinary, OtherFormatsAndNonBinariesAreRefusedClearly) {
  PoclWriter binary(9);
  put32(binary.bytes, 16, 10);
  EXPECT_NE(pocl_binary_problem(binary.bytes).find("format version 10, which plinth cannot check"),
            std::string::npos)
      << pocl_binary_problem(binary.bytes);
  EXPECT_EQ(pocl_binary_problem({}), "an empty PoCL binary");
  const std::vector<std::byte> garbage(200, std::byte{0x5a});
  EXPECT_FALSE(is_pocl_binary(garbage));
  EXPECT_NE(pocl_binary_problem(garbage).find("not a PoCL binary"), std::string::npos);
}

TEST(PoclBinary, RealBinariesOfPoclPass) {
  // Dumped from PoCL 3.1 (Debian 12) with Program::binary(): tests/data/pocl/.
  const std::filesystem::path dir = std::filesystem::path(PLINTH_TEST_DATA_DIR) / "pocl";
  std::size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto bytes = std::as_bytes(std::span(text.data(), text.size()));
    EXPECT_EQ(pocl_binary_problem(bytes), "") << entry.path();
    EXPECT_NE(pocl_binary_problem(bytes.first(bytes.size() - 1)), "") << entry.path();
    ++seen;
  }
  EXPECT_GT(seen, 0u);
}

}  // namespace
}  // namespace pocl_binary_test
}  // namespace plinth::opencl
