#pragma once

// The one process-wide cache of kernel recipes: the ElementwiseKernels, ReductionKernels and
// ScanKernels that plinth's own functions (array expressions, sum, copy, cumsum, ...) make
// from a key, kept so that the next call with the same key finds them. Recipes hold no
// device and no program (a Context's KernelStore holds what they compile), so keeping them
// keeps no Context alive. Bounded: the least recently used recipes go first.

#include "algorithms/kit/lru_cache.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace plinth::detail {

/// The recipe cache. Any thread may call the members.
class RecipeCache {
 public:
  /// Recipes kept at most.
  static constexpr std::size_t capacity = 256;

  /// The recipe of `family` ("sum", "expr", ...: each family its own) under `key`, made by
  /// `make()` (outside the lock: it may throw, which stores nothing) the first time. A lookup
  /// that finds it allocates nothing. `hit`, if given, is set to whether it was found. A
  /// family names one Recipe type only. Throws what make() throws, std::bad_alloc.
  template <class Recipe, class Make>
  Recipe get(std::string_view family, std::string_view key, Make make, bool* hit = nullptr) {
    if (auto found = find({family, key})) {
      if (hit != nullptr) *hit = true;
      return *static_cast<const Recipe*>(found.get());
    }
    if (hit != nullptr) *hit = false;
    auto made = std::make_shared<Recipe>(make());
    insert({std::string(family), std::string(key)}, made);
    return *made;
  }

  /// How many recipes are kept.
  std::size_t size() const;

  /// Drops every recipe (users' copies stay valid). Throws nothing.
  void clear() noexcept;

 private:
  using Key = std::pair<std::string, std::string>;
  using KeyView = std::pair<std::string_view, std::string_view>;
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(const KeyView& key) const noexcept {
      const std::hash<std::string_view> hash;
      return hash(key.first) * 31 + hash(key.second);
    }
    std::size_t operator()(const Key& key) const noexcept {
      return (*this)(KeyView(key.first, key.second));
    }
  };
  struct Equal {
    using is_transparent = void;
    static KeyView view(const Key& key) noexcept { return {key.first, key.second}; }
    static KeyView view(const KeyView& key) noexcept { return key; }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const noexcept {
      return view(a) == view(b);
    }
  };
  using Cache = LruCache<Key, std::shared_ptr<const void>, Hash, Equal>;

  std::shared_ptr<const void> find(const KeyView& key);
  void insert(Key key, std::shared_ptr<const void> recipe);

  mutable std::mutex mutex_;
  Cache cache_{capacity};
};

/// The process's recipe cache.
RecipeCache& recipe_cache() noexcept;

}  // namespace plinth::detail
