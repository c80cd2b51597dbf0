#include "detail/elf_symbols.hpp"

#include <plinth/errors.hpp>

#include <elf.h>
#include <fmt/format.h>

#include <cstring>
#include <fstream>

namespace plinth::detail {

namespace {

/// A file read through bounds-checked, positioned reads.
class ElfFile {
 public:
  explicit ElfFile(const std::filesystem::path& path) : path_(path.string()) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) fail("No such file or directory");
    if (!std::filesystem::is_regular_file(path, ec)) fail("not a regular file");
    size_ = std::filesystem::file_size(path, ec);
    if (ec) fail(ec.message());
    if (size_ == 0) fail("the file is empty");
    in_.open(path, std::ios::binary);
    if (!in_) fail("cannot open the file");
  }

  std::uint64_t size() const { return size_; }

  void read(std::uint64_t offset, void* out, std::uint64_t length, const char* what) {
    if (offset > size_ || length > size_ - offset) {
      fail(fmt::format("truncated or corrupt: the {} ({} bytes at {}) lies beyond the file's {} "
                       "bytes",
                       what, length, offset, size_));
    }
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(static_cast<char*>(out), static_cast<std::streamsize>(length));
    if (!in_) fail(fmt::format("cannot read the {}", what));
  }

  std::string read_block(std::uint64_t offset, std::uint64_t length, const char* what) {
    std::string block;
    if (offset > size_ || length > size_ - offset) read(offset, nullptr, length, what);  // fails
    block.resize(length);
    read(offset, block.data(), length, what);
    return block;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw Error(fmt::format("{}: {}", path_, why));
  }

 private:
  std::string path_;
  std::uint64_t size_ = 0;
  std::ifstream in_;
};

std::string name_at(const std::string& table, std::uint64_t offset) {
  if (offset >= table.size()) return {};
  const char* start = table.data() + offset;
  return std::string(start, strnlen(start, table.size() - offset));
}

}  // namespace

std::vector<std::string> elf_section_symbols(const std::filesystem::path& path,
                                             const std::string& section) {
  ElfFile file(path);
  Elf64_Ehdr header{};
  if (file.size() < sizeof(header)) file.fail("not an ELF shared library (too short)");
  file.read(0, &header, sizeof(header), "ELF header");
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) file.fail("not an ELF shared library");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
    file.fail("not a 64-bit little-endian ELF file");
  }
  if (header.e_type != ET_DYN) file.fail("an ELF file but not a shared library");
  if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0) {
    file.fail("the ELF file has no usable section headers");
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  file.read(header.e_shoff, sections.data(), sections.size() * sizeof(Elf64_Shdr),
            "section header table");
  if (header.e_shstrndx >= sections.size()) file.fail("corrupt section name table index");
  const auto& names_header = sections[header.e_shstrndx];
  const std::string section_names =
      file.read_block(names_header.sh_offset, names_header.sh_size, "section name table");

  std::size_t wanted = sections.size();
  const Elf64_Shdr* dynsym = nullptr;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (name_at(section_names, sections[i].sh_name) == section) wanted = i;
    if (sections[i].sh_type == SHT_DYNSYM) dynsym = &sections[i];
  }
  if (dynsym == nullptr) file.fail("the ELF file has no dynamic symbol table");
  if (dynsym->sh_link >= sections.size() || dynsym->sh_entsize != sizeof(Elf64_Sym)) {
    file.fail("corrupt dynamic symbol table");
  }
  if (wanted == sections.size()) return {};
  const auto& strtab = sections[dynsym->sh_link];
  const std::string names = file.read_block(strtab.sh_offset, strtab.sh_size, "dynamic string table");
  if (dynsym->sh_size % sizeof(Elf64_Sym) != 0) file.fail("corrupt dynamic symbol table size");
  std::vector<Elf64_Sym> symbols(dynsym->sh_size / sizeof(Elf64_Sym));
  file.read(dynsym->sh_offset, symbols.data(), dynsym->sh_size, "dynamic symbol table");

  std::vector<std::string> found;
  for (const auto& symbol : symbols) {
    if (symbol.st_shndx == wanted) found.push_back(name_at(names, symbol.st_name));
  }
  return found;
}

}  // namespace plinth::detail
