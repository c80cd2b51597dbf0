#pragma once

// The checks every generated kernel family makes of its declaration (at construction) and
// of a call's values (at each launch), and the scalar values a launch passes. One home for
// them: ElementwiseKernel and ReductionKernel (and everything built on them) call these.

#include "algorithms/elementwise_codegen.hpp"
#include "templates/identifiers.hpp"

#include <plinth/context.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/program.hpp>

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

namespace plinth::detail {

/// What a kernel family allows in its declaration.
struct DeclarationRules {
  /// Prefixes the generated code uses: no argument or render global may start with one.
  std::initializer_list<std::string_view> reserved_prefixes;
  /// Whether every argument must be an input (reductions only read).
  bool inputs_only = false;
};

/// Checks a kernel's declaration: its name is a C identifier; no render global uses a
/// reserved prefix; each argument's name is a C identifier other than `i`, without a reserved
/// prefix, not repeated; no bool arguments, struct dtypes only as arrays, every dtype has a C
/// type; at least one array. `kernel` names it in messages ("ElementwiseKernel 'axpy'").
/// Returns the index of the first array argument. Throws LogicError naming the problem.
std::size_t check_declaration(std::string_view kernel, std::string_view name,
                              std::span<const ElementwiseArg> args, const RenderGlobals& globals,
                              const DeclarationRules& rules);

/// Why `array` cannot be a `dtype` array argument of a launch on `device`: another dtype,
/// another device, or strides or a first element that are not whole elements; "" when it can.
/// Throws only std::bad_alloc.
std::string array_argument_problem(const Array& array, const DType& dtype,
                                   const BoundDevice& device);

/// Checks a call's `values` against `args` for a launch on `device`: their number and kinds,
/// dtypes, devices, element-aligned strides and offsets, and double precision where the
/// device lacks it. `multi_array` is the message for a MultiArray value. Throws LogicError
/// naming the argument and the problem.
void check_call(std::string_view kernel, std::span<const ElementwiseArg> args,
                std::span<const ElementwiseValue> values, const BoundDevice& device,
                std::string_view multi_array);

/// Array `array`'s strides in elements over `shape` (0 where it is broadcast), after checking
/// that its shape broadcasts to `shape`; `first` names the argument whose shape `shape` is.
/// Throws LogicError naming argument `arg` of `kernel`.
std::vector<std::int64_t> element_strides(std::string_view kernel, const ElementwiseArg& arg,
                                          const Array& array, std::span<const std::size_t> shape,
                                          std::string_view first);

/// Whether `array`'s shape broadcasts to `shape`. Throws nothing.
bool broadcasts_to(const Array& array, std::span<const std::size_t> shape) noexcept;

/// A scalar value converted to the dtype of scalar argument `arg`. Throws LogicError naming
/// the value when the dtype cannot hold it exactly.
ScalarBytes scalar_value(std::string_view kernel, const ElementwiseArg& arg,
                         const detail::ElementwiseVariant& value);

/// Appends a checked call's values (check_call) in declaration order: each array's base
/// buffer to `buffers` and its first element's offset in elements to `offsets`, each scalar
/// converted to its dtype (scalar_value) to `scalars`. Throws LogicError as scalar_value.
template <class Buffers, class Offsets, class Scalars>
void gather_call_values(std::string_view kernel, std::span<const ElementwiseArg> args,
                        std::span<const ElementwiseValue> values, Buffers& buffers,
                        Offsets& offsets, Scalars& scalars) {
  for (std::size_t k = 0; k < args.size(); ++k) {
    const auto& arg = args[k];
    if (arg.is_array()) {
      const auto& array = std::get<Array>(detail::Access::impl(values[k]));
      buffers.push_back(array.base_buffer());
      offsets.push_back(
          static_cast<std::int64_t>(array.first_element_offset() / arg.dtype().itemsize()));
    } else {
      scalars.push_back(scalar_value(kernel, arg, detail::Access::impl(values[k])));
    }
  }
}

/// A scalar's bytes as a kernel argument (pointing into `scalar`, which must outlive it).
/// Throws nothing.
KernelArg scalar_arg(const ScalarBytes& scalar);

/// The program options of a generated program: the user's fast_math, compiler options and
/// render globals (rewritten for strided arrays by the caller), plus `_elw_type<k>` for each
/// struct argument. Throws LogicError as ctype().
ProgramOptions generated_program_options(bool fast_math,
                                         const std::vector<std::string>& compiler_options,
                                         RenderGlobals globals,
                                         std::span<const ElementwiseArg> args);

}  // namespace plinth::detail
