#include <plinth/virtual_alloc.hpp>

#include "virtual_alloc/manager_state.hpp"

namespace plinth {

VirtualManager::VirtualManager(const BoundDevice& device, bool share)
    : state_(std::make_shared<detail::VirtualManagerState>(device, share)) {}

Allocator VirtualManager::allocator(const VirtualDependencies& dependencies) const {
  auto ids = state_->resolve(dependencies, "VirtualManager::allocator: dependency");
  return [state = state_, ids = std::move(ids)](const BoundDevice& device, std::size_t size) {
    return state->allocate(device, size, ids);
  };
}

void VirtualManager::pack(const Queue& queue, const VirtualDependencies& keep) const {
  state_->pack(queue, keep);
}

VirtualAllocationStatistics VirtualManager::statistics() const { return state_->statistics(); }

const BoundDevice& VirtualManager::device() const noexcept { return state_->device; }

}  // namespace plinth
