#include "algorithms/index_kernel.hpp"

#include "algorithms/indexing_codegen.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <numeric>
#include <string>

namespace plinth::detail {

namespace {

/// Work items per group, and groups per compute unit.
constexpr std::size_t index_local = 256;
constexpr std::size_t index_groups_per_compute_unit = 16;

RecipeId index_recipe_id() {
  static const RecipeId id = next_recipe_id();
  return id;
}

std::uint64_t product(std::span<const std::size_t> extents) {
  return std::accumulate(extents.begin(), extents.end(), std::uint64_t{1},
                         std::multiplies<std::uint64_t>());
}

/// Throws LogicError for the first index array that noted an index out of range in `bad`.
void raise_noted(const Queue& queue, const char* function, const IndexedArray& x,
                 const Array& bad) {
  const auto noted = bad.get(queue).to_vector<std::int64_t>();
  for (std::size_t j = 0; j < x.indices.size(); ++j) {
    if (noted[2 * j] == 0) continue;
    const auto extent = x.array.shape()[x.first + j];
    const bool is_unsigned = x.indices[j].dtype().kind() != DTypeKind::signed_integer;
    const std::string index = is_unsigned
                                  ? std::to_string(static_cast<std::uint64_t>(noted[2 * j + 1]))
                                  : std::to_string(noted[2 * j + 1]);
    throw LogicError(fmt::format("{}: index {} is out of bounds for axis {} with size {}", function,
                                 index, x.axes[j], extent));
  }
}

}  // namespace

std::vector<std::size_t> result_shape(const IndexedArray& x) {
  const auto& s = x.array.shape();
  std::vector<std::size_t> shape(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(x.first));
  shape.insert(shape.end(), x.broadcast.begin(), x.broadcast.end());
  shape.insert(shape.end(), s.begin() + static_cast<std::ptrdiff_t>(x.first + x.indices.size()),
               s.end());
  return shape;
}

void run_index(const Queue& queue, const char* function, const IndexedArray& x, const Array& other,
               bool scatter, IndexMode mode) {
  const auto result = result_shape(x);
  const std::uint64_t total = product(result);
  if (total == 0 || (scatter && other.size() == 0)) return;
  const auto& s = x.array.shape();
  const std::size_t k = x.indices.size();
  for (std::size_t j = 0; j < k; ++j) {
    if (s[x.first + j] == 0) {
      throw LogicError(fmt::format("{}: cannot index axis {} of size 0 (the result is not empty)",
                                   function, x.axes[j]));
    }
  }
  const std::span<const std::size_t> extents(s);
  const std::uint64_t post = product(extents.subspan(x.first + k));
  const std::uint64_t span = product(extents.subspan(x.first));
  const std::uint64_t nb = product(x.broadcast);
  IndexRecipe recipe{.itemsize = x.array.dtype().itemsize(),
                     .index_dtypes = {},
                     .mode = mode,
                     .scatter = scatter,
                     .simple = post == 1 && product(extents.first(x.first)) == 1,
                     .full_values = !scatter || other.size() == total};
  for (const auto& idx : x.indices) recipe.index_dtypes.push_back(idx.dtype());
  const auto slot = built_slot(
      index_recipe_id(), queue.device(), index_variant(recipe),
      [&] { return index_source(recipe); }, {index_function}, index_local,
      index_groups_per_compute_unit);
  Kernel kernel = [&] {
    const std::lock_guard lock(slot->mutex);
    return slot->kernels[0];
  }();
  std::size_t local_size = 1, max_groups = 1;
  {
    const std::lock_guard lock(slot->mutex);
    local_size = slot->local_size;
    max_groups = slot->max_groups;
  }
  const bool raise = mode == IndexMode::raise;
  const Array bad =
      raise ? Array::from_host(queue, HostArray::from_values(std::vector<std::int64_t>(2 * k, 0)))
            : other;
  const Array& out = scatter ? x.array : other;
  const Array& src = scatter ? other : x.array;
  // KernelArg refers to its values: keep them here, in vectors that never reallocate.
  std::vector<std::int64_t> signed_words;
  signed_words.reserve(2 + 3 * k);
  signed_words.insert(signed_words.end(), {element_offset(out), element_offset(src)});
  std::vector<KernelArg> args{out.base_buffer(), signed_words[0], src.base_buffer(),
                              signed_words[1]};
  std::uint64_t stride = post;
  std::vector<std::int64_t> strides(k);
  for (std::size_t j = k; j-- > 0;) {
    strides[j] = static_cast<std::int64_t>(stride);
    stride *= s[x.first + j];
  }
  for (std::size_t j = 0; j < k; ++j) {
    signed_words.insert(
        signed_words.end(),
        {element_offset(x.indices[j]), static_cast<std::int64_t>(s[x.first + j]), strides[j]});
    const auto* w = &signed_words[signed_words.size() - 3];
    args.insert(args.end(), {x.indices[j].base_buffer(), w[0], w[1], w[2]});
  }
  const std::uint64_t nv = scatter ? other.size() : total;
  args.insert(args.end(), {nb, post, span, total, nv, bad.base_buffer()});
  const std::size_t global[1] = {groups_for(total, local_size, max_groups) * local_size};
  const std::size_t local[1] = {local_size};
  kernel.launch(queue, global, local, args);
  if (raise) raise_noted(queue, function, x, bad);
}

}  // namespace plinth::detail
