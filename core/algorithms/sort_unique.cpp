#include <plinth/sorting.hpp>

#include "algorithms/kit/recipe_cache.hpp"
#include "algorithms/sort_arrays.hpp"
#include "algorithms/sort_radix.hpp"

#include <plinth/scan.hpp>

#include <cstdint>
#include <string>

namespace plinth {

namespace {

// unique's kernels over the sorted keys `s` (their bits) of n elements:
// _uniq_heads: head[i] = 1 where s[i] starts a run of equal values (numpy's equality: one
//   NaN, -0.0 == +0.0), else 0; its inclusive scan numbers the runs from 1;
// _uniq_scatter: each run's first value, first position and (flag 1) first original index;
//   (flag 2) each element's run at its original index; starts[m] = n;
// _uniq_counts: counts[j] = starts[j + 1] - starts[j].
std::string unique_source(const detail::RadixKeySpec& spec) {
  return detail::sort_key_prelude(spec) + R"(
KERNEL void _uniq_heads(GLOBAL_MEM const _sort_KB *s, unsigned long n, GLOBAL_MEM long *head)
{
    for (VSIZE_T i = get_global_id(0); i < (VSIZE_T)n; i += get_global_size(0))
        head[i] = (i == 0 || _sort_key(s[i]) != _sort_key(s[i - 1])) ? 1 : 0;
}

KERNEL void _uniq_scatter(GLOBAL_MEM const _sort_KB *s, GLOBAL_MEM const long *run,
    GLOBAL_MEM const long *perm, unsigned long n, unsigned int flags,
    GLOBAL_MEM _sort_KB *values, GLOBAL_MEM long *starts, GLOBAL_MEM long *index,
    GLOBAL_MEM long *inverse)
{
    for (VSIZE_T i = get_global_id(0); i < (VSIZE_T)n; i += get_global_size(0))
    {
        const long r = run[i] - 1;
        if (i == 0 || run[i - 1] != run[i])
        {
            values[r] = s[i];
            starts[r] = (long)i;
            if (flags & 1u)
                index[r] = perm[i];
        }
        if (flags & 2u)
            inverse[perm[i]] = r;
        if (i + 1 == (VSIZE_T)n)
            starts[r + 1] = (long)n;
    }
}

KERNEL void _uniq_counts(GLOBAL_MEM const long *starts, unsigned long m, GLOBAL_MEM long *counts)
{
    for (VSIZE_T j = get_global_id(0); j < (VSIZE_T)m; j += get_global_size(0))
        counts[j] = starts[j + 1] - starts[j];
}
)";
}

/// The inclusive sum scan of int64 run heads, in place.
ScanKernel run_numbers() {
  return detail::recipe_cache().get<ScanKernel>("sort", "unique_runs", [] {
    return ScanKernel(DType::int64(), "a + b", "0", ScanKind::inclusive, {.name = "unique_runs"});
  });
}

}  // namespace

UniqueResult unique(const Queue& queue, const Array& a, const UniqueOptions& options) {
  constexpr std::string_view function = "unique";
  detail::check_sort_array(queue, a, function, "a");
  const std::size_t n = a.size();
  const bool need_perm = options.return_index || options.return_inverse;
  const Array keys = detail::sort_keys(queue, a);
  const Array flat = detail::reinterpret(keys, keys.dtype(), {n});
  detail::RadixResult sorted = detail::radix_sort(queue, flat, n, need_perm, false, function);
  const auto spec = detail::key_spec(keys.dtype());
  const DType bits = keys.dtype().itemsize() == 1   ? DType::uint8()
                     : keys.dtype().itemsize() == 2 ? DType::uint16()
                     : keys.dtype().itemsize() == 4 ? DType::uint32()
                                                    : DType::uint64();
  const auto kernel = [&](std::string_view name) {
    return detail::helper_kernel(queue, "unique", spec, unique_source, name);
  };
  std::size_t m = 0;
  std::optional<Array> runs;
  const auto count = static_cast<std::uint64_t>(n);
  if (n > 0) {
    runs = Array::empty(queue, {n}, DType::int64());
    const KernelArg head_args[] = {sorted.keys.base_buffer(), count, runs->base_buffer()};
    detail::launch_items(queue, kernel("_uniq_heads"), n, head_args);
    run_numbers()(queue, *runs);
    const auto last = runs->view({static_cast<std::ptrdiff_t>(n - 1)}).get(queue);
    m = static_cast<std::size_t>(last.to_vector<std::int64_t>()[0]);
  }
  UniqueResult result{Array::empty(queue, {m}, a.dtype()), std::nullopt, std::nullopt,
                      std::nullopt};
  const Array starts = Array::empty(queue, {m + 1}, DType::int64());
  if (options.return_index) result.index = Array::empty(queue, {m}, DType::int64());
  if (options.return_inverse) result.inverse = Array::empty(queue, a.shape(), DType::int64());
  if (options.return_counts) result.counts = Array::empty(queue, {m}, DType::int64());
  if (n == 0) return result;
  const auto flags =
      static_cast<std::uint32_t>((options.return_index ? 1 : 0) | (options.return_inverse ? 2 : 0));
  const Buffer& perm = need_perm ? sorted.indices->base_buffer() : runs->base_buffer();
  const Buffer& index = result.index ? result.index->base_buffer() : starts.base_buffer();
  const Buffer& inverse = result.inverse ? result.inverse->base_buffer() : starts.base_buffer();
  const Array values_bits = detail::reinterpret(result.values, bits, {m});
  const KernelArg scatter_args[] = {
      sorted.keys.base_buffer(), runs->base_buffer(),  perm,  count,  flags,
      values_bits.base_buffer(), starts.base_buffer(), index, inverse};
  detail::launch_items(queue, kernel("_uniq_scatter"), n, scatter_args);
  if (result.counts) {
    const auto unique_count = static_cast<std::uint64_t>(m);
    const KernelArg count_args[] = {starts.base_buffer(), unique_count,
                                    result.counts->base_buffer()};
    detail::launch_items(queue, kernel("_uniq_counts"), m, count_args);
  }
  return result;
}

}  // namespace plinth
