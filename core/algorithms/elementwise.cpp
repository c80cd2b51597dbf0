// ElementwiseKernel: checks a call (kit/kernel_arguments.hpp), plans its layout
// (kit/layout_plan.hpp), finds or builds the program for its layout signature in the
// Context's store (kit/program_slot.hpp), and launches it. The source is elementwise_source's.

#include <plinth/elementwise.hpp>

#include "algorithms/array_expression_rules.hpp"
#include "algorithms/elementwise_codegen.hpp"
#include "algorithms/kit/kernel_arguments.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/layout_plan.hpp"
#include "algorithms/kit/multi_parts.hpp"
#include "algorithms/kit/program_slot.hpp"
#include "algorithms/outside_uses.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <mutex>
#include <optional>

namespace plinth {

namespace detail {

namespace {

/// Work items per group at most, and groups per compute unit at most (the grid-stride loop
/// covers the rest).
constexpr std::size_t preferred_local_size = 256;
constexpr std::size_t elementwise_groups_per_compute_unit = 32;
/// Elements per vector at most (each lane repeats the operation in the source).
constexpr std::size_t max_vector_width = 8;
/// Bytes a vector load or store moves at most.
constexpr std::size_t vector_bytes = 16;

/// Inline capacities of the per-call containers: calls with up to this many arguments (and
/// strides) allocate nothing on the heap for them.
constexpr std::size_t inline_args = 8;

/// A checked call, ready to enqueue: the values of the kernel's parameters (in the order of
/// elementwise_source). The KernelArgs pointing into them are made in run(), so a Launch may
/// be moved.
struct Launch {
  explicit Launch(Queue queue_) : queue(std::move(queue_)) {}
  std::shared_ptr<ProgramSlot> slot;
  Queue queue;
  SmallVector<Buffer, inline_args> buffers;       // per array argument
  SmallVector<std::int64_t, inline_args> bases;   // per array argument, in elements
  SmallVector<ScalarBytes, inline_args> scalars;  // per scalar argument
  SmallVector<std::uint64_t, inline_args> sizes;  // begin, end, then extents 1... of the layout
  SmallVector<std::uint64_t, 4> multipliers;      // with index32: per extent 1...
  SmallVector<std::uint32_t, 4> shifts;           // with index32: per extent 1...
  SmallVector<std::int64_t, 2 * inline_args> strides;  // per strided argument, per dimension
  std::size_t global_size = 0;                         // 0: nothing to launch
  std::size_t local_size = 1;
};

/// Whether arrays of `dtype` may be loaded and stored as vectors: its C type is a plain
/// value of a power-of-two size (not a struct, not float16, whose CUDA type has constructors).
bool vector_dtype(const DType& dtype) {
  const auto size = dtype.itemsize();
  return !dtype.is_struct() && dtype != DType::float16() && size <= 8 && (size & (size - 1)) == 0;
}

}  // namespace

struct ElementwiseData {
  RecipeId recipe = next_recipe_id();
  std::vector<ElementwiseArg> args;
  std::string operation;
  ElementwiseOptions options;
  std::vector<std::string> array_names;  // per argument; empty for scalars
  std::vector<bool> raw_use;             // per argument
  /// Per argument: where outside the operation it is used other than as name[i] (see
  /// outside_raw_uses); empty where nowhere.
  std::vector<std::string> outside_use;
  std::size_t first_array = 0;
  /// The first written array argument, if any: the dimensions are ordered by its strides.
  std::optional<std::size_t> first_written;
  /// The operation (or the preamble) uses the index `i` itself, or an array other than as
  /// `name[i]`: the dimensions keep their order (a contiguous array then stays addressed by
  /// the row-major index, as such a use needs).
  bool keep_order = false;
  /// Elements per vector for the vectorised kernel (0: never vectorised).
  std::size_t vector_width = 0;
  std::string kernel_text;  // "ElementwiseKernel '<name>'"

  const std::string& describe() const { return kernel_text; }

  [[noreturn]] void fail(const ElementwiseArg& arg, const std::string& problem) const {
    throw LogicError(fmt::format("{}: argument '{}': {}", describe(), arg.name(), problem));
  }

  /// Builds the program of `slot` if it has none yet. Throws RenderError, CompileError.
  void build(ProgramSlot& slot, const BoundDevice& device, const LayoutSignature& signature) const {
    const std::lock_guard lock(slot.mutex);
    if (slot.built()) return;
    const auto rewritten = rewrite_operation(operation, array_names, signature.strided);
    const auto preamble = rewrite_preamble(options.preamble, array_names, signature.strided);
    std::string vector_operation;
    if (signature.vector_width > 1) {
      std::vector<std::string> lanes(args.size());
      for (std::size_t k = 0; k < args.size(); ++k) {
        const auto kind = args[k].kind();
        if (kind == ElementwiseArg::Kind::input || kind == ElementwiseArg::Kind::inout ||
            (kind == ElementwiseArg::Kind::output && signature.vector_stores)) {
          lanes[k] = vector_lane_name(k);
        }
      }
      vector_operation = rewrite_operation_with(operation, array_names, lanes).text;
    }
    const auto function = generated_kernel_name(elementwise_reserved_prefix, options.name);
    const auto source = generated_kernel_comment("ElementwiseKernel", options.name, function) +
                        elementwise_source(args, rewritten.text, preamble.text, function, signature,
                                           vector_operation);
    const auto program_options = generated_program_options(
        options.fast_math, options.compiler_options,
        rewrite_render_globals(options.render_globals, array_names, signature.strided), args);
    Program program = build_for_store(device, source, program_options);
    Kernel kernel = program.kernel(function);
    const auto& params = device.params();
    slot.local_size =
        local_size_for(params, kernel.max_total_local_sizes().front(), preferred_local_size);
    slot.max_groups = group_limit(params, elementwise_groups_per_compute_unit);
    slot.program = std::move(program);
    slot.kernels.push_back(std::move(kernel));
  }

  /// Checks that array argument `k` of shape `shape` may be strided, and its strides over
  /// the iteration shape into `strides`. Throws LogicError.
  void strided_layout(std::size_t k, const Array& array, std::span<const std::size_t> shape,
                      std::span<std::int64_t> strides) const {
    const auto& arg = args[k];
    if (raw_use[k]) {
      fail(arg, fmt::format("the operation uses it other than as {}[i], so it must be a "
                            "contiguous array of the iteration shape {}, got shape {} with "
                            "strides ({}) bytes",
                            arg.name(), shape_text(shape), shape_text(array.shape()),
                            fmt::join(array.strides(), ", ")));
    }
    if (!outside_use[k].empty()) {
      fail(arg, fmt::format("{} uses it other than as {}[i], so it must be a contiguous array "
                            "of the iteration shape {}, got shape {} with strides ({}) bytes",
                            outside_use[k], arg.name(), shape_text(shape),
                            shape_text(array.shape()), fmt::join(array.strides(), ", ")));
    }
    const auto element = element_strides(describe(), arg, array, shape, args[first_array].name());
    std::copy(element.begin(), element.end(), strides.begin());
  }

  /// Whether every array's first element of the range is aligned to its vector's size, so
  /// the vectorised kernel may run. Throws nothing.
  bool vectors_aligned(std::span<const ElementwiseValue> values, const BoundDevice& device,
                       std::size_t begin) const {
    if (device.params().address_alignment < vector_bytes) return false;
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (!args[k].is_array()) continue;
      const auto& array = std::get<Array>(detail::Access::impl(values[k]));
      const auto itemsize = args[k].dtype().itemsize();
      const auto offset =
          array.base_buffer().offset() + array.first_element_offset() + begin * itemsize;
      if (offset % (vector_width * itemsize) != 0) return false;
    }
    return true;
  }

  /// Each array argument's strides in elements over `shape` (`shape.size()` per array, into
  /// `strides`), checking that it broadcasts and that written arrays are whole. Returns
  /// whether every array is contiguous and of the iteration shape. Throws LogicError.
  bool gather_strides(std::span<const ElementwiseValue> values, std::span<const std::size_t> shape,
                      std::size_t total,
                      SmallVector<std::int64_t, 4 * inline_args>& strides) const {
    const std::size_t ndim = shape.size();
    bool all_contiguous = true;
    for (std::size_t k = 0; k < args.size(); ++k) {
      const auto& arg = args[k];
      if (!arg.is_array()) continue;
      const auto& array = std::get<Array>(detail::Access::impl(values[k]));
      if (!broadcasts_to(array, shape)) {
        static_cast<void>(element_strides(describe(), arg, array, shape, args[first_array].name()));
      }
      const bool full = array.size() == total;
      if (arg.is_written() && !full) {
        fail(arg, fmt::format("it is written, but its shape {} would be broadcast to the "
                              "iteration shape {}",
                              shape_text(array.shape()), shape_text(shape)));
      }
      strides.resize(strides.size() + ndim);
      const std::span<std::int64_t> own(strides.data() + strides.size() - ndim, ndim);
      if (full && array.is_contiguous()) {
        std::int64_t step = 1;
        for (std::size_t d = ndim; d-- > 0;) {
          own[d] = shape[d] == 1 ? 0 : step;
          step *= static_cast<std::int64_t>(shape[d]);
        }
        continue;
      }
      all_contiguous = false;
      strided_layout(k, array, shape, own);
    }
    return all_contiguous;
  }

  /// The layout plan of a call whose arrays are not all contiguous (nothing when every array
  /// turns out to be addressed directly). The dimensions are ordered by the first written
  /// array unless the operation uses `i` itself or a range is given.
  std::optional<LayoutPlan> plan_call(std::span<const std::size_t> shape,
                                      std::span<const std::int64_t> strides, bool ranged) const {
    std::optional<std::size_t> order_by;
    if (!keep_order && !ranged && first_written) {
      std::size_t position = 0;  // the written array's position among the arrays
      for (std::size_t k = 0; k < *first_written; ++k) position += args[k].is_array() ? 1 : 0;
      order_by = position;
    }
    auto plan = plan_layout(shape, strides, strides.size() / std::max<std::size_t>(shape.size(), 1),
                            order_by);
    if (plan.all_direct()) return std::nullopt;
    return plan;
  }

  /// Checks a call on `queue` and prepares its launch (building the program if needed and
  /// `compile` or there is work to do).
  Launch plan(const Queue& queue, std::span<const ElementwiseValue> values,
              const std::optional<ElementwiseRange>& range, bool compile) {
    const auto& device = queue.device();
    check_call(describe(), args, values, device,
               "a MultiArray is passed to a single queue (call with a MultiQueue)");

    // The iteration shape and each array's strides over it, in elements.
    const auto& shape = std::get<Array>(detail::Access::impl(values[first_array])).shape();
    std::size_t total = 1;
    for (const auto extent : shape) total *= extent;
    SmallVector<std::int64_t, 4 * inline_args> strides;
    const bool all_contiguous = gather_strides(values, shape, total, strides);

    std::size_t begin = 0, end = total;
    if (range) {
      if (range->begin > range->end || range->end > total) {
        throw LogicError(fmt::format(
            "{}: the range [{}, {}) is not within the {} elements of the iteration shape {}",
            describe(), range->begin, range->end, total, shape_text(shape)));
      }
      begin = range->begin;
      end = range->end;
    }
    Launch launch(queue);
    const bool work = end > begin;
    if (!work && !compile) return launch;

    // The layout: planned only where an array is not contiguous (the common case, all
    // contiguous, needs no plan).
    LayoutSignature signature;
    signature.restrict_inputs = !aliased(values);
    std::optional<LayoutPlan> plan;
    if (!all_contiguous && !shape.empty()) {
      plan = plan_call(shape, std::span<const std::int64_t>(strides.data(), strides.size()),
                       range.has_value());
    }
    SmallVector<bool, inline_args> strided(args.size(), false);
    if (plan) {
      signature.rank = plan->rank();
      signature.index32 = plan->index32;
      for (std::size_t k = 0, a = 0; k < args.size(); ++k) {
        if (args[k].is_array()) strided[k] = !plan->direct[a++];
      }
    } else if (vector_width > 1 && end - begin >= 2 * vector_width &&
               vectors_aligned(values, device, begin)) {
      signature.vector_width = vector_width;
      signature.vector_stores = options.writes_every_element;
    }
    const auto words = signature_words(signature, strided);
    launch.slot =
        store_slot(recipe, device, std::span<const std::uint64_t>(words.data(), words.size()));
    if (!launch.slot->built()) {
      signature.strided.assign(strided.begin(), strided.end());
      build(*launch.slot, device, signature);
    }
    if (!work) return launch;
    fill_launch(launch, values, plan, std::span<const bool>(strided.data(), strided.size()), begin,
                end, signature.vector_width);
    return launch;
  }

  /// Fills a planned launch's parameter values and sizes (elementwise_source's order).
  /// Throws LogicError as scalar_value.
  void fill_launch(Launch& launch, std::span<const ElementwiseValue> values,
                   const std::optional<LayoutPlan>& plan, std::span<const bool> strided,
                   std::size_t begin, std::size_t end, std::size_t vector) const {
    gather_call_values(describe(), args, values, launch.buffers, launch.bases, launch.scalars);
    launch.sizes.push_back(begin);
    launch.sizes.push_back(end);
    if (plan) {
      for (std::size_t d = 1; d < plan->rank(); ++d) {
        launch.sizes.push_back(plan->shape[d]);
        if (plan->index32) {
          const auto divisor = fast_divisor(static_cast<std::uint32_t>(plan->shape[d]));
          launch.multipliers.push_back(divisor.multiplier);
          launch.shifts.push_back(divisor.shift);
        }
      }
      for (std::size_t k = 0, a = 0; k < args.size(); ++k) {
        if (!args[k].is_array()) continue;
        if (strided[k]) {
          for (const auto stride : plan->strides_of(a)) launch.strides.push_back(stride);
        }
        ++a;
      }
    }
    const std::size_t count = end - begin;
    const std::size_t items = vector > 1 ? std::max(count / vector, count % vector) : count;
    launch.local_size = launch.slot->local_size;
    launch.global_size =
        groups_for(items, launch.local_size, launch.slot->max_groups) * launch.local_size;
  }

  /// True if an input array shares memory with an array the kernel writes: its pointer may
  /// then not be `restrict`.
  bool aliased(std::span<const ElementwiseValue> values) const {
    for (std::size_t w = 0; w < args.size(); ++w) {
      if (!args[w].is_written()) continue;
      const auto& written = std::get<Array>(detail::Access::impl(values[w])).base_buffer();
      for (std::size_t k = 0; k < args.size(); ++k) {
        if (args[k].kind() != ElementwiseArg::Kind::input) continue;
        if (std::get<Array>(detail::Access::impl(values[k])).base_buffer().overlaps(written))
          return true;
      }
    }
    return false;
  }

  /// Enqueues a planned launch: its arguments in the kernel's order (elementwise_source).
  void run(const Launch& launch) const {
    if (launch.global_size == 0) return;
    Kernel kernel = [&] {
      const std::lock_guard lock(launch.slot->mutex);
      return launch.slot->kernels.front();  // a copy of its own for this launch
    }();
    SmallVector<KernelArg, 6 * inline_args> kernel_args;
    std::size_t array = 0, scalar = 0;
    for (const auto& arg : args) {
      if (arg.is_array()) {
        kernel_args.emplace_back(launch.buffers[array]);
        kernel_args.emplace_back(launch.bases[array]);
        ++array;
      } else {
        kernel_args.push_back(scalar_arg(launch.scalars[scalar++]));
      }
    }
    for (const auto& size : launch.sizes) kernel_args.emplace_back(size);
    for (std::size_t d = 0; d < launch.multipliers.size(); ++d) {
      kernel_args.emplace_back(launch.multipliers[d]);
      kernel_args.emplace_back(launch.shifts[d]);
    }
    for (const auto& stride : launch.strides) kernel_args.emplace_back(stride);
    const std::size_t global[1] = {launch.global_size};
    const std::size_t local[1] = {launch.local_size};
    kernel.launch(launch.queue, global, local,
                  std::span<const KernelArg>(kernel_args.data(), kernel_args.size()));
  }
};

}  // namespace detail

ElementwiseKernel::ElementwiseKernel(std::vector<ElementwiseArg> args, std::string operation,
                                     ElementwiseOptions options)
    : impl_(std::make_shared<detail::ElementwiseData>()) {
  auto& data = *impl_;
  data.kernel_text = fmt::format("ElementwiseKernel '{}'", options.name);
  data.first_array =
      detail::check_declaration(data.kernel_text, options.name, args, options.render_globals,
                                {.reserved_prefixes = {detail::elementwise_reserved_prefix}});
  for (const auto& arg : args) data.array_names.push_back(arg.is_array() ? arg.name() : "");
  const auto scanned = detail::rewrite_operation(operation, data.array_names, {});
  data.raw_use = scanned.raw_use;
  data.outside_use =
      detail::outside_raw_uses(options.preamble, options.render_globals, data.array_names);
  // `i` in the preamble (a macro using it, say) counts as a use too.
  data.keep_order = scanned.index_use ||
                    detail::rewrite_operation(options.preamble, data.array_names, {}).index_use;
  for (std::size_t k = 0; k < args.size(); ++k) {
    data.keep_order = data.keep_order || data.raw_use[k] || !data.outside_use[k].empty();
  }
  bool vectorisable = true;
  std::size_t widest = 1;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k].is_written() && !data.first_written) data.first_written = k;
    if (!args[k].is_array()) continue;
    vectorisable = vectorisable && !data.raw_use[k] && data.outside_use[k].empty() &&
                   detail::vector_dtype(args[k].dtype());
    widest = std::max(widest, args[k].dtype().itemsize());
  }
  if (vectorisable) {
    data.vector_width = std::min(detail::max_vector_width, detail::vector_bytes / widest);
  }
  data.args = std::move(args);
  data.operation = std::move(operation);
  data.options = std::move(options);
}

void ElementwiseKernel::launch(const Queue& queue, std::span<const ElementwiseValue> args,
                               const std::optional<ElementwiseRange>& range) const {
  const auto launch = impl_->plan(queue, args, range, false);
  impl_->run(launch);
}

void ElementwiseKernel::launch(const MultiQueue& queues,
                               std::span<const ElementwiseValue> args) const {
  // Every device's arguments are checked and its program built before anything is enqueued.
  std::vector<detail::Launch> launches;
  launches.reserve(queues.queues().size());
  for (const auto& queue : queues.queues()) {
    const auto values = detail::values_on(impl_->describe(), impl_->args, args, queue.device());
    launches.push_back(impl_->plan(queue, values, std::nullopt, false));
  }
  for (const auto& launch : launches) impl_->run(launch);
}

Program ElementwiseKernel::program(const Queue& queue,
                                   std::span<const ElementwiseValue> args) const {
  const auto launch = impl_->plan(queue, args, std::nullopt, true);
  const std::lock_guard lock(launch.slot->mutex);
  return detail::program_for_user(*launch.slot->program, queue.device());
}

const std::vector<ElementwiseArg>& ElementwiseKernel::arguments() const noexcept {
  return impl_->args;
}
const std::string& ElementwiseKernel::operation() const noexcept { return impl_->operation; }
const std::string& ElementwiseKernel::name() const noexcept { return impl_->options.name; }

std::size_t ElementwiseKernel::cached_programs() const {
  return detail::built_slots(impl_->recipe);
}

}  // namespace plinth
