#include <plinth/compaction.hpp>

#include "algorithms/compaction_codegen.hpp"
#include "algorithms/kit/array_arguments.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"
#include "algorithms/kit/recipe_cache.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/errors.hpp>
#include <plinth/reduction.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <tuple>

namespace plinth {

namespace {

using detail::check_argument_device;
using detail::contiguous_array;
using detail::element_offset;
using detail::flat_view;

/// Work items per group the kernels are written for (their local arrays' size).
constexpr std::size_t compaction_local = 256;
/// Groups per compute unit for the count and the scatter.
constexpr std::size_t compaction_groups_per_compute_unit = 8;

detail::RecipeId compaction_recipe_id() {
  static const detail::RecipeId id = detail::next_recipe_id();
  return id;
}

void check_flags(const char* function, const char* name, const Array& array) {
  if (array.dtype().is_struct()) {
    throw LogicError(fmt::format("{}: argument '{}' is of the struct dtype {}, which has no zero",
                                 function, name, array.dtype().name()));
  }
}

/// The compaction program for `recipe` on the queue's device.
std::shared_ptr<detail::ProgramSlot> compaction_slot(const Queue& queue,
                                                     const detail::CompactionRecipe& recipe) {
  const std::array<std::uint64_t, 3> words{
      recipe.flag_itemsize, static_cast<std::uint64_t>(recipe.flag_test), recipe.value_itemsize};
  return detail::built_slot(
      compaction_recipe_id(), queue.device(), words, [&] { return compaction_source(recipe); },
      {detail::compaction_count_function, detail::compaction_offsets_function,
       detail::compaction_scatter_function, detail::compaction_gather_function,
       detail::compaction_unravel_function},
      compaction_local, compaction_groups_per_compute_unit);
}

/// The kernels of a slot, copied out under its lock, and its sizing.
struct Launchable {
  boost::container::small_vector<Kernel, 3> kernels;
  std::size_t local = 1;
  std::size_t max_groups = 1;
};

Launchable launchable(const std::shared_ptr<detail::ProgramSlot>& slot) {
  const std::lock_guard lock(slot->mutex);
  return {slot->kernels, slot->local_size, slot->max_groups};
}

/// The elements of `values` (or their flat indices, without values) whose flag in the first
/// `n` elements of `flags` (contiguous) is nonzero, as a new 1-D array. Reads the count back.
Array compact(const Queue& queue, const Array& flags, std::size_t n,
              const std::optional<Array>& values) {
  const DType out_dtype = values ? values->dtype() : DType::int64();
  if (n == 0) return Array::empty(queue, {0}, out_dtype);
  const detail::CompactionRecipe recipe{flags.dtype().itemsize(),
                                        detail::nonzero_test(flags.dtype()),
                                        values ? values->dtype().itemsize() : 0, compaction_local};
  const auto run = launchable(compaction_slot(queue, recipe));
  const std::uint64_t tile = run.local * detail::compaction_items_per_work_item;
  const std::uint64_t tiles = (n + tile - 1) / tile;
  const std::uint64_t groups_wanted = std::min<std::uint64_t>(tiles, run.max_groups);
  const std::uint64_t chunk = (tiles + groups_wanted - 1) / groups_wanted * tile;
  const std::uint64_t groups = (n + chunk - 1) / chunk;
  const auto counts = Array::empty(queue, {static_cast<std::size_t>(groups + 1)}, DType::uint64());
  const std::uint64_t count = n;
  const std::int64_t flags_off = element_offset(flags);
  const std::size_t global[1] = {static_cast<std::size_t>(groups) * run.local};
  const std::size_t local[1] = {run.local};
  {
    const std::array<KernelArg, 5> args{flags.base_buffer(), flags_off, count, chunk,
                                        counts.base_buffer()};
    run.kernels[0].launch(queue, global, local, args);
  }
  {
    const std::size_t one[1] = {run.local};
    const std::array<KernelArg, 2> args{counts.base_buffer(), groups};
    run.kernels[1].launch(queue, one, local, args);
  }
  const auto total_view = counts.view({Index(static_cast<std::ptrdiff_t>(groups))});
  const auto total = total_view.get(queue).to_vector<std::uint64_t>()[0];
  auto out = Array::empty(queue, {static_cast<std::size_t>(total)}, out_dtype);
  if (total == 0) return out;
  const Array& source = values ? *values : flags;
  const std::int64_t out_off = 0;
  const std::int64_t source_off = element_offset(source);
  const std::array<KernelArg, 9> args{flags.base_buffer(),
                                      flags_off,
                                      count,
                                      chunk,
                                      counts.base_buffer(),
                                      out.base_buffer(),
                                      out_off,
                                      source.base_buffer(),
                                      source_off};
  run.kernels[2].launch(queue, global, local, args);
  return out;
}

/// The unsigned words of `itemsize` bytes (a struct of two for 16) count_nonzero reads.
DType words_dtype(std::size_t itemsize) {
  switch (itemsize) {
    case 1: return DType::uint8();
    case 2: return DType::uint16();
    case 4: return DType::uint32();
    case 8: return DType::uint64();
    default: return DType::make_struct({{"lo", DType::uint64()}, {"hi", DType::uint64()}});
  }
}

/// A reinterpretation of `a` (same layout) as `words_dtype` of its itemsize.
Array as_words(const Array& a) {
  const auto& m = a.metadata();
  return Array::from_buffer(a.base_buffer(),
                            ArrayMetadata(m.shape(), words_dtype(a.dtype().itemsize()), m.strides(),
                                          m.first_element_offset(), m.buffer_size()));
}

/// count_nonzero's kernel for elements of `dtype` (read as words).
ReductionKernel count_kernel(const DType& dtype) {
  return detail::recipe_cache().get<ReductionKernel>(
      "reduction", fmt::format("count_nonzero:{}", dtype.name()), [&] {
        const auto size = dtype.itemsize();
        const auto test = detail::nonzero_test(dtype);
        std::string map = "x[i] != 0";
        if (size == 16) {
          map = "((x[i].lo | x[i].hi) & 0x7fffffffffffffffUL) != 0";
          if (test == detail::NonzeroTest::word) map = "(x[i].lo | x[i].hi) != 0";
        } else if (test != detail::NonzeroTest::word) {
          const auto bits = 8 * size;
          std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
          mask &= ~(std::uint64_t{1} << (bits - 1));
          if (test == detail::NonzeroTest::complex) mask &= ~(std::uint64_t{1} << (bits / 2 - 1));
          map = fmt::format("(x[i] & 0x{:x}UL) != 0", mask);
        }
        return ReductionKernel({ElementwiseArg::input("x", words_dtype(size))}, DType::int64(), "0",
                               "a + b", fmt::format("({}) ? 1 : 0", map),
                               {.name = "count_nonzero"});
      });
}

}  // namespace

Array count_nonzero(const Queue& queue, const Array& a,
                    const std::optional<std::vector<std::size_t>>& axes) {
  check_flags("count_nonzero", "a", a);
  check_argument_device("count_nonzero", "a", queue, a);
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(as_words(a))};
  return count_kernel(a.dtype()).launch(queue, values, ReductionTarget{.axes = axes});
}

Array flatnonzero(const Queue& queue, const Array& a) {
  check_flags("flatnonzero", "a", a);
  check_argument_device("flatnonzero", "a", queue, a);
  return compact(queue, contiguous_array(queue, a), a.size(), std::nullopt);
}

std::vector<Array> nonzero(const Queue& queue, const Array& a) {
  check_flags("nonzero", "a", a);
  check_argument_device("nonzero", "a", queue, a);
  if (a.ndim() == 0) {
    throw LogicError(
        "nonzero: argument 'a' is 0-d (numpy refuses it too: use atleast_1d(a).nonzero())");
  }
  auto indices = compact(queue, contiguous_array(queue, a), a.size(), std::nullopt);
  if (a.ndim() == 1) return {indices};
  const auto count = indices.size();
  std::vector<Array> result;
  result.reserve(a.ndim());
  for (std::size_t d = 0; d < a.ndim(); ++d)
    result.push_back(Array::empty(queue, {count}, DType::int64()));
  if (count == 0) return result;
  const detail::CompactionRecipe recipe{a.dtype().itemsize(), detail::nonzero_test(a.dtype()), 0,
                                        compaction_local};
  const auto run = launchable(compaction_slot(queue, recipe));
  const std::size_t global[1] = {detail::groups_for(count, run.local, run.max_groups) * run.local};
  const std::size_t local[1] = {run.local};
  std::uint64_t stride = 1;
  const std::uint64_t n = count;
  const std::int64_t zero = 0;
  for (std::size_t d = a.ndim(); d-- > 0;) {
    const std::uint64_t extent = a.shape()[d];
    const std::array<KernelArg, 6> args{
        result[d].base_buffer(), zero, indices.base_buffer(), n, stride, extent};
    run.kernels[4].launch(queue, global, local, args);
    stride *= extent;
  }
  return result;
}

Array extract(const Queue& queue, const Array& condition, const Array& a) {
  check_flags("extract", "condition", condition);
  check_argument_device("extract", "condition", queue, condition);
  check_argument_device("extract", "a", queue, a);
  if (condition.shape() != a.shape()) {
    throw LogicError(fmt::format(
        "extract: argument 'condition' has shape ({}), argument 'a' ({}): a mask needs a's shape",
        fmt::join(condition.shape(), ", "), fmt::join(a.shape(), ", ")));
  }
  return compact(queue, contiguous_array(queue, condition), a.size(), contiguous_array(queue, a));
}

Array compress(const Queue& queue, const Array& condition, const Array& a,
               std::optional<std::ptrdiff_t> axis) {
  check_flags("compress", "condition", condition);
  check_argument_device("compress", "condition", queue, condition);
  check_argument_device("compress", "a", queue, a);
  if (condition.ndim() != 1) {
    throw LogicError(fmt::format("compress: argument 'condition' must be 1-D, got shape ({})",
                                 fmt::join(condition.shape(), ", ")));
  }
  const auto m = condition.size();
  if (!axis) {
    if (m > a.size()) {
      throw LogicError(fmt::format(
          "compress: argument 'condition' has {} elements, more than the {} of argument 'a'", m,
          a.size()));
    }
    return compact(queue, contiguous_array(queue, condition), m,
                   flat_view(contiguous_array(queue, a)));
  }
  const auto ndim = static_cast<std::ptrdiff_t>(a.ndim());
  const auto d = *axis < 0 ? *axis + ndim : *axis;
  if (d < 0 || d >= ndim) {
    throw LogicError(
        fmt::format("compress: argument 'axis' {} is out of range for {} dimensions", *axis, ndim));
  }
  const auto extent = a.shape()[static_cast<std::size_t>(d)];
  if (m > extent) {
    throw LogicError(fmt::format(
        "compress: argument 'condition' has {} elements, more than the extent {} of axis {}", m,
        extent, d));
  }
  const auto indices = compact(queue, contiguous_array(queue, condition), m, std::nullopt);
  auto shape = a.shape();
  shape[static_cast<std::size_t>(d)] = indices.size();
  auto out = Array::empty(queue, shape, a.dtype());
  if (out.size() == 0) return out;
  std::uint64_t inner = 1;
  for (auto k = static_cast<std::size_t>(d) + 1; k < a.ndim(); ++k) inner *= a.shape()[k];
  const auto source = contiguous_array(queue, a);
  const detail::CompactionRecipe recipe{condition.dtype().itemsize(),
                                        detail::nonzero_test(condition.dtype()),
                                        a.dtype().itemsize(), compaction_local};
  const auto run = launchable(compaction_slot(queue, recipe));
  const std::uint64_t total = out.size();
  const std::uint64_t k = indices.size();
  const std::uint64_t ext = extent;
  const std::int64_t zero = 0;
  const std::int64_t source_off = element_offset(source);
  const std::size_t global[1] = {detail::groups_for(out.size(), run.local, run.max_groups) *
                                 run.local};
  const std::size_t local[1] = {run.local};
  const std::array<KernelArg, 10> args{out.base_buffer(),
                                       zero,
                                       source.base_buffer(),
                                       source_off,
                                       indices.base_buffer(),
                                       zero,
                                       total,
                                       k,
                                       inner,
                                       ext};
  run.kernels[3].launch(queue, global, local, args);
  return out;
}

}  // namespace plinth
