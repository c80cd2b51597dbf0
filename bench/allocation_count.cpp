#include "allocation_count.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <new>

// Heap allocation counting. The executable's operator new replaces the C++ library's for the
// whole process, libplinth and the dlopen'ed plugins included (they resolve operator new in
// the global scope, where the executable comes first), so a benchmark can count what one
// plinth call allocates. Only operator new is counted, not malloc: plinth is C++, the vendor
// libraries' own C allocations are theirs. Deletes are replaced too, so every block is
// malloc'ed and free'd by the same pair.

namespace {

thread_local std::uint64_t allocation_count = 0;

void* allocate(std::size_t size) {
  ++allocation_count;
  if (size == 0) size = 1;
  for (;;) {
    if (void* memory = std::malloc(size)) return memory;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocate_aligned(std::size_t size, std::align_val_t alignment) {
  ++allocation_count;
  const auto align = std::max(static_cast<std::size_t>(alignment), sizeof(void*));
  const std::size_t rounded = (std::max<std::size_t>(size, 1) + align - 1) / align * align;
  for (;;) {
    if (void* memory = std::aligned_alloc(align, rounded)) return memory;
    const std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

#define PLINTH_BENCH_EXPORT __attribute__((visibility("default")))

PLINTH_BENCH_EXPORT void* operator new(std::size_t size) { return allocate(size); }
PLINTH_BENCH_EXPORT void* operator new[](std::size_t size) { return allocate(size); }
PLINTH_BENCH_EXPORT void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
PLINTH_BENCH_EXPORT void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size);
  } catch (...) {
    return nullptr;
  }
}
PLINTH_BENCH_EXPORT void* operator new(std::size_t size, std::align_val_t alignment) {
  return allocate_aligned(size, alignment);
}
PLINTH_BENCH_EXPORT void* operator new[](std::size_t size, std::align_val_t alignment) {
  return allocate_aligned(size, alignment);
}
PLINTH_BENCH_EXPORT void* operator new(std::size_t size, std::align_val_t alignment,
                                       const std::nothrow_t&) noexcept {
  try {
    return allocate_aligned(size, alignment);
  } catch (...) {
    return nullptr;
  }
}
PLINTH_BENCH_EXPORT void* operator new[](std::size_t size, std::align_val_t alignment,
                                         const std::nothrow_t&) noexcept {
  try {
    return allocate_aligned(size, alignment);
  } catch (...) {
    return nullptr;
  }
}
PLINTH_BENCH_EXPORT void operator delete(void* memory) noexcept { std::free(memory); }
PLINTH_BENCH_EXPORT void operator delete[](void* memory) noexcept { std::free(memory); }
PLINTH_BENCH_EXPORT void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
PLINTH_BENCH_EXPORT void operator delete[](void* memory, std::size_t) noexcept {
  std::free(memory);
}
PLINTH_BENCH_EXPORT void operator delete(void* memory, const std::nothrow_t&) noexcept {
  std::free(memory);
}
PLINTH_BENCH_EXPORT void operator delete[](void* memory, const std::nothrow_t&) noexcept {
  std::free(memory);
}
PLINTH_BENCH_EXPORT void operator delete(void* memory, std::align_val_t) noexcept {
  std::free(memory);
}
PLINTH_BENCH_EXPORT void operator delete[](void* memory, std::align_val_t) noexcept {
  std::free(memory);
}
PLINTH_BENCH_EXPORT void operator delete(void* memory, std::size_t, std::align_val_t) noexcept {
  std::free(memory);
}
PLINTH_BENCH_EXPORT void operator delete[](void* memory, std::size_t, std::align_val_t) noexcept {
  std::free(memory);
}
PLINTH_BENCH_EXPORT void operator delete(void* memory, std::align_val_t,
                                         const std::nothrow_t&) noexcept {
  std::free(memory);
}
PLINTH_BENCH_EXPORT void operator delete[](void* memory, std::align_val_t,
                                           const std::nothrow_t&) noexcept {
  std::free(memory);
}

namespace plinth_bench {

std::uint64_t allocations() noexcept { return allocation_count; }

bool allocation_counting_works(std::uint64_t before, std::uint64_t after) {
  if (after > before) return true;
  std::cerr << "warning: operator new is not replaced in libplinth (no allocation seen); "
               "the allocs/iter counters read 0\n";
  return false;
}

}  // namespace plinth_bench
