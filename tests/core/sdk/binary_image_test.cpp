// <plinth/backend/binary_image.hpp>: what a backend checks before a loader that takes no
// size reads a user's binary.

#include <plinth/backend/binary_image.hpp>

#include <gtest/gtest.h>

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using plinth::backend::binary_image_problem;

std::vector<std::byte> bytes_of(const std::string& text) {
  const auto view = std::as_bytes(std::span(text.data(), text.size()));
  return {view.begin(), view.end()};
}

/// This test program's own file: a real 64-bit ELF image.
std::vector<std::byte> own_image() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  const std::vector<char> chars((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  const auto view = std::as_bytes(std::span(chars));
  return {view.begin(), view.end()};
}

template <class T>
void write_at(std::vector<std::byte>& image, std::size_t offset, const T& value) {
  std::memcpy(image.data() + offset, &value, sizeof(T));
}

template <class T>
T read_at(const std::vector<std::byte>& image, std::size_t offset) {
  T value;
  std::memcpy(&value, image.data() + offset, sizeof(T));
  return value;
}

TEST(BinaryImage, TextSuchAsPtxIsAccepted) {
  EXPECT_EQ(binary_image_problem(bytes_of(".version 8.0\n.target sm_90\r\n\t// x\n")), "");
  auto terminated = bytes_of(".version 8.0\n");
  terminated.push_back(std::byte{0});
  terminated.push_back(std::byte{0});
  EXPECT_EQ(binary_image_problem(terminated), "");
}

TEST(BinaryImage, ControlBytesAndEmptyImagesAreRefused) {
  EXPECT_EQ(binary_image_problem({}), "empty");
  EXPECT_EQ(binary_image_problem(std::vector<std::byte>(3, std::byte{0})), "empty");
  auto with_nul = bytes_of("ab");
  with_nul.insert(with_nul.begin() + 1, std::byte{0});
  EXPECT_EQ(binary_image_problem(with_nul), "neither an ELF file nor text (byte 1 is 0)");
  EXPECT_NE(binary_image_problem(bytes_of("\x1b[2J")).find("byte 0 is 27"), std::string::npos);
}

TEST(BinaryImage, AWholeElfFileIsAccepted) {
  const auto image = own_image();
  ASSERT_GT(image.size(), sizeof(Elf64_Ehdr));
  EXPECT_EQ(binary_image_problem(image), "");
}

TEST(BinaryImage, TruncatedElfFilesAreRefused) {
  auto image = own_image();
  EXPECT_EQ(binary_image_problem(std::span(image).first(20)),
            "an ELF file shorter than its header");
  const auto header = read_at<Elf64_Ehdr>(image, 0);
  // Cut inside the section header table, which sits at the end of the file.
  image.resize(header.e_shoff + header.e_shentsize);
  EXPECT_EQ(binary_image_problem(image), "an ELF file whose header tables lie outside it");
}

TEST(BinaryImage, SectionsAndSegmentsOutsideTheFileAreRefused) {
  const auto original = own_image();
  const auto header = read_at<Elf64_Ehdr>(original, 0);
  ASSERT_GT(header.e_shnum, 1);
  ASSERT_GT(header.e_phnum, 0);
  {
    auto image = original;
    const std::size_t at = header.e_shoff + 1 * header.e_shentsize;
    auto section = read_at<Elf64_Shdr>(image, at);
    section.sh_type = SHT_PROGBITS;
    section.sh_offset = image.size() - 4;
    section.sh_size = 8;
    write_at(image, at, section);
    EXPECT_EQ(binary_image_problem(image), "an ELF file whose section 1 lies outside it");
    section.sh_type = SHT_NOBITS;  // occupies no file space: fine
    write_at(image, at, section);
    EXPECT_EQ(binary_image_problem(image), "");
  }
  {
    auto image = original;
    auto segment = read_at<Elf64_Phdr>(image, header.e_phoff);
    segment.p_offset = ~std::uint64_t{0} - 2;  // offset + size would wrap around
    segment.p_filesz = 16;
    write_at(image, header.e_phoff, segment);
    EXPECT_EQ(binary_image_problem(image), "an ELF file whose segment 0 lies outside it");
  }
  {
    auto image = original;
    auto changed = header;
    changed.e_shentsize = 8;  // smaller than a section header: entries would overlap
    write_at(image, 0, changed);
    EXPECT_EQ(binary_image_problem(image), "an ELF file whose header tables lie outside it");
  }
  {
    auto image = original;
    image[EI_CLASS] = std::byte{ELFCLASS32};
    EXPECT_EQ(binary_image_problem(image), "an ELF file that is not 64-bit little-endian");
  }
}

}  // namespace
