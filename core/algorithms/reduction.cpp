#include <plinth/reduction.hpp>

#include "algorithms/array_expression_rules.hpp"
#include "algorithms/elementwise_codegen.hpp"
#include "algorithms/kit/kernel_arguments.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"
#include "algorithms/outside_uses.hpp"
#include "algorithms/reduction_codegen.hpp"
#include "algorithms/reduction_multi.hpp"

#include <plinth/buffer.hpp>
#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>
#include <plinth/memory_pool.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <mutex>
#include <optional>

namespace plinth {

namespace detail {

namespace {

/// Work items per group at most (a power of two), and stage-1 groups per compute unit.
constexpr std::size_t preferred_reduction_local_size = 256;
constexpr std::size_t reduction_groups_per_compute_unit = 8;

/// A program's kernels: the flat path's, or the split program's (kept and reduced axes
/// merged apart: the columns and the rows paths) for merged kept and reduced ranks.
struct ReductionKernels {
  std::size_t kept_rank = 0;
  std::size_t reduced_rank = 0;
  Program program;
  Kernel stage1;  ///< the flat path's, or the columns path's
  Kernel stage2;
  std::optional<Kernel> rows;  ///< the rows path's stage 1 (in the split program)
  std::size_t local_size = 1;
};

/// A compiled program for one device and signature, built once (kernels: stage 1, stage 2),
/// and the split programs for that signature, one per pair of merged ranks, built when a
/// call needs them.
struct ReductionSlot : ProgramSlot {
  std::vector<std::shared_ptr<const ReductionKernels>> split;
};

/// Storage that the KernelArgs of a call point into; filled first, then the args are built.
struct ReductionLaunch {
  explicit ReductionLaunch(Queue queue_) : queue(std::move(queue_)) {}
  std::shared_ptr<ReductionSlot> slot;
  Queue queue;
  std::optional<Array> result;
  std::vector<Buffer> buffers;  // arrays' base buffers, then the output's, then the partials'
  std::vector<ScalarBytes> scalars;
  std::vector<std::uint64_t> sizes;
  std::vector<std::int64_t> offsets;
  std::vector<KernelArg> args1;
  std::vector<KernelArg> args2;
  ReductionPlan plan;
  /// The split program (set only on the columns and rows paths), which path, and the
  /// columns path's plan (the rows path's is `plan`).
  std::shared_ptr<const ReductionKernels> split;
  ReductionPathKind kind = ReductionPathKind::flat;
  ColumnPlan column_plan;
};

/// Work items per group for a reduction's kernels on `device` with outputs of `itemsize`
/// bytes (a power of two), before the kernels' own limits.
std::size_t reduction_local_size(const BoundDevice& device, std::size_t itemsize) {
  const auto& params = device.params();
  std::size_t limit = preferred_reduction_local_size;
  limit = std::min(limit, std::max<std::size_t>(params.max_total_local_size, 1));
  if (!params.max_local_sizes.empty()) {
    limit = std::min(limit, std::max<std::size_t>(params.max_local_sizes[0], 1));
  }
  if (params.local_mem_size > 0) {  // the local array with room to spare
    limit = std::min(limit, std::max<std::size_t>(params.local_mem_size / 2 / itemsize, 1));
  }
  return power_of_two_floor(limit);
}

}  // namespace

struct ReductionData {
  std::vector<ElementwiseArg> args;
  DType output = DType::float32();
  std::string neutral, reduce, map;
  ReductionOptions options;
  std::vector<std::string> array_names;  // per argument; empty for scalars
  std::vector<bool> raw_use;             // per argument
  /// Per argument: where outside the map it is used other than as name[i] (see
  /// outside_raw_uses); empty where nowhere.
  std::vector<std::string> outside_use;
  std::size_t first_array = 0;

  RecipeId recipe = next_recipe_id();
  /// Elements per vector for the flat stage 1 (0: never vectorised): every array a plain
  /// dtype of a power-of-two size, used only as name[i].
  std::size_t vector_width = 0;
  /// The kernel combining partial results of MultiQueue calls, made by the first.
  std::mutex combiner_mutex;
  std::shared_ptr<ReductionData> combiner;

  std::string describe() const { return fmt::format("ReductionKernel '{}'", options.name); }

  [[noreturn]] void fail(const ElementwiseArg& arg, const std::string& problem) const {
    throw LogicError(fmt::format("{}: argument '{}': {}", describe(), arg.name(), problem));
  }

  /// The slot of `signature` on `device`, in the Context's store.
  std::shared_ptr<ReductionSlot> slot_for(const BoundDevice& device,
                                          const LayoutSignature& signature) const {
    const auto words = signature_words(signature, signature.strided);
    return store_slot<ReductionSlot>(recipe, device,
                                     std::span<const std::uint64_t>(words.data(), words.size()));
  }

  /// The program for `signature` on `device` with groups of `local` work items.
  /// Throws RenderError, CompileError.
  /// With `split` (merged kept and reduced ranks), the split program.
  Program compile(const BoundDevice& device, const LayoutSignature& signature, std::size_t local,
                  std::optional<std::pair<std::size_t, std::size_t>> split) const {
    const auto rewritten = rewrite_operation(map, array_names, signature.strided);
    const auto preamble = rewrite_preamble(options.preamble, array_names, signature.strided);
    const std::string out_type =
        output.is_struct() ? "${_red_out_type}" : ctype(output).as_string();
    ReductionSourceParts parts;
    parts.map = rewritten.text;
    parts.reduce = reduce;
    parts.neutral = neutral;
    parts.preamble = preamble.text;
    const auto function = generated_kernel_name(reduction_reserved_prefix, options.name);
    parts.name = function;
    parts.out_type = out_type;
    parts.local_size = local;
    std::string vector_map;
    if (signature.vector_width > 1 && !split) {
      std::vector<std::string> lanes(args.size());
      for (std::size_t k = 0; k < args.size(); ++k) {
        if (args[k].is_array()) lanes[k] = vector_lane_name(k);
      }
      vector_map = rewrite_operation_with(map, array_names, lanes).text;
      parts.vector_width = signature.vector_width;
      parts.vector_map = vector_map;
    }
    const auto source =
        split ? generated_kernel_comment(
                    "ReductionKernel", options.name,
                    fmt::format("{0}_cols, {0}_rows, {0}_cols_final", function)) +
                    reduction_split_source(args, parts, signature, split->first, split->second)
              : generated_kernel_comment("ReductionKernel", options.name,
                                         fmt::format("{0}, {0}_final", function)) +
                    reduction_source(args, parts, signature);
    auto program_options = generated_program_options(
        options.fast_math, options.compiler_options,
        rewrite_render_globals(options.render_globals, array_names, signature.strided), args);
    if (output.is_struct()) program_options.render_globals["_red_out_type"] = ctype(output);
    return build_for_store(device, source, program_options);
  }

  /// The program (the flat path's, or the split one for `split`) and its stage-1 and stage-2
  /// kernels with their group size, fitted to the kernels' own limits. Throws RenderError,
  /// CompileError.
  ReductionKernels compile_kernels(const BoundDevice& device, const LayoutSignature& signature,
                                   std::optional<std::pair<std::size_t, std::size_t>> split) const {
    std::size_t local = reduction_local_size(device, output.itemsize());
    const auto function = generated_kernel_name(reduction_reserved_prefix, options.name);
    const auto stem = split ? function + "_cols" : function;
    for (;;) {
      Program program = compile(device, signature, local, split);
      Kernel stage1 = program.kernel(stem);
      Kernel stage2 = program.kernel(stem + "_final");
      std::optional<Kernel> rows;
      if (split) rows = program.kernel(function + "_rows");
      auto kernel_limit =
          std::min(stage1.max_total_local_sizes().front(), stage2.max_total_local_sizes().front());
      if (rows) kernel_limit = std::min(kernel_limit, rows->max_total_local_sizes().front());
      if (kernel_limit >= local || local == 1) {
        return ReductionKernels{split ? split->first : 0,
                                split ? split->second : 0,
                                program,
                                stage1,
                                stage2,
                                rows,
                                local};
      }
      // The kernels need more resources than the device's maximum.
      local = power_of_two_floor(std::max<std::size_t>(kernel_limit, 1));
    }
  }

  /// Builds the program of `slot` if it has none yet. Throws RenderError, CompileError.
  void build(ReductionSlot& slot, const BoundDevice& device, const LayoutSignature& signature) {
    const std::lock_guard lock(slot.mutex);
    if (slot.built()) return;
    auto built = compile_kernels(device, signature, std::nullopt);
    slot.program = built.program;
    slot.kernels = {built.stage1, built.stage2};
    slot.local_size = built.local_size;
    slot.max_groups = group_limit(device.params(), reduction_groups_per_compute_unit);
  }

  /// The split program of `slot` for merged ranks `kept_rank` and `reduced_rank`,
  /// built if it has none yet. Throws RenderError, CompileError.
  std::shared_ptr<const ReductionKernels> build_split(ReductionSlot& slot,
                                                      const BoundDevice& device,
                                                      const LayoutSignature& signature,
                                                      std::size_t kept_rank,
                                                      std::size_t reduced_rank) {
    const std::lock_guard lock(slot.mutex);
    for (const auto& built : slot.split) {
      if (built->kept_rank == kept_rank && built->reduced_rank == reduced_rank) return built;
    }
    slot.split.push_back(std::make_shared<const ReductionKernels>(
        compile_kernels(device, signature, std::pair(kept_rank, reduced_rank))));
    return slot.split.back();
  }

  /// Checks the kinds, dtypes, devices and element alignment of a call's arguments.
  void check_arguments(const BoundDevice& device, std::span<const ElementwiseValue> values) const {
    check_call(describe(), args, values, device,
               "a MultiArray is passed to a single queue (call with a MultiQueue)");
    if (!device.params().supports_double && is_double(output)) {
      throw LogicError(
          fmt::format("{}: the output dtype {} needs double precision, which "
                      "device {} ('{}') lacks",
                      describe(), output.name(), device.index(), device.name()));
    }
  }

  /// The reduction's axes of `shape`: their order (kept first), the permuted shape, the
  /// output's shape, and the outputs and reduced elements per output. Throws LogicError for
  /// an axis out of range or given twice.
  struct Axes {
    AxesOrder order;
    std::vector<std::size_t> permuted, out_shape;
    std::size_t outputs = 1, extent = 1;
  };
  Axes reduction_axes(std::span<const std::size_t> shape, const ReductionTarget& target) const {
    std::vector<std::size_t> axes;
    if (target.axes) {
      axes = *target.axes;
      std::sort(axes.begin(), axes.end());
      for (std::size_t a = 0; a < axes.size(); ++a) {
        if (axes[a] >= shape.size()) {
          throw LogicError(
              fmt::format("{}: axis {} is out of range for the iteration shape {} "
                          "(the shape of '{}')",
                          describe(), axes[a], shape_text(shape), args[first_array].name()));
        }
        if (a > 0 && axes[a] == axes[a - 1]) {
          throw LogicError(fmt::format("{}: axis {} is given twice", describe(), axes[a]));
        }
      }
    } else {
      for (std::size_t d = 0; d < shape.size(); ++d) axes.push_back(d);
    }
    Axes result;
    result.order = reduction_axes_order(shape.size(), axes);
    result.permuted.resize(shape.size());
    for (std::size_t d = 0; d < shape.size(); ++d) {
      result.permuted[d] = shape[result.order.order[d]];
      if (d < result.order.kept) {
        result.out_shape.push_back(result.permuted[d]);
        result.outputs *= result.permuted[d];
      } else {
        result.extent *= result.permuted[d];
      }
    }
    return result;
  }

  /// Each array argument's strides over the permuted iteration shape (nothing for a
  /// contiguous array of the iteration shape reduced along its last axes), marking it strided
  /// in `signature`. Throws LogicError for an array that does not broadcast or that the map
  /// uses other than as name[i] and is not contiguous.
  std::vector<AlignedStrides> array_layouts(std::span<const ElementwiseValue> values,
                                            std::span<const std::size_t> shape, const Axes& axes,
                                            LayoutSignature& signature) const {
    const auto& order = axes.order;
    const std::size_t total = axes.outputs * axes.extent;
    std::vector<AlignedStrides> aligned(args.size());
    signature.strided.assign(args.size(), false);
    for (std::size_t k = 0; k < args.size(); ++k) {
      const auto& arg = args[k];
      if (!arg.is_array()) continue;
      const auto& array = std::get<Array>(detail::Access::impl(values[k]));
      if (!broadcasts_to(array, shape)) {
        static_cast<void>(element_strides(describe(), arg, array, shape, args[first_array].name()));
      }
      if (array.size() == total && array.is_contiguous() && order.identity) continue;
      if (raw_use[k]) {
        fail(arg, fmt::format("the map uses it other than as {}[i], so it must be a contiguous "
                              "array of the iteration shape {}{}, got shape {} with strides ({}) "
                              "bytes",
                              arg.name(), shape_text(shape),
                              order.identity ? "" : " reduced along its last axes only",
                              shape_text(array.shape()), fmt::join(array.strides(), ", ")));
      }
      if (!outside_use[k].empty()) {
        fail(arg, fmt::format("{} uses it other than as {}[i], so it must be a contiguous array "
                              "of the iteration shape {}{}, got shape {} with strides ({}) bytes",
                              outside_use[k], arg.name(), shape_text(shape),
                              order.identity ? "" : " reduced along its last axes only",
                              shape_text(array.shape()), fmt::join(array.strides(), ", ")));
      }
      const auto strides = element_strides(describe(), arg, array, shape, args[first_array].name());
      std::vector<std::int64_t> reordered(shape.size());
      for (std::size_t d = 0; d < shape.size(); ++d) reordered[d] = strides[order.order[d]];
      aligned[k] = std::move(reordered);
      signature.strided[k] = true;
    }
    return aligned;
  }

  /// Checks `target.out` (if given) for a result of `out_shape` on `device`. Throws
  /// LogicError.
  void check_out(const ReductionTarget& target, const std::vector<std::size_t>& out_shape,
                 const BoundDevice& device) const {
    if (target.out) {
      const auto& out = *target.out;
      const auto problem = [&](const std::string& text) {
        return LogicError(fmt::format("{}: the output array: {}", describe(), text));
      };
      if (out.dtype() != output) {
        throw problem(fmt::format("must be a {} array, got {}", output.name(), out.dtype().name()));
      }
      if (!(out.device() == device)) {
        throw problem(fmt::format("it is on device {} ('{}'), the queue on device {} ('{}')",
                                  out.device().index(), out.device().name(), device.index(),
                                  device.name()));
      }
      if (out.shape() != out_shape) {
        throw problem(fmt::format("its shape is {}, the result's {}", shape_text(out.shape()),
                                  shape_text(out_shape)));
      }
      if (!out.is_contiguous()) throw problem("it must be contiguous");
      if (out.first_element_offset() % output.itemsize() != 0) {
        throw problem("its first element is not a whole number of elements into its buffer");
      }
    }
  }

  /// Checks a call on `queue` and prepares its launch (building the program if needed).
  /// With `compile_only`, checks and builds for the whole-array layout and prepares nothing.
  ReductionLaunch plan(const Queue& queue, std::span<const ElementwiseValue> values,
                       const ReductionTarget& target, bool compile_only) {
    const auto& device = queue.device();
    check_arguments(device, values);
    const auto& shape = std::get<Array>(detail::Access::impl(values[first_array])).shape();
    const auto axes = reduction_axes(shape, target);
    const auto& [order, permuted, out_shape, outputs, extent] = axes;
    LayoutSignature signature;
    const auto aligned = array_layouts(values, shape, axes, signature);
    check_out(target, out_shape, device);

    ReductionLaunch launch(queue);
    const bool work = outputs > 0;
    if (work && extent > 0) {
      signature.rank = merge_layout(permuted, aligned).shape.size();
    } else {
      signature.strided.assign(args.size(), false);  // nothing is read
    }
    // The inputs are `restrict` unless one shares memory with the output (a new result
    // array, and the partials, never do).
    signature.restrict_inputs = true;
    if (target.out) {
      for (std::size_t k = 0; k < args.size(); ++k) {
        if (!args[k].is_array()) continue;
        if (std::get<Array>(detail::Access::impl(values[k]))
                .base_buffer()
                .overlaps(target.out->base_buffer()))
          signature.restrict_inputs = false;
      }
    }
    if (compile_only) {
      launch.slot = slot_for(device, signature);
      build(*launch.slot, device, signature);
      return launch;
    }
    launch.result = target.out ? *target.out : Array::empty(launch.queue, out_shape, output);
    if (!work) return launch;
    if (extent > 0) {
      std::size_t contiguous = 0;
      for (std::size_t k = 0; k < args.size(); ++k) {
        if (args[k].is_array() && !aligned[k]) ++contiguous;
      }
      const auto path = choose_reduction_path(permuted, order.kept, aligned, contiguous);
      if (path.kind != ReductionPathKind::flat) {
        launch.slot = slot_for(device, signature);
        prepare_split(launch, values, path, signature, outputs, extent);
        return launch;
      }
    }
    if (vectors_fit(values, device, signature, extent)) signature.vector_width = vector_width;
    launch.slot = slot_for(device, signature);
    build(*launch.slot, device, signature);

    prepare_flat(launch, values, permuted, aligned, signature, outputs, extent);
    return launch;
  }

  /// Whether the flat stage 1 may read vectors: no array strided, every output's run a whole
  /// number of vectors, and every array's first element aligned to its vector's size.
  bool vectors_fit(std::span<const ElementwiseValue> values, const BoundDevice& device,
                   const LayoutSignature& signature, std::size_t extent) const {
    if (vector_width < 2 || signature.rank != 0 || extent % vector_width != 0 ||
        extent < 4 * vector_width || device.params().address_alignment < 16) {
      return false;
    }
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (!args[k].is_array() || signature.strided[k]) continue;
      const auto& array = std::get<Array>(detail::Access::impl(values[k]));
      const auto itemsize = args[k].dtype().itemsize();
      if ((array.base_buffer().offset() + array.first_element_offset()) %
              (vector_width * itemsize) !=
          0) {
        return false;
      }
    }
    return true;
  }

  /// Prepares `launch` (its slot built and result set) for the flat path: stage 1 over the
  /// merged layout of `permuted`, then stage 2 where the outputs have several parts.
  void prepare_flat(ReductionLaunch& launch, std::span<const ElementwiseValue> values,
                    const std::vector<std::size_t>& permuted,
                    const std::vector<AlignedStrides>& aligned, const LayoutSignature& signature,
                    std::size_t outputs, std::size_t extent) const {
    const auto& queue = launch.queue;
    const auto& device = queue.device();
    const std::size_t local = launch.slot->local_size;
    // With vectors the work items share whole vectors of each output's run.
    const std::size_t units = signature.vector_width > 1 ? extent / signature.vector_width : extent;
    launch.plan = plan_reduction(outputs, units, local, launch.slot->max_groups);
    const auto& plan = launch.plan;
    auto merged = extent > 0 ? merge_layout(permuted, aligned) : MergedLayout{};
    merged.strides.resize(args.size());

    // Stable storage first (KernelArgs point into it), in the kernel's order.
    launch.buffers.reserve(args.size() + 2);
    launch.scalars.reserve(args.size());
    std::size_t offset_count = args.size() + 2;
    for (const auto& strides : merged.strides) offset_count += strides.size();
    launch.offsets.reserve(offset_count);
    launch.sizes.reserve(16 + signature.rank);
    store_arguments(launch, values);
    const auto& result = *launch.result;
    const auto result_offset =
        static_cast<std::int64_t>(result.first_element_offset() / output.itemsize());
    const bool staged = plan.final_groups > 0;
    launch.buffers.push_back(result.base_buffer());
    if (staged) {
      // The partial values: from the memory pool, for this queue (reused by its next call).
      launch.buffers.push_back(MemoryPool::of(device.context())
                                   .allocate(queue, outputs * plan.parts * output.itemsize()));
    }
    const std::size_t out_offset_index = launch.offsets.size();
    launch.offsets.push_back(staged ? 0 : result_offset);
    launch.offsets.push_back(result_offset);
    const std::size_t sizes_index = launch.sizes.size();
    for (const std::size_t size : {outputs, extent, plan.segment, plan.parts, plan.tasks}) {
      launch.sizes.push_back(size);
    }
    for (std::size_t d = 1; d < signature.rank; ++d) launch.sizes.push_back(merged.shape[d]);
    launch.sizes.push_back(outputs);  // stage 2
    launch.sizes.push_back(plan.parts);

    auto& args1 = launch.args1;
    args1.reserve(2 * args.size() + 16 + offset_count);
    const std::size_t buffer = append_argument_args(launch);
    const Buffer& result_buffer = launch.buffers[buffer];
    const Buffer& stage1_out = staged ? launch.buffers[buffer + 1] : result_buffer;
    args1.emplace_back(stage1_out);
    args1.emplace_back(launch.offsets[out_offset_index]);
    for (std::size_t s = 0; s < 5 + (signature.rank > 0 ? signature.rank - 1 : 0); ++s) {
      args1.emplace_back(launch.sizes[sizes_index + s]);
    }
    for (std::size_t k = 0; k < args.size(); ++k) {
      for (const auto stride : merged.strides[k]) {
        launch.offsets.push_back(stride);
        args1.emplace_back(launch.offsets.back());
      }
    }
    if (staged) {
      launch.args2.emplace_back(stage1_out);
      launch.args2.emplace_back(result_buffer);
      launch.args2.emplace_back(launch.offsets[out_offset_index + 1]);
      launch.args2.emplace_back(launch.sizes[launch.sizes.size() - 2]);
      launch.args2.emplace_back(launch.sizes[launch.sizes.size() - 1]);
    }
  }

  /// Stores the arrays' base buffers and first-element offsets and the scalars' bytes of a
  /// call in `launch` (its offsets reserved by the caller). Throws LogicError for a scalar
  /// that is not exactly of its argument's dtype.
  void store_arguments(ReductionLaunch& launch, std::span<const ElementwiseValue> values) const {
    launch.buffers.reserve(args.size() + 2);
    launch.scalars.reserve(args.size());
    gather_call_values(describe(), args, values, launch.buffers, launch.offsets, launch.scalars);
  }

  /// Appends the stored arguments (store_arguments) to `launch.args1`; returns the index of
  /// the first buffer after the arrays'.
  std::size_t append_argument_args(ReductionLaunch& launch) const {
    std::size_t buffer = 0, scalar = 0, offset = 0;
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (args[k].is_array()) {
        launch.args1.emplace_back(launch.buffers[buffer++]);
        launch.args1.emplace_back(launch.offsets[offset++]);
      } else {
        launch.args1.push_back(scalar_arg(launch.scalars[scalar++]));
      }
    }
    return buffer;
  }

  /// Prepares `launch` (its slot and result set) for the columns or the rows path of `path`
  /// (kept and reduced axes merged apart) with `outputs` outputs of `extent` (>= 1) reduced
  /// elements each. Throws RenderError, CompileError, LogicError as store_arguments.
  void prepare_split(ReductionLaunch& launch, std::span<const ElementwiseValue> values,
                     const ReductionPath& path, const LayoutSignature& signature,
                     std::size_t outputs, std::size_t extent) {
    const auto& device = launch.queue.device();
    const auto& kept = path.kept;
    const auto& reduced = path.reduced;
    launch.split =
        build_split(*launch.slot, device, signature, kept.shape.size(), reduced.shape.size());
    launch.kind = path.kind;
    const bool rows = path.kind == ReductionPathKind::rows;
    const auto local = launch.split->local_size;
    const auto max_groups = group_limit(device.params(), reduction_groups_per_compute_unit);
    if (rows) {
      launch.plan = plan_reduction(outputs, extent, local, max_groups);
    } else {
      const auto& sizes = device.params().max_local_sizes;
      launch.column_plan = plan_column_reduction(outputs, extent, local, max_groups,
                                                 sizes.size() > 1 ? sizes[1] : 1);
    }
    const std::size_t parts = rows ? launch.plan.parts : launch.column_plan.parts;
    const bool staged = (rows ? launch.plan.final_groups : launch.column_plan.final_groups) > 0;

    // Stable storage first (KernelArgs point into it), in the kernel's order.
    std::size_t offset_count = args.size() + 2;
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (k < kept.strides.size()) offset_count += kept.strides[k].size();
      if (k < reduced.strides.size()) offset_count += reduced.strides[k].size();
    }
    launch.offsets.reserve(offset_count);
    launch.sizes.reserve(6 + kept.shape.size() + reduced.shape.size());
    store_arguments(launch, values);
    const auto& result = *launch.result;
    const auto result_offset =
        static_cast<std::int64_t>(result.first_element_offset() / output.itemsize());
    launch.buffers.push_back(result.base_buffer());
    if (staged) {
      launch.buffers.push_back(MemoryPool::of(device.context())
                                   .allocate(launch.queue, outputs * parts * output.itemsize()));
    }
    const std::size_t out_offset_index = launch.offsets.size();
    launch.offsets.push_back(staged ? 0 : result_offset);
    launch.offsets.push_back(result_offset);
    if (rows) {
      for (const std::size_t size :
           {outputs, extent, launch.plan.segment, parts, launch.plan.tasks}) {
        launch.sizes.push_back(size);
      }
    } else {
      for (const std::size_t size : {outputs, extent, parts, launch.column_plan.chunk}) {
        launch.sizes.push_back(size);
      }
    }
    for (std::size_t d = 1; d < kept.shape.size(); ++d) launch.sizes.push_back(kept.shape[d]);
    for (std::size_t d = 1; d < reduced.shape.size(); ++d) launch.sizes.push_back(reduced.shape[d]);
    const std::size_t stage1_sizes = launch.sizes.size();
    launch.sizes.push_back(outputs);  // stage 2
    launch.sizes.push_back(parts);

    launch.args1.reserve(2 * args.size() + 4 + offset_count + stage1_sizes);
    const std::size_t buffer = append_argument_args(launch);
    const Buffer& result_buffer = launch.buffers[buffer];
    const Buffer& stage1_out = staged ? launch.buffers[buffer + 1] : result_buffer;
    launch.args1.emplace_back(stage1_out);
    launch.args1.emplace_back(launch.offsets[out_offset_index]);
    for (std::size_t s = 0; s < stage1_sizes; ++s) launch.args1.emplace_back(launch.sizes[s]);
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (k >= kept.strides.size() || kept.strides[k].empty()) continue;
      for (const auto* strides : {&kept.strides[k], &reduced.strides[k]}) {
        for (const auto stride : *strides) {
          launch.offsets.push_back(stride);
          launch.args1.emplace_back(launch.offsets.back());
        }
      }
    }
    if (staged) {
      launch.args2.emplace_back(stage1_out);
      launch.args2.emplace_back(result_buffer);
      launch.args2.emplace_back(launch.offsets[out_offset_index + 1]);
      launch.args2.emplace_back(launch.sizes[stage1_sizes]);
      launch.args2.emplace_back(launch.sizes[stage1_sizes + 1]);
    }
  }

  /// Runs a columns- or rows-path launch.
  static void run_split(const ReductionLaunch& launch) {
    const auto& kernels = *launch.split;
    // Copies for this launch: calls on one Kernel object must not overlap in time.
    const Kernel stage2 = kernels.stage2;
    std::size_t final_groups = 0;
    if (launch.kind == ReductionPathKind::rows) {
      const auto& plan = launch.plan;
      if (plan.groups == 0) return;
      const std::size_t local1[1] = {kernels.local_size};
      const std::size_t global1[1] = {plan.groups * kernels.local_size};
      const Kernel rows = *kernels.rows;
      rows.launch(launch.queue, global1, local1, launch.args1);
      final_groups = plan.final_groups;
    } else {
      const auto& plan = launch.column_plan;
      if (plan.groups_x == 0) return;
      const std::size_t local1[2] = {plan.local_x, plan.local_y};
      const std::size_t global1[2] = {plan.groups_x * plan.local_x, plan.parts};
      const Kernel stage1 = kernels.stage1;
      stage1.launch(launch.queue, global1, local1, launch.args1);
      final_groups = plan.final_groups;
    }
    if (final_groups > 0) {
      const std::size_t local2[1] = {kernels.local_size};
      const std::size_t global2[1] = {final_groups * kernels.local_size};
      stage2.launch(launch.queue, global2, local2, launch.args2);
    }
  }

  static void run(const ReductionLaunch& launch) {
    if (launch.split) return run_split(launch);
    if (!launch.slot || launch.plan.groups == 0) return;
    auto [stage1, stage2] = [&] {
      const std::lock_guard lock(launch.slot->mutex);
      // copies for this launch
      return std::pair(launch.slot->kernels[0], launch.slot->kernels[1]);
    }();
    const std::size_t local[1] = {launch.slot->local_size};
    const std::size_t global1[1] = {launch.plan.groups * launch.slot->local_size};
    stage1.launch(launch.queue, global1, local, launch.args1);
    if (launch.plan.final_groups > 0) {
      const std::size_t global2[1] = {launch.plan.final_groups * launch.slot->local_size};
      stage2.launch(launch.queue, global2, local, launch.args2);
    }
  }
};

PlannedReduction plan_reduction(ReductionData& data, const Queue& queue,
                                std::span<const ElementwiseValue> values,
                                const ReductionTarget& target) {
  auto launch = std::make_shared<ReductionLaunch>(data.plan(queue, values, target, false));
  return {*launch->result, [launch] { ReductionData::run(*launch); }};
}

ReductionKernel reduction_combiner(ReductionData& data) {
  const std::lock_guard lock(data.combiner_mutex);
  if (!data.combiner) {
    // A name no user argument may have (the prefix is reserved), so that no macro of the
    // preamble can meet it.
    constexpr const char* partials = "_red_multi_partials";
    auto combiner = std::make_shared<ReductionData>();
    combiner->args = {ElementwiseArg::input(partials, data.output)};
    combiner->output = data.output;
    combiner->neutral = data.neutral;
    combiner->reduce = data.reduce;
    combiner->map = std::string(partials) + "[i]";
    combiner->options = data.options;
    combiner->options.name = data.options.name + "_combine";
    combiner->array_names = {partials};
    combiner->raw_use = {false};
    combiner->outside_use = outside_raw_uses(
        combiner->options.preamble, combiner->options.render_globals, combiner->array_names);
    data.combiner = std::move(combiner);
  }
  return detail::Access::make<ReductionKernel>(data.combiner);
}

}  // namespace detail

ReductionKernel::ReductionKernel(std::vector<ElementwiseArg> args, DType output,
                                 std::string neutral, std::string reduce, std::string map,
                                 ReductionOptions options)
    : impl_(std::make_shared<detail::ReductionData>()) {
  auto& data = *impl_;
  const std::string kernel = fmt::format("ReductionKernel '{}'", options.name);
  data.first_array =
      detail::check_declaration(kernel, options.name, args, options.render_globals,
                                {.reserved_prefixes = {detail::elementwise_reserved_prefix,
                                                       detail::reduction_reserved_prefix},
                                 .inputs_only = true});
  if (output == DType::boolean() || output == DType::float16()) {
    throw LogicError(
        fmt::format("{}: the output dtype {} is not a kernel type on every backend "
                    "(use uint8 or float32)",
                    kernel, output.name()));
  }
  try {
    static_cast<void>(ctype(output));
  } catch (const LogicError& error) {
    throw LogicError(fmt::format("{}: the output dtype: {}", kernel, error.what()));
  }
  for (const auto& [what, text] :
       {std::pair{"neutral", &neutral}, std::pair{"reduce", &reduce}, std::pair{"map", &map}}) {
    if (text->find_first_not_of(" \t\r\n") == std::string::npos) {
      throw LogicError(fmt::format("{}: the {} expression is empty", kernel, what));
    }
  }
  for (const auto& arg : args) data.array_names.push_back(arg.is_array() ? arg.name() : "");
  data.raw_use = detail::rewrite_operation(map, data.array_names, {}).raw_use;
  data.outside_use =
      detail::outside_raw_uses(options.preamble, options.render_globals, data.array_names);
  bool vectorisable = true;
  std::size_t widest = 1;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!args[k].is_array()) continue;
    const auto& dtype = args[k].dtype();
    const auto size = dtype.itemsize();
    vectorisable = vectorisable && !data.raw_use[k] && data.outside_use[k].empty() &&
                   !dtype.is_struct() && dtype != DType::float16() && size <= 8 &&
                   (size & (size - 1)) == 0;
    widest = std::max(widest, size);
  }
  if (vectorisable) data.vector_width = std::min<std::size_t>(8, 16 / widest);
  data.args = std::move(args);
  data.output = std::move(output);
  data.neutral = std::move(neutral);
  data.reduce = std::move(reduce);
  data.map = std::move(map);
  data.options = std::move(options);
}

Array ReductionKernel::launch(const Queue& queue, std::span<const ElementwiseValue> args,
                              const ReductionTarget& target) const {
  const auto launch = impl_->plan(queue, args, target, false);
  detail::ReductionData::run(launch);
  return *launch.result;
}

Program ReductionKernel::program(const Queue& queue, std::span<const ElementwiseValue> args) const {
  const auto launch = impl_->plan(queue, args, ReductionTarget{}, true);
  const std::lock_guard lock(launch.slot->mutex);
  return detail::program_for_user(*launch.slot->program, queue.device());
}

const std::vector<ElementwiseArg>& ReductionKernel::arguments() const noexcept {
  return impl_->args;
}
const DType& ReductionKernel::output_dtype() const noexcept { return impl_->output; }
const std::string& ReductionKernel::name() const noexcept { return impl_->options.name; }

std::size_t ReductionKernel::cached_programs() const {
  std::size_t built = 0;
  detail::for_each_kernel_store([&](detail::KernelStore& store) {
    store.for_each<detail::ReductionSlot>(impl_->recipe, [&](detail::ReductionSlot& slot) {
      const std::lock_guard lock(slot.mutex);
      built += (slot.built() ? 1 : 0) + slot.split.size();
    });
  });
  return built;
}

}  // namespace plinth
