#pragma once

// Shared by plinth's benchmarks: pairs of benchmarks (`<operation>/plinth` and
// `<operation>/raw`), a console reporter that ends with a table of plinth/raw ratios, the heap
// allocations made on the benchmarking thread per iteration (allocation_count.hpp), and small
// helpers.

#include "allocation_count.hpp"

#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <plinth/buffer.hpp>
#include <plinth/memory_pool.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace plinth_bench {

/// What the ratio of an operation compares.
enum class Measure {
  latency,     ///< real time per iteration: ratio = plinth time / raw time (lower is better)
  throughput,  ///< bytes per second: ratio = plinth rate / raw rate (higher is better)
};

/// An operation measured twice: through plinth and through the raw vendor call it wraps.
struct Operation {
  std::string name;  ///< e.g. "h2d/1MiB/sync"; the benchmarks are "<name>/plinth" and "/raw"
  Measure measure = Measure::latency;
  /// The target for the ratio (latency: at most; throughput: at least); 0 for none.
  double target = 0;
  /// User counters shown for both variants in the table's last column.
  std::vector<std::string> counters;
  /// A bound on the plinth side's own time per iteration (latency only), in seconds, checked
  /// beside the ratio's target (e.g. 0.5e-6: a cached pool block in at most 0.5 us); 0: none.
  double plinth_max_seconds = 0;
  /// Counters that must read 0 on the plinth side (e.g. "misses/iter": no driver allocation),
  /// checked beside the ratio's target.
  std::vector<std::string> plinth_zero_counters = {};
};

/// Registers `<op.name>/plinth` and `<op.name>/raw` (in that order) and remembers `op` for the
/// ratio table. An exception thrown by either function fails that benchmark with its message.
/// Returns both, to be configured (MinTime, UseRealTime...).
template <class PlinthFn, class RawFn>
std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*> register_pair(
    const Operation& op, PlinthFn plinth, RawFn raw);

/// Sets MinTime, UseRealTime... on both benchmarks of a pair.
template <class Configure>
void configure(
    const std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*>& pair,
    Configure&& how) {
  how(pair.first);
  how(pair.second);
}

/// Runs the benchmarks selected by the command line (after benchmark::Initialize) with the
/// ratio reporter and returns main's exit status (1 if any benchmark failed).
int run_benchmarks();

/// "4KiB", "1MiB", "256MiB", "1GiB".
std::string size_name(std::size_t bytes);

/// A string unique to this call, across processes too (time, pid, counter): for sources that
/// no compiler or program cache has seen.
std::string unique_token();

/// Points PLINTH_CACHE_DIR at a new private temporary directory for this process, removed
/// again at destruction, unless the caller set PLINTH_CACHE_DIR: the benchmarks' throw-away
/// programs never land in the user's cache, and the warm builds read a cache of their own.
/// Create it before the first Program is built (the cache reads its settings then).
class TemporaryProgramCache {
 public:
  TemporaryProgramCache();
  ~TemporaryProgramCache();
  TemporaryProgramCache(const TemporaryProgramCache&) = delete;
  TemporaryProgramCache& operator=(const TemporaryProgramCache&) = delete;

 private:
  std::string directory_;  // empty when PLINTH_CACHE_DIR was set already
};

/// Registers "build/warm-vs-cold": the same program built again, created from the disk cache
/// (`<name>/plinth`), against a cold build of a never-seen source that compiles and stores
/// (`<name>/raw`), so that the ratio is warm/cold (target: at most 1/100). `build` builds a
/// program of the given source. Fails the benchmark when the cache is not on disk.
void register_warm_build(const std::function<void(const std::string&)>& build);

/// Throws std::runtime_error("<call> failed: <what>") unless `ok`.
void require(bool ok, const char* call, const std::string& what);

/// `fn` set to the symbol `name` of `library` (a dlopen handle): the raw sides that open a
/// vendor library at run time. Throws std::runtime_error ("dlsym failed: <name>") if it has
/// none.
template <class Fn>
void load_symbol(void* library, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(dlsym(library, name));
  require(fn != nullptr, "dlsym", name);
}

namespace detail {

void declare(const Operation& op);

template <class Fn>
auto guarded(Fn fn) {
  return [fn = std::move(fn)](benchmark::State& state) mutable {
    try {
      fn(state);
    } catch (const std::exception& error) {
      state.SkipWithError(error.what());
    }
  };
}

}  // namespace detail

template <class PlinthFn, class RawFn>
std::pair<benchmark::internal::Benchmark*, benchmark::internal::Benchmark*> register_pair(
    const Operation& op, PlinthFn plinth, RawFn raw) {
  detail::declare(op);
  auto* first = benchmark::RegisterBenchmark((op.name + "/plinth").c_str(),
                                             detail::guarded(std::move(plinth)));
  auto* second =
      benchmark::RegisterBenchmark((op.name + "/raw").c_str(), detail::guarded(std::move(raw)));
  return {first, second};
}

/// Counts this thread's heap allocations over a region and reports them per iteration as the
/// counter "allocs/iter" (only the iterations' own work: pause() and resume() bracket what
/// is not part of it, such as a synchronize between batches).
class AllocationCounter {
 public:
  AllocationCounter() : start_(allocations()) {}
  void pause() noexcept {
    if (running_) counted_ += allocations() - start_;
    running_ = false;
  }
  void resume() noexcept {
    start_ = allocations();
    running_ = true;
  }
  void report(benchmark::State& state) {
    pause();
    state.counters["allocs/iter"] =
        state.iterations() > 0
            ? static_cast<double>(counted_) / static_cast<double>(state.iterations())
            : 0.0;
  }

 private:
  std::uint64_t start_;
  std::uint64_t counted_ = 0;
  bool running_ = true;
};

/// Counts the driver allocations a MemoryPool makes for `device` over a region (its stats'
/// misses: requests it could not serve from cached memory) and reports them per iteration as
/// the counter "misses/iter", which is 0 when every request of the region was served from
/// the cache (no cuMemAlloc, no cuMemFree, no device synchronisation). Start it after the
/// warm-up that fills the cache. A pool turned off (PLINTH_MEMORY_POOL=off) counts nothing,
/// though every request then goes to the driver: the counter is left out.
class PoolMissCounter {
 public:
  PoolMissCounter(plinth::MemoryPool pool, plinth::BoundDevice device)
      : pool_(std::move(pool)), device_(std::move(device)), start_(pool_.stats(device_).misses) {}
  void report(benchmark::State& state) const {
    if (!pool_.enabled()) return;
    const auto misses = pool_.stats(device_).misses - start_;
    state.counters["misses/iter"] =
        state.iterations() > 0
            ? static_cast<double>(misses) / static_cast<double>(state.iterations())
            : 0.0;
  }

 private:
  plinth::MemoryPool pool_;
  plinth::BoundDevice device_;
  std::uint64_t start_;
};

/// How long each benchmark runs. Every benchmark runs default_repetitions times, each
/// repetition at a random place among all the others' (with_default_options), so that both
/// sides of a pair sample the same conditions of the machine; the table takes the medians.
/// Many short repetitions beat a few long ones on a machine whose load changes.
inline constexpr int default_repetitions = 10;
/// Minimum time of one repetition: launches and small transfers...
inline constexpr double short_min_time = 0.05;
/// ...and 256 MiB transfers, device-to-device copies and device-timed kernels.
inline constexpr double long_min_time = 0.1;
/// Program builds per repetition.
inline constexpr int build_iterations = 2;
/// Repetitions of the launch benchmarks (launch/*), more than default_repetitions: their
/// ratios are a few percent of a few microseconds of host time, which 10 repetitions on a
/// shared machine did not settle (launch/4_args read 1.174 of raw at cv 13 % on 2026-11-25).
/// Set on the benchmarks themselves, so --benchmark_repetitions does not change it.
inline constexpr int launch_repetitions = 20;

/// Kernel launches between two synchronizations in the launch benchmarks: enough to amortize
/// the synchronization, few enough that no queue fills up and blocks the host.
inline constexpr std::int64_t launches_per_sync = 256;

/// How the launch benchmarks run (configure()'s argument): short repetitions, real time,
/// launch_repetitions of them (the table takes their median).
inline void configure_launch(benchmark::internal::Benchmark* benchmark) {
  benchmark->MinTime(short_min_time)->UseRealTime()->Repetitions(launch_repetitions);
}

/// Runs `fn` once, then again until `seconds` have passed: before every measurement (each
/// repetition too), so that whatever ran before (another benchmark) does not leak into it.
template <class Fn>
void warm_up(Fn&& fn, double seconds = 0.01) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  do {
    fn();
  } while (std::chrono::steady_clock::now() < end);
}

/// The launch benchmarks' body: host time per `launch()`, with `sync()` (untimed) every
/// launches_per_sync launches. Reports the counters "launches" (a rate: launches/s) and
/// "allocs/iter" (heap allocations per launch).
template <class Launch, class Sync>
void time_launches(benchmark::State& state, Launch&& launch, Sync&& sync) {
  // First-launch work (code generation, lazy loading) and waking the driver's threads are
  // not timed.
  warm_up([&] {
    for (int i = 0; i < 16; ++i) launch();
    sync();
  });
  AllocationCounter allocs;
  std::int64_t pending = 0;
  for (auto _ : state) {
    launch();
    if (++pending == launches_per_sync) {
      allocs.pause();
      state.PauseTiming();
      sync();
      state.ResumeTiming();
      allocs.resume();
      pending = 0;
    }
  }
  allocs.report(state);
  sync();
  state.counters["launches"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

/// The transfer benchmarks' body: real time per `transfer()` (which returns when the data
/// have arrived), reported as bytes/s of `bytes` per call, and "allocs/iter".
template <class Transfer>
void time_transfers(benchmark::State& state, std::size_t bytes, Transfer&& transfer) {
  warm_up(transfer);  // staging buffers, first-touch page faults, the driver's threads
  AllocationCounter allocs;
  for (auto _ : state) transfer();
  allocs.report(state);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

/// The plinth side of every transfer benchmark: `size` bytes between `host` (pageable) and
/// `buffer`, timed as complete transfers (an asynchronous one is followed by synchronize()).
inline void plinth_transfers(benchmark::State& state, const plinth::Queue& queue,
                             const plinth::Buffer& buffer, std::byte* host, std::size_t size,
                             bool to_device, bool async) {
  time_transfers(state, size, [&] {
    if (to_device) {
      buffer.set(queue, std::span<const std::byte>(host, size), /*no_async=*/!async);
    } else {
      buffer.get(queue, std::span<std::byte>(host, size), async);
    }
    if (async) queue.synchronize();
  });
}

/// The device-timed benchmarks' body: `timed()` runs the work once and returns the device
/// time it took in seconds (from events), used as the iteration's manual time. Reports
/// bytes/s of `bytes` per call, also as the counter "GB/s" (10^9 bytes).
template <class Timed>
void time_on_device(benchmark::State& state, std::size_t bytes, Timed&& timed) {
  warm_up(timed);
  double total = 0;
  for (auto _ : state) {
    const double seconds = timed();
    total += seconds;
    state.SetIterationTime(seconds);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
  if (total > 0)
    state.counters["GB/s"] =
        static_cast<double>(state.iterations()) * static_cast<double>(bytes) / total / 1e9;
}

/// Makes a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) print its signal and a backtrace
/// (frames as module(+offset), for addr2line on the build machine) to stderr before the process
/// dies of it as before: the GPU machines have no debugger. with_default_options() calls it.
void report_crashes();

/// Adds the default options of plinth's benchmark programs in front of the command line's
/// own (which come later and so win): every benchmark runs default_repetitions times, in random
/// order among the others so that a slow spell of the machine does not fall on one side of a
/// pair, and the console shows the aggregates; the ratio table uses the medians. Also calls
/// report_crashes().
std::vector<char*> with_default_options(int argc, char** argv);

}  // namespace plinth_bench
