#pragma once

// Which devices run the conformance tests beyond 2^31 elements or bytes: GPUs with enough
// memory (never PoCL, where they would take minutes); PLINTH_TEST_LARGE=1 forces them on any
// device.

#include <plinth/device.hpp>

#include <cstddef>
#include <cstdlib>
#include <string>

namespace plinth::conformance {

/// Whether `device` runs a test needing `bytes` of device memory beyond 2^31 elements: it
/// has at least `bytes` plus a quarter more, and is not PoCL (or PLINTH_TEST_LARGE=1).
inline bool large_device(const BoundDevice& device, std::size_t bytes = std::size_t{9} << 30) {
  if (const char* forced = std::getenv("PLINTH_TEST_LARGE"); forced && std::string(forced) == "1") {
    return true;
  }
  return device.params().global_mem_size >= bytes + bytes / 4 &&
         device.device().platform().name().find("Portable") == std::string::npos;
}

}  // namespace plinth::conformance
