#pragma once

// Checking a program binary that a user hands in (Program::from_binaries) before a vendor
// loader reads it (SDK 1.1). cuModuleLoadData and hipModuleLoadData take no size: they
// trust the offsets inside the image, so a truncated or hostile image would make the driver
// read past its end. A backend whose binaries are ELF files (CUBINs, AMD code objects) or
// text (PTX) checks them with this first.

#include <plinth/export.hpp>

#include <cstddef>
#include <span>
#include <string>

namespace plinth::backend {

/// Returns "" when `bytes` is either a 64-bit little-endian ELF file whose header, program
/// headers, section headers and sections all lie inside it, and whose sections' names, links
/// (symbol, relocation, hash and dynamic tables), table entry sizes and symbols' names and
/// sections are all ones it has, or text (no byte below 0x20 but tab, newline and carriage
/// return, no DEL, so no cut ELF magic; trailing NUL bytes allowed, as PTX from NVRTC has);
/// otherwise a short description of what is wrong, such as "an ELF file whose section 3 lies
/// outside it". Never throws but std::bad_alloc; any thread may call it.
PLINTH_EXPORT std::string binary_image_problem(std::span<const std::byte> bytes);

}  // namespace plinth::backend
