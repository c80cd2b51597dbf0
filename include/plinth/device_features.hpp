#pragma once

#include <plinth/device_parameters.hpp>
#include <plinth/export.hpp>
#include <plinth/template.hpp>

#include <cstddef>
#include <vector>

namespace plinth {

/// What a device's kernels may use of the dialect's atomics, fences and sub-groups
/// (docs/kernel-dialect.md, "What a device has"). The render global `device_params` carries
/// the same fields under the same names, so a template can choose:
/// `%if device_params.int64_atomics:`.
///
/// SDK note: a backend fills this in DeviceAdapter::features() (SDK 1.5). Fields are only
/// ever appended, and the core passes a default-constructed value for the backend to fill, so
/// that a plugin of an older minor sets the prefix it knows and the rest keeps the defaults
/// below, which promise nothing.
struct DeviceFeatures {
  /// The dialect's atomics, fences, sub-group operations and vector loads exist. False only
  /// for devices of plugins built against SDK 1.4 or older, whose preludes predate them.
  bool atomics = false;
  /// The `long` and `ulong` atomics, every operation, on global and local memory.
  bool int64_atomics = false;
  /// The `double` atomics (a compare-and-swap loop where add is not native).
  bool double_atomics = false;
  /// `atomic_add_*_float` is one hardware operation, not a compare-and-swap loop.
  bool native_float_atomic_add = false;
  /// `atomic_add_*_double` is one hardware operation, not a compare-and-swap loop.
  bool native_double_atomic_add = false;
  /// `atomic_fence` with MEM_SCOPE_DEVICE and acquire/release order, and global
  /// atomic loads and stores with MEM_ORDER_ACQUIRE/MEM_ORDER_RELEASE.
  bool device_scope_acquire_release = false;
  /// Sub-groups are the hardware's (warps, wavefronts, OpenCL sub-groups); when false each
  /// work-item is a sub-group of size 1.
  bool native_sub_groups = false;
  /// The sub-group sizes the device may use, ascending; {1} when not native, empty when
  /// `atomics` is false.
  std::vector<std::size_t> sub_group_sizes;
  /// Work-items of one sub-group may wait on each other (spin on a flag another sets)
  /// without deadlock (CUDA from Volta on; OpenCL's
  /// CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS).
  bool sub_group_independent_forward_progress = false;
};

/// The device's parameters and features as one RenderValue::Map: to_render_value(params)'s
/// entries, then every field of `features` under its name (booleans, and `sub_group_sizes` as
/// a list of integers). What Program binds as the render global `device_params`. Throws only
/// std::bad_alloc; any thread may call it.
PLINTH_EXPORT RenderValue to_render_value(const DeviceParameters& params,
                                          const DeviceFeatures& features);

}  // namespace plinth
