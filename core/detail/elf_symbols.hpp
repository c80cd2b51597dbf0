#pragma once

// Reads the names of the dynamic symbols that an ELF shared library defines in one section,
// without loading it. (boost::dll::library_info in Boost 1.74 reads only .symtab, which
// `strip` removes from packaged plugins, and trusts the sizes the file claims.)

#include <filesystem>
#include <string>
#include <vector>

namespace plinth::detail {

/// The names of the symbols of `.dynsym` defined in the section named `section`.
/// Every offset and size is checked against the file's size. Throws plinth::Error saying
/// what is wrong with the file (missing, empty, not ELF, truncated, no dynamic symbols).
std::vector<std::string> elf_section_symbols(const std::filesystem::path& file,
                                             const std::string& section);

}  // namespace plinth::detail
