#pragma once

// Reads the names of the dynamic symbols that an ELF shared library defines in one section,
// without loading it. (boost::dll::library_info in Boost 1.74 reads only .symtab, which
// `strip` removes from packaged plugins, and trusts the sizes the file claims.)

#include <plinth/export.hpp>

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

/// The names of the symbols of `.dynsym` defined in the section named `section`.
/// Every offset and size is checked against the file's size before anything is read or
/// allocated. Throws plinth::Error naming the file and what is wrong with it (missing, a
/// symbolic link loop, empty, not ELF, a table that lies beyond the end, no dynamic symbols).
PLINTH_EXPORT std::vector<std::string> elf_section_symbols(const std::filesystem::path& file,
                                                           const std::string& section);

/// As above, for a file image already in memory; `name` stands for the file in messages.
PLINTH_EXPORT std::vector<std::string> elf_section_symbols(std::span<const std::byte> image,
                                                           std::string_view name,
                                                           const std::string& section);

}  // namespace plinth::detail
