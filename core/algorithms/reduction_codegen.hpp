#pragma once

// The pure parts of ReductionKernel (include/plinth/reduction.hpp), with no device: the
// order of the iteration shape's axes for an axis reduction, how a call's elements are spread
// over groups, and the source of the two kernels. The map expression is rewritten and the
// layout merged by the elementwise helpers (elementwise_codegen.hpp). Exported for the unit
// tests (tests/core/algorithms/).

#include "algorithms/elementwise_codegen.hpp"

#include <plinth/elementwise.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

/// Prefix of every name the generated kernels define besides the user's (and the
/// elementwise helpers' `_elw_`).
inline constexpr std::string_view reduction_reserved_prefix = "_red_";

/// The iteration shape's axes reordered for a reduction along `axes`: the kept axes in
/// their order, then the reduced ones in theirs, so that an output's elements are one
/// contiguous run of flat indices.
struct AxesOrder {
  std::vector<std::size_t> order;  ///< a permutation of 0 .. ndim-1
  std::size_t kept = 0;            ///< how many of `order` are kept
  bool identity = true;            ///< order is 0, 1, ..., ndim-1
};

/// The order for reducing `axes` (each < ndim, no repeats: the caller checks) of an
/// ndim-dimensional shape. Throws nothing but std::bad_alloc.
PLINTH_EXPORT AxesOrder reduction_axes_order(std::size_t ndim, std::span<const std::size_t> axes);

/// How a call's work is spread over groups of `local_size` work items (a power of two).
struct ReductionPlan {
  /// Work items reducing one output together in stage 1 (a power of two, <= local_size):
  /// local_size unless the reduced extent is smaller, or the outputs are so many that
  /// segments of fewer (down to 32, a warp) still fill `max_groups` groups.
  std::size_t segment = 1;
  /// Groups (stage-1 partial values) per output: more than 1 only when segment == local_size.
  std::size_t parts = 1;
  /// Stage-1 tasks, each one group's work: ceil(outputs / (local_size / segment)) * parts.
  std::size_t tasks = 0;
  /// Stage-1 groups launched (min(tasks, max_groups)); 0: nothing to launch.
  std::size_t groups = 0;
  /// Stage-2 groups (one per output, at most max_groups); 0 when parts == 1 (no stage 2).
  std::size_t final_groups = 0;
};

/// The plan for `outputs` outputs of `extent` reduced elements each, with groups of
/// `local_size` (a power of two) and at most `max_groups` groups at once (>= 1). Each work
/// item gets at least 4 elements before the work is split over more groups. Throws nothing.
PLINTH_EXPORT ReductionPlan plan_reduction(std::size_t outputs, std::size_t extent,
                                           std::size_t local_size, std::size_t max_groups) noexcept;

/// How stage 1 reads the reduced elements of an output.
enum class ReductionPathKind {
  /// A segment of work items per output, reading its reduced elements by flat index, each
  /// element's offsets from the whole merged layout (fast where the reduced elements lie
  /// next to each other; the whole-array reduction and arrays on the fast path).
  flat,
  /// As flat, with the kept and the reduced axes merged apart: each output's offsets once
  /// per output, each element's from its index among the reduced ones (fewer divisions
  /// where arrays are strided).
  rows,
  /// A work item per (output, part), consecutive work items on consecutive outputs, each
  /// looping over its part of the reduced extent (the columns path: fast where the kept
  /// axes hold the contiguous dimension).
  columns,
};

/// The path of a call and, for the columns and rows paths, its two merged layouts.
struct ReductionPath {
  ReductionPathKind kind = ReductionPathKind::flat;
  /// Columns and rows: the kept dimensions merged (outputs are their flat indices; shape and
  /// per-argument strides as merge_layout gives them).
  MergedLayout kept;
  /// Columns and rows: the reduced dimensions merged.
  MergedLayout reduced;
};

/// The path for reducing the last `shape.size() - kept` dimensions of the (reordered)
/// iteration shape `shape`, with `arrays` (one per argument, as merge_layout takes them)
/// and `contiguous_arrays` arrays on the fast path (C-contiguous over `shape`). The flat
/// path without a strided array, or with one output or one reduced element at most; else the
/// columns path where the arrays' innermost kept strides, summed over the arrays and each
/// counted as at most 8 elements (a sector), are smaller than their innermost reduced strides
/// counted alike; the rows path otherwise. Throws nothing but std::bad_alloc.
PLINTH_EXPORT ReductionPath choose_reduction_path(std::span<const std::size_t> shape,
                                                  std::size_t kept,
                                                  std::span<const AlignedStrides> arrays,
                                                  std::size_t contiguous_arrays);

/// How a columns-path call is spread: work items (o, p) of a 2-D range of
/// (groups_x * local_x, parts), groups of (local_x, local_y); the work items (o, p) of group
/// row g = p / local_y reduce the reduced elements [g * chunk, min((g + 1) * chunk, extent))
/// of output o between them, interleaved: work item (o, p) those at g * chunk + p % local_y
/// + k * local_y, so that neighbouring work items read neighbouring elements also where
/// local_x is smaller than a warp.
struct ColumnPlan {
  std::size_t local_x = 1;       ///< outputs per group (a power of two)
  std::size_t local_y = 1;       ///< parts per group (a power of two)
  std::size_t groups_x = 0;      ///< ceil(outputs / local_x); 0: nothing to launch
  std::size_t parts = 1;         ///< parts per output, a multiple of local_y
  std::size_t chunk = 0;         ///< reduced elements per group row (parts / local_y)
  std::size_t final_groups = 0;  ///< stage-2 groups (0 when parts == 1: no stage 2)
};

/// The plan for `outputs` outputs of `extent` (>= 1) reduced elements each, with groups of
/// at most `local_size` work items (a power of two), at most `max_local_y` of them in
/// dimension 1 (the device's limit), and about `max_groups` groups wanted to
/// fill the device: the reduced extent is split into parts (of at least 32 elements) only
/// while the outputs alone give fewer groups, and into no more groups than max_groups in all
/// (a last wave of a few groups would take as long as a full one). Throws nothing.
PLINTH_EXPORT ColumnPlan plan_column_reduction(std::size_t outputs, std::size_t extent,
                                               std::size_t local_size, std::size_t max_groups,
                                               std::size_t max_local_y) noexcept;

/// What the source of a ReductionKernel's program is made of.
struct ReductionSourceParts {
  std::string_view map;        ///< the map expression, rewritten (rewrite_operation)
  std::string_view reduce;     ///< the reduce expression over `a` and `b`
  std::string_view neutral;    ///< the neutral expression
  std::string_view preamble;   ///< the user's preamble
  std::string_view name;       ///< the stage-1 kernel's name; stage 2 is `<name>_final`
  std::string_view out_type;   ///< the output's C type (or a placeholder for a struct)
  std::size_t local_size = 1;  ///< work items per group (a power of two), a compile-time size
  /// The flat stage 1 only (no strided array, every output's reduced run aligned to whole
  /// vectors, which the caller checks per call): elements per vector (0 or 1: none), and the
  /// map rewritten with vector_lane_name for every array. Each work item then reads its
  /// elements `vector_width` at a time, 16 bytes at most per array.
  std::size_t vector_width = 0;
  std::string_view vector_map;
};

/// The program's source (a template: the user's parts keep their placeholders): the
/// preamble, `FUNCTION out _red_reduce(out a, out b)`, then
///
///     KERNEL void <name>(<per argument as elementwise_source>,
///                        GLOBAL_MEM out *_red_out, long _red_out_b,
///                        unsigned long _red_outputs, unsigned long _red_extent,
///                        unsigned long _red_segment, unsigned long _red_parts,
///                        unsigned long _red_tasks, unsigned long _elw_n1 ... _elw_n<rank-1>,
///                        per strided argument k: long _elw_s<k>_0 ... _elw_s<k>_<rank-1>)
///     KERNEL void <name>_final(GLOBAL_MEM const out *_red_in, GLOBAL_MEM out *_red_out,
///                              long _red_out_b, unsigned long _red_outputs,
///                              unsigned long _red_parts)
///
/// Stage 1 writes the partial value of (output o, part p) to `_red_out[_red_out_b + o *
/// parts + p]`; stage 2 reduces each output's `parts` values from `_red_in` into
/// `_red_out[_red_out_b + o]`. Throws LogicError as elementwise_type_text.
PLINTH_EXPORT std::string reduction_source(std::span<const ElementwiseArg> args,
                                           const ReductionSourceParts& parts,
                                           const LayoutSignature& signature);

/// The split program's source (the columns and the rows paths) for `kept_rank` merged kept and
/// `reduced_rank` merged reduced dimensions (each at least 1; signature.rank is not used): the
/// preamble, `_red_reduce`, then
///
///     KERNEL void <name>_cols(<per argument as reduction_source>,
///                             GLOBAL_MEM out *_red_out, long _red_out_b,
///                             unsigned long _red_outputs, unsigned long _red_extent,
///                             unsigned long _red_parts, unsigned long _red_chunk,
///                             unsigned long _red_m1 ... _red_m<kept_rank-1>,
///                             unsigned long _red_e1 ... _red_e<reduced_rank-1>,
///                             per strided argument k: long _red_t<k>_0 ... (kept strides),
///                             long _red_u<k>_0 ... (reduced strides))
///     KERNEL void <name>_rows(<per argument as reduction_source>,
///                             GLOBAL_MEM out *_red_out, long _red_out_b,
///                             unsigned long _red_outputs, unsigned long _red_extent,
///                             unsigned long _red_segment, unsigned long _red_parts,
///                             unsigned long _red_tasks, then as <name>_cols from _red_m1)
///     KERNEL void <name>_cols_final(as reduction_source's <name>_final)
///
/// In <name>_cols, work item (o, p) of the 2-D range (ColumnPlan) writes the partial value
/// of output o over its part p (ColumnPlan's interleaving, by its local size in dimension 1)
/// to `_red_out[_red_out_b + o * parts + p]`, four loads in flight. <name>_rows is
/// reduction_source's stage 1 (ReductionPlan, partials alike) with the offsets of the kept
/// and the reduced axes apart. In both, the map's `i` is the flat index over the reordered
/// iteration shape, as on the flat path. Throws LogicError as elementwise_type_text.
PLINTH_EXPORT std::string reduction_split_source(std::span<const ElementwiseArg> args,
                                                 const ReductionSourceParts& parts,
                                                 const LayoutSignature& signature,
                                                 std::size_t kept_rank, std::size_t reduced_rank);

}  // namespace plinth::detail
