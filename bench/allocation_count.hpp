#pragma once

// Heap allocation counting for the benchmark programs: allocation_count.cpp replaces the
// global operator new of the executable it is linked into (and so of libplinth and the
// plugins it loads) with one that counts the calls made on each thread.

#include <cstdint>

namespace plinth_bench {

/// The number of operator new calls made on this thread so far (operator new is replaced in
/// allocation_count.cpp, so this includes libplinth's and the plugins' allocations).
std::uint64_t allocations() noexcept;

/// Checks that allocations() sees allocations made inside libplinth; prints a warning and
/// returns false if not (the counters then read 0 for everything).
bool allocation_counting_works(std::uint64_t before, std::uint64_t after);

}  // namespace plinth_bench
