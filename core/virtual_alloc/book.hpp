#pragma once

// The bookkeeping of a virtual allocation manager (virtual_alloc.hpp), with no device: which
// virtual allocations are live, their sizes, which must not share memory, and which real
// allocation (by id and size) each is in. The managers' state (manager.cpp) pairs it with
// the real Buffers; unit tests drive it alone (tests/core/virtual_alloc/book_test.cpp).

#include <plinth/export.hpp>
#include <plinth/virtual_alloc.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <vector>

namespace plinth::detail {

using VirtualId = std::uint64_t;  // from 1, never reused
using RealId = std::uint64_t;     // from 1, never reused

/// Live virtual allocations and the real allocations they are in. Not thread-safe: the
/// manager's state locks around it.
class PLINTH_EXPORT VirtualBook {
 public:
  struct Virtual {
    std::size_t size = 0;
    RealId real = 0;
    /// What it must not share memory with: its dependencies and those that named it one.
    std::set<VirtualId> conflicts;
  };
  struct Real {
    std::size_t size = 0;
    std::set<VirtualId> members;
  };
  /// A real allocation of a re-packing plan.
  struct PlannedReal {
    std::size_t size = 0;
    std::vector<VirtualId> members;
  };

  /// `share`: ZeroOffsetManager's placement; otherwise TrivialManager's (a real allocation
  /// per virtual one).
  explicit VirtualBook(bool share) : share_(share) {}

  bool shares() const noexcept { return share_; }
  /// Where a new virtual allocation of `size` bytes that must not share memory with
  /// `dependencies` goes: an existing real allocation (first_fit), or nullopt for a new one
  /// of `size` bytes. Throws LogicError naming a dependency that is not live.
  std::optional<RealId> place(std::size_t size, std::span<const VirtualId> dependencies) const;
  /// Records a new virtual allocation in real allocation `real` (nullopt: a new one of
  /// `size` bytes) and returns its id and its real allocation's. Throws as place() and
  /// std::bad_alloc, leaving the book unchanged.
  std::pair<VirtualId, RealId> add(std::size_t size, std::span<const VirtualId> dependencies,
                                   std::optional<RealId> real);
  /// Forgets virtual allocation `id` (nothing if unknown) and returns the real allocation it
  /// leaves empty, if any, which is forgotten too.
  std::optional<RealId> remove(VirtualId id) noexcept;

  /// A re-packing of the live virtual allocations (pack_zero_offset), with the ones in
  /// `keep` made to conflict with each other; without sharing, the current layout.
  /// Throws only std::bad_alloc.
  std::vector<PlannedReal> plan(std::span<const VirtualId> keep) const;
  /// Whether moving to `plan` is worth it: fewer bytes, or as many in fewer allocations, or
  /// two of `keep` share a real allocation now.
  bool improves(const std::vector<PlannedReal>& plan, std::span<const VirtualId> keep) const;
  /// For each planned real allocation, an existing one that it can stay in without moving
  /// any data (same size, all its members there already), or nullopt.
  std::vector<std::optional<RealId>> reusable(const std::vector<PlannedReal>& plan) const;
  /// Replaces the real allocations by `plan`'s, keeping the ids of `reuse` (from
  /// reusable()); returns the id of each planned one. Throws only std::bad_alloc, leaving
  /// the book unchanged.
  std::vector<RealId> install(const std::vector<PlannedReal>& plan,
                              const std::vector<std::optional<RealId>>& reuse);

  /// The id install() gives the first planned real allocation that it does not reuse (the
  /// next ones follow in plan order).
  RealId next_real_id() const noexcept { return next_real_; }
  const std::map<VirtualId, Virtual>& virtuals() const noexcept { return virtuals_; }
  const std::map<RealId, Real>& reals() const noexcept { return reals_; }
  /// Counts, totals and size histograms. Throws only std::bad_alloc.
  VirtualAllocationStatistics statistics() const;

 private:
  bool share_;
  VirtualId next_virtual_ = 1;
  RealId next_real_ = 1;
  std::map<VirtualId, Virtual> virtuals_;
  std::map<RealId, Real> reals_;
};

}  // namespace plinth::detail
