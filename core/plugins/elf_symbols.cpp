#include "plugins/elf_symbols.hpp"

#include <plinth/errors.hpp>

#include <elf.h>
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <limits>
#include <optional>

namespace plinth::detail {

namespace {

/// A file, or an image of one in memory, read through bounds-checked, positioned reads.
class ElfSource {
 public:
  explicit ElfSource(const std::filesystem::path& path) : name_(path.string()) {
    std::error_code ec;
    // status() follows links, so a loop or a dangling link is reported as what it is.
    const auto status = std::filesystem::status(path, ec);
    if (ec) fail(ec.message());
    if (!std::filesystem::is_regular_file(status)) fail("not a regular file");
    size_ = std::filesystem::file_size(path, ec);
    if (ec) fail(ec.message());
    file_.emplace(path, std::ios::binary);
    if (!*file_) fail("cannot open the file");
  }
  ElfSource(std::span<const std::byte> image, std::string_view name)
      : name_(name), image_(image), size_(image.size()) {}

  std::uint64_t size() const { return size_; }

  /// Throws unless [offset, offset + length) lies inside the file.
  void check(std::uint64_t offset, std::uint64_t length, const char* what) const {
    if (offset > size_ || length > size_ - offset) {
      fail(
          fmt::format("truncated or corrupt: the {} ({} bytes at offset {}) lies beyond the "
                      "file's {} bytes",
                      what, length, offset, size_));
    }
  }

  void read(std::uint64_t offset, void* out, std::uint64_t length, const char* what) {
    check(offset, length, what);
    if (length == 0) return;
    if (!file_) {
      std::memcpy(out, image_.data() + offset, length);
      return;
    }
    file_->seekg(static_cast<std::streamoff>(offset));
    file_->read(static_cast<char*>(out), static_cast<std::streamsize>(length));
    if (!*file_) fail(fmt::format("cannot read the {}", what));
  }

  /// `count` objects of type T at `offset`, checked before the vector is allocated.
  template <class T>
  std::vector<T> read_array(std::uint64_t offset, std::uint64_t count, const char* what) {
    if (count > std::numeric_limits<std::uint64_t>::max() / sizeof(T)) {
      fail(fmt::format("truncated or corrupt: the {} ({} entries) lies beyond the file's {} bytes",
                       what, count, size_));
    }
    check(offset, count * sizeof(T), what);
    std::vector<T> out(count);
    read(offset, out.data(), count * sizeof(T), what);
    return out;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw Error(fmt::format("{}: {}", name_, why));
  }

 private:
  std::string name_;
  std::span<const std::byte> image_;
  std::uint64_t size_ = 0;
  std::optional<std::ifstream> file_;  // empty for an image in memory
};

std::string name_at(const std::vector<char>& table, std::uint64_t offset) {
  if (offset >= table.size()) return {};
  const char* start = table.data() + offset;
  return std::string(start, strnlen(start, table.size() - offset));
}

std::vector<std::string> section_symbols(ElfSource& file, const std::string& section) {
  if (file.size() == 0) file.fail("the file is empty");
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
  const auto sections =
      file.read_array<Elf64_Shdr>(header.e_shoff, header.e_shnum, "section header table");
  if (header.e_shstrndx >= sections.size()) file.fail("corrupt section name table index");
  const auto& names_header = sections[header.e_shstrndx];
  const auto section_names =
      file.read_array<char>(names_header.sh_offset, names_header.sh_size, "section name table");

  std::size_t wanted = sections.size();
  const Elf64_Shdr* dynsym = nullptr;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (name_at(section_names, sections[i].sh_name) == section) wanted = i;
    if (sections[i].sh_type == SHT_DYNSYM) dynsym = &sections[i];
  }
  if (dynsym == nullptr) file.fail("the ELF file has no dynamic symbol table");
  if (dynsym->sh_link >= sections.size() || dynsym->sh_entsize != sizeof(Elf64_Sym)) {
    file.fail("corrupt dynamic symbol table (.dynsym): bad entry size or string table index");
  }
  if (dynsym->sh_size % sizeof(Elf64_Sym) != 0) {
    file.fail(
        fmt::format("corrupt dynamic symbol table (.dynsym): its size {} is not a "
                    "multiple of {}",
                    dynsym->sh_size, sizeof(Elf64_Sym)));
  }
  if (wanted == sections.size()) return {};
  const auto symbols = file.read_array<Elf64_Sym>(
      dynsym->sh_offset, dynsym->sh_size / sizeof(Elf64_Sym), "dynamic symbol table (.dynsym)");
  const auto& strtab = sections[dynsym->sh_link];
  const auto names =
      file.read_array<char>(strtab.sh_offset, strtab.sh_size, "dynamic string table (.dynstr)");

  std::vector<std::string> found;
  for (const auto& symbol : symbols) {
    if (symbol.st_shndx == wanted) found.push_back(name_at(names, symbol.st_name));
  }
  return found;
}

}  // namespace

std::vector<std::string> elf_section_symbols(const std::filesystem::path& path,
                                             const std::string& section) {
  ElfSource file(path);
  return section_symbols(file, section);
}

std::vector<std::string> elf_section_symbols(std::span<const std::byte> image,
                                             std::string_view name, const std::string& section) {
  ElfSource file(image, name);
  return section_symbols(file, section);
}

}  // namespace plinth::detail
