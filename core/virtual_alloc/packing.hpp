#pragma once

// The packing algorithms of ZeroOffsetManager (virtual_alloc.hpp), as pure functions over
// sizes and the "must not share memory" graph: no device, no state, so that unit tests check
// them directly (tests/core/virtual_alloc/packing_test.cpp).

#include <plinth/export.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace plinth::detail {

/// A real allocation as the placement of a new virtual allocation sees it.
struct RealCandidate {
  std::size_t size = 0;
  /// Whether it holds a virtual allocation that the new one must not share memory with.
  bool blocked = false;
};

/// Where a new virtual allocation of `size` bytes goes (grunnur's greedy placement): the
/// smallest real allocation of at least `size` bytes that is not blocked (the first of equal
/// ones), or nullopt when there is none and a new real allocation of `size` bytes is needed.
/// Never throws; any thread may call it.
PLINTH_EXPORT std::optional<std::size_t> first_fit(std::span<const RealCandidate> reals,
                                                   std::size_t size) noexcept;

/// A packing of virtual allocations into real ones, each virtual allocation at offset 0.
struct Packing {
  /// The size of each real allocation.
  std::vector<std::size_t> real_sizes;
  /// For each virtual allocation, the index of its real allocation in real_sizes.
  std::vector<std::size_t> real_of;
};

/// Packs virtual allocations of `sizes` into real ones so that no two that conflict share
/// one: largest first (the earlier of equal sizes first), each into the smallest real
/// allocation that holds none of its conflicts (all those made so far are large enough),
/// else into a new one of its size. `conflicts[i]` lists the indices that allocation i must
/// not share memory with (symmetric; indices out of range or i itself are ignored). Real
/// allocations are numbered in the order they are made, so the largest comes first.
/// Throws only std::bad_alloc; any thread may call it.
PLINTH_EXPORT Packing pack_zero_offset(std::span<const std::size_t> sizes,
                                       std::span<const std::vector<std::size_t>> conflicts);

}  // namespace plinth::detail
