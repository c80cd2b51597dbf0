#pragma once

// The steps of the virtual size mapping (grunnur's vsize.py), exported for the unit tests, and
// the state behind a VirtualSizes. Shapes are in plinth's order, dimension 0 fastest (grunnur
// reverses its row-major virtual sizes into this order first, so its internal lists read the
// same as these).

#include <plinth/export.hpp>
#include <plinth/virtual_size.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

namespace plinth::detail {

/// The prime factors of `n` (at least 1), in ascending order, each as often as it divides.
PLINTH_EXPORT std::vector<std::size_t> prime_factors(std::size_t n);

/// Calls `visit` with every way of writing `n` (at least 1) as a product of `parts` (at least
/// 1) factors, in grunnur's order: the first factor from the largest divisor down, and so on
/// recursively. Stops early when `visit` returns false.
PLINTH_EXPORT void for_each_decomposition(
    std::size_t n, std::size_t parts,
    const std::function<bool(std::span<const std::size_t>)>& visit);

/// How many decompositions find_local_size() looks at, at most; with many dimensions there
/// are too many to try them all (it keeps the best one seen).
inline constexpr std::size_t max_local_size_candidates = std::size_t{1} << 20;

/// A local size of the rank of `global` whose product is `flat_local`, chosen so that
/// rounding `global` up to whole groups adds few work items: the first decomposition (in
/// for_each_decomposition's order) that adds less than 1/20 of them, or else the one that
/// adds the fewest. `global` itself if `flat_local` is at least its product.
PLINTH_EXPORT std::vector<std::size_t> find_local_size(std::span<const std::size_t> global,
                                                       std::size_t flat_local);

/// Consecutive virtual dimensions laid onto consecutive real ones: `virtual_dims[i]` share
/// `real_dims[i]`.
struct DimensionGroups {
  std::vector<std::vector<std::size_t>> virtual_dims;
  std::vector<std::vector<std::size_t>> real_dims;
};

/// Groups the dimensions of `virtual_shape` onto those of `available` (whose product is at
/// least `virtual_shape`'s), using as many real dimensions as it can, each group of virtual
/// dimensions holding no more work items than its real group.
PLINTH_EXPORT DimensionGroups group_dimensions(std::span<const std::size_t> virtual_shape,
                                               std::span<const std::size_t> available);

/// A shape of `available`'s rank, each size within `available`'s, whose product is at least
/// `size` (at most the product of `available`) and close to it.
PLINTH_EXPORT std::vector<std::size_t> find_bounding_shape(std::size_t size,
                                                           std::span<const std::size_t> available);

/// One term of a flat index over real dimensions: the real id in `real_dim` times `stride`.
struct FlatTerm {
  unsigned real_dim = 0;
  std::size_t stride = 1;
  friend bool operator==(const FlatTerm&, const FlatTerm&) = default;
};

/// How one virtual dimension's id comes from the real ids: the flat index `terms` makes, over
/// the real dimensions its group shares, divided by `divisor`, and then modulo `size` unless
/// it is its group's `major` (most slowly varying) dimension, whose padding skip() catches.
/// A dimension of size 1 has id 0.
struct VirtualDimensionMap {
  std::vector<FlatTerm> terms;
  std::size_t divisor = 1;
  std::size_t size = 1;
  bool major = true;
};

/// A group of real dimensions with padding: a work item whose flat index over `terms` is at
/// least `threshold` is outside the virtual dimensions the group holds.
struct SkipThreshold {
  std::size_t threshold = 0;
  std::vector<FlatTerm> terms;
  friend bool operator==(const SkipThreshold&, const SkipThreshold&) = default;
};

/// A virtual shape laid onto real dimensions (grunnur's ShapeGroups).
struct ShapeMap {
  DimensionGroups groups;
  /// The real shape: within `available`, at most its rank.
  std::vector<std::size_t> real_shape;
  /// Per virtual dimension.
  std::vector<VirtualDimensionMap> dims;
  std::vector<SkipThreshold> skips;
};

/// Lays `virtual_shape` onto `available` (whose product is at least `virtual_shape`'s): each
/// group's real sizes are find_bounding_shape()'s, or, with `prefer_exact`, a decomposition of
/// the group's size within `available` where there is one (no padding, as the local size
/// wants: a real group must not exceed the maximum).
PLINTH_EXPORT ShapeMap map_shape(std::span<const std::size_t> virtual_shape,
                                 std::span<const std::size_t> available, bool prefer_exact = false);

/// The id `map` gives for the real ids `real_ids`.
PLINTH_EXPORT std::size_t virtual_id(const VirtualDimensionMap& map,
                                     const std::array<std::size_t, 3>& real_ids);

/// Whether `skip` catches the work item with the real ids `real_ids`.
PLINTH_EXPORT bool is_skipped(const SkipThreshold& skip,
                              const std::array<std::size_t, 3>& real_ids);

struct VirtualSizesData {
  VirtualSizeLimits limits;
  std::vector<std::size_t> global;    // virtual
  std::vector<std::size_t> local;     // virtual
  std::vector<std::size_t> grid;      // virtual number of groups
  std::vector<std::size_t> bounding;  // grid * local
  std::vector<std::size_t> real_global;
  std::vector<std::size_t> real_local;
  ShapeMap local_map;  // virtual local size onto the real local dimensions
  ShapeMap grid_map;   // virtual groups onto the real grid
  VsizeModules modules;
};

}  // namespace plinth::detail
