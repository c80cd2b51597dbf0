#pragma once

// The pure parts of ScanKernel (include/plinth/scan.hpp), with no device: the tile geometry
// for a device, how a call's tiles are split between groups, and the kernels' source.
// Exported for the unit tests (tests/core/algorithms/).

#include <plinth/export.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace plinth::detail {

/// Prefix of every name the generated kernels define besides the user's.
inline constexpr std::string_view scan_reserved_prefix = "_scan_";

/// The shape of a tile: `local_size` work items, each holding `items` consecutive elements.
struct ScanGeometry {
  std::size_t local_size = 1;
  std::size_t items = 1;
  std::size_t tile() const { return local_size * items; }
};

/// What a device allows a scan's group (from DeviceParameters and the dtype).
struct ScanLimits {
  std::size_t itemsize = 4;
  std::size_t max_local_size = 256;  // min of the device's total and dimension-0 limits
  std::size_t local_mem_size = 0;    // bytes per group; 0 when unknown
  std::size_t warp_size = 1;
};

/// Bytes of local memory the kernels of `geometry` declare for elements of `itemsize`.
PLINTH_EXPORT std::size_t scan_local_bytes(const ScanGeometry& geometry, std::size_t itemsize);

/// A geometry within `limits`: up to 256 work items (a multiple of the warp size where it is
/// more than one), as many items each (up to 16) as keep a tile near 16 KiB, both reduced until
/// the local memory fits (half of the device's, leaving room for the compiler's own). At
/// least 1 x 1. Throws nothing.
PLINTH_EXPORT ScanGeometry choose_scan_geometry(const ScanLimits& limits) noexcept;

/// How a call's tiles are shared: `groups` groups, each scanning `tiles_per_group`
/// consecutive tiles (the last group possibly fewer, never none).
struct ScanPartition {
  std::size_t tiles = 0;
  std::size_t tiles_per_group = 0;
  std::size_t groups = 0;
};

/// The partition of `n` elements into tiles of `tile` elements over at most `max_groups`
/// groups (at least 1). All zero for n == 0. Throws nothing.
PLINTH_EXPORT ScanPartition partition_scan(std::size_t n, std::size_t tile,
                                           std::size_t max_groups) noexcept;

/// What the source is generated from.
struct ScanSourceSpec {
  std::string_view name;        // kernel name stem
  std::string_view preamble;    // the user's, a template
  std::string_view expression;  // the operator over a and b, a template
  std::string_view neutral;     // the neutral element's initialiser, a template
  bool exclusive = false;
  bool convert_input = false;  // cast each input element to the scan's type as it is read
  /// Adds the single-pass kernel `<name>_single` (device-scope atomics, acquire/release,
  /// sub-group reductions: only for devices that have them).
  bool single_pass = false;
  /// The dialect's suffix of the scan's type (`int`, `uint`, `long`, `ulong`, `float`,
  /// `double`) where the rows and single-pass kernels may scan within sub-groups by
  /// shuffles; empty: in local memory only.
  std::string_view sub_group_suffix;
  ScanGeometry geometry;
};

/// The program's source (a template): the preamble; `_scan_T` and `_scan_In`, typedefs of
/// the render globals `${_scan_type}` and `${_scan_in_type}`; the operator and neutral
/// element as functions; and three kernels:
///
///     KERNEL void <name>_reduce(GLOBAL_MEM const _scan_In *in, long in_offset,
///                               unsigned long n, unsigned long tiles_per_group,
///                               GLOBAL_MEM _scan_T *sums)
///     KERNEL void <name>_groups(GLOBAL_MEM _scan_T *sums, unsigned long groups)
///     KERNEL void <name>_final(GLOBAL_MEM const _scan_In *in, long in_offset,
///                              GLOBAL_MEM _scan_T *out, long out_offset, unsigned long n,
///                              unsigned long tiles_per_group, GLOBAL_MEM const _scan_T *sums)
///
///     KERNEL void <name>_rows(GLOBAL_MEM const _scan_In *in, long in_offset,
///                             GLOBAL_MEM _scan_T *out, long out_offset,
///                             unsigned long row_length, unsigned long rows)
///     KERNEL void <name>_clear(GLOBAL_MEM unsigned int *state, unsigned long count)
///
/// `_reduce` writes each group's total to sums[group]; `_groups` (one group) replaces the
/// totals by their exclusive scan; `_final` scans each group's tiles from that prefix.
/// `_rows` scans each of `rows` contiguous rows of `row_length` elements on its own (group g
/// takes rows g, g + groups, ...); `_clear` zeroes `count` words.
/// With spec.single_pass, also
///
///     KERNEL void <name>_single(GLOBAL_MEM const _scan_In *in, long in_offset,
///                               GLOBAL_MEM _scan_T *out, long out_offset, unsigned long n,
///                               GLOBAL_MEM unsigned int *state, GLOBAL_MEM _scan_T *values)
///
/// which scans all in one launch of one group per tile (decoupled look-back): state[0] is the
/// tile counter, state[1 + t] tile t's status (0 nothing yet, 1 its aggregate in
/// values[2t], 2 its inclusive prefix in values[2t + 1]); all zero before the launch.
/// Offsets are in elements. Throws nothing but std::bad_alloc.
PLINTH_EXPORT std::string scan_source(const ScanSourceSpec& spec);

}  // namespace plinth::detail
