#include "algorithms/kit/kernel_arguments.hpp"

#include "algorithms/array_expression_rules.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace plinth::detail {

namespace {

std::string prefixes_text(const DeclarationRules& rules) {
  std::vector<std::string> quoted;
  for (const auto prefix : rules.reserved_prefixes) quoted.push_back(fmt::format("'{}'", prefix));
  return fmt::format("{}", fmt::join(quoted, " or "));
}

bool reserved(std::string_view name, const DeclarationRules& rules) {
  return std::any_of(rules.reserved_prefixes.begin(), rules.reserved_prefixes.end(),
                     [&](std::string_view prefix) { return name.starts_with(prefix); });
}

}  // namespace

std::size_t check_declaration(std::string_view kernel, std::string_view name,
                              std::span<const ElementwiseArg> args, const RenderGlobals& globals,
                              const DeclarationRules& rules) {
  if (!is_c_identifier(name)) {
    throw LogicError(fmt::format("{}: the kernel name is not a C identifier", kernel));
  }
  for (const auto& [global, value] : globals) {
    if (reserved(global, rules)) {
      throw LogicError(fmt::format("{}: the render global '{}' uses a reserved prefix ({})", kernel,
                                   global, prefixes_text(rules)));
    }
  }
  std::optional<std::size_t> first_array;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    const auto problem = [&](const std::string& text) {
      return LogicError(fmt::format("{}: argument '{}': {}", kernel, arg.name(), text));
    };
    if (!is_c_identifier(arg.name())) throw problem("the name is not a C identifier");
    if (arg.name() == "i") throw problem("the name 'i' is the element index");
    if (reserved(arg.name(), rules)) {
      throw problem(fmt::format("the prefix is reserved ({})", prefixes_text(rules)));
    }
    for (std::size_t other = 0; other < k; ++other) {
      if (args[other].name() == arg.name()) throw problem("the name repeats");
    }
    if (rules.inputs_only && arg.is_written()) {
      throw problem("a reduction only reads its arguments (declare it as an input)");
    }
    if (arg.dtype() == DType::boolean()) {
      throw problem("bool is not a kernel argument type on every backend (use uint8)");
    }
    if (arg.dtype().is_struct() && !arg.is_array()) {
      throw problem("struct scalars are not supported (pass a struct array)");
    }
    try {
      static_cast<void>(elementwise_type_text(arg, k));
      if (arg.dtype().is_struct()) static_cast<void>(ctype(arg.dtype()));
    } catch (const LogicError& error) {
      throw problem(error.what());
    }
    if (arg.is_array() && !first_array) first_array = k;
  }
  if (!first_array) {
    throw LogicError(fmt::format(
        "{}: no array argument (the first array argument defines the iteration shape)", kernel));
  }
  return *first_array;
}

std::string array_argument_problem(const Array& array, const DType& dtype,
                                   const BoundDevice& device) {
  if (array.dtype() != dtype) {
    return fmt::format("must be a {} array, got {}", dtype.name(), array.dtype().name());
  }
  if (!(array.device() == device)) {
    return fmt::format("the array is on device {} ('{}'){}, the queue on device {} ('{}')",
                       array.device().index(), array.device().name(),
                       array.device().context() == device.context() ? "" : " of another context",
                       device.index(), device.name());
  }
  const auto itemsize = static_cast<std::ptrdiff_t>(dtype.itemsize());
  for (std::size_t d = 0; d < array.ndim(); ++d) {
    if (array.shape()[d] > 1 && array.strides()[d] % itemsize != 0) {
      return fmt::format(
          "its stride {} (bytes) in dimension {} is not a multiple of its "
          "itemsize {}",
          array.strides()[d], d, itemsize);
    }
  }
  if (array.first_element_offset() % static_cast<std::size_t>(itemsize) != 0) {
    return fmt::format(
        "its first element lies {} bytes into its buffer, not a multiple of its "
        "itemsize {}",
        array.first_element_offset(), itemsize);
  }
  return {};
}

void check_call(std::string_view kernel, std::span<const ElementwiseArg> args,
                std::span<const ElementwiseValue> values, const BoundDevice& device,
                std::string_view multi_array) {
  if (values.size() != args.size()) {
    std::vector<std::string> names;
    for (const auto& arg : args) names.push_back(arg.name());
    throw LogicError(fmt::format("{} takes {} arguments ({}), got {}", kernel, args.size(),
                                 fmt::join(names, ", "), values.size()));
  }
  const auto fail = [&](const ElementwiseArg& arg, const std::string& problem) {
    throw LogicError(fmt::format("{}: argument '{}': {}", kernel, arg.name(), problem));
  };
  for (std::size_t k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    const auto& value = detail::Access::impl(values[k]);
    if (std::holds_alternative<MultiArray>(value)) fail(arg, std::string(multi_array));
    const auto* array = std::get_if<Array>(&value);
    if (!arg.is_array()) {
      if (array != nullptr) {
        fail(arg, fmt::format("is a {} scalar, got an Array", arg.dtype().name()));
      }
      continue;
    }
    if (array == nullptr) fail(arg, fmt::format("is a {} array, got a scalar", arg.dtype().name()));
    if (auto problem = array_argument_problem(*array, arg.dtype(), device); !problem.empty())
      fail(arg, problem);
  }
  if (!device.params().supports_double) {
    for (const auto& arg : args) {
      if (is_double(arg.dtype())) {
        fail(arg, fmt::format("{} needs double precision, which device {} ('{}') lacks",
                              arg.dtype().name(), device.index(), device.name()));
      }
    }
  }
}

bool broadcasts_to(const Array& array, std::span<const std::size_t> shape) noexcept {
  const auto ndim = array.ndim();
  if (ndim > shape.size()) return false;
  for (std::size_t d = 0; d < ndim; ++d) {
    const auto extent = array.shape()[ndim - 1 - d];
    if (extent != 1 && extent != shape[shape.size() - 1 - d]) return false;
  }
  return true;
}

std::vector<std::int64_t> element_strides(std::string_view kernel, const ElementwiseArg& arg,
                                          const Array& array, std::span<const std::size_t> shape,
                                          std::string_view first) {
  if (!broadcasts_to(array, shape)) {
    throw LogicError(fmt::format(
        "{}: argument '{}': its shape {} does not broadcast to the iteration shape {} (the "
        "shape of '{}', the first array argument)",
        kernel, arg.name(), shape_text(array.shape()), shape_text(shape), first));
  }
  const auto ndim = array.ndim();
  std::vector<std::int64_t> strides(shape.size(), 0);
  const auto itemsize = static_cast<std::int64_t>(arg.dtype().itemsize());
  for (std::size_t d = 0; d < ndim; ++d) {
    const auto at = shape.size() - ndim + d;
    if (array.shape()[d] != 1) strides[at] = array.strides()[d] / itemsize;
  }
  return strides;
}

ScalarBytes scalar_value(std::string_view kernel, const ElementwiseArg& arg,
                         const detail::ElementwiseVariant& value) {
  if (const auto converted = convert_scalar(value, arg.dtype())) return *converted;
  std::string text = "?";
  if (const auto* v = std::get_if<bool>(&value)) text = *v ? "true" : "false";
  if (const auto* v = std::get_if<std::int64_t>(&value)) text = fmt::format("{}", *v);
  if (const auto* v = std::get_if<std::uint64_t>(&value)) text = fmt::format("{}", *v);
  if (const auto* v = std::get_if<double>(&value)) text = fmt::format("{}", *v);
  if (const auto* v = std::get_if<std::complex<double>>(&value)) {
    text = fmt::format("({}, {})", v->real(), v->imag());
  }
  throw LogicError(
      fmt::format("{}: argument '{}': the value {} is not exactly a {} (pass a value of that type)",
                  kernel, arg.name(), text, arg.dtype().name()));
}

namespace {

template <std::size_t N>
struct RawBytes {
  std::byte bytes[N];
};

}  // namespace

KernelArg scalar_arg(const ScalarBytes& scalar) {
  const auto* data = scalar.bytes.data();
  switch (scalar.size) {
    case 1: return KernelArg(*reinterpret_cast<const RawBytes<1>*>(data));
    case 2: return KernelArg(*reinterpret_cast<const RawBytes<2>*>(data));
    case 4: return KernelArg(*reinterpret_cast<const RawBytes<4>*>(data));
    case 8: return KernelArg(*reinterpret_cast<const RawBytes<8>*>(data));
    default: return KernelArg(*reinterpret_cast<const RawBytes<16>*>(data));
  }
}

ProgramOptions generated_program_options(bool fast_math,
                                         const std::vector<std::string>& compiler_options,
                                         RenderGlobals globals,
                                         std::span<const ElementwiseArg> args) {
  ProgramOptions options;
  options.fast_math = fast_math;
  options.compiler_options = compiler_options;
  options.render_globals = std::move(globals);
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k].dtype().is_struct()) {
      options.render_globals[fmt::format("_elw_type{}", k)] = ctype(args[k].dtype());
    }
  }
  return options;
}

}  // namespace plinth::detail
