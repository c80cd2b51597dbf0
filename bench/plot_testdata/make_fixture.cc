// Makes bench/plot_testdata/gbench-1.7.1.json: a Google Benchmark program shaped like plinth's
// benchmarks (bench/common.hpp), whose --benchmark_out JSON bench/plot_test.py reads. Pairs
// "<operation>/plinth" and "<operation>/raw" with the same counters and options (allocs/iter,
// launches as a rate, bytes_per_second, GB/s, MinTime, UseRealTime, UseManualTime, more
// repetitions for the launch pair), repetitions in random order, a failing side, and the
// context keys "plinth_op:<operation>" that bench/plot reads each operation's measure and
// target from. Times are spun on the host: made up, of known ratios. Not built by CMake:
//
//   g++ -std=c++20 -O1 make_fixture.cc -o /tmp/make_fixture -lbenchmark -lpthread
//   /tmp/make_fixture --benchmark_out=gbench-1.7.1.json --benchmark_out_format=json
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

static volatile double sink;
static void spin(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) sink = sink + 1;
}

template <class F>
static void pair(const std::string& name, F plinth, F raw, bool manual = false) {
  auto* a = benchmark::RegisterBenchmark((name + "/plinth").c_str(), plinth);
  auto* b = benchmark::RegisterBenchmark((name + "/raw").c_str(), raw);
  for (auto* x : {a, b}) {
    x->MinTime(0.05);
    if (manual)
      x->UseManualTime()->Unit(benchmark::kMillisecond);
    else
      x->UseRealTime();
  }
}

int main(int argc, char** argv) {
  // launch/empty: latency, host time; counters allocs/iter and launches (a rate).
  auto launch = [](double us) {
    return [us](benchmark::State& state) {
      for (auto _ : state) spin(us * 1e-6);
      state.counters["allocs/iter"] = 0.0;
      state.counters["launches"] =
          benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    };
  };
  benchmark::RegisterBenchmark("launch/empty/plinth", launch(2.1))
      ->MinTime(0.05)
      ->UseRealTime()
      ->Repetitions(4);
  benchmark::RegisterBenchmark("launch/empty/raw", launch(2.0))
      ->MinTime(0.05)
      ->UseRealTime()
      ->Repetitions(4);
  // h2d/1MiB/sync: throughput (SetBytesProcessed), allocs/iter.
  auto transfer = [](double us) {
    return [us](benchmark::State& state) {
      for (auto _ : state) spin(us * 1e-6);
      state.counters["allocs/iter"] = 0.0;
      state.SetBytesProcessed(state.iterations() * (1 << 20));
    };
  };
  pair<std::function<void(benchmark::State&)>>("h2d/1MiB/sync", transfer(40), transfer(41));
  // d2d/1GiB: throughput, no target.
  pair<std::function<void(benchmark::State&)>>("d2d/1GiB", transfer(30), transfer(30));
  // kernel/saxpy_64M: latency timed on the device (manual time), with bytes and "GB/s".
  auto kernel = [](double ms) {
    return [ms](benchmark::State& state) {
      double total = 0;
      for (auto _ : state) {
        spin(1e-5);
        state.SetIterationTime(ms * 1e-3);
        total += ms * 1e-3;
      }
      const double bytes = 3.0 * (64 << 20) * 4;
      state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
      state.counters["GB/s"] = static_cast<double>(state.iterations()) * bytes / total / 1e9;
    };
  };
  pair<std::function<void(benchmark::State&)>>("kernel/saxpy_64M", kernel(0.30), kernel(0.29),
                                               true);
  // rect/d2d: throughput timed on the device (manual time), target missed.
  auto rect = [](double ms) {
    return [ms](benchmark::State& state) {
      for (auto _ : state) {
        spin(1e-5);
        state.SetIterationTime(ms * 1e-3);
      }
      state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(512) * (1 << 20));
    };
  };
  pair<std::function<void(benchmark::State&)>>("rect/d2d/8192x8192_of_16384", rect(0.40),
                                               rect(0.33), true);
  // fill/1GiB/pattern4: the raw side fails.
  pair<std::function<void(benchmark::State&)>>(
      "fill/1GiB/pattern4", transfer(30),
      std::function<void(benchmark::State&)>([](benchmark::State& state) {
        state.SkipWithError("cuMemsetD32Async failed: out of memory");
        for (auto _ : state) {
        }
      }));
  benchmark::AddCustomContext("plinth_device", "cuda:0.0 NVIDIA H100 80GB HBM3 (made-up fixture)");
  {
    // What bench/common.cpp's run_benchmarks() would add for bench/plot.
    benchmark::AddCustomContext("plinth_op:launch/empty", "latency <= 1.10");
    benchmark::AddCustomContext("plinth_op:h2d/1MiB/sync", "throughput >= 0.95");
    benchmark::AddCustomContext("plinth_op:d2d/1GiB", "throughput");
    benchmark::AddCustomContext("plinth_op:kernel/saxpy_64M", "latency <= 1.05");
    benchmark::AddCustomContext("plinth_op:rect/d2d/8192x8192_of_16384", "throughput >= 0.95");
    benchmark::AddCustomContext("plinth_op:fill/1GiB/pattern4", "throughput >= 0.95");
  }
  std::vector<char*> args{argv[0], (char*)"--benchmark_repetitions=3",
                          (char*)"--benchmark_enable_random_interleaving=true",
                          (char*)"--benchmark_display_aggregates_only=true"};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
