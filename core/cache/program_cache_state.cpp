#include "cache/program_cache_state.hpp"

#include "diagnostics/debug.hpp"

#include <plinth/program_cache.hpp>

#include <fmt/format.h>

namespace plinth::detail {

namespace {

ProgramCacheState* make_state() {
  auto* state = new ProgramCacheState;  // never deleted: programs may be built at exit
  state->settings = cache_settings();
  for (const auto& warning : state->settings.warnings) warn(warning);
  if (state->settings.off) {
    debug(DebugTopic::cache, "the compiled-program cache is off ({})", state->settings.reason);
  } else if (!state->settings.enabled) {
    state->disk_problem = state->settings.reason;
  } else {
    DiskCache disk(state->settings.directory, state->settings.size_limit);
    if (disk.usable()) {
      debug(DebugTopic::cache, "compiled programs are cached in {} (limit {} bytes)",
            disk.directory().string(), disk.size_limit());
      state->disk.emplace(std::move(disk));
    } else {
      state->disk_problem = disk.problem();
      // The user named this directory: that it is not used is said, not only on PLINTH_DEBUG.
      if (state->settings.explicit_directory) {
        warn(
            fmt::format("PLINTH_CACHE_DIR={} is not used: {}; compiled programs are reused "
                        "within this process only",
                        state->settings.directory.string(), state->disk_problem));
      }
    }
  }
  if (!state->settings.off && !state->disk) {
    debug(DebugTopic::cache,
          "the cache directory is not used ({}): compiled programs are reused within this "
          "process only",
          state->disk_problem);
  }
  return state;
}

}  // namespace

ProgramCacheState& program_cache_state() {
  static ProgramCacheState* const state = make_state();
  return *state;
}

}  // namespace plinth::detail

namespace plinth {

ProgramCacheInfo program_cache_info() {
  auto& state = detail::program_cache_state();
  ProgramCacheInfo info;
  info.directory = state.settings.directory.string();
  info.size_limit = state.settings.size_limit;
  if (state.settings.off) {
    info.state = "off";
  } else if (state.disk) {
    info.state = "on disk";
    info.on_disk = true;
    const auto usage = state.disk->usage();
    info.size = usage.bytes;
    info.entries = usage.entries;
  } else {
    info.state = "in memory only: " + state.disk_problem;
  }
  info.compiled = state.compiled.load();
  info.loaded = state.loaded.load();
  info.stored = state.stored.load();
  info.rejected = state.rejected.load();
  return info;
}

}  // namespace plinth
