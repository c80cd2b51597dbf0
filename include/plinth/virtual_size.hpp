#pragma once

/// \file
/// Virtual sizes (grunnur's `vsize`): a grid of work items with any number of dimensions and
/// any sizes, mapped onto a device's real grid of at most 3 dimensions with limited sizes, and
/// the kernel functions that give each work item its virtual ids.
///
///     VirtualSizes sizes(VirtualSizeLimits::for_device(device.params()), {60, 32, 16, 8});
///     Program program(context, R"(
///     KERNEL void fill(GLOBAL_MEM int *out)
///     {
///         if (${static.skip}()) return;
///         out[${static.global_flat_id}()] = ${static.global_id}(3);
///     })", {.render_globals = {{"static", sizes.modules()}}});
///     program.kernel("fill")(queue, sizes.real_global_size(), sizes.real_local_size(), out);
///
/// Dimension order: as everywhere in plinth, dimension 0 varies fastest. Virtual dimension 0
/// is `${static.global_id}(0)`, the fastest-varying virtual index (stride 1 in
/// `${static.global_flat_id}()`), the way real dimension 0 is get_global_id(0). (grunnur takes
/// its virtual sizes the other way round, row-major, its last dimension fastest: grunnur's
/// global size `(8, 16, 32, 60)` is plinth's `{60, 32, 16, 8}`. The real sizes are in the same
/// order in both.) So a kernel over a C-order array of shape (a, b) takes the global size
/// {b, a}, and `${static.global_flat_id}()` is the element's flat index.
///
/// How the mapping works: without a local size, one is chosen whose total is the largest
/// multiple of the preferred multiple within the maximum (or the whole global size, if that
/// is smaller), split over the virtual dimensions so that padding adds less than 5% work
/// items where it can. Each virtual dimension has ceil(global / local) groups. The virtual
/// local dimensions are then grouped, in order, onto the real local dimensions, several small
/// virtual dimensions sharing one real dimension or one large virtual dimension spreading over
/// several, and likewise the virtual groups onto the real grid. A virtual group spread over
/// several real dimensions takes exactly its size in work items where the maxima allow it
/// (4 x 5 for 20 on 8 x 8), the groups a near-cube that holds them (4 x 4 x 4 for 50). Work
/// items that the real grid has beyond the virtual one (padding) are told apart by
/// `${static.skip}()`.

#include <plinth/detail/access.hpp>
#include <plinth/device_parameters.hpp>
#include <plinth/export.hpp>
#include <plinth/module.hpp>
#include <plinth/template.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

namespace plinth {

namespace detail {
struct VirtualSizesData;
}  // namespace detail

/// The limits of a device's real grid that virtual sizes are fitted into. Tests and kernels
/// that want fewer resources may pass limits of their own; every limit must be at least 1.
struct VirtualSizeLimits {
  /// Work items per group, in total.
  std::size_t max_total_local_size = 1;
  /// Work items per group in each real dimension.
  std::array<std::size_t, 3> max_local_sizes{1, 1, 1};
  /// Groups in each real dimension.
  std::array<std::size_t, 3> max_num_groups{1, 1, 1};
  /// A chosen local size totals a multiple of this where it can (the warp size).
  std::size_t local_size_multiple = 1;

  /// The limits of `device`: its max_total_local_size, max_local_sizes, max_num_groups and
  /// warp_size (a missing or zero entry becomes 1). A kernel that can run fewer work items
  /// per group lowers max_total_local_size afterwards. Never throws; any thread may call it.
  PLINTH_EXPORT static VirtualSizeLimits for_device(const DeviceParameters& device);
};

/// The nine kernel functions that replace get_local_id() and friends in a kernel run with
/// virtual sizes, each a Module (module.hpp) whose function is called through its placeholder,
/// `${local_id}(dim)`. `dim` is a virtual dimension (`unsigned int`); beyond the virtual
/// rank, ids are 0 and sizes 1, as OpenCL does for real dimensions. Bound as one render
/// global, usually `static`, they are reached as `${static.global_id}(0)`.
struct VsizeModules {
  /// `VSIZE_T local_id(unsigned int dim)`: the work item's id within its virtual group.
  Module local_id;
  /// `VSIZE_T local_size(unsigned int dim)`: the virtual local size.
  Module local_size;
  /// `VSIZE_T group_id(unsigned int dim)`: the virtual group's id.
  Module group_id;
  /// `VSIZE_T num_groups(unsigned int dim)`: the number of virtual groups.
  Module num_groups;
  /// `VSIZE_T global_id(unsigned int dim)`: `local_id + group_id * local_size`.
  Module global_id;
  /// `VSIZE_T global_size(unsigned int dim)`: the virtual global size.
  Module global_size;
  /// `VSIZE_T global_flat_id()`: the global ids flattened, dimension 0 fastest
  /// (`global_id(0) + global_id(1) * global_size(0) + ...`).
  Module global_flat_id;
  /// `VSIZE_T global_flat_size()`: the product of the virtual global sizes.
  Module global_flat_size;
  /// `bool skip()`: whether the work item is padding, outside the virtual grid; a kernel
  /// starts with `if (${static.skip}()) return;`. The other functions' results are
  /// meaningless for such a work item.
  Module skip;
};

/// The modules as a RenderValue::Map from their names ("local_id", ..., "skip"), so that
/// VsizeModules is a render global or argument of its own (RenderConvertible). Throws only
/// std::bad_alloc; any thread may call it.
PLINTH_EXPORT RenderValue to_render_value(const VsizeModules& modules);

/// The virtual ids of one real work item, as the kernel functions compute them.
struct VirtualIds {
  /// What `skip()` returns: the work item is padding, and the ids below are meaningless.
  bool skip = false;
  std::vector<std::size_t> local_id;   ///< per virtual dimension
  std::vector<std::size_t> group_id;   ///< per virtual dimension
  std::vector<std::size_t> global_id;  ///< per virtual dimension
  std::size_t global_flat_id = 0;      ///< as `global_flat_id()`
};

/// A virtual grid mapped onto a device's real grid (grunnur's VirtualSizes). Launch the
/// kernel with real_global_size() and real_local_size(), and render it with modules().
/// Immutable and cheap to copy (shared); any thread may use it, and copies of it, at once.
class PLINTH_EXPORT VirtualSizes {
 public:
  /// Maps `global_size` (1 or more dimensions, dimension 0 fastest) work items in groups of
  /// `local_size` (the same number of dimensions; empty: chosen here) onto the real grid
  /// that `limits` allow. The maximum total local size is the limit's, lowered to the product
  /// of the maxima per dimension where that is smaller. Throws VirtualSizeError if the global
  /// size is empty, the sizes differ in rank, a size or limit is 0, the local size totals more
  /// than the maximum ("Requested local size is greater than the maximum 1024") or can only
  /// be laid onto the real local dimensions with padding that exceeds it (a prime above every
  /// real dimension's maximum), the virtual groups are more than the real grid holds
  /// ("Bounding global size [16384, 2048, 256] is too large"), or a size does not fit in a
  /// size_t. Choosing a local size tries the ways of splitting its total over the dimensions,
  /// at most 2^20 of them (with many dimensions, the best of those).
  VirtualSizes(const VirtualSizeLimits& limits, std::vector<std::size_t> global_size,
               std::vector<std::size_t> local_size = {});

  /// The limits the sizes were fitted into, as given.
  const VirtualSizeLimits& limits() const;
  /// The virtual global size, as given.
  const std::vector<std::size_t>& virtual_global_size() const;
  /// The virtual local size, as given or as chosen.
  const std::vector<std::size_t>& virtual_local_size() const;
  /// The number of virtual groups per dimension: ceil(global / local).
  const std::vector<std::size_t>& virtual_num_groups() const;
  /// The virtual global size rounded up to whole groups: num_groups * local.
  const std::vector<std::size_t>& bounding_global_size() const;
  /// The global size to launch with: 1 to 3 real dimensions, dimension 0 is get_global_id(0),
  /// each a multiple of the real local size.
  const std::vector<std::size_t>& real_global_size() const;
  /// The local size to launch with, as many dimensions as real_global_size(); within the
  /// limits.
  const std::vector<std::size_t>& real_local_size() const;
  /// The kernel functions for these sizes. The same Module objects on every call, so a
  /// source that uses them several times renders each once.
  const VsizeModules& modules() const;

  /// The host's copy of the kernel functions' formulas: the virtual ids of the work item with
  /// the real ids `real_local_id` and `real_group_id` (dimension 0 first; 0 beyond the real
  /// rank), for tests and debugging. Throws LogicError if an id is outside the real grid.
  VirtualIds ids(const std::array<std::size_t, 3>& real_local_id,
                 const std::array<std::size_t, 3>& real_group_id) const;

  ///@{
  /// Copies share the object. Moving copies too (there are no move operations), so a
  /// moved-from VirtualSizes still refers to its object and every call on it is defined.
  VirtualSizes(const VirtualSizes&) = default;
  VirtualSizes& operator=(const VirtualSizes&) = default;
  ~VirtualSizes() = default;
  ///@}

 private:
  friend struct detail::Access;

  const std::shared_ptr<const detail::VirtualSizesData>& impl() const { return impl_; }

  std::shared_ptr<const detail::VirtualSizesData> impl_;
};

}  // namespace plinth
