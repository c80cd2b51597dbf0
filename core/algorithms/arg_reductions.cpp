// argmin and argmax (array_reductions.hpp): a ReductionKernel over (value, index) pairs.

#include <plinth/array_expression.hpp>
#include <plinth/array_reductions.hpp>

#include "algorithms/kit/recipe_cache.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace plinth {

namespace {

/// The pair a reduction carries: the value and its index.
DType pair_dtype(const DType& value) {
  return DType::make_struct({{"v", value}, {"i", DType::int64()}});
}

/// Where the index lies in a pair (after a value of at most 8 bytes).
constexpr std::size_t index_offset = 8;

/// The value type the kernel reads `dtype` as (bool as uint8).
DType read_dtype(const DType& dtype) { return dtype == DType::boolean() ? DType::uint8() : dtype; }

/// The largest (`largest`) or lowest value of `dtype`, as C: the neutral element's value.
std::string extreme(const DType& dtype, bool largest) {
  if (is_real(dtype)) return largest ? "_am_infinity()" : "-_am_infinity()";
  const auto bits = 8 * dtype.itemsize();
  if (dtype.kind() == DTypeKind::signed_integer) {
    const auto most = static_cast<std::int64_t>((std::uint64_t{1} << (bits - 1)) - 1);
    return detail::c_constant_of(largest ? most : -most - 1, dtype);
  }
  const std::uint64_t most =
      bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
  return detail::c_constant_of(largest ? most : std::uint64_t{0}, dtype);
}

/// The kernel of argmin (`is_min`) or argmax over `dtype` (as read_dtype): over all elements
/// (the index is the flat one), or along one axis (`along_axis`: the flat index modulo the
/// scalar argument `extent`, the reduced axis's extent, as the reduced axis comes last).
ReductionKernel arg_kernel(const DType& dtype, bool is_min, bool along_axis) {
  const char* function = is_min ? "argmin" : "argmax";
  return detail::recipe_cache().get<ReductionKernel>(
      "reduction", fmt::format("{}:{}:{}", function, dtype.name(), along_axis ? "axis" : "flat"),
      [&] {
        const auto pair = pair_dtype(dtype);
        const bool real = is_real(dtype);
        std::string infinity;
        if (real) {
          const bool single = dtype.itemsize() == 4;
          infinity = fmt::format(
              "FUNCTION INLINE {0} _am_infinity(void)\n"
              "{{\n"
              "    union {{ {1} bits; {0} value; }} u;\n"
              "    u.bits = {2};\n"
              "    return u.value;\n"
              "}}\n",
              single ? "float" : "double", single ? "unsigned int" : "unsigned long",
              single ? "0x7f800000u" : "0x7ff0000000000000UL");
        }
        // The first of equal values wins (the smaller index), and a NaN beats any number
        // (the first NaN among several), as numpy: associative and commutative.
        const char* better = is_min ? "<" : ">";
        const std::string nan_rule =
            real ? "    const int an = a.v != a.v, bn = b.v != b.v;\n"
                   "    if (an || bn) return (an && bn) ? (a.i < b.i ? a : b) : (an ? a : b);\n"
                 : "";
        const std::string preamble = fmt::format(
            "{infinity}"
            "FUNCTION INLINE ${{P}} _am_make(${{V}} v, long i)\n"
            "{{\n"
            "    ${{P}} r;\n"
            "    r.v = v;\n"
            "    r.i = i;\n"
            "    return r;\n"
            "}}\n"
            "FUNCTION INLINE ${{P}} _am_neutral(void)\n"
            "{{\n"
            "    return _am_make({neutral}, 0x7fffffffffffffffL);\n"
            "}}\n"
            "FUNCTION INLINE ${{P}} _am_pick(${{P}} a, ${{P}} b)\n"
            "{{\n"
            "{nan_rule}"
            "    if (a.v {better} b.v) return a;\n"
            "    if (b.v {better} a.v) return b;\n"
            "    return a.i < b.i ? a : b;\n"
            "}}\n",
            fmt::arg("infinity", infinity), fmt::arg("neutral", extreme(dtype, is_min)),
            fmt::arg("nan_rule", nan_rule), fmt::arg("better", better));
        std::vector<ElementwiseArg> args{ElementwiseArg::input("x", dtype)};
        if (along_axis) args.push_back(ElementwiseArg::scalar("extent", DType::uint64()));
        return ReductionKernel(
            std::move(args), pair, "_am_neutral()", "_am_pick(a, b)",
            along_axis ? "_am_make(x[i], (long)(i % extent))" : "_am_make(x[i], (long)i)",
            {.name = is_min ? "plinth_argmin" : "plinth_argmax",
             .preamble = preamble,
             .render_globals = {{"P", ctype(pair)}, {"V", ctype(dtype)}}});
      });
}

/// The index fields of `pairs` (an array of pair_dtype) as an int64 array: a view for one
/// pair (shape `()`, contiguous: no launch), a new C-order copy otherwise.
Array indices_of(const Queue& queue, const Array& pairs) {
  const auto& m = pairs.metadata();
  const auto view = Array::from_buffer(
      pairs.base_buffer(), ArrayMetadata(m.shape(), DType::int64(), m.strides(),
                                         m.first_element_offset() + index_offset, m.buffer_size()));
  return pairs.ndim() == 0 ? view : copy(queue, view);
}

Array arg_reduce(const char* function, bool is_min, const Queue& queue, const Array& x,
                 std::optional<std::ptrdiff_t> axis, bool keepdims) {
  const auto& dtype = x.dtype();
  if (dtype.is_struct() || is_complex(dtype) || dtype == DType::float16()) {
    throw LogicError(fmt::format("{}: argument 'x' is of dtype {}, which {} does not order",
                                 function, dtype.name(), function));
  }
  if (!(x.device() == queue.device())) {
    throw LogicError(
        fmt::format("{}: argument 'x' is on another device than the queue's", function));
  }
  const auto read = read_dtype(dtype);
  const auto& m = x.metadata();
  const auto source =
      read == dtype ? x
                    : Array::from_buffer(x.base_buffer(),
                                         ArrayMetadata(m.shape(), read, m.strides(),
                                                       m.first_element_offset(), m.buffer_size()));
  ReductionTarget target;
  std::uint64_t extent = x.size();
  if (axis) {
    const auto ndim = static_cast<std::ptrdiff_t>(x.ndim());
    const auto d = *axis < 0 ? *axis + ndim : *axis;
    if (d < 0 || d >= ndim) {
      throw LogicError(fmt::format("{}: axis {} is out of bounds for array of dimension {}",
                                   function, *axis, ndim));
    }
    extent = x.shape()[static_cast<std::size_t>(d)];
    target.axes = std::vector<std::size_t>{static_cast<std::size_t>(d)};
  }
  if (extent == 0) {
    throw LogicError(
        fmt::format("{}: argument 'x' of shape ({}) has no elements to reduce (an empty sequence)",
                    function, fmt::join(x.shape(), ", ")));
  }
  const std::array<ElementwiseValue, 2> values{ElementwiseValue(source), ElementwiseValue(extent)};
  const auto pairs = arg_kernel(read, is_min, axis.has_value())
                         .launch(queue, std::span(values.data(), axis ? 2 : 1), target);
  const auto indices = indices_of(queue, pairs);
  if (!keepdims) return indices;
  auto kept = x.shape();
  for (std::size_t d = 0; d < kept.size(); ++d) {
    if (!axis || d == target.axes->front()) kept[d] = 1;
  }
  // A C-order copy, or the shape-() view of one index (contiguous either way).
  return Array::from_buffer(indices.base_buffer(), ArrayMetadata(kept, DType::int64(), std::nullopt,
                                                                 indices.first_element_offset(),
                                                                 indices.metadata().buffer_size()));
}

}  // namespace

Array argmin(const Queue& queue, const Array& x, std::optional<std::ptrdiff_t> axis,
             bool keepdims) {
  return arg_reduce("argmin", true, queue, x, axis, keepdims);
}

Array argmax(const Queue& queue, const Array& x, std::optional<std::ptrdiff_t> axis,
             bool keepdims) {
  return arg_reduce("argmax", false, queue, x, axis, keepdims);
}

}  // namespace plinth
