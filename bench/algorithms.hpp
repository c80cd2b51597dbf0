#pragma once

// The algorithm layer's benchmarks (issue 13): plinth's generated kernels (elementwise copy
// and saxpy, sum, exclusive scan) against the raw vendor call or library each stands in for,
// on the same device, queue and buffers, in the same process. Written once against plinth's
// public API; each vendor's benchmark program supplies its raw references.

#include <plinth/buffer.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <functional>
#include <string>

namespace plinth_bench {

/// The raw calls the algorithm benchmarks compare with. Each runs once on the benchmark's
/// queue and returns when the device is done. Empty functions are not benchmarked against;
/// the operation is then compared with `copy` instead, by bytes moved.
struct AlgorithmReferences {
  /// `cuMemcpyDtoDAsync`, `clEnqueueCopyBuffer`: what the comparisons by bytes moved use.
  std::string copy_name;
  /// Copies `bytes` from `src` to `dst`.
  std::function<void(const plinth::Buffer& dst, const plinth::Buffer& src, std::size_t bytes)> copy;
  /// Sums `n` float32 of `in` into the first float of `out` (CUB's DeviceReduce::Sum).
  std::function<void(const plinth::Buffer& in, const plinth::Buffer& out, std::size_t n)>
      sum_float32;
  /// The largest of `n` float32 of `in` into the first float of `out` (CUB's
  /// DeviceReduce::Max).
  std::function<void(const plinth::Buffer& in, const plinth::Buffer& out, std::size_t n)>
      max_float32;
  /// The exclusive prefix sum of `n` int32 of `in` into `out` (CUB's DeviceScan::ExclusiveSum).
  std::function<void(const plinth::Buffer& in, const plinth::Buffer& out, std::size_t n)>
      exclusive_sum_int32;
  /// Issue 29: CUB's DeviceHistogram::HistogramEven of `n` float32 of `in` into `bins` int32
  /// counters of `counts` over [lower, upper).
  std::function<void(const plinth::Buffer& in, const plinth::Buffer& counts, std::size_t bins,
                     float lower, float upper, std::size_t n)>
      histogram_even_float32;
  /// Issue 29: CUB's DeviceReduce::ArgMax of `n` float32 of `in`: the value as the first
  /// float of `out`, the index as the int64 at byte 8.
  std::function<void(const plinth::Buffer& in, const plinth::Buffer& out, std::size_t n)>
      argmax_float32;
  /// The least ratio plinth/raw the bandwidth-bound operations must reach against `copy`
  /// (0.95 for CUDA's device copy, 0.90 for OpenCL's).
  double copy_target = 0.95;
};

/// Registers the algorithm benchmarks on `queue`'s device with arrays of `bytes` bytes each
/// (1 GiB on a GPU): "algorithms/copy", "algorithms/saxpy", "algorithms/sum",
/// "algorithms/max", "algorithms/exclusive_scan" (throughput), "algorithms/small_call" (the
/// host time of an elementwise call on 4096 elements against a prepared launch of the same
/// work), the layouts of issue 27 (register_layouts), and issue 29's "algorithms/histogram_256"
/// (2^26 uniform float32, against CUB's DeviceHistogram::HistogramEven) and "algorithms/argmax"
/// (against CUB's DeviceReduce::ArgMax). The buffers are allocated when the
/// first of them runs.
void register_algorithms(const plinth::Queue& queue, std::size_t bytes,
                         AlgorithmReferences references);

}  // namespace plinth_bench
