#include "algorithms/kit/recipe_cache.hpp"

#include "algorithms/kit/kernel_store.hpp"

#include <plinth/kernel_caches.hpp>

namespace plinth {

namespace detail {

std::shared_ptr<const void> RecipeCache::find(const KeyView& key) {
  const std::lock_guard lock(mutex_);
  const auto* found = cache_.find(key);
  return found != nullptr ? *found : nullptr;
}

void RecipeCache::insert(Key key, std::shared_ptr<const void> recipe) {
  Cache::List dropped;  // released outside the lock
  const std::lock_guard lock(mutex_);
  // Another thread may have made it meanwhile: keep that one.
  if (cache_.find(KeyView(key.first, key.second)) == nullptr) {
    cache_.insert(std::move(key), std::move(recipe), dropped);
  }
}

std::size_t RecipeCache::size() const {
  const std::lock_guard lock(mutex_);
  return cache_.size();
}

void RecipeCache::clear() noexcept {
  Cache::List dropped;
  const std::lock_guard lock(mutex_);
  cache_.clear(dropped);
}

RecipeCache& recipe_cache() noexcept {
  static auto* cache = new RecipeCache;  // never destroyed: recipes may be used at exit
  return *cache;
}

}  // namespace detail

void clear_kernel_caches() noexcept {
  detail::recipe_cache().clear();
  try {
    detail::for_each_kernel_store([](detail::KernelStore& store) { store.clear(); });
  } catch (...) {  // std::bad_alloc gathering the contexts: nothing is cleared, nothing breaks
  }
}

}  // namespace plinth
