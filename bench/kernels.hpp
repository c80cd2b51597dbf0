#pragma once

// The kernels the benchmarks launch, in plinth's dialect (the same text on every backend).

#include <cstddef>
#include <string>

namespace plinth_bench {

/// `empty` (no parameters), `empty_args` (the parameters of saxpy, unused) and `saxpy`
/// (y[i] = a * x[i] + y[i] for i < n: bandwidth-bound, 12 bytes moved per element).
inline const std::string kernels_source = R"(
KERNEL void empty(void) {}

KERNEL void empty_args(GLOBAL_MEM float *y, GLOBAL_MEM const float *x, float a, unsigned int n) {}

KERNEL void saxpy(GLOBAL_MEM float *y, GLOBAL_MEM const float *x, float a, unsigned int n) {
  const SIZE_T i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

/// `scale_shift` (y[i] = a * x[i] + b for i < n): the hand-written kernel of `x*2 + 1`, for the
/// raw side of the memory pool's small new result (bench/cuda.cpp).
inline const std::string scale_shift_source = R"(
KERNEL void scale_shift(GLOBAL_MEM float *y, GLOBAL_MEM const float *x, float a, float b,
                        unsigned int n) {
  const SIZE_T i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + b;
}
)";

/// `empty_static`: a StaticKernel (global size 1) that only asks whether it is padding.
inline const std::string static_kernel_source = R"(
KERNEL void empty_static(void) { if (${static.skip}()) return; }
)";

/// Work items per group of the saxpy launches, plinth's and raw alike.
inline constexpr std::size_t saxpy_local_size = 256;

/// The transfer sizes: latency-bound, typical, and bandwidth-bound.
inline constexpr std::size_t transfer_sizes[] = {std::size_t{4} << 10, std::size_t{1} << 20,
                                                 std::size_t{256} << 20};

/// The program-build benchmark's source: the kernels above, made unique per build by a
/// comment, so that no compiler or program cache (the driver's, PoCL's, plinth's) can answer.
inline std::string build_source(const std::string& token) {
  return kernels_source + "// build " + token + "\n";
}

/// The prelude a plinth program prepended to `user_source`: what a raw build must prepend to
/// compile the same text. Empty if `full_source` does not end with `user_source`.
inline std::string prelude_of(const std::string& full_source, const std::string& user_source) {
  if (full_source.size() < user_source.size() ||
      full_source.compare(full_source.size() - user_source.size(), user_source.size(),
                          user_source) != 0)
    return {};
  return full_source.substr(0, full_source.size() - user_source.size());
}

}  // namespace plinth_bench
