#pragma once

// The sorting benchmarks (issue 29): plinth's sort and argsort of 2^26 keys against CUB's
// DeviceRadixSort (SortKeys, SortPairs) on the same device, queue and keys, in the same
// process; where there is no CUB (OpenCL), against the device copy of the keys' bytes.

#include <plinth/buffer.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <functional>
#include <string>

namespace plinth_bench {

/// The raw calls the sorting benchmarks compare with; each runs once on the benchmark's
/// queue and returns when the device is done. Empty: compared with `copy` instead.
struct SortReferences {
  /// Copies `bytes` from `src` to `dst` (the device copy).
  std::function<void(const plinth::Buffer& dst, const plinth::Buffer& src, std::size_t bytes)> copy;
  /// CUB's DeviceRadixSort::SortKeys of `n` float32 (int32) keys of `in` into `out`.
  std::function<void(const plinth::Buffer& in, const plinth::Buffer& out, std::size_t n)>
      sort_keys_float32, sort_keys_int32;
  /// CUB's DeviceRadixSort::SortPairs of `n` float32 keys with int64 values (0, 1, ...: an
  /// argsort): keys from `keys_in` into `keys_out`, values from `values_in` into `values_out`.
  std::function<void(const plinth::Buffer& keys_in, const plinth::Buffer& keys_out,
                     const plinth::Buffer& values_in, const plinth::Buffer& values_out,
                     std::size_t n)>
      sort_pairs_float32_int64;
};

/// Registers "algorithms/sort_float32_<n>", "algorithms/sort_int32_<n>" and
/// "algorithms/argsort_float32_<n>" on `queue`'s device for `n` random keys (uniform floats
/// in [0, 1), every int32), as keys per second (both sides counted as 4 bytes a key, so the
/// table's ratio is the ratio of keys per second), against CUB with a target of 0.8, or the
/// device copy of the keys with none. The keys are made when the first of them runs.
void register_sorting(const plinth::Queue& queue, std::size_t n, SortReferences references);

}  // namespace plinth_bench
