#include "algorithms/kit/program_slot.hpp"

#include "algorithms/kit/launch_sizing.hpp"
#include "runtime/program_build.hpp"

#include <algorithm>

#include <array>

namespace plinth::detail {

Program build_for_store(const BoundDevice& device, const ProgramSource& source,
                        const ProgramOptions& options) {
  const std::array<std::size_t, 1> index{device.index()};
  const auto devices = unowned(device.context()).devices()[std::span<const std::size_t>(index)];
  return Program(devices, source, options);
}

Program program_for_user(const Program& program, const BoundDevice& device) {
  return with_owner(program, device.context());
}

std::shared_ptr<ProgramSlot> built_slot(RecipeId recipe, const BoundDevice& device,
                                        std::span<const std::uint64_t> variant,
                                        const std::function<std::string()>& source,
                                        std::initializer_list<const char*> names,
                                        std::size_t preferred_local,
                                        std::size_t groups_per_compute_unit) {
  auto slot = store_slot(recipe, device, variant);
  const std::lock_guard lock(slot->mutex);
  if (slot->built()) return slot;
  Program program = build_for_store(device, source(), ProgramOptions{});
  boost::container::small_vector<Kernel, 3> kernels;
  std::size_t limit = device.params().max_total_local_size;
  for (const char* name : names) {
    kernels.push_back(program.kernel(name));
    limit = std::min(limit, kernels.back().max_total_local_sizes().front());
  }
  slot->local_size = local_size_for(device.params(), limit, preferred_local);
  slot->max_groups = group_limit(device.params(), groups_per_compute_unit);
  slot->program = std::move(program);
  slot->kernels = std::move(kernels);
  return slot;
}

}  // namespace plinth::detail
