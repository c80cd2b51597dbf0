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

namespace binary_image_test {
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

// Issue 25's variants that got through before: damaged header fields and section links
// that loaders use as indices, and truncation at many offsets.
TEST(BinaryImage, DamagedHeadersAndLinksAreRefused) {
  const auto original = own_image();
  const auto header = read_at<Elf64_Ehdr>(original, 0);
  ASSERT_GT(header.e_shnum, 1);
  const auto section_offset = [&](std::size_t i) {
    return static_cast<std::size_t>(header.e_shoff + i * header.e_shentsize);
  };
  {
    auto image = original;
    auto changed = header;
    changed.e_shstrndx = static_cast<Elf64_Half>(header.e_shnum + 5);
    write_at(image, 0, changed);
    EXPECT_NE(binary_image_problem(image).find("section names' table"), std::string::npos)
        << binary_image_problem(image);
  }
  {
    auto image = original;
    image[EI_VERSION] = std::byte{0x7f};
    EXPECT_NE(binary_image_problem(image).find("header is damaged"), std::string::npos);
  }
  // Find the symbol table and a section after the first.
  std::size_t symtab = 0;
  for (std::size_t i = 1; i < header.e_shnum; ++i) {
    if (read_at<Elf64_Shdr>(original, section_offset(i)).sh_type == SHT_SYMTAB) symtab = i;
  }
  {
    auto image = original;
    auto section = read_at<Elf64_Shdr>(image, section_offset(1));
    section.sh_name = 0x7fffffff;
    write_at(image, section_offset(1), section);
    EXPECT_EQ(binary_image_problem(image),
              "an ELF file whose section 1 has a name outside its section names' table");
  }
  if (symtab == 0) GTEST_SKIP() << "this test program has no symbol table (stripped)";
  {
    auto image = original;
    auto section = read_at<Elf64_Shdr>(image, section_offset(symtab));
    section.sh_link = 0xffff;
    write_at(image, section_offset(symtab), section);
    EXPECT_NE(binary_image_problem(image).find("links to section 65535"), std::string::npos);
    section = read_at<Elf64_Shdr>(original, section_offset(symtab));
    section.sh_entsize = 1;
    write_at(image, section_offset(symtab), section);
    EXPECT_NE(binary_image_problem(image).find("has entries of 1 bytes"), std::string::npos);
  }
  {
    auto image = original;
    const auto section = read_at<Elf64_Shdr>(image, section_offset(symtab));
    ASSERT_GE(section.sh_size, 2 * sizeof(Elf64_Sym));
    auto symbol = read_at<Elf64_Sym>(image, section.sh_offset + sizeof(Elf64_Sym));
    symbol.st_name = 0x7ffffff0;
    write_at(image, section.sh_offset + sizeof(Elf64_Sym), symbol);
    EXPECT_NE(binary_image_problem(image).find("has a name outside its string table"),
              std::string::npos);
    symbol = read_at<Elf64_Sym>(original, section.sh_offset + sizeof(Elf64_Sym));
    symbol.st_shndx = static_cast<Elf64_Section>(header.e_shnum + 1);
    write_at(image, section.sh_offset + sizeof(Elf64_Sym), symbol);
    EXPECT_NE(binary_image_problem(image).find("which it does not have"), std::string::npos);
  }
}

TEST(BinaryImage, EveryTruncationOfAnElfFileIsRefused) {
  const auto image = own_image();
  const std::size_t step = image.size() / 997 + 1;
  for (std::size_t size = 1; size < 8; ++size)  // a cut magic number is no text either
    EXPECT_NE(binary_image_problem(std::span(image).first(size)), "") << size;
  for (std::size_t size = 0; size < image.size(); size += step) {
    EXPECT_NE(binary_image_problem(std::span(image).first(size)), "") << size;
  }
  for (std::size_t size = image.size() - 64; size < image.size(); ++size)
    EXPECT_NE(binary_image_problem(std::span(image).first(size)), "") << size;
}

}  // namespace
}  // namespace binary_image_test
