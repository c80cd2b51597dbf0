#pragma once

// The compiled-program cache (DESIGN.md, "Environment"): where it is, how large, and what it
// did in this process.

#include <plinth/export.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace plinth {

/// The state of the compiled-program cache, and this process's use of it so far.
struct ProgramCacheInfo {
  /// "on disk", "off" (PLINTH_CACHE_DIR=off), or "in memory only: <why the directory cannot
  /// be used>" (then programs are reused within the process only).
  std::string state;
  bool on_disk = false;          ///< entries are read from and written to `directory`
  std::string directory;         ///< the cache directory (also when it cannot be used); print it
                                 ///< through plinth::printable()
  std::uint64_t size_limit = 0;  ///< PLINTH_CACHE_SIZE, or the default (1 GiB)
  std::uint64_t size = 0;        ///< bytes of the entries in `directory`
  std::size_t entries = 0;       ///< entries in `directory`
  // This process so far, counted per backend program (one per distinct rendered source):
  std::size_t compiled = 0;  ///< programs compiled from source
  std::size_t loaded = 0;    ///< programs created from cached binaries instead of compiling
  std::size_t stored = 0;    ///< binaries stored (one per device)
  std::size_t rejected = 0;  ///< entries not trusted (corrupt, truncated, foreign, or refused
                             ///< by the backend), rebuilt and replaced
};

/// The cache's state; reads the directory for its size. The first call reads PLINTH_CACHE_DIR
/// and PLINTH_CACHE_SIZE (once per process) and creates the directory. Any thread. Throws
/// nothing but std::bad_alloc.
PLINTH_EXPORT ProgramCacheInfo program_cache_info();

}  // namespace plinth
