#pragma once

// CUB's DeviceReduce::Sum and ::Max, DeviceScan::ExclusiveSum and DeviceRadixSort for
// plinth-bench-cuda (cub_reference.cu). Each works as CUB does: with `temp` null it only stores the
// temporary storage it needs in
// `*temp_bytes`; otherwise it enqueues the operation on `stream`. Returns a cudaError_t (0:
// success). The pointers are device memory of the current (primary) context.

#include <cuda.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int plinth_bench_cub_sum_float32(const float* in, float* out, size_t n, void* temp,
                                 size_t* temp_bytes, CUstream stream);
int plinth_bench_cub_max_float32(const float* in, float* out, size_t n, void* temp,
                                 size_t* temp_bytes, CUstream stream);
int plinth_bench_cub_exclusive_sum_int32(const int* in, int* out, size_t n, void* temp,
                                         size_t* temp_bytes, CUstream stream);

// Issue 29: DeviceRadixSort::SortKeys and ::SortPairs (all 32 key bits).
int plinth_bench_cub_sort_keys_float32(const float* in, float* out, size_t n, void* temp,
                                       size_t* temp_bytes, CUstream stream);
int plinth_bench_cub_sort_keys_int32(const int* in, int* out, size_t n, void* temp,
                                     size_t* temp_bytes, CUstream stream);
int plinth_bench_cub_sort_pairs_float32_int64(const float* keys_in, float* keys_out,
                                              const long long* values_in, long long* values_out,
                                              size_t n, void* temp, size_t* temp_bytes,
                                              CUstream stream);
/* Issue 29: CUB's DeviceHistogram::HistogramEven of `n` float32 into `bins` int counters over
   [lower, upper), and DeviceReduce::ArgMax (the largest value and its index). */
int plinth_bench_cub_histogram_even_float32(const float* in, int* counts, int bins, float lower,
                                            float upper, size_t n, void* temp, size_t* temp_bytes,
                                            CUstream stream);
int plinth_bench_cub_argmax_float32(const float* in, float* max_out, long long* index_out, size_t n,
                                    void* temp, size_t* temp_bytes, CUstream stream);

#ifdef __cplusplus
}
#endif
