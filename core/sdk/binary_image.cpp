// <plinth/backend/binary_image.hpp>: bounds checks of ELF images and text before a vendor
// loader that takes no size reads them. Fuzzed by tests/fuzz/fuzz_binary_image.cpp.

#include <plinth/backend/binary_image.hpp>

#include <elf.h>

#include <cstdint>
#include <cstring>

namespace plinth::backend {

namespace {

template <class T>
T read_at(std::span<const std::byte> bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));  // the caller checked the bounds
  return value;
}

/// Whether `count` entries of `entry` bytes from `offset` lie inside `size` bytes.
bool inside(std::uint64_t offset, std::uint64_t count, std::uint64_t entry, std::size_t size) {
  return offset <= size && (entry == 0 || count <= (size - offset) / entry);
}

std::string elf_problem(std::span<const std::byte> bytes) {
  const std::size_t size = bytes.size();
  if (size < sizeof(Elf64_Ehdr)) return "an ELF file shorter than its header";
  const auto header = read_at<Elf64_Ehdr>(bytes, 0);
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return "an ELF file that is not 64-bit little-endian";
  }
  if ((header.e_phnum != 0 && header.e_phentsize < sizeof(Elf64_Phdr)) ||
      (header.e_shnum != 0 && header.e_shentsize < sizeof(Elf64_Shdr)) ||
      !inside(header.e_phoff, header.e_phnum, header.e_phentsize, size) ||
      !inside(header.e_shoff, header.e_shnum, header.e_shentsize, size)) {
    return "an ELF file whose header tables lie outside it";
  }
  for (std::size_t i = 0; i < header.e_shnum; ++i) {
    const auto section = read_at<Elf64_Shdr>(bytes, header.e_shoff + i * header.e_shentsize);
    if (section.sh_type != SHT_NOBITS && !inside(section.sh_offset, section.sh_size, 1, size)) {
      return "an ELF file whose section " + std::to_string(i) + " lies outside it";
    }
  }
  for (std::size_t i = 0; i < header.e_phnum; ++i) {
    const auto segment = read_at<Elf64_Phdr>(bytes, header.e_phoff + i * header.e_phentsize);
    if (!inside(segment.p_offset, segment.p_filesz, 1, size)) {
      return "an ELF file whose segment " + std::to_string(i) + " lies outside it";
    }
  }
  return {};
}

}  // namespace

std::string binary_image_problem(std::span<const std::byte> bytes) {
  if (bytes.size() >= SELFMAG && std::memcmp(bytes.data(), ELFMAG, SELFMAG) == 0) {
    return elf_problem(bytes);
  }
  std::size_t end = bytes.size();
  while (end > 0 && bytes[end - 1] == std::byte{0}) --end;
  if (end == 0) return "empty";
  for (std::size_t i = 0; i < end; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      return "neither an ELF file nor text (byte " + std::to_string(i) + " is " +
             std::to_string(c) + ")";
    }
  }
  return {};
}

}  // namespace plinth::backend
