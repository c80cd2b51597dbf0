#pragma once

// The pure parts of ElementwiseKernel (include/plinth/elementwise.hpp), with no device:
// scanning and rewriting the operation, merging the dimensions of a call's layout, the
// kernel source for a layout signature, and scalar conversion. Exported for the unit tests
// (tests/core/algorithms/).

#include "algorithms/kit/kernel_store.hpp"

#include <plinth/dtype.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/export.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

/// Prefix of every name the generated kernel defines besides the user's.
inline constexpr std::string_view elementwise_reserved_prefix = "_elw_";

/// The name of the generated kernel function of a kernel the user named `name`: `prefix`
/// (the generator's reserved prefix) + "kernel_" + `name`, e.g. `_elw_kernel_dot`. Any C
/// identifier then names a kernel, even one the kernel dialect defines as a function, type
/// or keyword (`sin`, `dot`, `max`, `float`, `kernel`, `barrier`). Throws nothing but
/// std::bad_alloc.
PLINTH_EXPORT std::string generated_kernel_name(std::string_view prefix, std::string_view name);

/// The first line of a generated program's source, naming the kernel as the user knows it and
/// its kernel functions, so that compile errors, kept sources and recorded programs show
/// both: `// ElementwiseKernel 'dot': _elw_kernel_dot`. `what`, `name` and `functions` hold
/// no line breaks (`name` is a checked C identifier). Throws nothing but std::bad_alloc.
PLINTH_EXPORT std::string generated_kernel_comment(std::string_view what, std::string_view name,
                                                   std::string_view functions);

/// The operation with `name[i]` rewritten for the strided arrays, and which arrays the
/// operation uses in any other way.
struct RewrittenOperation {
  std::string text;
  /// Per argument: its name occurs other than as `name[i]` (always false for scalars).
  std::vector<bool> raw_use;
  /// The element index `i` occurs other than inside an array's `name[i]`: the operation
  /// depends on which flat index an element has (so the dimensions keep their order).
  bool index_use = false;
};

/// Scans `operation` for the names in `array_names` (one per argument; empty for scalars)
/// as whole identifiers that are not members (after `.` or `->`), outside comments, string
/// and character literals, numbers and `${...}` placeholders. An occurrence followed by
/// `[ i ]` (whitespace allowed) is rewritten to `_elw_a<k>[_elw_o<k>]` where `strided[k]`,
/// and left as it is otherwise; any other occurrence sets raw_use[k]. Throws nothing but
/// std::bad_alloc.
PLINTH_EXPORT RewrittenOperation rewrite_operation(std::string_view operation,
                                                   std::span<const std::string> array_names,
                                                   const std::vector<bool>& strided);

/// As rewrite_operation, but each `name[i]` of argument k becomes `replacements[k]` where that
/// is not empty (and stays as it is where it is). Throws nothing but std::bad_alloc.
PLINTH_EXPORT RewrittenOperation rewrite_operation_with(std::string_view operation,
                                                        std::span<const std::string> array_names,
                                                        std::span<const std::string> replacements);

/// The type a vector of `bytes` bytes (1, 2, 4, 8 or 16) is loaded and stored as in the
/// vectorised kernels (`_elw_vec16`, `_elw_vec8` or an unsigned integer type).
PLINTH_EXPORT const char* vector_type(std::size_t bytes);

/// The source that defines `_elw_vec16` and `_elw_vec8` (before a vectorised kernel).
PLINTH_EXPORT std::string_view vector_definitions();

/// What `name[i]` of array argument `k` becomes in the lanes of a vectorised kernel:
/// `_elw_u<k>.e[_elw_j]`, its element in the vector loaded for the lane's group.
PLINTH_EXPORT std::string vector_lane_name(std::size_t k);

/// The variable a strided array's element offset is kept in, for argument `k`: `_elw_o<k>`.
PLINTH_EXPORT std::string elementwise_offset_name(std::size_t k);

/// The pointer to a strided array's first element, for argument `k`: `_elw_a<k>`. The
/// generated kernels declare no variable under a strided array's own name, so a use of the
/// name that was not rewritten (one that reached the operation through a Snippet, say) does
/// not compile, instead of reading the array as if it were contiguous.
PLINTH_EXPORT std::string elementwise_strided_name(std::size_t k);

/// One array of a call, as merge_layout() sees it: its strides in elements over the
/// iteration shape's dimensions (0 where it is broadcast), or nothing for an array on the
/// fast path (and for scalars).
using AlignedStrides = std::optional<std::vector<std::int64_t>>;

/// The dimensions the generated kernel iterates over for a call.
struct MergedLayout {
  /// The iteration shape with extents of 1 dropped and neighbouring dimensions merged where
  /// every strided array steps through them as through one; at least one dimension. Empty
  /// when no array is strided.
  std::vector<std::size_t> shape;
  /// Per argument: the element strides over `shape` (empty for the others).
  std::vector<std::vector<std::int64_t>> strides;
};

/// Merges `iteration_shape` (with at least one element) for `arrays` (one per argument).
/// Throws nothing but std::bad_alloc.
PLINTH_EXPORT MergedLayout merge_layout(std::span<const std::size_t> iteration_shape,
                                        std::span<const AlignedStrides> arrays);

/// Defines `_elw_restrict` as the backend's restrict qualifier (C99's `restrict` in OpenCL C,
/// `__restrict__` in CUDA and HIP): a generated source that declares restrict pointers starts
/// with it.
inline constexpr std::string_view restrict_definition =
    "#if defined(PLINTH_CUDA_API) || defined(PLINTH_HIP_API)\n"
    "#define _elw_restrict __restrict__\n"
    "#else\n"
    "#define _elw_restrict restrict\n"
    "#endif\n";

/// What a program is built for besides the declaration: which arguments are strided, the
/// rank of the merged layout (0 when none is), whether the input arrays may be declared
/// `restrict` (no input shares memory with a written array; see elementwise_source), whether
/// the strided offsets are computed in 32-bit arithmetic (the layout planner's index32), and
/// for the vectorised kernels the elements per vector (0 or 1: none) and whether output
/// arrays are stored as vectors too (the operation writes every element it is given).
struct LayoutSignature {
  std::vector<bool> strided;
  std::size_t rank = 0;
  bool restrict_inputs = false;
  bool index32 = false;
  std::size_t vector_width = 0;
  bool vector_stores = false;
  bool operator==(const LayoutSignature& other) const = default;
};

/// The words a KernelStore keys a program of `signature` by (kit/kernel_store.hpp): the rank
/// and flags, then whether each argument is strided (`strided`, a range of bools: the
/// signature's own or the caller's), 64 to a word. No heap for up to 192 arguments.
template <class Bools>
VariantWords signature_words(const LayoutSignature& signature, const Bools& strided) {
  VariantWords words;
  words.push_back(signature.rank | (signature.restrict_inputs ? 1u << 8 : 0u) |
                  (signature.index32 ? 1u << 9 : 0u) | (signature.vector_width << 10) |
                  (signature.vector_stores ? 1u << 15 : 0u));
  std::size_t k = 0;
  for (const bool is_strided : strided) {
    if (k % 64 == 0) words.push_back(0);
    if (is_strided) words.back() |= std::uint64_t{1} << (k % 64);
    ++k;
  }
  return words;
}

/// The C type of argument `k` in the source: its scalar C type, or `${_elw_type<k>}` for a
/// struct (bound by elementwise_render_globals). Throws LogicError as ctype().
PLINTH_EXPORT std::string elementwise_type_text(const ElementwiseArg& arg, std::size_t k);

/// The kernel's source (a template: the preamble and operation keep their placeholders):
/// the preamble, then
///
///     KERNEL void <name>(<per argument: GLOBAL_MEM [const] T *_elw_p<k>, long _elw_b<k> |
///                        T <name>>, unsigned long _elw_begin, unsigned long _elw_end,
///                        unsigned long _elw_n1 ... _elw_n<rank-1>,
///                        with index32: unsigned long _elw_m<d>, unsigned int _elw_h<d>
///                                      for d = 1 ... rank-1 (FastDivisors of _elw_n<d>),
///                        per strided argument k: long _elw_s<k>_0 ... _elw_s<k>_<rank-1>)
///
/// whose body points each array's name (a strided one's elementwise_strided_name) at its
/// first element and runs the operation in a grid-stride loop over `i` in
/// [_elw_begin, _elw_end). `operation` is the rewritten one.
/// - With signature.vector_width > 1 (rank 0 only; every array's first element aligned to
///   its vector's size, which the caller checks per call) each work item takes vector_width
///   consecutive elements at a time: `vector_operation` (the operation rewritten with
///   vector_lane_name for the arrays loaded as vectors) runs once per lane, then the elements
///   left over run one at a time.
/// - Otherwise, with signature.restrict_inputs the input pointers are `restrict` and the loop
///   runs the operation for four indices a grid stride apart in each step (then one at a time
///   for the rest): the compiler may then issue the four loads together, which a
///   bandwidth-bound kernel needs to keep enough memory requests in flight.
/// Throws LogicError as elementwise_type_text.
PLINTH_EXPORT std::string elementwise_source(std::span<const ElementwiseArg> args,
                                             std::string_view operation, std::string_view preamble,
                                             std::string_view name,
                                             const LayoutSignature& signature,
                                             std::string_view vector_operation = {});

/// A scalar argument's bytes as the kernel receives them.
struct ScalarBytes {
  alignas(16) std::array<std::byte, 16> bytes{};
  std::size_t size = 0;
};

/// `value` (a scalar alternative of detail::ElementwiseVariant) converted to `dtype`, or
/// nothing if `dtype` cannot hold it exactly (a complex value for a real dtype, an integer
/// out of range, a real with a fraction for an integer dtype, a double a float32 does not
/// represent, a bool for a dtype other than bool, an array). Throws nothing.
PLINTH_EXPORT std::optional<ScalarBytes> convert_scalar(const detail::ElementwiseVariant& value,
                                                        const DType& dtype) noexcept;

}  // namespace plinth::detail
