#include "algorithms/tiled_copy.hpp"

#include "algorithms/array_expression_codegen.hpp"
#include "algorithms/kit/array_arguments.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"
#include "algorithms/tiled_copy_codegen.hpp"

#include <plinth/program.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

namespace plinth::detail {

namespace {

/// Groups per compute unit at most (the group-stride loop covers the other tiles).
constexpr std::size_t tiled_copy_groups_per_compute_unit = 16;

/// The one recipe id of the tiled copies in the Context's KernelStore; the variant words
/// (variant_words) tell the programs apart.
RecipeId tiled_copy_recipe_id() {
  static const RecipeId id = next_recipe_id();
  return id;
}

/// A code for an arithmetic dtype, unique among them (the conversions' dtypes).
std::uint64_t dtype_code(const DType& dtype) {
  return (static_cast<std::uint64_t>(dtype.kind()) << 8) | dtype.itemsize();
}

/// The store's key words for `recipe`, converting `src` to `dest` where it converts.
std::array<std::uint64_t, 6> variant_words(const TiledCopyRecipe& recipe, const DType& dest,
                                           const DType& src) {
  return {recipe.itemsize,
          recipe.word,
          recipe.batch_rank,
          recipe.rows,
          recipe.conversion ? dtype_code(src) + 1 : 0,
          recipe.conversion ? dtype_code(dest) : 0};
}

/// Builds `recipe`'s program for `device` into `slot` if it has none yet; its local_size is
/// 0 when the kernel cannot run the recipe's rows in a group. Throws CompileError.
void build(ProgramSlot& slot, const BoundDevice& device, const TiledCopyRecipe& recipe) {
  const std::lock_guard lock(slot.mutex);
  if (slot.built()) return;
  Program program = build_for_store(device, tiled_copy_source(recipe), ProgramOptions{});
  Kernel kernel = program.kernel(std::string(tiled_copy_function));
  // The rows were chosen for the device; the kernel may allow fewer work items.
  const std::size_t local = tile_edge * recipe.rows;
  slot.local_size = local <= kernel.max_total_local_sizes().front() ? local : 0;
  slot.max_groups = group_limit(device.params(), tiled_copy_groups_per_compute_unit);
  slot.program = std::move(program);
  slot.kernels.push_back(std::move(kernel));
}

std::uint64_t tiles_along(std::size_t extent) {
  return static_cast<std::uint64_t>((extent + tile_edge - 1) / tile_edge);
}

}  // namespace

bool tiled_copy(const Queue& queue, const Array& dest, const Array& src) {
  const auto itemsize = src.dtype().itemsize();
  const auto& device = queue.device();
  std::optional<TiledConversion> conversion;
  if (dest.dtype() != src.dtype()) {
    const auto generated = generate_conversion("_tc_v", src.dtype(), dest.dtype());
    if (generated.needs_double && !device.params().supports_double) return false;
    conversion = TiledConversion{generated.from_type, generated.to_type, generated.expression,
                                 generated.preamble};
  }
  const auto local_bytes = tile_edge * (tile_edge + 1) * itemsize;
  if (local_bytes > std::min(device.params().local_mem_size, max_static_local_bytes)) {
    return false;
  }
  const auto dest_itemsize = dest.dtype().itemsize();
  if (dest.first_element_offset() % dest_itemsize != 0 ||
      src.first_element_offset() % itemsize != 0) {
    return false;
  }
  const auto dest_strides = strides_in_elements(dest);
  const auto src_strides = strides_in_elements(src);
  if (!dest_strides || !src_strides) return false;
  const auto plan = plan_tiled_copy(dest.shape(), *dest_strides, *src_strides);
  if (!plan) return false;

  const std::size_t offsets[2] = {dest.base_buffer().offset() + dest.first_element_offset(),
                                  src.base_buffer().offset() + src.first_element_offset()};
  // A conversion reads and writes the dtypes' C types, which need their natural alignment.
  if (conversion && (offsets[0] % std::min<std::size_t>(dest_itemsize, 16) != 0 ||
                     offsets[1] % std::min<std::size_t>(itemsize, 16) != 0)) {
    return false;
  }
  const auto& params = device.params();
  const auto rows = tiled_copy_rows(params.max_total_local_size,
                                    params.max_local_sizes.empty() ? 0 : params.max_local_sizes[0]);
  if (rows == 0) return false;
  const TiledCopyRecipe recipe{itemsize, conversion ? itemsize : tiled_copy_word(itemsize, offsets),
                               plan->batch.size(), rows, std::move(conversion)};
  const auto words = variant_words(recipe, dest.dtype(), src.dtype());
  const auto slot = store_slot(tiled_copy_recipe_id(), device, words);
  build(*slot, device, recipe);
  const auto [kernel, local_size, max_groups] = [&] {
    const std::lock_guard lock(slot->mutex);
    return std::tuple(slot->kernels.front(), slot->local_size, slot->max_groups);
  }();
  if (local_size == 0) return false;

  const auto tiles_a = tiles_along(plan->dest_fast.extent);
  const auto tiles_b = tiles_along(plan->src_fast.extent);
  std::uint64_t tiles = tiles_a * tiles_b;
  for (const auto& dim : plan->batch) tiles *= static_cast<std::uint64_t>(dim.extent);

  // The parameters' values (in fixed storage: KernelArgs refer to them), in the kernel's order.
  constexpr std::size_t max_args = 13 + 3 * max_tiled_batch_rank;
  std::array<std::uint64_t, max_args> unsigned_values{};
  std::array<std::int64_t, max_args> signed_values{};
  std::array<std::optional<KernelArg>, max_args> slots;
  std::size_t count = 0;
  const auto add_unsigned = [&](std::uint64_t value) {
    unsigned_values[count] = value;
    slots[count].emplace(unsigned_values[count]);
    ++count;
  };
  const auto add_signed = [&](std::int64_t value) {
    signed_values[count] = value;
    slots[count].emplace(signed_values[count]);
    ++count;
  };
  const auto add_array = [&](const Array& array) {
    slots[count++].emplace(array.base_buffer());
    add_signed(static_cast<std::int64_t>(array.first_element_offset() / array.dtype().itemsize()));
  };
  add_array(dest);
  add_array(src);
  add_unsigned(plan->dest_fast.extent);
  add_unsigned(plan->src_fast.extent);
  add_signed(plan->dest_fast.dest_stride);
  add_signed(plan->src_fast.dest_stride);
  add_signed(plan->dest_fast.src_stride);
  add_signed(plan->src_fast.src_stride);
  add_unsigned(tiles_a);
  add_unsigned(tiles_b);
  add_unsigned(tiles);
  // Innermost batch dimension first, as the kernel decodes the tile index.
  for (auto dim = plan->batch.rbegin(); dim != plan->batch.rend(); ++dim) {
    add_unsigned(dim->extent);
    add_signed(dim->dest_stride);
    add_signed(dim->src_stride);
  }
  std::vector<KernelArg> args;
  args.reserve(count);
  for (std::size_t k = 0; k < count; ++k) args.push_back(*slots[k]);
  const auto groups = static_cast<std::size_t>(std::min<std::uint64_t>(tiles, max_groups));
  const std::size_t global[1] = {groups * local_size};
  const std::size_t local[1] = {local_size};
  kernel.launch(queue, global, local, args);
  return true;
}

}  // namespace plinth::detail
