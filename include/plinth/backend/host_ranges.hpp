#pragma once

// A backend's record of its page-locked host allocations (ContextAdapter::allocate_host()),
// for a queue to ask whether a transfer's host memory lies in one (it then goes straight to
// DMA, without staging) where the API cannot tell (OpenCL; CUDA asks cuPointerGetAttributes).
// SDK 1.2; header only.

#include <plinth/errors.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>

namespace plinth::backend {

/// A thread-safe set of disjoint host address ranges, each with a `Value` (such as the memory
/// object it is mapped from). Any thread may call every member, several at once. contains()
/// takes no lock while the set is empty, and otherwise one mutex and a look-up in a sorted map
/// (~50 ns with a few ranges).
template <class Value>
class HostRanges {
 public:
  HostRanges() = default;
  HostRanges(const HostRanges&) = delete;
  HostRanges& operator=(const HostRanges&) = delete;

  /// Adds [begin, begin + size) with `value`. Throws LogicError if `size` is 0 or the range
  /// overlaps one already added, OutOfMemoryError if the entry cannot be allocated.
  void insert(const void* begin, std::size_t size, Value value) {
    const auto start = address(begin);
    if (size == 0) throw LogicError("HostRanges: an empty range");
    const std::lock_guard lock(mutex_);
    const auto next = ranges_.lower_bound(start);
    const bool overlaps_next = next != ranges_.end() && next->first - start < size;
    const bool overlaps_previous = next != ranges_.begin() && [&] {
      const auto previous = std::prev(next);
      return start - previous->first < previous->second.size;
    }();
    if (overlaps_next || overlaps_previous)
      throw LogicError("HostRanges: the range of " + std::to_string(size) +
                       " bytes overlaps one already recorded");
    try {
      ranges_.emplace(start, Range{size, std::move(value)});
    } catch (const std::bad_alloc&) {
      throw OutOfMemoryError("host", "HostRanges::insert", 0, "out of host memory",
                             "cannot record a page-locked range");
    }
    count_.fetch_add(1, std::memory_order_release);
  }

  /// Removes the range that starts at `begin` and returns its value; nullopt if there is none.
  std::optional<Value> erase(const void* begin) noexcept {
    const std::lock_guard lock(mutex_);
    const auto found = ranges_.find(address(begin));
    if (found == ranges_.end()) return std::nullopt;
    std::optional<Value> value(std::move(found->second.value));
    ranges_.erase(found);
    count_.fetch_sub(1, std::memory_order_release);
    return value;
  }

  /// Whether [pointer, pointer + size) lies inside one range (for size 0: whether `pointer`
  /// does).
  bool contains(const void* pointer, std::size_t size) const noexcept {
    if (count_.load(std::memory_order_acquire) == 0) return false;
    const auto start = address(pointer);
    const std::lock_guard lock(mutex_);
    auto after = ranges_.upper_bound(start);
    if (after == ranges_.begin()) return false;
    const auto& [first, range] = *std::prev(after);
    const std::uintptr_t offset = start - first;
    return offset < range.size && size <= range.size - offset;
  }

  /// How many ranges there are.
  std::size_t size() const noexcept { return count_.load(std::memory_order_acquire); }

 private:
  struct Range {
    std::size_t size;
    Value value;
  };
  static std::uintptr_t address(const void* pointer) noexcept {
    return reinterpret_cast<std::uintptr_t>(pointer);
  }

  mutable std::mutex mutex_;
  std::map<std::uintptr_t, Range> ranges_;
  std::atomic<std::size_t> count_{0};
};

}  // namespace plinth::backend
