#pragma once

// The host reference of philox4x32_10() and RandomGenerator's stream (random.hpp's file
// comment), shared by the random tests.

#include <array>
#include <cstdint>

namespace plinth::conformance {

using Words = std::array<std::uint32_t, 4>;

inline Words philox(Words ctr, std::uint32_t key0, std::uint32_t key1) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key0 += 0x9E3779B9u;
      key1 += 0xBB67AE85u;
    }
    const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * ctr[0];
    const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * ctr[2];
    ctr = {static_cast<std::uint32_t>(p1 >> 32) ^ ctr[1] ^ key0, static_cast<std::uint32_t>(p1),
           static_cast<std::uint32_t>(p0 >> 32) ^ ctr[3] ^ key1, static_cast<std::uint32_t>(p0)};
  }
  return ctr;
}

inline Words stream(std::uint64_t i, std::uint64_t offset, std::uint64_t seed) {
  const auto lo = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  const auto hi = [](std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); };
  return philox({lo(i), hi(i), lo(offset), hi(offset)}, lo(seed), hi(seed));
}

}  // namespace plinth::conformance
