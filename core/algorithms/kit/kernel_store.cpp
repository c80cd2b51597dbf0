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

bool KernelStore::equal(const KeyView& a, const KeyView& b) noexcept {
  return a.recipe == b.recipe && a.device == b.device &&
         std::equal(a.variant.begin(), a.variant.end(), b.variant.begin(), b.variant.end());
}

std::shared_ptr<void> KernelStore::find_or_add(RecipeId recipe, std::size_t device,
                                               std::span<const std::uint64_t> variant,
                                               std::shared_ptr<void> (*make)()) {
  Cache::List dropped;  // an evicted slot (and its program) is released outside the lock
  const std::lock_guard lock(mutex_);
  if (auto* found = cache_.find(KeyView{recipe, device, variant})) return *found;
  return cache_.insert(Key{recipe, device, {variant.begin(), variant.end()}}, make(), dropped);
}

std::vector<std::shared_ptr<void>> KernelStore::slots_of(RecipeId recipe) const {
  std::vector<std::shared_ptr<void>> slots;
  const std::lock_guard lock(mutex_);
  cache_.for_each([&](const Key& key, const std::shared_ptr<void>& slot) {
    if (key.recipe == recipe) slots.push_back(slot);
  });
  return slots;
}

std::size_t KernelStore::size() const {
  const std::lock_guard lock(mutex_);
  return cache_.size();
}

void KernelStore::clear() noexcept {
  Cache::List dropped;  // the slots (and their programs) are released outside the lock
  const std::lock_guard lock(mutex_);
  cache_.clear(dropped);
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

KernelStore& kernel_store(const Context& context) noexcept {
  return *detail::Access::impl(context)->kernels;
}

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
  return detail::Access::make<Context>(
      std::shared_ptr<ContextImpl>(std::shared_ptr<void>(), detail::Access::impl(context).get()));
}

}  // namespace plinth::detail
