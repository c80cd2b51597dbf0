#include "runtime/kept_directory.hpp"

#include <plinth/errors.hpp>
#include <plinth/printable.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>

namespace plinth::detail {

KeptDirectory::KeptDirectory() {
  std::string pattern;
  try {
    pattern = (std::filesystem::temp_directory_path() / "plinth-keep-XXXXXX").string();
  } catch (const std::filesystem::filesystem_error& e) {
    throw Error(fmt::format("ProgramOptions::keep: no temporary directory: {}", e.what()));
  }
  if (::mkdtemp(pattern.data()) == nullptr) {  // mode 0700
    throw Error(
        fmt::format("ProgramOptions::keep: cannot create a directory like {}", printable(pattern)));
  }
  path_ = pattern;
}

void KeptDirectory::write(std::string_view name, std::span<const std::byte> data) {
  if (name.empty() || name == "." || name == ".." ||
      name.find_first_of(std::string_view("/\0", 2)) != std::string_view::npos) {
    throw LogicError(
        fmt::format("a backend asked to keep a file named '{}', which is not a "
                    "plain file name",
                    printable(name)));
  }
  const auto file = path_ / std::string(name);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out)
    throw Error(fmt::format("ProgramOptions::keep: cannot write {}", printable(file.string())));
}

}  // namespace plinth::detail
