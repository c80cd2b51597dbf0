#pragma once

// The one process-wide cache of kernel recipes: the ElementwiseKernels, ReductionKernels and
// ScanKernels that plinth's own functions (array expressions, sum, copy, cumsum, ...) make
// from a key, kept so that the next call with the same key finds them. Recipes hold no
// device and no program (a Context's KernelStore holds what they compile), so keeping them
// keeps no Context alive. Bounded: the least recently used recipes go first.

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace plinth::detail {

/// The recipe cache. Any thread may call the members.
class RecipeCache {
 public:
  /// Recipes kept at most.
  static constexpr std::size_t capacity = 256;

  /// The recipe under `key` (each family prefixes its keys: "sum:", "expr:"), made by `make()`
  /// (outside the lock: it may throw, which stores nothing) the first time. `hit`, if given,
  /// is set to whether it was found. A key names one Recipe type only. Throws what make()
  /// throws, std::bad_alloc.
  template <class Recipe, class Make>
  Recipe get(const std::string& key, Make make, bool* hit = nullptr) {
    if (auto found = find(key)) {
      if (hit != nullptr) *hit = true;
      return *static_cast<const Recipe*>(found.get());
    }
    if (hit != nullptr) *hit = false;
    auto made = std::make_shared<Recipe>(make());
    insert(key, made);
    return *made;
  }

  /// How many recipes are kept.
  std::size_t size() const;

  /// Drops every recipe (users' copies stay valid). Throws nothing.
  void clear() noexcept;

 private:
  std::shared_ptr<const void> find(const std::string& key);
  void insert(const std::string& key, std::shared_ptr<const void> recipe);

  using List = std::list<std::pair<std::string, std::shared_ptr<const void>>>;
  mutable std::mutex mutex_;
  List entries_;  // most recently used first
  std::unordered_map<std::string, List::iterator> index_;
};

/// The process's recipe cache.
RecipeCache& recipe_cache() noexcept;

}  // namespace plinth::detail
