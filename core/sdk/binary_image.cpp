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

Elf64_Shdr section_at(std::span<const std::byte> bytes, const Elf64_Ehdr& header,
                      std::size_t index) {
  return read_at<Elf64_Shdr>(bytes, header.e_shoff + index * header.e_shentsize);
}

/// Whether string table `table` (a section inside the file) has a NUL at or after `offset`.
bool string_inside(std::span<const std::byte> bytes, const Elf64_Shdr& table,
                   std::uint64_t offset) {
  if (table.sh_type != SHT_STRTAB || offset >= table.sh_size) return false;
  const auto* begin = bytes.data() + table.sh_offset;
  return std::memchr(begin + offset, 0, table.sh_size - offset) != nullptr;
}

/// What the sections say about each other (the section names' table, the links of symbol
/// and relocation tables, the symbols' names and sections): loaders index with these
/// unchecked. The sections themselves lie inside the file (checked before).
std::string links_problem(std::span<const std::byte> bytes, const Elf64_Ehdr& header) {
  const std::size_t count = header.e_shnum;
  if (count == 0) return {};
  if (header.e_shstrndx >= count)
    return "an ELF file whose section names' table " + std::to_string(header.e_shstrndx) +
           " is not one of its " + std::to_string(count) + " sections";
  const auto names = section_at(bytes, header, header.e_shstrndx);
  for (std::size_t i = 1; i < count; ++i) {
    const auto section = section_at(bytes, header, i);
    if (!string_inside(bytes, names, section.sh_name))
      return "an ELF file whose section " + std::to_string(i) +
             " has a name outside its section names' table";
    const bool symbols = section.sh_type == SHT_SYMTAB || section.sh_type == SHT_DYNSYM;
    const bool relocations = section.sh_type == SHT_REL || section.sh_type == SHT_RELA;
    if (!symbols && !relocations && section.sh_type != SHT_HASH &&
        section.sh_type != SHT_GNU_HASH && section.sh_type != SHT_DYNAMIC)
      continue;
    if (section.sh_link >= count)
      return "an ELF file whose section " + std::to_string(i) + " links to section " +
             std::to_string(section.sh_link) + " of " + std::to_string(count);
    const std::uint64_t entry = section.sh_type == SHT_SYMTAB || section.sh_type == SHT_DYNSYM
                                    ? sizeof(Elf64_Sym)
                                : section.sh_type == SHT_REL  ? sizeof(Elf64_Rel)
                                : section.sh_type == SHT_RELA ? sizeof(Elf64_Rela)
                                                              : 0;
    if (entry != 0 && (section.sh_entsize != entry || section.sh_size % entry != 0))
      return "an ELF file whose section " + std::to_string(i) + " has entries of " +
             std::to_string(section.sh_entsize) + " bytes, not " + std::to_string(entry);
    if (!symbols) continue;
    const auto strings = section_at(bytes, header, section.sh_link);
    if (strings.sh_type != SHT_STRTAB)
      return "an ELF file whose symbol table " + std::to_string(i) +
             " links to a section that is no string table";
    for (std::uint64_t s = 0; s < section.sh_size / entry; ++s) {
      const auto symbol = read_at<Elf64_Sym>(bytes, section.sh_offset + s * entry);
      if (symbol.st_name != 0 && !string_inside(bytes, strings, symbol.st_name))
        return "an ELF file whose symbol " + std::to_string(s) + " of section " +
               std::to_string(i) + " has a name outside its string table";
      if (symbol.st_shndx >= count && symbol.st_shndx < SHN_LORESERVE)
        return "an ELF file whose symbol " + std::to_string(s) + " of section " +
               std::to_string(i) + " is in section " + std::to_string(symbol.st_shndx) +
               ", which it does not have";
    }
  }
  return {};
}

std::string elf_problem(std::span<const std::byte> bytes) {
  const std::size_t size = bytes.size();
  if (size < sizeof(Elf64_Ehdr)) return "an ELF file shorter than its header";
  const auto header = read_at<Elf64_Ehdr>(bytes, 0);
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return "an ELF file that is not 64-bit little-endian";
  }
  if (header.e_ident[EI_VERSION] != EV_CURRENT || header.e_version != EV_CURRENT ||
      header.e_ehsize < sizeof(Elf64_Ehdr)) {
    return "an ELF file whose header is damaged (its version or size)";
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
  return links_problem(bytes, header);
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
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      return "neither an ELF file nor text (byte " + std::to_string(i) + " is " +
             std::to_string(c) + ")";
    }
  }
  return {};
}

}  // namespace plinth::backend
