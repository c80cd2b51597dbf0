#include "algorithms/kit/kernel_store.hpp"

#include "runtime/impl.hpp"

#include <boost/container_hash/hash.hpp>

#include <algorithm>
#include <atomic>

namespace plinth::detail {

RecipeId next_recipe_id() noexcept {
  static std::atomic<RecipeId> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::size_t KernelStore::hash_of(const KeyView& key) noexcept {
  std::size_t seed = 0;
  boost::hash_combine(seed, key.recipe);
  boost::hash_combine(seed, key.device);
  for (const auto word : key.variant) boost::hash_combine(seed, word);
  return seed;
}

std::shared_ptr<void> KernelStore::find_or_add(RecipeId recipe, std::size_t device,
                                               std::span<const std::uint64_t> variant,
                                               std::shared_ptr<void> (*make)()) {
  const KeyView view{recipe, device, variant};
  const auto hash = hash_of(view);
  const std::lock_guard lock(mutex_);
  const auto [first, last] = index_.equal_range(hash);
  for (auto found = first; found != last; ++found) {
    const auto& key = found->second->key;
    if (key.recipe == recipe && key.device == device &&
        std::equal(key.variant.begin(), key.variant.end(), variant.begin(), variant.end())) {
      entries_.splice(entries_.begin(), entries_, found->second);
      return found->second->slot;
    }
  }
  if (entries_.size() >= capacity) {
    const auto oldest = std::prev(entries_.end());
    const auto [from, to] = index_.equal_range(oldest->hash);
    for (auto it = from; it != to; ++it) {
      if (it->second == oldest) {
        index_.erase(it);
        break;
      }
    }
    entries_.erase(oldest);
  }
  entries_.push_front(
      Entry{Key{recipe, device, VariantWords(variant.begin(), variant.end())}, hash, make()});
  index_.emplace(hash, entries_.begin());
  return entries_.front().slot;
}

std::vector<std::shared_ptr<void>> KernelStore::slots_of(RecipeId recipe) const {
  std::vector<std::shared_ptr<void>> slots;
  const std::lock_guard lock(mutex_);
  for (const auto& entry : entries_) {
    if (entry.key.recipe == recipe) slots.push_back(entry.slot);
  }
  return slots;
}

std::size_t KernelStore::size() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

void KernelStore::clear() noexcept {
  List dropped;
  {
    const std::lock_guard lock(mutex_);
    index_.clear();
    dropped.swap(entries_);
  }
  // The slots (and their programs) are released here, outside the lock.
}

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::weak_ptr<ContextImpl>> contexts;
};

Registry& registry() {
  static auto* instance = new Registry;  // never destroyed: contexts may outlive statics
  return *instance;
}

}  // namespace

void register_kernel_store(const std::shared_ptr<ContextImpl>& context) {
  context->kernels = std::make_shared<KernelStore>();
  auto& r = registry();
  const std::lock_guard lock(r.mutex);
  std::erase_if(r.contexts, [](const auto& weak) { return weak.expired(); });
  r.contexts.push_back(context);
}

KernelStore& kernel_store(const Context& context) noexcept { return *context.impl()->kernels; }

void for_each_kernel_store(const std::function<void(KernelStore&)>& visit) {
  // The contexts, not their stores, are held meanwhile: a store must not outlive its context
  // (its programs go before the backend context).
  std::vector<std::shared_ptr<ContextImpl>> alive;
  {
    auto& r = registry();
    const std::lock_guard lock(r.mutex);
    for (const auto& weak : r.contexts) {
      if (auto context = weak.lock()) alive.push_back(std::move(context));
    }
  }
  for (const auto& context : alive) visit(*context->kernels);
}

Context unowned(const Context& context) noexcept {
  return Context(std::shared_ptr<ContextImpl>(std::shared_ptr<void>(), context.impl().get()));
}

}  // namespace plinth::detail
