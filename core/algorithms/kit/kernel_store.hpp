#pragma once

// The compiled programs of one Context's generated kernels (ElementwiseKernel,
// ReductionKernel, ScanKernel and everything built on them), owned by the Context.
//
// A kernel object (an ElementwiseKernel, say) is a recipe: what to generate, with no device.
// What it compiles for a device lives in that device's Context, in a KernelStore, under the
// key (recipe, device index, variant); so a kernel object kept in a process-wide cache keeps
// no Context alive, and a Context's programs go with the Context. The programs a store holds
// refer to their Context without owning it (unowned()): a store is destroyed with its
// ContextImpl, before the backend context.

#include "algorithms/kit/lru_cache.hpp"

#include <plinth/context.hpp>

#include <boost/container/small_vector.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace plinth::detail {

/// Identifies one kernel recipe for the life of the process: ids are never reused, so the
/// store entries of a recipe that is gone are never taken for a new recipe's.
using RecipeId = std::uint64_t;

/// A new RecipeId. Any thread. Throws nothing.
RecipeId next_recipe_id() noexcept;

/// What a program of a recipe is built for besides the recipe and the device (a layout
/// signature, say), as a few words the recipe defines. No heap for up to 4 words.
using VariantWords = boost::container::small_vector<std::uint64_t, 4>;

/// The compiled programs of one Context. Any thread may call the members.
class KernelStore {
 public:
  /// Entries kept at most; the least recently used go first (a launch in flight keeps its
  /// slot through its shared_ptr).
  static constexpr std::size_t capacity = 1024;

  /// The slot of (`recipe`, `device`, `variant`), made by `std::make_shared<Slot>()` if the
  /// store has none. A recipe asks for one Slot type only. Throws nothing but
  /// std::bad_alloc; allocates only when the slot is new.
  template <class Slot>
  std::shared_ptr<Slot> slot(RecipeId recipe, std::size_t device,
                             std::span<const std::uint64_t> variant) {
    return std::static_pointer_cast<Slot>(find_or_add(
        recipe, device, variant, [] { return std::shared_ptr<void>(std::make_shared<Slot>()); }));
  }

  /// Calls `visit` with each slot of `recipe` (as the recipe's Slot type), outside the
  /// store's lock.
  template <class Slot>
  void for_each(RecipeId recipe, const std::function<void(Slot&)>& visit) const {
    for (const auto& slot : slots_of(recipe)) visit(*static_cast<Slot*>(slot.get()));
  }

  /// How many entries the store holds.
  std::size_t size() const;

  /// Drops every entry (launches in flight keep theirs). Throws nothing.
  void clear() noexcept;

 private:
  struct Key {  // stored (made only when an entry is added): lookups use KeyView
    RecipeId recipe = 0;
    std::size_t device = 0;
    std::vector<std::uint64_t> variant;
  };
  struct KeyView {
    RecipeId recipe;
    std::size_t device;
    std::span<const std::uint64_t> variant;
  };
  static KeyView view(const Key& key) noexcept { return {key.recipe, key.device, key.variant}; }
  static KeyView view(const KeyView& key) noexcept { return key; }
  struct Hash {
    using is_transparent = void;
    template <class K>
    std::size_t operator()(const K& key) const noexcept {
      return hash_of(view(key));
    }
  };
  struct Equal {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const noexcept {
      return equal(view(a), view(b));
    }
  };
  using Cache = LruCache<Key, std::shared_ptr<void>, Hash, Equal>;

  static std::size_t hash_of(const KeyView& key) noexcept;
  static bool equal(const KeyView& a, const KeyView& b) noexcept;

  std::shared_ptr<void> find_or_add(RecipeId recipe, std::size_t device,
                                    std::span<const std::uint64_t> variant,
                                    std::shared_ptr<void> (*make)());
  std::vector<std::shared_ptr<void>> slots_of(RecipeId recipe) const;

  mutable std::mutex mutex_;
  Cache cache_{capacity};
};

struct ContextImpl;

/// Gives a new Context its store and registers the Context for for_each_kernel_store()
/// (weakly). Throws nothing but std::bad_alloc.
void register_kernel_store(const std::shared_ptr<ContextImpl>& context);

/// The store of `context` (a valid Context). Throws nothing.
KernelStore& kernel_store(const Context& context) noexcept;

/// Calls `visit` with the store of every Context alive. Any thread.
void for_each_kernel_store(const std::function<void(KernelStore&)>& visit);

/// `context` as a handle that does not keep it alive: for the programs its own store holds,
/// where an owning handle would be a reference cycle. Never hand such a handle (or a Program
/// made with it) to a user: program_for_user() makes an owning copy. Throws nothing.
Context unowned(const Context& context) noexcept;

}  // namespace plinth::detail
