#include "algorithms/sort_arrays.hpp"

#include "algorithms/kit/kernel_store.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"
#include "algorithms/sort_radix.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_metadata.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace plinth::detail {

void sort_fail(std::string_view function, std::string_view argument, const std::string& problem) {
  throw LogicError(fmt::format("{}: argument '{}': {}", function, argument, problem));
}

void check_sort_array(const Queue& queue, const Array& a, std::string_view function,
                      std::string_view argument) {
  if (!(a.device() == queue.device())) {
    sort_fail(function, argument,
              fmt::format("the array is on device {} ('{}'), the queue on device {} ('{}')",
                          a.device().index(), a.device().name(), queue.device().index(),
                          queue.device().name()));
  }
  check_sort_dtype(a.dtype(), function, argument);
}

void check_sort_dtype(const DType& dtype, std::string_view function, std::string_view argument) {
  if (dtype == DType::boolean() || is_radix_key(dtype)) return;
  if (dtype == DType::float16()) {
    sort_fail(function, argument,
              "float16 is not sorted here (no kernel type on every backend: use float32)");
  }
  sort_fail(function, argument,
            fmt::format("the dtype {} is not sorted here (integers, bool, float32 and float64 are)",
                        dtype.name()));
}

std::size_t sort_axis(std::string_view function, std::size_t ndim, std::ptrdiff_t axis) {
  if (ndim == 0) sort_fail(function, "a", "a zero-dimensional array has no axis to sort along");
  const auto dims = static_cast<std::ptrdiff_t>(ndim);
  if (axis < -dims || axis >= dims) {
    sort_fail(function, "axis", fmt::format("{} is out of range for {} dimensions", axis, ndim));
  }
  return static_cast<std::size_t>(axis < 0 ? axis + dims : axis);
}

Array reinterpret(const Array& array, const DType& dtype, std::vector<std::size_t> shape) {
  const ArrayMetadata metadata(std::move(shape), dtype, std::nullopt, array.first_element_offset(),
                               array.base_buffer().size());
  return Array::from_buffer(array.base_buffer(), metadata);
}

Array sort_keys(const Queue& queue, const Array& a) {
  Array keys = a;
  const bool aligned = a.first_element_offset() % a.dtype().itemsize() == 0;
  if (!a.is_contiguous() || !aligned) keys = copy(queue, a);
  if (keys.dtype() == DType::boolean()) keys = reinterpret(keys, DType::uint8(), keys.shape());
  return keys;
}

RadixKeySpec key_spec(const DType& dtype) {
  RadixKeySpec spec;
  spec.bits = static_cast<unsigned>(dtype.itemsize() * 8);
  spec.kind = dtype.kind() == DTypeKind::signed_integer ? RadixKeyKind::signed_integer
              : dtype.kind() == DTypeKind::floating     ? RadixKeyKind::floating
                                                        : RadixKeyKind::unsigned_integer;
  return spec;
}

namespace {

/// One RecipeId per helper family.
RecipeId family_recipe(std::string_view family) {
  static std::mutex mutex;
  static std::map<std::string, RecipeId, std::less<>> recipes;
  const std::lock_guard lock(mutex);
  auto found = recipes.find(family);
  if (found == recipes.end()) found = recipes.emplace(std::string(family), next_recipe_id()).first;
  return found->second;
}

}  // namespace

Kernel helper_kernel(const Queue& queue, std::string_view family, const RadixKeySpec& spec,
                     std::string (*source)(const RadixKeySpec&), std::string_view name) {
  const auto& device = queue.device();
  const VariantWords variant{static_cast<std::uint64_t>(spec.kind), spec.bits};
  const auto slot =
      store_slot<ProgramSlot>(family_recipe(family), device,
                              std::span<const std::uint64_t>(variant.data(), variant.size()));
  const std::lock_guard lock(slot->mutex);
  if (!slot->program) {
    slot->program = build_for_store(
        device, fmt::format("// {} ({}-bit keys)\n", family, spec.bits) + source(spec),
        ProgramOptions{});
  }
  return slot->program->kernel(std::string(name));
}

void launch_items(const Queue& queue, const Kernel& kernel, std::size_t count,
                  std::span<const KernelArg> args) {
  if (count == 0) return;
  const auto& params = queue.device().params();
  const std::size_t local = local_size_for(params, kernel.max_total_local_sizes().front(), 256);
  const std::size_t groups = groups_for(count, local, group_limit(params, 32));
  const std::size_t local_size[1] = {local};
  const std::size_t global_size[1] = {groups * local};
  kernel.launch(queue, global_size, local_size, args);
}

}  // namespace plinth::detail
