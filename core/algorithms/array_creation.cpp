// Array creation (array_creation.hpp): zeros, ones and full through fill(); arange, linspace
// and eye as one generated ElementwiseKernel each (from the recipe cache), computing every
// element from its flat index with numpy's formulas, without fused multiply-adds.

#include <plinth/array_creation.hpp>

#include "algorithms/array_expression_rules.hpp"
#include "algorithms/kit/recipe_cache.hpp"
#include "algorithms/shape_kit.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace plinth {

namespace {

using detail::ScalarValue;

/// Integers of 128 bits: the sums and differences of two 64-bit arguments, exactly.
__extension__ typedef __int128 int128;

/// Exact IEEE products, sums and quotients of `float` and `double`: CUDA's `_rn` intrinsics
/// (never contracted), elsewhere plain operators with contraction turned off for the file.
constexpr const char* exact_arithmetic = R"(
#if defined(PLINTH_CUDA_API)
#define _cr_MUL_float(a, b) __fmul_rn((a), (b))
#define _cr_ADD_float(a, b) __fadd_rn((a), (b))
#define _cr_DIV_float(a, b) __fdiv_rn((a), (b))
#define _cr_MUL_double(a, b) __dmul_rn((a), (b))
#define _cr_ADD_double(a, b) __dadd_rn((a), (b))
#define _cr_DIV_double(a, b) __ddiv_rn((a), (b))
#else
#if defined(PLINTH_HIP_API)
#pragma clang fp contract(off)
#else
#pragma OPENCL FP_CONTRACT OFF
#endif
#define _cr_MUL_float(a, b) ((a) * (b))
#define _cr_ADD_float(a, b) ((a) + (b))
#define _cr_DIV_float(a, b) ((a) / (b))
#define _cr_MUL_double(a, b) ((a) * (b))
#define _cr_ADD_double(a, b) ((a) + (b))
#define _cr_DIV_double(a, b) ((a) / (b))
#endif
)";

bool is_float(const DType& dtype) { return dtype == DType::float32() || dtype == DType::float64(); }

/// Refuses what arange and linspace do not make.
void check_range_dtype(const DType& dtype, const char* what) {
  if (!is_float(dtype) && !is_integer(dtype)) {
    throw LogicError(
        fmt::format("{}: dtype {} is not supported (the integer types, float32 and float64 are)",
                    what, dtype.name()));
  }
}

void check_real(const ScalarValue& value, const char* what) {
  if (std::holds_alternative<std::complex<double>>(value)) {
    throw LogicError(fmt::format("{}: complex arguments ({}) are not supported", what,
                                 detail::scalar_text(value)));
  }
}

bool is_real_value(const ScalarValue& value) { return std::holds_alternative<double>(value); }

double as_double(const ScalarValue& value) {
  return std::visit(
      [](const auto& v) -> double {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::complex<double>>) {
          return v.real();
        } else {
          return static_cast<double>(v);
        }
      },
      value);
}

int128 as_int128(const ScalarValue& value) {
  if (const auto* u = std::get_if<std::uint64_t>(&value)) return static_cast<int128>(*u);
  if (const auto* s = std::get_if<std::int64_t>(&value)) return *s;
  return std::get<bool>(value) ? 1 : 0;
}

/// The bits of a value converted to an integer dtype, modulo 2^64, as numpy stores a Python
/// number in it (reals truncate). Throws LogicError if it does not fit (numpy's OverflowError).
std::uint64_t integer_bits(double real, int128 integer, bool is_real, const DType& dtype,
                           const char* what) {
  ScalarValue value;
  if (is_real) {
    const double t = std::trunc(real);
    if (!(t >= -9223372036854775808.0 && t < 18446744073709551616.0)) {
      throw LogicError(fmt::format("arange: the value {} does not fit {}", real, dtype.name()));
    }
    integer = t < 0 ? static_cast<int128>(static_cast<std::int64_t>(t))
                    : static_cast<int128>(static_cast<std::uint64_t>(t));
  }
  if (integer < 0) {
    value = integer < std::numeric_limits<std::int64_t>::min()
                ? ScalarValue(std::numeric_limits<std::int64_t>::min())
                : ScalarValue(static_cast<std::int64_t>(integer));
  } else {
    value = integer > std::numeric_limits<std::uint64_t>::max()
                ? ScalarValue(std::numeric_limits<std::uint64_t>::max())
                : ScalarValue(static_cast<std::uint64_t>(integer));
  }
  if (!detail::integer_fits(value, dtype) ||
      integer > static_cast<int128>(std::numeric_limits<std::uint64_t>::max()) ||
      integer < std::numeric_limits<std::int64_t>::min()) {
    throw LogicError(fmt::format("{} does not fit {}", what, dtype.name()));
  }
  return static_cast<std::uint64_t>(integer);
}

ElementwiseKernel arange_kernel(const DType& dtype) {
  return detail::recipe_cache().get<ElementwiseKernel>("arange", dtype.name(), [&] {
    if (is_integer(dtype)) {
      return ElementwiseKernel(
          {ElementwiseArg::output("out", dtype), ElementwiseArg::scalar("b0", DType::uint64()),
           ElementwiseArg::scalar("delta", DType::uint64())},
          fmt::format("out[i] = ({})(b0 + (unsigned long)i * delta);", ctype(dtype).as_string()),
          {.name = "arange", .writes_every_element = true});
    }
    const auto c = ctype(dtype).as_string();
    return ElementwiseKernel(
        {ElementwiseArg::output("out", dtype), ElementwiseArg::scalar("b0", dtype),
         ElementwiseArg::scalar("b1", dtype), ElementwiseArg::scalar("delta", dtype)},
        fmt::format("out[i] = i == 0 ? b0 : i == 1 ? b1 : _cr_ADD_{0}(b0, _cr_MUL_{0}(({0})i, "
                    "delta));",
                    c),
        {.name = "arange", .preamble = exact_arithmetic, .writes_every_element = true});
  });
}

/// linspace's kernel for `dtype`, computing in `compute` (float64, or float32 on a device
/// without doubles). `mode` picks numpy's formula: 0 `i * step + start`, 1 `(i / div) * delta +
/// start` (a step of 0), 2 `i * delta + start` (no step: div of 0); element `last` is `stop`.
ElementwiseKernel linspace_kernel(const DType& dtype, const DType& compute) {
  return detail::recipe_cache().get<ElementwiseKernel>(
      "linspace", dtype.name() + ":" + compute.name(), [&] {
        const auto c = ctype(compute).as_string();
        const auto convert = is_integer(dtype)
                                 ? fmt::format("({})floor(_cr_y)", ctype(dtype).as_string())
                                 : fmt::format("({})_cr_y", ctype(dtype).as_string());
        return ElementwiseKernel(
            {ElementwiseArg::output("out", dtype), ElementwiseArg::scalar("start", compute),
             ElementwiseArg::scalar("stop", compute), ElementwiseArg::scalar("step", compute),
             ElementwiseArg::scalar("delta", compute), ElementwiseArg::scalar("div", compute),
             ElementwiseArg::scalar("mode", DType::int32()),
             ElementwiseArg::scalar("last", DType::uint64())},
            fmt::format("{{\n"
                        "    const {0} _cr_i = ({0})i;\n"
                        "    {0} _cr_y = mode == 0 ? _cr_MUL_{0}(_cr_i, step)\n"
                        "              : mode == 1 ? _cr_MUL_{0}(_cr_DIV_{0}(_cr_i, div), delta)\n"
                        "              : _cr_MUL_{0}(_cr_i, delta);\n"
                        "    _cr_y = (unsigned long)i == last ? stop : _cr_ADD_{0}(_cr_y, start);\n"
                        "    out[i] = {1};\n"
                        "}}",
                        c, convert),
            {.name = "linspace", .preamble = exact_arithmetic, .writes_every_element = true});
      });
}

/// eye's kernel: element (r, c) of an n x m array (i = r m + c) is `one` where c - r == k.
ElementwiseKernel eye_kernel(const DType& storage) {
  return detail::recipe_cache().get<ElementwiseKernel>("eye", storage.name(), [&] {
    return ElementwiseKernel(
        {ElementwiseArg::output("out", storage), ElementwiseArg::scalar("m", DType::uint64()),
         ElementwiseArg::scalar("k", DType::int64()), ElementwiseArg::scalar("one", storage),
         ElementwiseArg::scalar("zero", storage)},
        "out[i] = (long)((unsigned long)i % m) - (long)((unsigned long)i / m) == k ? one : zero;",
        {.name = "eye", .writes_every_element = true});
  });
}

/// numpy's arange length: exact for integers, the ceiling of the double quotient otherwise.
std::size_t arange_length(const ScalarValue& start, const ScalarValue& stop,
                          const ScalarValue& step, bool real) {
  constexpr double limit = 9223372036854775807.0;
  if (real) {
    const double s = as_double(step);
    if (s == 0) throw LogicError("arange: the step is 0");
    const double q = std::ceil((as_double(stop) - as_double(start)) / s);
    if (std::isnan(q)) {
      throw LogicError(fmt::format("arange: cannot compute the length of [{}, {}) by {}",
                                   as_double(start), as_double(stop), s));
    }
    if (q >= limit) throw LogicError("arange: the length overflows");
    return q <= 0 ? 0 : static_cast<std::size_t>(q);
  }
  const int128 s = as_int128(step);
  if (s == 0) throw LogicError("arange: the step is 0");
  const int128 diff = as_int128(stop) - as_int128(start);
  if ((diff > 0) != (s > 0) || diff == 0) return 0;
  const int128 q = diff / s + (diff % s != 0 ? 1 : 0);
  if (q >= static_cast<int128>(limit)) throw LogicError("arange: the length overflows");
  return static_cast<std::size_t>(q);
}

}  // namespace

Order detail::like_order(const Array& like) noexcept {
  return like.is_f_contiguous() && !like.is_c_contiguous() ? Order::F : Order::C;
}

Array detail::arange(const Queue& queue, const ScalarValue& start, const ScalarValue& stop,
                     const ScalarValue& step, const std::optional<DType>& dtype) {
  for (const auto* v : {&start, &stop, &step}) check_real(*v, "arange");
  const bool real = is_real_value(start) || is_real_value(stop) || is_real_value(step);
  const DType result = dtype.value_or(real ? DType::float64() : DType::int64());
  check_range_dtype(result, "arange");
  const auto length = arange_length(start, stop, step, real);
  const auto out = Array::empty(queue, {length}, result);
  if (length == 0) return out;
  const auto kernel = arange_kernel(result);
  // The first two values as numpy computes them: start, and start + step as a double (exactly
  // for integers), each converted to the dtype.
  const bool start_real = is_real_value(start);
  const bool next_real = real && (start_real || is_real_value(step));
  const double next_double = as_double(start) + as_double(step);
  const int128 next_integer = next_real ? 0 : as_int128(start) + as_int128(step);
  if (is_integer(result)) {
    const auto b0 = integer_bits(as_double(start), start_real ? 0 : as_int128(start), start_real,
                                 result, "arange: the start");
    const auto b1 = length < 2 ? b0
                               : integer_bits(next_double, next_integer, next_real, result,
                                              "arange: the second value (start + step)");
    kernel(queue, out, b0, b1 - b0);
  } else if (result == DType::float32()) {
    const float b0 = start_real ? static_cast<float>(as_double(start))
                                : static_cast<float>(static_cast<double>(as_int128(start)));
    const float b1 = next_real ? static_cast<float>(next_double)
                               : static_cast<float>(static_cast<double>(next_integer));
    kernel(queue, out, b0, b1, b1 - b0);
  } else {
    const double b0 = start_real ? as_double(start) : static_cast<double>(as_int128(start));
    const double b1 = next_real ? next_double : static_cast<double>(next_integer);
    kernel(queue, out, b0, b1, b1 - b0);
  }
  return out;
}

Array detail::linspace(const Queue& queue, const ScalarValue& start, const ScalarValue& stop,
                       std::size_t num, bool endpoint, const std::optional<DType>& dtype) {
  check_real(start, "linspace");
  check_real(stop, "linspace");
  const DType result = dtype.value_or(DType::float64());
  check_range_dtype(result, "linspace");
  const auto out = Array::empty(queue, {num}, result);
  if (num == 0) return out;
  const bool doubles = queue.device().params().supports_double;
  const DType compute = doubles ? DType::float64() : DType::float32();
  // numpy's linspace on float64 scalars, the step and its test computed as numpy does.
  const double a = as_double(start), b = as_double(stop);
  const double div = static_cast<double>(endpoint ? num - 1 : num);
  const double delta = b - a;
  const double step = div > 0 ? delta / div : 0.0;
  const int mode = div > 0 ? (step == 0 ? 1 : 0) : 2;
  const std::uint64_t last =
      endpoint && num > 1 ? num - 1 : std::numeric_limits<std::uint64_t>::max();
  const auto kernel = linspace_kernel(result, compute);
  if (doubles) {
    kernel(queue, out, a, b, step, delta, div, mode, last);
  } else {
    const auto f = [](double v) { return static_cast<float>(v); };
    kernel(queue, out, f(a), f(b), f(step), f(delta), f(div), mode, last);
  }
  return out;
}

Array eye(const Queue& queue, std::size_t n, std::optional<std::size_t> m, std::ptrdiff_t k,
          const DType& dtype, Order order) {
  if (dtype.is_struct()) {
    throw LogicError(
        fmt::format("eye: dtype {} is a struct; eye takes scalar dtypes", dtype.name()));
  }
  const std::size_t columns = m.value_or(n);
  const auto out = Array::empty(queue, {n, columns}, dtype, order);
  if (out.size() == 0) return out;
  const auto storage = detail::storage_dtype(dtype);
  // One as the storage holds it: the float16 bits of 1.0, else the value 1.
  const std::uint64_t one = dtype == DType::float16() ? 0x3C00 : 1;
  eye_kernel(storage)(queue, detail::as_storage(out), std::uint64_t{columns}, std::int64_t{k}, one,
                      std::uint64_t{0});
  return out;
}

Array detail::full(const Queue& queue, std::vector<std::size_t> shape, const ScalarValue& value,
                   const std::optional<DType>& dtype, Order order) {
  const DType result = dtype.value_or(detail::scalar_default_dtype(value));
  const auto out = Array::empty(queue, std::move(shape), result, order);
  detail::fill(queue, out, value);
  return out;
}

namespace {

/// zeros and ones: float16 through its bits (fill() has no float16), the rest through fill().
Array filled(const Queue& queue, std::vector<std::size_t> shape, const DType& dtype, Order order,
             bool one) {
  if (dtype != DType::float16()) {
    return detail::full(queue, std::move(shape), ScalarValue(std::int64_t{one ? 1 : 0}), dtype,
                        order);
  }
  const auto out = Array::empty(queue, std::move(shape), dtype, order);
  fill(queue, detail::as_storage(out),
       std::uint16_t{one ? std::uint16_t{0x3C00} : std::uint16_t{0}});
  return out;
}

}  // namespace

Array zeros(const Queue& queue, std::vector<std::size_t> shape, const DType& dtype, Order order) {
  return filled(queue, std::move(shape), dtype, order, false);
}

Array ones(const Queue& queue, std::vector<std::size_t> shape, const DType& dtype, Order order) {
  return filled(queue, std::move(shape), dtype, order, true);
}

Array empty_like(const Queue& queue, const Array& like, const std::optional<DType>& dtype,
                 std::optional<Order> order) {
  return Array::empty(queue, like.shape(), dtype.value_or(like.dtype()),
                      order.value_or(detail::like_order(like)));
}

Array zeros_like(const Queue& queue, const Array& like, const std::optional<DType>& dtype,
                 std::optional<Order> order) {
  return zeros(queue, like.shape(), dtype.value_or(like.dtype()),
               order.value_or(detail::like_order(like)));
}

Array ones_like(const Queue& queue, const Array& like, const std::optional<DType>& dtype,
                std::optional<Order> order) {
  return ones(queue, like.shape(), dtype.value_or(like.dtype()),
              order.value_or(detail::like_order(like)));
}

MultiArray detail::full(const MultiQueue& queues, std::vector<std::size_t> shape,
                        const ScalarValue& value, const std::optional<DType>& dtype,
                        std::shared_ptr<const BaseSplay> splay) {
  const DType result = dtype.value_or(detail::scalar_default_dtype(value));
  const auto out =
      MultiArray::empty(queues.devices(), std::move(shape), result, {}, std::move(splay));
  for (const auto& [device, part] : out.subarrays()) detail::fill(queues[device], part, value);
  return out;
}

MultiArray zeros(const MultiQueue& queues, std::vector<std::size_t> shape, const DType& dtype,
                 std::shared_ptr<const BaseSplay> splay) {
  return detail::full(queues, std::move(shape), ScalarValue(std::int64_t{0}), dtype,
                      std::move(splay));
}

}  // namespace plinth
