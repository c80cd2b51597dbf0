#include "virtual_alloc/sub_regions.hpp"

#include "runtime/impl.hpp"

#include <algorithm>

namespace plinth::detail {

void SubRegionRecord::add(const std::shared_ptr<BufferImpl>& region) {
  const std::lock_guard lock(mutex_);
  if (regions_.size() >= prune_at_) {
    // Views come and go: keep the record as small as the live sub-regions (amortised O(1)).
    std::erase_if(regions_, [](const auto& weak) { return weak.expired(); });
    prune_at_ = std::max<std::size_t>(16, 2 * regions_.size());
  }
  regions_.push_back(region);
}

std::vector<std::shared_ptr<BufferImpl>> SubRegionRecord::alive() {
  const std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<BufferImpl>> result;
  std::erase_if(regions_, [](const auto& weak) { return weak.expired(); });
  for (const auto& weak : regions_) {
    if (auto region = weak.lock()) result.push_back(std::move(region));
  }
  return result;
}

}  // namespace plinth::detail
