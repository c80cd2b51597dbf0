#pragma once

// For the Level Zero tests that compile: skips the test, saying why, where this machine cannot
// compile to SPIR-V (clang-15 or llvm-spirv-15 missing: the GPU machines).

#include "spirv_compiler.hpp"

#include <gtest/gtest.h>

/// Skips the test when compiler_problem() names a missing tool.
#define PLINTH_NEED_COMPILER()                                                                   \
  do {                                                                                           \
    if (const auto problem = ::plinth::level_zero::compiler_problem()) GTEST_SKIP() << *problem; \
  } while (false)
