#include <plinth/scan.hpp>

#include "algorithms/elementwise_codegen.hpp"
#include "algorithms/kit/kernel_arguments.hpp"
#include "algorithms/kit/launch_sizing.hpp"
#include "algorithms/kit/program_slot.hpp"
#include "algorithms/kit/recipe_cache.hpp"
#include "algorithms/scan_codegen.hpp"
#include "algorithms/scan_multi.hpp"
#include "diagnostics/debug.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_metadata.hpp>
#include <plinth/device_features.hpp>
#include <plinth/dtype_c.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>
#include <plinth/functions.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>

namespace plinth {

namespace detail {

namespace {

/// Groups per compute unit for stages 1 and 3 (enough to fill a GPU's multiprocessors; the
/// group totals stay few, so stage 2 is short).
constexpr std::size_t scan_groups_per_compute_unit = 8;
bool is_real_scalar(const DType& dtype) {
  return dtype.kind() == DTypeKind::signed_integer || dtype.kind() == DTypeKind::unsigned_integer ||
         dtype.kind() == DTypeKind::floating;
}

/// A device's compiled program (kernels: reduce, groups, final), built once, with the
/// geometry it was built for.
struct ScanSlot : ProgramSlot {
  ScanGeometry geometry;
  /// The program has the single-pass kernel (kernels[5]) and calls use it.
  bool single_pass = false;
};

/// What a device lacks for the single-pass scan, or nothing.
std::string_view single_pass_missing(const DeviceFeatures& features) {
  if (!features.atomics) return "atomics";
  if (!features.device_scope_acquire_release) return "device_scope_acquire_release";
  return {};
}

/// The dialect's suffix of `dtype`'s sub-group functions, or nothing.
std::string_view sub_group_suffix_of(const DType& dtype) {
  if (dtype == DType::int32()) return "int";
  if (dtype == DType::uint32()) return "uint";
  if (dtype == DType::int64()) return "long";
  if (dtype == DType::uint64()) return "ulong";
  if (dtype == DType::float32()) return "float";
  if (dtype == DType::float64()) return "double";
  return {};
}

/// Tiles a single-pass launch may number (a 32-bit counter).
constexpr std::size_t max_single_pass_tiles = std::size_t{1} << 31;

}  // namespace

struct ScanData {
  DType dtype;
  DType input_dtype;
  ScanKind kind = ScanKind::inclusive;
  std::string expression;
  std::string neutral;
  ScanOptions options;

  RecipeId recipe = next_recipe_id();
  std::mutex copy_mutex;
  std::optional<ElementwiseKernel> copy;
  /// MultiQueue calls' kernels (scan_multi.cpp), made by the first that needs them.
  std::optional<ElementwiseKernel> carry, convert;

  ScanData(DType dtype_, DType input_dtype_)
      : dtype(std::move(dtype_)), input_dtype(std::move(input_dtype_)) {}

  std::string describe() const { return fmt::format("ScanKernel '{}'", options.name); }

  [[noreturn]] void fail(std::string_view argument, const std::string& problem) const {
    throw LogicError(fmt::format("{}: argument '{}': {}", describe(), argument, problem));
  }

  /// The slot of `device` in its Context's store.
  std::shared_ptr<ScanSlot> slot_for(const BoundDevice& device) const {
    return store_slot<ScanSlot>(recipe, device, {});
  }

  /// Builds the program of `slot` if it has none yet. Throws RenderError, CompileError.
  void build(ScanSlot& slot, const BoundDevice& device) const {
    const std::lock_guard lock(slot.mutex);
    if (slot.built()) return;
    const auto& params = device.params();
    const auto missing = single_pass_missing(device.features());
    if (options.algorithm == ScanAlgorithm::single_pass && !missing.empty()) {
      throw LogicError(fmt::format(
          "{}: the single-pass scan needs the device feature '{}', which device {} ('{}') "
          "lacks (use ScanAlgorithm::automatic or three_pass)",
          describe(), missing, device.index(), device.name()));
    }
    // Automatic takes the three passes everywhere for now: on an H100 the single pass reaches
    // 0.56 of CUB's scan where the three passes reach 0.76 (scan.hpp, "Algorithm").
    const bool single_pass = options.algorithm == ScanAlgorithm::single_pass;
    debug(DebugTopic::compile, "{} on device {} ('{}'): the {} scan{}", describe(), device.index(),
          device.name(), single_pass ? "single-pass" : "three-pass",
          options.algorithm != ScanAlgorithm::automatic
              ? " (forced)"
              : (missing.empty() ? " (automatic; the single pass would run here)"
                                 : fmt::format(" (automatic; the device lacks '{}' for the "
                                               "single pass)",
                                               missing)));
    ScanLimits limits;
    limits.itemsize = dtype.itemsize();
    limits.max_local_size = std::max<std::size_t>(params.max_total_local_size, 1);
    if (!params.max_local_sizes.empty()) {
      limits.max_local_size =
          std::min(limits.max_local_size, std::max<std::size_t>(params.max_local_sizes[0], 1));
    }
    limits.local_mem_size = params.local_mem_size;
    limits.warp_size = params.warp_size;

    ProgramOptions program_options;
    program_options.fast_math = options.fast_math;
    program_options.compiler_options = options.compiler_options;
    program_options.render_globals = options.render_globals;
    program_options.render_globals["_scan_type"] = ctype(dtype);
    program_options.render_globals["_scan_in_type"] = ctype(input_dtype);
    // A kernel may allow fewer work items than the device (registers, local memory): build
    // again with its limit until the geometry fits every kernel.
    for (;;) {
      const auto geometry = choose_scan_geometry(limits);
      ScanSourceSpec spec;
      const auto function = generated_kernel_name(scan_reserved_prefix, options.name);
      spec.name = function;
      spec.preamble = options.preamble;
      spec.expression = expression;
      spec.neutral = neutral;
      spec.exclusive = kind == ScanKind::exclusive;
      spec.convert_input = input_dtype != dtype;
      spec.geometry = geometry;
      spec.single_pass = single_pass;
      // The sub-group functions exist where the device has the dialect's atomics.
      if (device.features().atomics) spec.sub_group_suffix = sub_group_suffix_of(dtype);
      Program program = build_for_store(
          device,
          generated_kernel_comment(
              "ScanKernel", options.name,
              fmt::format("{0}_reduce, {0}_groups, {0}_final, {0}_rows, {0}_clear{1}", function,
                          single_pass ? fmt::format(", {}_single", function) : "")) +
              scan_source(spec),
          program_options);
      std::vector<Kernel> kernels;
      for (const char* suffix : {"_reduce", "_groups", "_final", "_rows", "_clear", "_single"}) {
        if (!single_pass && std::string_view(suffix) == "_single") break;
        kernels.push_back(program.kernel(function + suffix));
      }
      std::size_t allowed = geometry.local_size;
      for (const auto& kernel : kernels) {
        allowed = std::min(allowed, kernel.max_total_local_sizes().front());
      }
      if (allowed < geometry.local_size && allowed >= 1) {
        limits.max_local_size = allowed;
        continue;
      }
      slot.program = program;
      slot.kernels.assign(kernels.begin(), kernels.end());
      slot.single_pass = single_pass;
      slot.geometry = geometry;
      slot.local_size = geometry.local_size;
      slot.max_groups = group_limit(params, scan_groups_per_compute_unit);
      return;
    }
  }

  void check_double(const BoundDevice& device) const {
    if (device.params().supports_double) return;
    for (const auto* checked : {&dtype, &input_dtype}) {
      if (is_double(*checked)) {
        throw LogicError(fmt::format("{}: {} needs double precision, which device {} ('{}') lacks",
                                     describe(), checked->name(), device.index(), device.name()));
      }
    }
  }

  void check_array(std::string_view argument, const Array& array, const DType& expected,
                   const BoundDevice& device) const {
    if (auto problem = array_argument_problem(array, expected, device); !problem.empty())
      fail(argument, problem);
  }

  /// The kernel copying a strided input into a contiguous array.
  ElementwiseKernel copy_kernel() {
    const std::lock_guard lock(copy_mutex);
    if (!copy) {
      copy.emplace(std::vector<ElementwiseArg>{ElementwiseArg::output("dst", input_dtype),
                                               ElementwiseArg::input("src", input_dtype)},
                   "dst[i] = src[i]", ElementwiseOptions{.name = options.name + "_gather"});
    }
    return *copy;
  }

  /// Checks a call's arrays on `queue` (see ScanKernel::operator()). Throws LogicError.
  void check(const Queue& queue, const Array& input, const Array& output) const {
    const auto& device = queue.device();
    check_array("input", input, input_dtype, device);
    check_array("output", output, dtype, device);
    if (!output.is_contiguous()) {
      fail("output", "must be a C-contiguous array (write through a contiguous array and copy)");
    }
    if (output.size() != input.size()) {
      fail("output", fmt::format("has {} elements, the input {}", output.size(), input.size()));
    }
    check_double(device);
  }

  void run(const Queue& queue, const Array& input, const Array& output) {
    check(queue, input, output);
    const auto& device = queue.device();
    const std::size_t n = input.size();
    if (n == 0) return;

    const auto slot = slot_for(device);
    build(*slot, device);
    launch_flat(queue, *slot, contiguous_source(queue, input, output), output, n);
  }

  /// The axis number `axis` of an array of `ndim` dimensions stands for. Throws LogicError.
  std::size_t normalize_axis(int axis, std::size_t ndim) const {
    const auto dims = static_cast<long long>(ndim);
    const long long normalized = axis < 0 ? axis + dims : axis;
    if (normalized < 0 || normalized >= dims) {
      fail("axis", fmt::format("axis {} is out of range for an array of {} dimension{}", axis, ndim,
                               ndim == 1 ? "" : "s"));
    }
    return static_cast<std::size_t>(normalized);
  }

  void run_axis(const Queue& queue, const Array& input, const Array& output, int axis) {
    const std::size_t along = normalize_axis(axis, input.ndim());
    check(queue, input, output);
    if (output.shape() != input.shape()) {
      fail("output", fmt::format("has the shape {}, the input {}", fmt::join(output.shape(), "x"),
                                 fmt::join(input.shape(), "x")));
    }
    const std::size_t n = input.size();
    if (n == 0) return;
    const auto& device = queue.device();
    const auto slot = slot_for(device);
    build(*slot, device);
    const std::size_t length = input.shape()[along];
    const std::size_t rows = n / length;
    if (along + 1 == input.ndim()) {
      launch_rows(queue, *slot, contiguous_source(queue, input, output), output, rows, length);
      return;
    }
    // Another axis: moved last by a (tiled) copy, scanned as rows, and copied back.
    std::vector<std::size_t> order;
    for (std::size_t d = 0; d < input.ndim(); ++d) {
      if (d != along) order.push_back(d);
    }
    order.push_back(along);
    const auto moved = [&](const Array& array) {
      std::vector<std::size_t> shape;
      std::vector<std::ptrdiff_t> strides;
      for (const auto d : order) {
        shape.push_back(array.shape()[d]);
        strides.push_back(array.strides()[d]);
      }
      return Array::from_buffer(array.base_buffer(), ArrayMetadata(shape, array.dtype(), strides,
                                                                   array.first_element_offset(),
                                                                   array.base_buffer().size()));
    };
    const Array moved_input = moved(input);
    const Array rows_in = Array::empty(queue, moved_input.shape(), input_dtype);
    copy_into(queue, rows_in, moved_input);
    const Array rows_out = Array::empty(queue, moved_input.shape(), dtype);
    launch_rows(queue, *slot, rows_in, rows_out, rows, length);
    copy_into(queue, moved(output), rows_out);
  }

  /// The contiguous array holding `input`'s elements that a scan into `output` reads: the
  /// input itself, or a copy of it (into the output itself where that is safe).
  Array contiguous_source(const Queue& queue, const Array& input, const Array& output) {
    // The contiguous array the kernels read.
    // In place: the input is the output itself (same first byte, dtype and contiguous
    // layout); any other overlap (an int32 input in the bytes of an int64 output, a shifted
    // view) is read into a temporary array first.
    const bool same_allocation = input.base_buffer().overlaps(output.base_buffer());
    const bool in_place = same_allocation && input_dtype == dtype && input.is_contiguous() &&
                          input.base_buffer().offset() + input.first_element_offset() ==
                              output.base_buffer().offset() + output.first_element_offset();
    Array source = input;
    if (!input.is_contiguous() || (same_allocation && !in_place)) {
      if (!same_allocation && input_dtype == dtype) {
        // Gather into the output itself, seen with the input's shape; then scan in place.
        const ArrayMetadata as_input(input.shape(), dtype, std::nullopt,
                                     output.first_element_offset(), output.base_buffer().size());
        source = Array::from_buffer(output.base_buffer(), as_input);
      } else {
        source = Array::empty(queue, input.shape(), input_dtype);
      }
      copy_kernel()(queue, source, input);
    }
    return source;
  }

  /// The slot's kernels, copies of their own for one call.
  static std::vector<Kernel> kernels_of(ScanSlot& slot) {
    const std::lock_guard lock(slot.mutex);
    return {slot.kernels.begin(), slot.kernels.end()};
  }

  /// Scans the `n` contiguous elements of `source` into the contiguous `output` (built slot).
  void launch_flat(const Queue& queue, ScanSlot& slot, const Array& source, const Array& output,
                   std::size_t n) const {
    const auto kernels = kernels_of(slot);
    const auto in_offset =
        static_cast<std::int64_t>(source.first_element_offset() / input_dtype.itemsize());
    const auto out_offset =
        static_cast<std::int64_t>(output.first_element_offset() / dtype.itemsize());
    const auto count = static_cast<std::uint64_t>(n);
    const std::size_t local[1] = {slot.geometry.local_size};
    const Buffer& in_buffer = source.base_buffer();
    const Buffer& out_buffer = output.base_buffer();

    const std::size_t tiles = (n + slot.geometry.tile() - 1) / slot.geometry.tile();
    if (slot.single_pass && tiles <= max_single_pass_tiles) {
      // The tile counter and statuses (zeroed by _clear), and the tiles' aggregates and
      // prefixes: from the memory pool, for this queue (reused by its next call).
      const Array state = Array::empty(queue, {tiles + 1}, DType::uint32());
      const Array values = Array::empty(queue, {2 * tiles}, dtype);
      const Buffer& state_buffer = state.base_buffer();
      const Buffer& values_buffer = values.base_buffer();
      const auto words = static_cast<std::uint64_t>(tiles + 1);
      const std::size_t clear_global[1] = {
          std::min(slot.max_groups, (tiles + 1 + local[0] - 1) / local[0]) * local[0]};
      const KernelArg clear_args[] = {state_buffer, words};
      kernels[4].launch(queue, clear_global, local, clear_args);
      const std::size_t global[1] = {tiles * local[0]};
      const KernelArg single_args[] = {in_buffer, in_offset,    out_buffer,   out_offset,
                                       count,     state_buffer, values_buffer};
      kernels[5].launch(queue, global, local, single_args);
      return;
    }

    const auto partition = partition_scan(n, slot.geometry.tile(), slot.max_groups);
    // The group totals: from the memory pool, for this queue (reused by its next call).
    const Array sums = Array::empty(queue, {slot.max_groups}, dtype);
    const auto tiles_per_group = static_cast<std::uint64_t>(partition.tiles_per_group);
    const auto group_count = static_cast<std::uint64_t>(partition.groups);
    const std::size_t global[1] = {partition.groups * slot.geometry.local_size};
    const Buffer& sums_buffer = sums.base_buffer();

    const KernelArg reduce_args[] = {in_buffer, in_offset, count, tiles_per_group, sums_buffer};
    kernels[0].launch(queue, global, local, reduce_args);
    const KernelArg groups_args[] = {sums_buffer, group_count};
    kernels[1].launch(queue, local, local, groups_args);
    const KernelArg final_launch[] = {in_buffer, in_offset,       out_buffer, out_offset,
                                      count,     tiles_per_group, sums_buffer};
    kernels[2].launch(queue, global, local, final_launch);
  }

  /// Scans each of the `rows` contiguous rows of `length` elements of `source` into the
  /// same row of the contiguous `output` (built slot): few long rows one flat scan each,
  /// many rows one launch of one group a row.
  void launch_rows(const Queue& queue, ScanSlot& slot, const Array& source, const Array& output,
                   std::size_t rows, std::size_t length) const {
    if (rows == 0 || length == 0) return;
    const std::size_t tiles = (length + slot.geometry.tile() - 1) / slot.geometry.tile();
    if (rows == 1 || (rows < slot.max_groups / 2 && tiles >= 4)) {
      for (std::size_t row = 0; row < rows; ++row) {
        const ArrayMetadata in_row(
            {length}, input_dtype, std::nullopt,
            source.first_element_offset() + row * length * input_dtype.itemsize(),
            source.base_buffer().size());
        const ArrayMetadata out_row({length}, dtype, std::nullopt,
                                    output.first_element_offset() + row * length * dtype.itemsize(),
                                    output.base_buffer().size());
        launch_flat(queue, slot, Array::from_buffer(source.base_buffer(), in_row),
                    Array::from_buffer(output.base_buffer(), out_row), length);
      }
      return;
    }
    const auto kernels = kernels_of(slot);
    const auto in_offset =
        static_cast<std::int64_t>(source.first_element_offset() / input_dtype.itemsize());
    const auto out_offset =
        static_cast<std::int64_t>(output.first_element_offset() / dtype.itemsize());
    const std::size_t local[1] = {slot.geometry.local_size};
    const std::size_t global[1] = {std::min(rows, slot.max_groups) * local[0]};
    const auto row_length = static_cast<std::uint64_t>(length);
    const auto row_count = static_cast<std::uint64_t>(rows);
    // (KernelArg keeps the scalars' addresses: named values, no temporaries.)
    const KernelArg args[] = {source.base_buffer(), in_offset,  output.base_buffer(),
                              out_offset,           row_length, row_count};
    kernels[3].launch(queue, global, local, args);
  }
};

void check_scan(ScanData& data, const Queue& queue, const Array& input, const Array& output) {
  data.check(queue, input, output);
  if (input.size() > 0) data.build(*data.slot_for(queue.device()), queue.device());
}

void run_scan(ScanData& data, const Queue& queue, const Array& input, const Array& output) {
  data.run(queue, input, output);
}

void scan_exclusive_in_place(ScanData& data, const Queue& queue, const Array& values) {
  const auto slot = data.slot_for(queue.device());
  data.build(*slot, queue.device());
  const Kernel groups = [&] {  // a copy of its own for this call
    const std::lock_guard lock(slot->mutex);
    return slot->kernels[1];
  }();
  const auto count = static_cast<std::uint64_t>(values.size());
  const std::size_t local[1] = {slot->geometry.local_size};
  const KernelArg args[] = {values.base_buffer(), count};
  groups.launch(queue, local, local, args);
}

ElementwiseKernel scan_carry_kernel(ScanData& data) {
  const std::lock_guard lock(data.copy_mutex);
  if (!data.carry) {
    const std::vector<ElementwiseArg> args{ElementwiseArg::inout("_scan_out", data.dtype),
                                           ElementwiseArg::input("_scan_carry", data.dtype)};
    const auto type = elementwise_type_text(args[0], 0);
    data.carry.emplace(
        args, "_scan_out[i] = _scan_carry_op(_scan_carry[i], _scan_out[i])",
        ElementwiseOptions{
            .name = data.options.name + "_carry",
            .preamble = fmt::format("{}\nFUNCTION {} _scan_carry_op({} a, {} b)\n{{\n    return "
                                    "({});\n}}\n",
                                    data.options.preamble, type, type, type, data.expression),
            .render_globals = data.options.render_globals,
            .fast_math = data.options.fast_math,
            .compiler_options = data.options.compiler_options});
  }
  return *data.carry;
}

ElementwiseKernel scan_convert_kernel(ScanData& data) {
  const std::lock_guard lock(data.copy_mutex);
  if (!data.convert) {
    data.convert.emplace(
        std::vector<ElementwiseArg>{ElementwiseArg::output("dst", data.dtype),
                                    ElementwiseArg::input("src", data.input_dtype)},
        "dst[i] = src[i]", ElementwiseOptions{.name = data.options.name + "_convert"});
  }
  return *data.convert;
}

}  // namespace detail

ScanKernel::ScanKernel(DType dtype, std::string scan_expression, std::string neutral, ScanKind kind,
                       ScanOptions options) {
  const std::string kernel = fmt::format("ScanKernel '{}'", options.name);
  if (!detail::is_c_identifier(options.name)) {
    throw LogicError(fmt::format("{}: the kernel name is not a C identifier", kernel));
  }
  for (const auto& [name, value] : options.render_globals) {
    if (name.starts_with(detail::scan_reserved_prefix)) {
      throw LogicError(fmt::format("{}: the render global '{}' uses the reserved prefix '{}'",
                                   kernel, name, detail::scan_reserved_prefix));
    }
  }
  if (scan_expression.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw LogicError(fmt::format("{}: the scan expression is empty", kernel));
  }
  if (neutral.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw LogicError(fmt::format("{}: the neutral element is empty", kernel));
  }
  DType input_dtype = options.input_dtype.value_or(dtype);
  for (const auto& [what, checked] :
       {std::pair<const char*, const DType*>{"dtype", &dtype}, {"input dtype", &input_dtype}}) {
    if (*checked == DType::boolean() || *checked == DType::float16()) {
      throw LogicError(fmt::format("{}: the {} {} is not a kernel type on every backend (use {})",
                                   kernel, what, checked->name(),
                                   *checked == DType::boolean() ? "uint8" : "float32"));
    }
    try {
      static_cast<void>(ctype(*checked));
    } catch (const LogicError& error) {
      throw LogicError(fmt::format("{}: the {}: {}", kernel, what, error.what()));
    }
  }
  if (input_dtype != dtype &&
      (!detail::is_real_scalar(dtype) || !detail::is_real_scalar(input_dtype))) {
    throw LogicError(
        fmt::format("{}: the input dtype {} differs from the dtype {}, and only real "
                    "scalar dtypes convert",
                    kernel, input_dtype.name(), dtype.name()));
  }
  impl_ = std::make_shared<detail::ScanData>(std::move(dtype), std::move(input_dtype));
  impl_->kind = kind;
  impl_->expression = std::move(scan_expression);
  impl_->neutral = std::move(neutral);
  impl_->options = std::move(options);
}

void ScanKernel::operator()(const Queue& queue, const Array& input, const Array& output) const {
  impl_->run(queue, input, output);
}

void ScanKernel::operator()(const Queue& queue, const Array& array) const {
  impl_->run(queue, array, array);
}

void ScanKernel::operator()(const Queue& queue, const Array& input, const Array& output,
                            int axis) const {
  impl_->run_axis(queue, input, output, axis);
}

Program ScanKernel::program(const Queue& queue) const {
  impl_->check_double(queue.device());
  const auto slot = impl_->slot_for(queue.device());
  impl_->build(*slot, queue.device());
  const std::lock_guard lock(slot->mutex);
  return detail::program_for_user(*slot->program, queue.device());
}

const DType& ScanKernel::dtype() const noexcept { return impl_->dtype; }
const DType& ScanKernel::input_dtype() const noexcept { return impl_->input_dtype; }
ScanKind ScanKernel::kind() const noexcept { return impl_->kind; }
const std::string& ScanKernel::scan_expression() const noexcept { return impl_->expression; }
const std::string& ScanKernel::neutral() const noexcept { return impl_->neutral; }
const std::string& ScanKernel::name() const noexcept { return impl_->options.name; }

std::size_t ScanKernel::cached_programs() const {
  return detail::built_slots<detail::ScanSlot>(impl_->recipe);
}

DType cumsum_dtype(const DType& dtype) {
  switch (dtype.kind()) {
    case DTypeKind::signed_integer: return DType::int64();
    case DTypeKind::unsigned_integer: return DType::uint64();
    case DTypeKind::floating:
      if (dtype == DType::float16()) break;
      return dtype;
    case DTypeKind::complex: return dtype;
    case DTypeKind::boolean:
    case DTypeKind::structure: break;
  }
  throw LogicError(
      fmt::format("cumsum: the dtype {} has no sum here (bool, float16 and structs "
                  "are not summed)",
                  dtype.name()));
}

namespace detail {

ScanKernel cumsum_kernel(const DType& dtype) {
  const DType out_dtype = cumsum_dtype(dtype);
  // The kernel from the recipe cache (a recipe keeps no context alive).
  const std::string zero = c_constant(0, out_dtype);
  return recipe_cache().get<ScanKernel>(
      "cumsum", fmt::format("{}:{}", dtype.name(), out_dtype.name()), [&] {
        if (out_dtype.kind() == DTypeKind::complex) {
          return ScanKernel(out_dtype, "${add}(a, b)", zero, ScanKind::inclusive,
                            {.name = "cumsum",
                             .render_globals = {{"add", functions::add({out_dtype, out_dtype})}}});
        }
        return ScanKernel(out_dtype, "a + b", zero, ScanKind::inclusive,
                          {.name = "cumsum", .input_dtype = dtype});
      });
}

ScanKernel cumprod_kernel(const DType& dtype) {
  const DType out_dtype = cumsum_dtype(dtype);
  const std::string one = c_constant(1, out_dtype);
  return recipe_cache().get<ScanKernel>(
      "cumprod", fmt::format("{}:{}", dtype.name(), out_dtype.name()), [&] {
        if (out_dtype.kind() == DTypeKind::complex) {
          return ScanKernel(out_dtype, "${mul}(a, b)", one, ScanKind::inclusive,
                            {.name = "cumprod",
                             .render_globals = {{"mul", functions::mul({out_dtype, out_dtype})}}});
        }
        return ScanKernel(out_dtype, "a * b", one, ScanKind::inclusive,
                          {.name = "cumprod", .input_dtype = dtype});
      });
}

namespace {

void check_queue(std::string_view function, const Queue& queue, const Array& array) {
  if (!(array.device() == queue.device())) {
    throw LogicError(fmt::format(
        "{}: argument 'array': the array is on device {} ('{}'), the queue on device {} ('{}')",
        function, array.device().index(), array.device().name(), queue.device().index(),
        queue.device().name()));
  }
}

/// `kernel` over all of `array` (a new 1-D array), or along `axis` (a new array of its shape).
Array scan_new(std::string_view function, const ScanKernel& kernel, const Queue& queue,
               const Array& array, std::optional<int> axis) {
  check_queue(function, queue, array);
  if (!axis) {
    const Array result = Array::empty(queue, {array.size()}, kernel.dtype());
    kernel(queue, array, result);
    return result;
  }
  const auto ndim = static_cast<long long>(array.ndim());
  if (*axis < -ndim || *axis >= ndim) {  // checked before the result is made
    throw LogicError(
        fmt::format("{}: argument 'axis': axis {} is out of range for an array of "
                    "{} dimension{}",
                    function, *axis, ndim, ndim == 1 ? "" : "s"));
  }
  const Array result = Array::empty(queue, array.shape(), kernel.dtype());
  kernel(queue, array, result, *axis);
  return result;
}

}  // namespace

}  // namespace detail

Array cumsum(const Queue& queue, const Array& array, int axis) {
  return detail::scan_new("cumsum", detail::cumsum_kernel(array.dtype()), queue, array, axis);
}

Array cumprod(const Queue& queue, const Array& array) {
  return detail::scan_new("cumprod", detail::cumprod_kernel(array.dtype()), queue, array,
                          std::nullopt);
}

Array cumprod(const Queue& queue, const Array& array, int axis) {
  return detail::scan_new("cumprod", detail::cumprod_kernel(array.dtype()), queue, array, axis);
}

Array cumsum(const Queue& queue, const Array& array) {
  return detail::scan_new("cumsum", detail::cumsum_kernel(array.dtype()), queue, array,
                          std::nullopt);
}

}  // namespace plinth
