#include <plinth/elementwise.hpp>

#include "algorithms/elementwise_codegen.hpp"
#include "algorithms/outside_uses.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <mutex>
#include <optional>

namespace plinth {

namespace detail {

namespace {

/// Programs kept per kernel object (one per device and layout signature).
constexpr std::size_t max_cached_programs = 32;
/// Work items per group at most, and groups per compute unit at most (the grid-stride loop
/// covers the rest).
constexpr std::size_t preferred_local_size = 256;
constexpr std::size_t groups_per_compute_unit = 32;

bool is_identifier(std::string_view name) {
  const auto alpha = [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  if (name.empty() || !alpha(name[0])) return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

bool reserved(std::string_view name) { return name.starts_with(elementwise_reserved_prefix); }

std::string shape_text(std::span<const std::size_t> shape) {
  return fmt::format("({})", fmt::join(shape, ", "));
}

/// A compiled program for one device and signature, built once.
struct Slot {
  std::mutex mutex;
  std::optional<Program> program;
  std::optional<Kernel> kernel;
  std::size_t local_size = 1;
  std::size_t max_groups = 1;
};

struct CacheEntry {
  BoundDevice device;
  LayoutSignature signature;
  std::shared_ptr<Slot> slot;
};

/// Inline capacities of the per-call containers: calls with up to this many arguments (and
/// strides) allocate nothing on the heap for them.
constexpr std::size_t inline_args = 8;
template <class T, std::size_t N = inline_args>
using SmallVector = boost::container::small_vector<T, N>;

/// A checked call, ready to enqueue: the values of the kernel's parameters (in the order of
/// elementwise_source). The KernelArgs pointing into them are made in run(), so a Launch may
/// be moved.
struct Launch {
  explicit Launch(Queue queue_) : queue(std::move(queue_)) {}
  std::shared_ptr<Slot> slot;
  Queue queue;
  SmallVector<Buffer> buffers;       // per array argument
  SmallVector<std::int64_t> bases;   // per array argument, in elements
  SmallVector<ScalarBytes> scalars;  // per scalar argument
  SmallVector<std::uint64_t> sizes;  // begin, end, then extents 1... of the layout
  SmallVector<std::int64_t, 2 * inline_args> strides;  // per strided argument, per dimension
  std::size_t global_size = 0;                         // 0: nothing to launch
  std::size_t local_size = 1;
};

template <std::size_t N>
struct Raw {
  std::byte bytes[N];
};

KernelArg scalar_arg(const ScalarBytes& scalar) {
  const auto* data = scalar.bytes.data();
  switch (scalar.size) {
    case 1: return KernelArg(*reinterpret_cast<const Raw<1>*>(data));
    case 2: return KernelArg(*reinterpret_cast<const Raw<2>*>(data));
    case 4: return KernelArg(*reinterpret_cast<const Raw<4>*>(data));
    case 8: return KernelArg(*reinterpret_cast<const Raw<8>*>(data));
    default: return KernelArg(*reinterpret_cast<const Raw<16>*>(data));
  }
}

}  // namespace

struct ElementwiseData {
  std::vector<ElementwiseArg> args;
  std::string operation;
  ElementwiseOptions options;
  std::vector<std::string> array_names;  // per argument; empty for scalars
  std::vector<bool> raw_use;             // per argument
  /// Per argument: where outside the operation it is used other than as name[i] (see
  /// outside_raw_uses); empty where nowhere.
  std::vector<std::string> outside_use;
  std::size_t first_array = 0;

  std::mutex cache_mutex;
  std::vector<CacheEntry> cache;  // oldest first

  std::string describe() const { return fmt::format("ElementwiseKernel '{}'", options.name); }

  std::string argument_list() const {
    std::vector<std::string> names;
    for (const auto& arg : args) names.push_back(arg.name());
    return fmt::format("({})", fmt::join(names, ", "));
  }

  [[noreturn]] void fail(const ElementwiseArg& arg, const std::string& problem) const {
    throw LogicError(fmt::format("{}: argument '{}': {}", describe(), arg.name(), problem));
  }

  std::shared_ptr<Slot> slot_for(const BoundDevice& device, const LayoutSignature& signature) {
    const std::lock_guard lock(cache_mutex);
    for (const auto& entry : cache) {
      if (entry.device == device && entry.signature == signature) return entry.slot;
    }
    if (cache.size() >= max_cached_programs) cache.erase(cache.begin());
    cache.push_back({device, signature, std::make_shared<Slot>()});
    return cache.back().slot;
  }

  /// Builds the program of `slot` if it has none yet. Throws RenderError, CompileError.
  void build(Slot& slot, const BoundDevice& device, const LayoutSignature& signature) {
    const std::lock_guard lock(slot.mutex);
    if (slot.kernel) return;
    const auto rewritten = rewrite_operation(operation, array_names, signature.strided);
    const auto preamble = rewrite_preamble(options.preamble, array_names, signature.strided);
    const auto function = generated_kernel_name(elementwise_reserved_prefix, options.name);
    const auto source =
        generated_kernel_comment("ElementwiseKernel", options.name, function) +
        elementwise_source(args, rewritten.text, preamble.text, function, signature);
    ProgramOptions program_options;
    program_options.fast_math = options.fast_math;
    program_options.compiler_options = options.compiler_options;
    program_options.render_globals =
        rewrite_render_globals(options.render_globals, array_names, signature.strided);
    for (std::size_t k = 0; k < args.size(); ++k) {
      if (args[k].dtype().is_struct()) {
        program_options.render_globals[fmt::format("_elw_type{}", k)] = ctype(args[k].dtype());
      }
    }
    const std::size_t index[1] = {device.index()};
    const auto devices = device.context().devices()[std::span<const std::size_t>(index)];
    Program program(devices, source, program_options);
    Kernel kernel = program.kernel(function);

    const auto& params = device.params();
    std::size_t local = preferred_local_size;
    const auto kernel_max = kernel.max_total_local_sizes().front();
    local = std::min(local, std::max<std::size_t>(kernel_max, 1));
    local = std::min(local, std::max<std::size_t>(params.max_total_local_size, 1));
    if (!params.max_local_sizes.empty()) {
      local = std::min(local, std::max<std::size_t>(params.max_local_sizes[0], 1));
    }
    if (params.warp_size > 1 && local > params.warp_size) local -= local % params.warp_size;
    std::size_t groups = std::max<std::size_t>(params.compute_units, 1) * groups_per_compute_unit;
    if (!params.max_num_groups.empty() && params.max_num_groups[0] > 0) {
      groups = std::min(groups, params.max_num_groups[0]);
    }
    slot.program = program;
    slot.kernel = kernel;
    slot.local_size = local;
    slot.max_groups = groups;
  }

  /// Checks a call on `queue` and prepares its launch (building the program if needed and
  /// `compile` or there is work to do).
  Launch plan(const Queue& queue, std::span<const ElementwiseValue> values,
              const std::optional<ElementwiseRange>& range, bool compile) {
    const auto& device = queue.device();
    if (values.size() != args.size()) {
      throw LogicError(fmt::format("{} takes {} arguments {}, got {}", describe(), args.size(),
                                   argument_list(), values.size()));
    }
    // Kinds, dtypes and devices.
    for (std::size_t k = 0; k < args.size(); ++k) {
      const auto& arg = args[k];
      const auto& value = values[k].value();
      if (std::holds_alternative<MultiArray>(value)) {
        fail(arg, "a MultiArray is passed to a single queue (call with a MultiQueue)");
      }
      const auto* array = std::get_if<Array>(&value);
      if (!arg.is_array()) {
        if (array != nullptr)
          fail(arg, fmt::format("is a {} scalar, got an Array", arg.dtype().name()));
        continue;
      }
      if (array == nullptr)
        fail(arg, fmt::format("is a {} array, got a scalar", arg.dtype().name()));
      if (array->dtype() != arg.dtype()) {
        fail(arg,
             fmt::format("must be a {} array, got {}", arg.dtype().name(), array->dtype().name()));
      }
      if (!(array->device() == device)) {
        fail(arg,
             fmt::format("the array is on device {} ('{}'){}, the queue on device {} ('{}')",
                         array->device().index(), array->device().name(),
                         array->device().context() == device.context() ? "" : " of another context",
                         device.index(), device.name()));
      }
      const auto itemsize = static_cast<std::ptrdiff_t>(arg.dtype().itemsize());
      for (std::size_t d = 0; d < array->ndim(); ++d) {
        if (array->shape()[d] > 1 && array->strides()[d] % itemsize != 0) {
          fail(arg, fmt::format("its stride {} (bytes) in dimension {} is not a multiple of its "
                                "itemsize {}",
                                array->strides()[d], d, itemsize));
        }
      }
      if (array->first_element_offset() % static_cast<std::size_t>(itemsize) != 0) {
        fail(arg, fmt::format("its first element lies {} bytes into its buffer, not a multiple "
                              "of its itemsize {}",
                              array->first_element_offset(), itemsize));
      }
    }
    if (!device.params().supports_double) {
      for (const auto& arg : args) {
        if (is_double(arg.dtype())) {
          fail(arg, fmt::format("{} needs double precision, which device {} ('{}') lacks",
                                arg.dtype().name(), device.index(), device.name()));
        }
      }
    }

    // The iteration shape and each array's layout over it.
    const auto& first = std::get<Array>(values[first_array].value());
    const auto& shape = first.shape();
    std::size_t total = 1;
    for (const auto extent : shape) total *= extent;
    SmallVector<AlignedStrides> aligned(args.size());
    LayoutSignature signature;
    signature.strided.assign(args.size(), false);
    bool any_strided = false;
    for (std::size_t k = 0; k < args.size(); ++k) {
      const auto& arg = args[k];
      if (!arg.is_array()) continue;
      const auto& array = std::get<Array>(values[k].value());
      const auto ndim = array.ndim();
      bool broadcastable = ndim <= shape.size();
      for (std::size_t d = 0; broadcastable && d < ndim; ++d) {
        const auto extent = array.shape()[ndim - 1 - d];
        broadcastable = extent == 1 || extent == shape[shape.size() - 1 - d];
      }
      if (!broadcastable) {
        fail(arg,
             fmt::format("its shape {} does not broadcast to the iteration shape {} (the "
                         "shape of '{}', the first array argument)",
                         shape_text(array.shape()), shape_text(shape), args[first_array].name()));
      }
      const bool full = array.size() == total;
      if (arg.is_written() && !full) {
        fail(arg, fmt::format("it is written, but its shape {} would be broadcast to the "
                              "iteration shape {}",
                              shape_text(array.shape()), shape_text(shape)));
      }
      if (full && array.is_contiguous()) continue;  // the fast path
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
      std::vector<std::int64_t> strides(shape.size(), 0);
      const auto itemsize = static_cast<std::int64_t>(arg.dtype().itemsize());
      for (std::size_t d = 0; d < ndim; ++d) {
        const auto at = shape.size() - ndim + d;
        if (array.shape()[d] != 1) strides[at] = array.strides()[d] / itemsize;
      }
      aligned[k] = std::move(strides);
      signature.strided[k] = true;
      any_strided = true;
    }
    signature.restrict_inputs = !aliased(values);

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

    // The merged layout: only where an array is strided (the contiguous case, the common
    // one, needs none and allocates nothing).
    MergedLayout merged;
    if (any_strided) merged = merge_layout(shape, std::span(aligned.data(), aligned.size()));
    signature.rank = merged.shape.size();
    launch.slot = slot_for(device, signature);
    build(*launch.slot, device, signature);
    if (!work) return launch;

    for (std::size_t k = 0; k < args.size(); ++k) {
      const auto& arg = args[k];
      if (arg.is_array()) {
        const auto& array = std::get<Array>(values[k].value());
        launch.buffers.push_back(array.base_buffer());
        launch.bases.push_back(
            static_cast<std::int64_t>(array.first_element_offset() / arg.dtype().itemsize()));
        continue;
      }
      const auto converted = convert_scalar(values[k].value(), arg.dtype());
      if (!converted) {
        const auto& value = values[k].value();
        std::string text;
        if (const auto* v = std::get_if<bool>(&value)) text = *v ? "true" : "false";
        if (const auto* v = std::get_if<std::int64_t>(&value)) text = fmt::format("{}", *v);
        if (const auto* v = std::get_if<std::uint64_t>(&value)) text = fmt::format("{}", *v);
        if (const auto* v = std::get_if<double>(&value)) text = fmt::format("{}", *v);
        if (const auto* v = std::get_if<std::complex<double>>(&value)) {
          text = fmt::format("({}, {})", v->real(), v->imag());
        }
        fail(arg, fmt::format("the value {} is not exactly a {} (pass a value of that type)", text,
                              arg.dtype().name()));
      }
      launch.scalars.push_back(*converted);
    }
    launch.sizes.push_back(begin);
    launch.sizes.push_back(end);
    for (std::size_t d = 1; d < signature.rank; ++d) launch.sizes.push_back(merged.shape[d]);
    if (any_strided) {
      for (std::size_t k = 0; k < args.size(); ++k) {
        for (const auto stride : merged.strides[k]) launch.strides.push_back(stride);
      }
    }

    const std::size_t count = end - begin;
    const std::size_t local = launch.slot->local_size;
    const std::size_t groups =
        std::min(count / local + (count % local != 0 ? 1 : 0), launch.slot->max_groups);
    launch.local_size = local;
    launch.global_size = groups * local;
    return launch;
  }

  /// True if an input array shares memory with an array the kernel writes: its pointer may
  /// then not be `restrict`.
  bool aliased(std::span<const ElementwiseValue> values) const {
    for (std::size_t w = 0; w < args.size(); ++w) {
      if (!args[w].is_written()) continue;
      const auto& written = std::get<Array>(values[w].value()).base_buffer();
      for (std::size_t k = 0; k < args.size(); ++k) {
        if (args[k].kind() != ElementwiseArg::Kind::input) continue;
        if (std::get<Array>(values[k].value()).base_buffer().overlaps(written)) return true;
      }
    }
    return false;
  }

  /// Enqueues a planned launch: its arguments in the kernel's order (elementwise_source).
  void run(const Launch& launch) const {
    if (launch.global_size == 0) return;
    Kernel kernel = [&] {
      const std::lock_guard lock(launch.slot->mutex);
      return *launch.slot->kernel;  // a copy of its own for this launch
    }();
    SmallVector<KernelArg, 4 * inline_args> kernel_args;
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
  const std::string kernel = fmt::format("ElementwiseKernel '{}'", options.name);
  if (!detail::is_identifier(options.name)) {
    throw LogicError(fmt::format("{}: the kernel name is not a C identifier", kernel));
  }
  for (const auto& [name, value] : options.render_globals) {
    if (detail::reserved(name)) {
      throw LogicError(fmt::format("{}: the render global '{}' uses the reserved prefix '{}'",
                                   kernel, name, detail::elementwise_reserved_prefix));
    }
  }
  bool any_array = false;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    const auto problem = [&](const std::string& text) {
      return LogicError(fmt::format("{}: argument '{}': {}", kernel, arg.name(), text));
    };
    if (!detail::is_identifier(arg.name())) throw problem("the name is not a C identifier");
    if (arg.name() == "i") throw problem("the name 'i' is the element index");
    if (detail::reserved(arg.name())) {
      throw problem(
          fmt::format("the prefix '{}' is reserved", detail::elementwise_reserved_prefix));
    }
    for (std::size_t other = 0; other < k; ++other) {
      if (args[other].name() == arg.name()) throw problem("the name repeats");
    }
    if (arg.dtype() == DType::boolean()) {
      throw problem("bool is not a kernel argument type on every backend (use uint8)");
    }
    if (arg.dtype().is_struct() && !arg.is_array()) {
      throw problem("struct scalars are not supported (pass a struct array)");
    }
    try {
      static_cast<void>(detail::elementwise_type_text(arg, k));
      if (arg.dtype().is_struct()) static_cast<void>(ctype(arg.dtype()));
    } catch (const LogicError& error) {
      throw problem(error.what());
    }
    if (arg.is_array() && !any_array) {
      data.first_array = k;
      any_array = true;
    }
  }
  if (!any_array) {
    throw LogicError(fmt::format(
        "{}: no array argument (the first array argument defines the iteration shape)", kernel));
  }
  for (const auto& arg : args) data.array_names.push_back(arg.is_array() ? arg.name() : "");
  data.raw_use = detail::rewrite_operation(operation, data.array_names, {}).raw_use;
  data.outside_use =
      detail::outside_raw_uses(options.preamble, options.render_globals, data.array_names);
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
    std::vector<ElementwiseValue> values;
    values.reserve(args.size());
    for (std::size_t k = 0; k < args.size(); ++k) {
      const auto& value = args[k].value();
      if (const auto* multi = std::get_if<MultiArray>(&value)) {
        try {
          values.emplace_back((*multi)[queue.device()]);
        } catch (const LogicError& error) {
          throw LogicError(fmt::format("{}: argument '{}': {}", impl_->describe(),
                                       k < impl_->args.size() ? impl_->args[k].name() : "?",
                                       error.what()));
        }
      } else {
        values.push_back(args[k]);
      }
    }
    launches.push_back(impl_->plan(queue, values, std::nullopt, false));
  }
  for (const auto& launch : launches) impl_->run(launch);
}

Program ElementwiseKernel::program(const Queue& queue,
                                   std::span<const ElementwiseValue> args) const {
  const auto launch = impl_->plan(queue, args, std::nullopt, true);
  const std::lock_guard lock(launch.slot->mutex);
  return *launch.slot->program;
}

const std::vector<ElementwiseArg>& ElementwiseKernel::arguments() const noexcept {
  return impl_->args;
}
const std::string& ElementwiseKernel::operation() const noexcept { return impl_->operation; }
const std::string& ElementwiseKernel::name() const noexcept { return impl_->options.name; }

std::size_t ElementwiseKernel::cached_programs() const {
  std::vector<std::shared_ptr<detail::Slot>> slots;
  {
    const std::lock_guard lock(impl_->cache_mutex);
    for (const auto& entry : impl_->cache) slots.push_back(entry.slot);
  }
  std::size_t built = 0;
  for (const auto& slot : slots) {
    const std::lock_guard lock(slot->mutex);
    built += slot->kernel ? 1 : 0;
  }
  return built;
}

}  // namespace plinth
