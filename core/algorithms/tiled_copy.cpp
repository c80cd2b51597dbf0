#include "algorithms/tiled_copy.hpp"

#include "algorithms/array_expression_codegen.hpp"
#include "algorithms/tiled_copy_codegen.hpp"

#include <plinth/context.hpp>
#include <plinth/program.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace plinth::detail {

namespace {

/// Groups per compute unit at most (the group-stride loop covers the other tiles).
constexpr std::size_t groups_per_compute_unit = 16;
/// Static local memory a kernel may declare on every backend (CUDA's limit).
constexpr std::size_t max_static_local_bytes = 48 * 1024;
/// Programs kept (the lead's Context-owned store replaces this cache).
constexpr std::size_t max_cached_programs = 64;

/// The compiled program of one device and recipe, built once; local_size 0 when the kernel
/// cannot run a row of the tile per group on the device.
struct Slot {
  std::mutex mutex;
  std::optional<Program> program;
  std::optional<Kernel> kernel;
  std::size_t local_size = 0;
  std::size_t max_groups = 1;
};

struct CacheEntry {
  BoundDevice device;
  TiledCopyRecipe recipe;
  std::shared_ptr<Slot> slot;
};

std::shared_ptr<Slot> slot_for(const BoundDevice& device, const TiledCopyRecipe& recipe) {
  static std::mutex mutex;
  static std::vector<CacheEntry> cache;  // oldest first
  const std::lock_guard lock(mutex);
  for (const auto& entry : cache) {
    if (entry.device == device && entry.recipe == recipe) return entry.slot;
  }
  if (cache.size() >= max_cached_programs) cache.erase(cache.begin());
  cache.push_back({device, recipe, std::make_shared<Slot>()});
  return cache.back().slot;
}

/// Builds `recipe`'s program for `device` into `slot` if it has none yet, and returns a copy
/// of its kernel with the local size and group limit. Throws CompileError.
std::optional<Kernel> build(Slot& slot, const BoundDevice& device, const TiledCopyRecipe& recipe,
                            std::size_t& local_size, std::size_t& max_groups) {
  const std::lock_guard lock(slot.mutex);
  if (!slot.kernel) {
    const std::size_t index[1] = {device.index()};
    const auto devices = device.context().devices()[std::span<const std::size_t>(index)];
    Program program(devices, tiled_copy_source(recipe), ProgramOptions{});
    Kernel kernel = program.kernel(std::string(tiled_copy_function));
    const auto& params = device.params();
    // The rows were chosen for the device; the kernel may allow fewer work items.
    const std::size_t local = tile_edge * recipe.rows;
    std::size_t groups = std::max<std::size_t>(params.compute_units, 1) * groups_per_compute_unit;
    if (!params.max_num_groups.empty() && params.max_num_groups[0] > 0) {
      groups = std::min(groups, params.max_num_groups[0]);
    }
    slot.program = program;
    slot.kernel = kernel;
    slot.local_size = local <= kernel.max_total_local_sizes().front() ? local : 0;
    slot.max_groups = groups;
  }
  local_size = slot.local_size;
  max_groups = slot.max_groups;
  return *slot.kernel;
}

/// The array's strides in elements, or nothing if one is not a whole number of elements.
std::optional<std::vector<std::int64_t>> element_strides(const Array& array) {
  const auto itemsize = static_cast<std::ptrdiff_t>(array.dtype().itemsize());
  std::vector<std::int64_t> strides;
  for (const auto stride : array.strides()) {
    if (stride % itemsize != 0) return std::nullopt;
    strides.push_back(stride / itemsize);
  }
  return strides;
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
  const auto dest_strides = element_strides(dest);
  const auto src_strides = element_strides(src);
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
  std::size_t local_size = 0, max_groups = 1;
  auto kernel = build(*slot_for(device, recipe), device, recipe, local_size, max_groups);
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
  kernel->launch(queue, global, local, args);
  return true;
}

}  // namespace plinth::detail
