#pragma once

// The sub-regions of a virtual buffer (virtual_alloc.hpp): a sub-region's adapter is made
// from its root's when the sub-region is made, so when pack() moves a virtual buffer to
// another real allocation it re-points the buffer's live sub-regions too.

#include <memory>
#include <mutex>
#include <vector>

namespace plinth::detail {

struct BufferImpl;

/// The sub-regions made of one virtual buffer, held weakly. Any thread may call the members.
class SubRegionRecord {
 public:
  /// Records `region` (a sub-region of the virtual buffer). Throws only std::bad_alloc.
  void add(const std::shared_ptr<BufferImpl>& region);
  /// The recorded sub-regions that are still alive (forgetting the others).
  /// Throws only std::bad_alloc.
  std::vector<std::shared_ptr<BufferImpl>> alive();

 private:
  std::mutex mutex_;
  std::vector<std::weak_ptr<BufferImpl>> regions_;
  std::size_t prune_at_ = 16;  // forget dead regions when there are this many
};

}  // namespace plinth::detail
