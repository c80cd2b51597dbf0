// Fuzzes the ELF metadata reader: plinth::detail::elf_section_symbols on an image in memory
// (core/detail/elf_symbols.hpp), which reads plugin metadata without loading the plugin.
// Input: the file image (libFuzzer's buffer is exactly that size, so AddressSanitizer sees
// any read beyond it). It is asked for the symbols of the section the loader reads
// ("plinth") and of ".text". Every name it returns comes from the image, so it is shorter
// than the image, and there are no more of them than symbol entries fit in the image.

#include "fuzz_common.hpp"

#include <plinth/errors.hpp>

#include "plugins/elf_symbols.hpp"

#include <elf.h>

#include <span>
#include <string>
#include <vector>

namespace {

void symbols_of(std::span<const std::byte> image, const std::string& section) {
  std::vector<std::string> names;
  try {
    names = plinth::detail::elf_section_symbols(image, "fuzz.so", section);
  } catch (const plinth::Error&) {
    return;
  }
  PLINTH_FUZZ_CHECK(names.size() <= image.size() / sizeof(Elf64_Sym));
  for (const auto& name : names) PLINTH_FUZZ_CHECK(name.size() < image.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto image = std::as_bytes(std::span(data, size));
  symbols_of(image, "plinth");
  symbols_of(image, ".text");
  return 0;
}
