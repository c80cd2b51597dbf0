// PageLockedMemoryPool, the public handle to a context's page-locked host pool
// (page_locked_pool_state.hpp), and the pool's making over the context's adapter.

#include <plinth/page_locked_pool.hpp>

#include "arrays/page_locked_pool_state.hpp"
#include "runtime/impl.hpp"

#include <plinth/errors.hpp>

#include <new>
#include <utility>

namespace plinth {

namespace detail {

std::shared_ptr<PageLockedPoolState> make_page_locked_pool(
    std::shared_ptr<backend::ContextAdapter> adapter, bool enabled) {
  try {
    PageLockedPoolState::Driver driver{
        [adapter](std::size_t size) { return adapter->allocate_host(size); },
        [adapter](void* memory) { adapter->free_host(memory); }};
    return std::make_shared<PageLockedPoolState>(std::move(driver), enabled);
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("host", "Context", 0, "out of host memory",
                           "cannot allocate the page-locked pool's bookkeeping");
  }
}

}  // namespace detail

PageLockedMemoryPool PageLockedMemoryPool::of(const Context& context) noexcept {
  return PageLockedMemoryPool(detail::Access::impl(context)->page_locked_pool);
}

MemoryPoolStats PageLockedMemoryPool::stats() const noexcept { return state_->stats(); }

void PageLockedMemoryPool::free_all_blocks() const noexcept { state_->free_all_blocks(); }

std::optional<std::size_t> PageLockedMemoryPool::limit() const noexcept { return state_->limit(); }

void PageLockedMemoryPool::set_limit(std::optional<std::size_t> bytes) const noexcept {
  state_->set_limit(bytes);
}

bool PageLockedMemoryPool::enabled() const noexcept { return state_->enabled(); }

}  // namespace plinth
