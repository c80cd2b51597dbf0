#pragma once

// For APIs whose fills set 1-, 2- or 4-byte values at addresses aligned to them (CUDA's
// cuMemsetD8/D16/D32Async, HIP's hipMemsetD8/D16/D32Async): SDK 1.6's QueueAdapter::fill as
// calls of the widest one the address, the size and the pattern allow.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace plinth::backend {

/// Fills `size` bytes at device address `begin` with copies of `pattern` (1, 2 or 4 bytes;
/// the byte at begin + k gets pattern[k % pattern.size()]) through `d32(address, uint32_t
/// value, count)`, `d16(address, uint16_t value, count)` and `d8(address, uint8_t value,
/// count)`, each setting `count` values at an address aligned to their size: one d32 call
/// where the address and size are multiples of 4, else one d16 where the bytes repeat every
/// 2 and the address and size are even, else one d8 where they repeat every byte, else d32
/// for the 4-aligned middle and d8 for each of the (at most 3 + 3) bytes around it (or for
/// each byte of a region under 8 bytes). Returns false, calling nothing, for another pattern
/// size. Throws what the callables throw.
template <class D32, class D16, class D8>
bool fill_by_words(std::uintptr_t begin, std::size_t size, std::span<const std::byte> pattern,
                   D32&& d32, D16&& d16, D8&& d8) {
  const std::size_t n = pattern.size();
  if (n != 1 && n != 2 && n != 4) return false;
  if (size == 0) return true;
  // The byte at address a gets word[a % 4]: the pattern as aligned 4-byte words see it.
  std::array<std::uint8_t, 4> word{};
  for (std::size_t a = 0; a < 4; ++a) {
    word[a] = std::to_integer<std::uint8_t>(pattern[(a + 4 - begin % 4) % n]);
  }
  const auto value_at = [&](std::uintptr_t a, std::size_t bytes) {
    std::uint32_t value = 0;
    for (std::size_t k = 0; k < bytes; ++k) value |= std::uint32_t{word[(a + k) % 4]} << (8 * k);
    return value;
  };
  const bool period_2 = word[0] == word[2] && word[1] == word[3];
  const bool period_1 = period_2 && word[0] == word[1];
  const std::uintptr_t end = begin + size;
  if (begin % 4 == 0 && size % 4 == 0) {
    d32(begin, value_at(begin, 4), size / 4);
  } else if (period_2 && begin % 2 == 0 && size % 2 == 0) {
    d16(begin, static_cast<std::uint16_t>(value_at(begin, 2)), size / 2);
  } else if (period_1) {
    d8(begin, word[0], size);
  } else if (size < 8) {
    for (std::uintptr_t a = begin; a < end; ++a) d8(a, word[a % 4], std::size_t{1});
  } else {
    const std::uintptr_t middle = (begin + 3) / 4 * 4;
    const std::uintptr_t middle_end = end / 4 * 4;
    d32(middle, value_at(middle, 4), (middle_end - middle) / 4);
    for (std::uintptr_t a = begin; a < middle; ++a) d8(a, word[a % 4], std::size_t{1});
    for (std::uintptr_t a = middle_end; a < end; ++a) d8(a, word[a % 4], std::size_t{1});
  }
  return true;
}

}  // namespace plinth::backend
