#pragma once

#include <plinth/allocator.hpp>
#include <plinth/array.hpp>
#include <plinth/buffer.hpp>
#include <plinth/context.hpp>
#include <plinth/export.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <memory>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

/// Virtual allocations (grunnur's virtual_alloc): temporary buffers that share real device
/// memory when their declared dependencies allow it.
///
/// A manager hands out *virtual buffers*: ordinary Buffers (usable everywhere a Buffer is:
/// transfers, kernel arguments, the base of Arrays through an allocator) whose memory lies
/// at offset 0 of a *real allocation* that the manager owns and may share among several
/// virtual buffers. Each new virtual buffer is declared with its *dependencies*: the
/// virtual buffers it must not share memory with (typically the ones holding data that is
/// needed while it is written). The contract: writing a virtual buffer never changes the
/// contents of its dependencies (nor of the virtual buffers that declared it a dependency).
/// Virtual buffers that do not depend on each other may share memory, so writing one may
/// overwrite the other, and using both in one operation (a copy from one to the other, one
/// kernel call) is undefined.
///
///     plinth::ZeroOffsetManager manager(device);
///     auto a = plinth::Array::empty(device, {n}, dtype, {}, {}, manager.allocator());
///     auto b = plinth::Array::empty(device, {n}, dtype, {}, {}, manager.allocator(a));
///     auto c = plinth::Array::empty(device, {n}, dtype, {}, {}, manager.allocator({a, b}));
///     manager.pack(queue);                      // fewer, smaller real allocations
///     std::cout << manager.statistics() << "\n";
///
/// A real allocation is freed when no virtual buffer uses it any more (also when the
/// manager was destroyed first). Sub-regions of virtual buffers (and so Array views at
/// any offset) work, and follow their buffer when pack() moves it.
namespace plinth {

namespace detail {
struct VirtualManagerState;
}

/// What a new virtual buffer must not share memory with: virtual buffers (Buffer), Arrays
/// on them (their base buffers), MultiArrays (each part's base buffer), and lists and ranges
/// of these, nested (`{a, b, std::vector<Array>{...}}`). Only refers to the buffers; a
/// manager's allocator() turns them into the identities of its virtual buffers at once.
/// Copying it copies handles; any thread may use it.
class PLINTH_EXPORT VirtualDependencies {
 public:
  /// No dependencies.
  VirtualDependencies() = default;
  /// A virtual buffer.
  VirtualDependencies(const Buffer& buffer);  // NOLINT(google-explicit-constructor)
  /// An Array's base buffer.
  VirtualDependencies(const Array& array);  // NOLINT(google-explicit-constructor)
  /// Every part's base buffer.
  VirtualDependencies(const MultiArray& array);  // NOLINT(google-explicit-constructor)
  /// All of them.
  VirtualDependencies(std::initializer_list<VirtualDependencies> list);
  /// Every element of a range (std::vector<Array>, std::array<Buffer, 3>, ...).
  template <std::ranges::input_range R>
    requires(!std::same_as<std::remove_cvref_t<R>, VirtualDependencies> &&
             std::convertible_to<std::ranges::range_reference_t<const R&>, VirtualDependencies>)
  VirtualDependencies(const R& range) {  // NOLINT(google-explicit-constructor)
    for (const auto& item : range) add(VirtualDependencies(item));
  }

  /// Adds `more`'s buffers. Throws only std::bad_alloc.
  void add(const VirtualDependencies& more);
  /// The buffers, in the order given (repeats kept).
  const std::vector<Buffer>& buffers() const noexcept { return buffers_; }

 private:
  std::vector<Buffer> buffers_;
};

/// How much memory a manager's virtual buffers use (grunnur's
/// VirtualAllocationStatistics): the real allocations it holds and the live virtual buffers,
/// with their counts, total bytes and how many there are of each size. Printed (to_string,
/// operator<<) as `VirtualAllocationStatistics(real: 3 allocs, total size 33b, buffers:
/// 1x5b, 1x8b, 1x20b; virtual: 10 allocs, total size 73b, buffers: ...)`.
struct PLINTH_EXPORT VirtualAllocationStatistics {
  /// Total bytes of the real allocations.
  std::size_t real_size_total = 0;
  /// Number of real allocations.
  std::size_t real_num = 0;
  /// Size in bytes -> number of real allocations of that size.
  std::map<std::size_t, std::size_t> real_sizes;
  /// Total bytes of the live virtual buffers.
  std::size_t virtual_size_total = 0;
  /// Number of live virtual buffers.
  std::size_t virtual_num = 0;
  /// Size in bytes -> number of virtual buffers of that size.
  std::map<std::size_t, std::size_t> virtual_sizes;

  /// Equal in every field.
  bool operator==(const VirtualAllocationStatistics& other) const = default;
  /// The one-line description above. Throws only std::bad_alloc.
  std::string to_string() const;
};

/// Writes statistics.to_string().
PLINTH_EXPORT std::ostream& operator<<(std::ostream& os,
                                       const VirtualAllocationStatistics& statistics);

/// What the managers have in common. A shared handle, cheap to copy: copies (and the
/// allocators made by allocator(), which keep the manager's state alive) are one manager.
/// Every member may be called from any thread (the state is behind a mutex), except that
/// pack() must not overlap any other use of the manager's virtual buffers (see pack()).
class PLINTH_EXPORT VirtualManager {
 public:
  /// An Allocator (for Array::empty, Array::empty_like, MultiArray::empty, or to call
  /// directly) whose buffers are new virtual buffers of this manager that share no memory
  /// with `dependencies`. The dependencies are resolved now and held as identities, not
  /// references (they may die; an allocation after one of them died throws LogicError
  /// naming it, as grunnur does). Throws LogicError naming the first dependency that is not
  /// a live virtual buffer of this manager (a plain Buffer, a sub-region, another manager's
  /// buffer). The allocator throws LogicError, naming both devices, when asked for a
  /// buffer on a device other than the manager's, and for size 0; OutOfMemoryError.
  Allocator allocator(const VirtualDependencies& dependencies = {}) const;

  /// Re-packs the live virtual buffers into as few bytes of real allocations as it finds
  /// (for ZeroOffsetManager; TrivialManager has nothing to pack), moving their data on
  /// `queue` and synchronizing it; the Buffers and Arrays on the virtual buffers (and their
  /// sub-regions) stay valid and see the new memory. Does nothing if the new layout would
  /// use as many bytes in as many allocations (or more).
  ///
  /// Data: a virtual buffer keeps its contents unless it comes to share memory with a
  /// virtual buffer that was in another real allocation (their shared bytes then hold one
  /// of the two). The buffers in `keep` (virtual buffers of this manager, as for
  /// allocator()) are kept apart from each other and copied last, so their contents
  /// survive; this may cost memory when they do not depend on each other.
  ///
  /// Call it only when nothing else uses the manager's virtual buffers: no kernel or
  /// transfer on them in flight on another queue (synchronize those queues first), and no
  /// other thread using them or their manager meanwhile, because the memory under them
  /// moves. Work enqueued earlier on `queue` itself is fine (the copies follow it).
  /// Throws LogicError if `queue` is on another device or `keep` holds something that is
  /// not a live virtual buffer of this manager; OutOfMemoryError (the new real allocations
  /// are made before anything moves, so the manager is unchanged after a failure).
  void pack(const Queue& queue, const VirtualDependencies& keep = {}) const;

  /// The current real allocations and live virtual buffers. Throws only std::bad_alloc.
  VirtualAllocationStatistics statistics() const;

  /// The device whose memory the manager hands out.
  const BoundDevice& device() const noexcept;

  ///@{
  /// Copies share the manager: its real allocations and virtual buffers.
  VirtualManager(const VirtualManager&) = default;
  VirtualManager& operator=(const VirtualManager&) = default;
  ~VirtualManager() = default;
  ///@}

 private:
  friend class TrivialManager;
  friend class ZeroOffsetManager;

  // A manager that shares real allocations (`share`) or not.
  VirtualManager(const BoundDevice& device, bool share);

  std::shared_ptr<detail::VirtualManagerState> state_;
};

/// grunnur's TrivialManager: one real allocation of exactly the requested size per virtual
/// buffer (dependencies are checked, but nothing is shared); pack() does nothing. For
/// comparing memory use, or debugging code written for ZeroOffsetManager.
/// Throws only std::bad_alloc.
class PLINTH_EXPORT TrivialManager : public VirtualManager {
 public:
  /// A manager of `device`'s memory, with no allocations yet.
  explicit TrivialManager(const BoundDevice& device) : VirtualManager(device, false) {}
};

/// grunnur's ZeroOffsetManager: every virtual buffer starts at offset 0 of a real
/// allocation, and several virtual buffers share one when none depends on another. A new
/// virtual buffer goes into the smallest real allocation that is large enough and holds
/// none of its dependencies, or into a new one of its size; pack() re-packs them all,
/// largest first, which usually needs much less memory.
/// Throws only std::bad_alloc.
class PLINTH_EXPORT ZeroOffsetManager : public VirtualManager {
 public:
  /// A manager of `device`'s memory, with no allocations yet.
  explicit ZeroOffsetManager(const BoundDevice& device) : VirtualManager(device, true) {}
};

}  // namespace plinth
