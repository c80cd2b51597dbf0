#pragma once

// Shared by the BLAS benchmarks (blas.cpp against cuBLAS, blas_opencl.cpp against CLBlast):
// which engine a row's plinth side runs, and timing a product as a FLOP rate.

#include <benchmark/benchmark.h>
#include <plinth/queue.hpp>

#include <cstdint>

namespace plinth_bench {

/// Which engine the plinth side of a row runs: PLINTH_BLAS's value.
struct BlasEngine {
  const char* value;   ///< "library" or "plinth"
  const char* suffix;  ///< the row's name ends in it
};
inline constexpr BlasEngine library_engine{"library", ""};
inline constexpr BlasEngine kernels_engine{"plinth", "/kernels"};

/// Times `call` (one product, then a synchronize of `queue`) and reports FLOP/s as the
/// benchmark's rate (through SetBytesProcessed: the table's throughput ratio is then plinth's
/// FLOP rate over the library's) and as the "TFLOP/s" counter. The first call, untimed, builds
/// plinth's program or the library's.
template <class Call>
void time_flops(benchmark::State& state, double flops, const plinth::Queue& queue, Call&& call) {
  call();
  queue.synchronize();
  for (auto _ : state) {
    call();
    queue.synchronize();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(flops) *
                          static_cast<std::int64_t>(state.iterations()));
  state.counters["TFLOP/s"] =
      benchmark::Counter(flops * 1e-12, benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace plinth_bench
