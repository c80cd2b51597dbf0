#pragma once

// Test data for copies: bytes that differ at every position (mod 251, a prime, so no period
// shorter than 251), a different sequence for each seed.

#include <cstddef>
#include <vector>

namespace plinth::test {

inline std::vector<std::byte> pattern(std::size_t size, unsigned seed) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = std::byte((i * 7 + seed) % 251);
  return bytes;
}

}  // namespace plinth::test
