// CUB's device-wide sum, maximum, exclusive prefix sum and radix sort (CUB ships with the
// CUDA toolkit), behind a C interface: the references plinth-bench-cuda compares plinth's
// reductions, scans and sorts with.
// Built with nvcc where CMake finds it (bench/CMakeLists.txt); plinth itself never uses CUB.

#include "cub_reference.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

// Issue 29: histogram and argmax.
#include <cub/device/device_histogram.cuh>

extern "C" int plinth_bench_cub_sum_float32(const float* in, float* out, size_t n, void* temp,
                                            size_t* temp_bytes, CUstream stream) {
  return static_cast<int>(cub::DeviceReduce::Sum(
      temp, *temp_bytes, in, out, static_cast<long long>(n), static_cast<cudaStream_t>(stream)));
}

extern "C" int plinth_bench_cub_max_float32(const float* in, float* out, size_t n, void* temp,
                                            size_t* temp_bytes, CUstream stream) {
  return static_cast<int>(cub::DeviceReduce::Max(
      temp, *temp_bytes, in, out, static_cast<long long>(n), static_cast<cudaStream_t>(stream)));
}

extern "C" int plinth_bench_cub_exclusive_sum_int32(const int* in, int* out, size_t n, void* temp,
                                                    size_t* temp_bytes, CUstream stream) {
  return static_cast<int>(cub::DeviceScan::ExclusiveSum(
      temp, *temp_bytes, in, out, static_cast<long long>(n), static_cast<cudaStream_t>(stream)));
}

// Issue 29: CUB's radix sort, what cupy.sort and cupy.argsort run.
extern "C" int plinth_bench_cub_sort_keys_float32(const float* in, float* out, size_t n, void* temp,
                                                  size_t* temp_bytes, CUstream stream) {
  return static_cast<int>(cub::DeviceRadixSort::SortKeys(
      temp, *temp_bytes, in, out, static_cast<int>(n), 0, 32, static_cast<cudaStream_t>(stream)));
}

extern "C" int plinth_bench_cub_sort_keys_int32(const int* in, int* out, size_t n, void* temp,
                                                size_t* temp_bytes, CUstream stream) {
  return static_cast<int>(cub::DeviceRadixSort::SortKeys(
      temp, *temp_bytes, in, out, static_cast<int>(n), 0, 32, static_cast<cudaStream_t>(stream)));
}

extern "C" int plinth_bench_cub_sort_pairs_float32_int64(const float* keys_in, float* keys_out,
                                                         const long long* values_in,
                                                         long long* values_out, size_t n,
                                                         void* temp, size_t* temp_bytes,
                                                         CUstream stream) {
  return static_cast<int>(cub::DeviceRadixSort::SortPairs(
      temp, *temp_bytes, keys_in, keys_out, values_in, values_out, static_cast<int>(n), 0, 32,
      static_cast<cudaStream_t>(stream)));
}

// Issue 29: CUB's DeviceHistogram::HistogramEven (bins + 1 levels over [lower, upper), int
// counters) and DeviceReduce::ArgMax (the value and its int64 index).
extern "C" int plinth_bench_cub_histogram_even_float32(const float* in, int* counts, int bins,
                                                       float lower, float upper, size_t n,
                                                       void* temp, size_t* temp_bytes,
                                                       CUstream stream) {
  return static_cast<int>(cub::DeviceHistogram::HistogramEven(
      temp, *temp_bytes, in, counts, bins + 1, lower, upper, static_cast<long long>(n),
      static_cast<cudaStream_t>(stream)));
}

extern "C" int plinth_bench_cub_argmax_float32(const float* in, float* max_out,
                                               long long* index_out, size_t n, void* temp,
                                               size_t* temp_bytes, CUstream stream) {
  return static_cast<int>(cub::DeviceReduce::ArgMax(temp, *temp_bytes, in, max_out, index_out,
                                                    static_cast<long long>(n),
                                                    static_cast<cudaStream_t>(stream)));
}
