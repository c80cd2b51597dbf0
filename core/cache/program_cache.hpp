#pragma once

// The compiled-program cache's hook into building a Program (runtime/program.cpp): one call
// per part (devices sharing one rendered source). Keyed by everything that changes a device's
// binary; each device's binary is an entry of its own. A hit on every device of a part creates
// the part from the binaries instead of compiling; a miss compiles and stores each binary.

#include "runtime/impl.hpp"

#include <plinth/backend/sdk.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <span>

namespace plinth::detail {

/// A part's backend program, and how to replace it when it came from the cache.
struct CachedProgram {
  std::shared_ptr<backend::ProgramAdapter> adapter;
  /// Set when `adapter` was created from cached binaries: removes those entries (with a
  /// PLINTH_DEBUG=cache line giving `reason`), compiles the part from its source and stores its
  /// binaries anew. For a cached program that turns out to be another's (it lacks a kernel the
  /// caller asks for). Throws what compiling throws. Any thread.
  std::function<std::shared_ptr<backend::ProgramAdapter>(const std::string& reason)> rebuild;
};

/// Creates the backend program of one part: from cached binaries when every device of it has
/// one (and options.keep is not set: a kept build needs the compiler's files), else by
/// compiling `input` (kind source) with `options` and storing the devices' binaries.
/// `slots` are the part's program slots in `devices`, `context_indices` their devices'
/// indices in the context. Backends whose binaries cannot be reloaded (no binary input kind,
/// no compiler identity, binary() empty) are compiled and not cached. A cache problem never
/// fails the build (PLINTH_DEBUG=cache says what happened). Throws what create_program()
/// throws when compiling (CompileError, BackendError). A part created from cached binaries
/// that the backend refuses for any reason is compiled instead, its entries replaced. Any
/// thread.
CachedProgram create_program_cached(const LoadedApi& api, const BoundMultiDevice& devices,
                                    std::span<const std::size_t> slots,
                                    std::span<const std::size_t> context_indices,
                                    const backend::ProgramInput& input,
                                    const backend::BuildOptions& options);

}  // namespace plinth::detail
