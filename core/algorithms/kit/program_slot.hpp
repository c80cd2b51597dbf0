#pragma once

// A generated kernel's compiled program for one device and variant, as a KernelStore holds
// it (kernel_store.hpp), and how it is built and handed out.

#include "algorithms/kit/kernel_store.hpp"

#include <plinth/program.hpp>

#include <boost/container/small_vector.hpp>

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>

namespace plinth::detail {

/// A compiled program and its kernels, built once (under `mutex`) by the first call that
/// needs it. Read the members under `mutex` too: copy the kernels out for a launch.
struct ProgramSlot {
  std::mutex mutex;
  std::optional<Program> program;
  /// The program's kernels in the recipe's order; empty until built.
  boost::container::small_vector<Kernel, 3> kernels;
  /// Work items per group, and groups launched at most (the recipe's sizing).
  std::size_t local_size = 1;
  std::size_t max_groups = 1;

  bool built() const { return !kernels.empty(); }
};

/// `source` built for `device` alone, as a store's program: it refers to its Context without
/// owning it (unowned()). Throws what Program's constructor throws.
Program build_for_store(const BoundDevice& device, const ProgramSource& source,
                        const ProgramOptions& options);

/// A store's program (built by build_for_store) as a Program a user may keep: it owns the
/// context of `device`. Throws nothing but std::bad_alloc.
Program program_for_user(const Program& program, const BoundDevice& device);

/// The kernels `names` (in that order) of the program `source()` gives, built for `device`
/// by the first call and kept in the device's Context's store under (`recipe`, `variant`),
/// with the slot's local_size set to `preferred_local` within the kernels' and the device's
/// limits (local_size_for) and max_groups to `groups_per_compute_unit` per compute unit: for
/// the families whose kernels are written out in full (histogram, compaction). Throws
/// CompileError, LogicError as Program's constructor.
std::shared_ptr<ProgramSlot> built_slot(RecipeId recipe, const BoundDevice& device,
                                        std::span<const std::uint64_t> variant,
                                        const std::function<std::string()>& source,
                                        std::initializer_list<const char*> names,
                                        std::size_t preferred_local,
                                        std::size_t groups_per_compute_unit);

/// The slot of (`recipe`, `device`, `variant`) in the device's Context's store.
template <class Slot = ProgramSlot>
std::shared_ptr<Slot> store_slot(RecipeId recipe, const BoundDevice& device,
                                 std::span<const std::uint64_t> variant) {
  return kernel_store(device.context()).slot<Slot>(recipe, device.index(), variant);
}

/// How many of `recipe`'s slots are built, over every live Context. Any thread.
template <class Slot = ProgramSlot>
std::size_t built_slots(RecipeId recipe) {
  std::size_t built = 0;
  for_each_kernel_store([&](KernelStore& store) {
    store.for_each<Slot>(recipe, [&](Slot& slot) {
      const std::lock_guard lock(slot.mutex);
      built += slot.built() ? 1 : 0;
    });
  });
  return built;
}

}  // namespace plinth::detail
