#include "algorithms/sort_radix.hpp"

#include "algorithms/kit/kernel_store.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"
#include "algorithms/kit/recipe_cache.hpp"
#include "algorithms/sort_codegen.hpp"

#include <plinth/device_features.hpp>
#include <plinth/errors.hpp>
#include <plinth/scan.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <tuple>

namespace plinth::detail {

namespace {

/// Tiles' groups launched per compute unit (each loops over its share of the tiles).
constexpr std::size_t radix_groups_per_compute_unit = 16;

struct RadixSlot : ProgramSlot {
  RadixGeometry geometry;
};

RecipeId radix_recipe() {
  static const RecipeId recipe = next_recipe_id();
  return recipe;
}

RadixKeyKind key_kind(const DType& dtype) {
  switch (dtype.kind()) {
    case DTypeKind::signed_integer: return RadixKeyKind::signed_integer;
    case DTypeKind::floating: return RadixKeyKind::floating;
    default: return RadixKeyKind::unsigned_integer;
  }
}

/// The exclusive scan of the tiles' digit counts (uint32) into where they go (uint64).
ScanKernel offsets_scan() {
  return recipe_cache().get<ScanKernel>("sort", "offsets", [] {
    return ScanKernel(DType::uint64(), "a + b", "0", ScanKind::exclusive,
                      {.name = "sort_offsets", .input_dtype = DType::uint32()});
  });
}

void build(RadixSlot& slot, const BoundDevice& device, const RadixKeySpec& spec) {
  const std::lock_guard lock(slot.mutex);
  if (slot.built()) return;
  const auto& params = device.params();
  const auto& features = device.features();
  RadixLimits limits;
  limits.max_local_size = params.max_total_local_size;
  if (!params.max_local_sizes.empty()) {
    limits.max_local_size = std::min(limits.max_local_size, params.max_local_sizes[0]);
  }
  limits.local_mem_size = params.local_mem_size;
  if (features.native_sub_groups && !features.sub_group_sizes.empty()) {
    limits.min_sub_group_size = features.sub_group_sizes.front();
    limits.max_sub_group_size = features.sub_group_sizes.back();
  }
  for (;;) {
    const auto geometry = choose_radix_geometry(limits, spec);
    const std::string kernels = "_sort_hist, _sort_scatter";
    Program program =
        build_for_store(device,
                        fmt::format("// radix sort ({}-bit keys): {}\n", spec.bits, kernels) +
                            radix_source(spec, geometry),
                        ProgramOptions{});
    boost::container::small_vector<Kernel, 3> built{program.kernel("_sort_hist"),
                                                    program.kernel("_sort_scatter")};
    std::size_t allowed = geometry.local_size;
    for (const auto& kernel : built) {
      allowed = std::min(allowed, kernel.max_total_local_sizes().front());
    }
    if (allowed < geometry.local_size && geometry.local_size > limits.max_sub_group_size) {
      limits.max_local_size = std::max(power_of_two_floor(allowed), limits.max_sub_group_size);
      if (limits.max_local_size < geometry.local_size) continue;
    }
    slot.program = program;
    slot.kernels = std::move(built);
    slot.geometry = geometry;
    slot.local_size = geometry.local_size;
    slot.max_groups = group_limit(params, radix_groups_per_compute_unit);
    return;
  }
}

}  // namespace

bool is_radix_key(const DType& dtype) noexcept {
  switch (dtype.kind()) {
    case DTypeKind::signed_integer:
    case DTypeKind::unsigned_integer: return true;
    case DTypeKind::floating: return dtype.itemsize() == 4 || dtype.itemsize() == 8;
    default: return false;
  }
}

RadixResult radix_sort(const Queue& queue, const Array& keys, std::size_t row, bool indices,
                       bool descending, std::string_view function) {
  const auto& device = queue.device();
  if (!is_radix_key(keys.dtype())) {
    throw LogicError(
        fmt::format("{}: the key dtype {} is not sorted here", function, keys.dtype().name()));
  }
  if (!(keys.device() == device)) {
    throw LogicError(
        fmt::format("{}: the array is on device {} ('{}'), the queue on device {} ('{}')", function,
                    keys.device().index(), keys.device().name(), device.index(), device.name()));
  }
  if (!device.features().atomics) {
    throw LogicError(fmt::format(
        "{}: device {} ('{}') lacks the dialect's atomics and sub-groups (a plugin built "
        "against SDK 1.4 or older)",
        function, device.index(), device.name()));
  }
  const std::size_t n = keys.size();
  RadixResult result{Array::empty(queue, keys.shape(), keys.dtype()), std::nullopt};
  if (indices) result.indices = Array::empty(queue, keys.shape(), DType::int64());
  if (n == 0) return result;

  RadixKeySpec spec;
  spec.kind = key_kind(keys.dtype());
  spec.bits = static_cast<unsigned>(keys.dtype().itemsize() * 8);
  spec.descending = descending;
  if (indices) spec.payload_bits = row > std::numeric_limits<std::uint32_t>::max() ? 64 : 32;
  // One program per width and payload: the kind of key is an argument (radix_mode).
  const VariantWords variant{spec.bits, spec.payload_bits};
  const auto slot = store_slot<RadixSlot>(
      radix_recipe(), device, std::span<const std::uint64_t>(variant.data(), variant.size()));
  build(*slot, device, spec);
  const auto [geometry, max_groups, kernels] = [&] {
    const std::lock_guard lock(slot->mutex);
    return std::tuple{slot->geometry, slot->max_groups, slot->kernels};
  }();

  const std::size_t tile = geometry.tile();
  const std::size_t rows = n / row;
  const std::size_t tiles_per_row = row / tile + (row % tile != 0 ? 1 : 0);
  const std::size_t tiles = rows * tiles_per_row;
  const std::size_t passes = spec.bits / 8;
  const Array hist = Array::empty(queue, {tiles * 256}, DType::uint32());
  const Array offsets = Array::empty(queue, {tiles * 256}, DType::uint64());
  std::optional<Array> key_temp, payload_temp[2];
  if (passes > 1) key_temp = Array::empty(queue, {n}, keys.dtype());
  const DType payload_dtype = spec.payload_bits == 64 ? DType::uint64() : DType::uint32();
  if (indices && passes > 1) payload_temp[0] = Array::empty(queue, {n}, payload_dtype);
  if (indices && passes > 2) payload_temp[1] = Array::empty(queue, {n}, payload_dtype);

  const auto scan = offsets_scan();
  const std::size_t local[1] = {geometry.local_size};
  const std::size_t global[1] = {std::min(tiles, max_groups) * geometry.local_size};
  const auto row_arg = static_cast<std::uint64_t>(row);
  const auto tpr_arg = static_cast<std::uint64_t>(tiles_per_row);
  const auto tiles_arg = static_cast<std::uint64_t>(tiles);
  const auto first_offset =
      static_cast<std::int64_t>(keys.first_element_offset() / keys.dtype().itemsize());
  const std::int64_t no_offset = 0;
  // Pass p writes the result where P - 1 - p is even, so that the last pass writes it.
  const auto key_dest = [&](std::size_t pass) -> const Array& {
    return (passes - 1 - pass) % 2 == 0 ? result.keys : *key_temp;
  };
  for (std::size_t pass = 0; pass < passes; ++pass) {
    const Buffer& in = pass == 0 ? keys.base_buffer() : key_dest(pass - 1).base_buffer();
    const std::int64_t& in_offset = pass == 0 ? first_offset : no_offset;
    const Buffer& out = key_dest(pass).base_buffer();
    const auto shift = static_cast<std::uint32_t>(pass * 8 | radix_mode(spec) << 8);
    const KernelArg hist_args[] = {in,        in_offset, row_arg,           tpr_arg,
                                   tiles_arg, shift,     hist.base_buffer()};
    kernels[0].launch(queue, global, local, hist_args);
    scan(queue, hist, offsets);
    if (!indices) {
      const KernelArg args[] = {in,      in_offset, out,   row_arg,
                                tpr_arg, tiles_arg, shift, offsets.base_buffer()};
      kernels[1].launch(queue, global, local, args);
      continue;
    }
    const bool first = pass == 0, last = pass + 1 == passes;
    const auto flags = static_cast<std::uint32_t>((first ? 1 : 0) | (last ? 2 : 0));
    // Middle passes alternate between the two payload buffers; the first reads none, and the
    // last writes the int64 result.
    const Buffer& payload_in = first ? out : payload_temp[(pass - 1) % 2]->base_buffer();
    const Buffer& payload_mid = last ? out : payload_temp[pass % 2]->base_buffer();
    const KernelArg args[] = {
        in,    in_offset, out,     payload_in, payload_mid, result.indices->base_buffer(),
        flags, row_arg,   tpr_arg, tiles_arg,  shift,       offsets.base_buffer()};
    kernels[1].launch(queue, global, local, args);
  }
  return result;
}

}  // namespace plinth::detail
