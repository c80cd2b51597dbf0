// Fuzzes plinth::backend::binary_image_problem (include/plinth/backend/binary_image.hpp),
// which checks a user's program binary before a vendor loader that takes no size reads it.
// Input: the image (libFuzzer's buffer is exactly that size, so AddressSanitizer sees any
// read beyond it). An image it accepts that starts like an ELF file must have whole tables.

#include "fuzz_common.hpp"

#include <plinth/backend/binary_image.hpp>

#include <elf.h>

#include <cstring>
#include <span>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = std::as_bytes(std::span(data, size));
  const std::string problem = plinth::backend::binary_image_problem(bytes);
  if (problem.empty() && size >= SELFMAG && std::memcmp(data, ELFMAG, SELFMAG) == 0) {
    PLINTH_FUZZ_CHECK(size >= sizeof(Elf64_Ehdr));
    Elf64_Ehdr header;
    std::memcpy(&header, data, sizeof(header));
    PLINTH_FUZZ_CHECK(header.e_shoff <= size);
    PLINTH_FUZZ_CHECK(header.e_shnum == 0 ||
                      header.e_shnum <= (size - header.e_shoff) / header.e_shentsize);
  }
  return 0;
}
