#include "algorithms/kit/recipe_cache.hpp"

#include "algorithms/kit/kernel_store.hpp"

#include <plinth/kernel_caches.hpp>

namespace plinth {

namespace detail {

std::shared_ptr<const void> RecipeCache::find(const std::string& key) {
  const std::lock_guard lock(mutex_);
  const auto found = index_.find(key);
  if (found == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, found->second);
  return found->second->second;
}

void RecipeCache::insert(const std::string& key, std::shared_ptr<const void> recipe) {
  List dropped;  // released outside the lock
  const std::lock_guard lock(mutex_);
  if (index_.count(key) != 0) return;  // another thread made it meanwhile: keep that one
  entries_.emplace_front(key, std::move(recipe));
  index_[key] = entries_.begin();
  if (entries_.size() > capacity) {
    index_.erase(entries_.back().first);
    dropped.splice(dropped.begin(), entries_, std::prev(entries_.end()));
  }
}

std::size_t RecipeCache::size() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

void RecipeCache::clear() noexcept {
  List dropped;
  const std::lock_guard lock(mutex_);
  index_.clear();
  dropped.swap(entries_);
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
