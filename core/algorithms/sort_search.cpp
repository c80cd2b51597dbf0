#include <plinth/sorting.hpp>

#include "algorithms/sort_arrays.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/dtype.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace plinth {

namespace {

// searchsorted's kernel: for each value, a binary search of the sorted array in numpy's order
// (_sort_key: NaN last, -0.0 == +0.0): the first index whose element is not less than the
// value (left) or greater than it (right).
std::string search_source(const detail::RadixKeySpec& spec) {
  return detail::sort_key_prelude(spec) + R"(
KERNEL void _search(GLOBAL_MEM const _sort_KB *a_base, long a_offset, unsigned long na,
    GLOBAL_MEM const _sort_KB *v_base, long v_offset, unsigned long nv, int right,
    GLOBAL_MEM long *out)
{
    GLOBAL_MEM const _sort_KB *const a = a_base + a_offset;
    GLOBAL_MEM const _sort_KB *const v = v_base + v_offset;
    for (VSIZE_T i = get_global_id(0); i < (VSIZE_T)nv; i += get_global_size(0))
    {
        const _sort_KB key = _sort_key(v[i]);
        unsigned long lo = 0, hi = na;
        while (lo < hi)
        {
            const unsigned long mid = lo + (hi - lo) / 2;
            const _sort_KB probe = _sort_key(a[mid]);
            if (right ? probe <= key : probe < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        out[i] = (long)lo;
    }
}
)";
}

}  // namespace

Array searchsorted(const Queue& queue, const Array& sorted_a, const Array& values, Side side) {
  constexpr std::string_view function = "searchsorted";
  detail::check_sort_array(queue, sorted_a, function, "sorted_a");
  detail::check_sort_array(queue, values, function, "values");
  if (sorted_a.ndim() != 1) {
    detail::sort_fail(function, "sorted_a",
                      fmt::format("must be 1-D, got {} dimensions", sorted_a.ndim()));
  }
  const DType common = result_type(sorted_a.dtype(), values.dtype());
  detail::check_sort_dtype(common, function, "values");
  const Array a = detail::sort_keys(
      queue, sorted_a.dtype() == common ? sorted_a : astype(queue, sorted_a, common));
  const Array v =
      detail::sort_keys(queue, values.dtype() == common ? values : astype(queue, values, common));
  const Array result = Array::empty(queue, values.shape(), DType::int64());
  if (values.size() == 0) return result;
  const auto spec = detail::key_spec(a.dtype());
  const auto kernel = detail::helper_kernel(queue, "searchsorted", spec, search_source, "_search");
  const auto itemsize = a.dtype().itemsize();
  const auto a_offset = static_cast<std::int64_t>(a.first_element_offset() / itemsize);
  const auto v_offset = static_cast<std::int64_t>(v.first_element_offset() / itemsize);
  const auto na = static_cast<std::uint64_t>(a.size());
  const auto nv = static_cast<std::uint64_t>(v.size());
  const std::int32_t right = side == Side::right ? 1 : 0;
  const KernelArg args[] = {a.base_buffer(), a_offset, na,    v.base_buffer(),
                            v_offset,        nv,       right, result.base_buffer()};
  detail::launch_items(queue, kernel, v.size(), args);
  return result;
}

}  // namespace plinth
