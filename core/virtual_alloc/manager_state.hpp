#pragma once

// The state shared by a virtual allocation manager's handles and allocators
// (virtual_alloc.hpp): the bookkeeping (book.hpp), the real Buffers, and which virtual
// BufferImpl is which virtual allocation. Virtual buffers refer to it weakly, through the
// deleter of their BufferImpl, so the manager may go first.

#include "virtual_alloc/book.hpp"

#include <plinth/backend/buffer.hpp>
#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/queue.hpp>
#include <plinth/virtual_alloc.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace plinth::detail {

struct BufferImpl;

/// Any thread may call the members (they lock), but pack() must not overlap other use of
/// the virtual buffers (virtual_alloc.hpp).
struct VirtualManagerState : std::enable_shared_from_this<VirtualManagerState> {
  VirtualManagerState(BoundDevice bound_device, bool share)
      : device(std::move(bound_device)), book_(share) {}

  /// The ids of `dependencies`' buffers (sorted, without repeats). Throws LogicError naming
  /// the first that is not a live virtual buffer of this manager; `what` starts the message.
  std::vector<VirtualId> resolve(const VirtualDependencies& dependencies, const char* what) const;
  /// A new virtual buffer of `size` bytes on `requested` (which must be `device`) sharing no
  /// memory with `dependencies`. Throws LogicError (another device, size 0, a dead
  /// dependency), OutOfMemoryError.
  Buffer allocate(const BoundDevice& requested, std::size_t size,
                  std::span<const VirtualId> dependencies);
  /// Forgets a virtual buffer that died, freeing its real allocation if no other uses it.
  void release(VirtualId id) noexcept;
  /// VirtualManager::pack.
  void pack(const Queue& queue, const VirtualDependencies& keep);
  VirtualAllocationStatistics statistics() const;

  const BoundDevice device;

 private:
  struct Record {
    std::weak_ptr<BufferImpl> impl;
    const backend::BufferAdapter* adapter = nullptr;  // the key in by_adapter_
  };

  mutable std::mutex mutex_;
  VirtualBook book_;
  std::map<RealId, Buffer> reals_;
  std::map<VirtualId, Record> records_;
  /// A virtual buffer's adapter is its own (a view of its real allocation), so it names it.
  std::unordered_map<const backend::BufferAdapter*, VirtualId> by_adapter_;
};

}  // namespace plinth::detail
