// RandomGenerator::integers (include/plinth/random.hpp): integers uniform in [low, high) by
// Lemire's multiply-shift with rejection, one ElementwiseKernel per dtype (in the recipe
// cache) drawing words from the philox4x32_10() module.

#include <plinth/random.hpp>

#include "algorithms/kit/recipe_cache.hpp"

#include <plinth/dtype.hpp>
#include <plinth/dtype_c.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace plinth {

namespace {

__extension__ typedef __int128 Wide;  // every bound and range of a 64-bit dtype, exactly

// Lemire's draw of a value in [0, s): `draw32` for s <= 2^32 (words of 32 bits), `draw64`
// for larger s (words of 64 bits; s_minus_1 = 2^64 - 1 takes the word as it is). Round r >= 1
// draws the words of stream index i + r * 2^48.
constexpr const char* lemire_source = R"(
FUNCTION ${philox}u64 lemire_draw32(VSIZE_T i, ${philox}u64 s, unsigned int offset_lo,
                                    unsigned int offset_hi, unsigned int seed_lo,
                                    unsigned int seed_hi)
{
    const ${philox}u64 two32 = (${philox}u64)1 << 32;
    ${philox}u64 t = 0;
    int have_t = 0;
    ${philox}words w = ${philox}stream(i, offset_lo, offset_hi, seed_lo, seed_hi);
    for (${philox}u64 round = 1;; ++round) {
        for (int k = 0; k < 4; ++k) {
            const unsigned int x = k == 0 ? w.x0 : k == 1 ? w.x1 : k == 2 ? w.x2 : w.x3;
            const ${philox}u64 m = (${philox}u64)x * s;
            const ${philox}u64 l = m & 0xFFFFFFFFu;
            if (l >= s) return m >> 32;
            if (!have_t) {
                t = (two32 - s) % s;
                have_t = 1;
            }
            if (l >= t) return m >> 32;
        }
        w = ${philox}stream(i + (round << 48), offset_lo, offset_hi, seed_lo, seed_hi);
    }
}
)";

constexpr const char* lemire64_source = R"(
// The high and low 64 bits of a * b, from 32-bit halves.
FUNCTION ${philox}u64 lemire_mul64(${philox}u64 a, ${philox}u64 b, ${philox}u64* lo)
{
    const ${philox}u64 a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    const ${philox}u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const ${philox}u64 mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    *lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

FUNCTION ${philox}u64 lemire_draw64(VSIZE_T i, ${philox}u64 s_minus_1, unsigned int offset_lo,
                                    unsigned int offset_hi, unsigned int seed_lo,
                                    unsigned int seed_hi)
{
    ${philox}words w = ${philox}stream(i, offset_lo, offset_hi, seed_lo, seed_hi);
    if (s_minus_1 == ~(${philox}u64)0) return ((${philox}u64)w.x1 << 32) | w.x0;
    const ${philox}u64 s = s_minus_1 + 1;
    ${philox}u64 t = 0;
    int have_t = 0;
    for (${philox}u64 round = 1;; ++round) {
        for (int k = 0; k < 2; ++k) {
            const ${philox}u64 x = k == 0 ? (((${philox}u64)w.x1 << 32) | w.x0)
                                          : (((${philox}u64)w.x3 << 32) | w.x2);
            ${philox}u64 l;
            const ${philox}u64 h = lemire_mul64(x, s, &l);
            if (l >= s) return h;
            if (!have_t) {
                t = (0 - s) % s;
                have_t = 1;
            }
            if (l >= t) return h;
        }
        w = ${philox}stream(i + (round << 48), offset_lo, offset_hi, seed_lo, seed_hi);
    }
}
)";

ElementwiseKernel make_kernel(const DType& dtype) {
  const DType u32 = DType::uint32(), u64 = DType::uint64();
  const bool wide = dtype.itemsize() == 8;
  const std::string draw32 =
      "lemire_draw32(first_index + i, s_minus_1 + 1, offset_lo, offset_hi, seed_lo, seed_hi)";
  const std::string draw =
      wide ? fmt::format(
                 "s_minus_1 <= 0xFFFFFFFFu ? {} : lemire_draw64(first_index + i, "
                 "s_minus_1, offset_lo, offset_hi, seed_lo, seed_hi)",
                 draw32)
           : draw32;
  return ElementwiseKernel(
      {ElementwiseArg::output("y", dtype), ElementwiseArg::scalar("seed_lo", u32),
       ElementwiseArg::scalar("seed_hi", u32), ElementwiseArg::scalar("offset_lo", u32),
       ElementwiseArg::scalar("offset_hi", u32), ElementwiseArg::scalar("first_index", u64),
       ElementwiseArg::scalar("low", u64), ElementwiseArg::scalar("s_minus_1", u64)},
      fmt::format("y[i] = ({})(low + ({}));", ctype(dtype).as_string(), draw),
      {.name = fmt::format("plinth_random_integers_{}", dtype.name()),
       .preamble = std::string(lemire_source) + (wide ? lemire64_source : ""),
       .render_globals = {{"philox", philox4x32_10()}},
       .writes_every_element = true});
}

[[noreturn]] void fail(const std::string& problem) {
  throw LogicError(fmt::format("RandomGenerator::integers: {}", problem));
}

Wide wide(IntegerBound b) {
  return b.negative ? static_cast<Wide>(b.bits) - (static_cast<Wide>(1) << 64)
                    : static_cast<Wide>(b.bits);
}

std::string text(Wide v) {
  if (v < 0) return "-" + std::to_string(static_cast<std::uint64_t>(-v));
  return std::to_string(static_cast<std::uint64_t>(v));
}

// The dtype's smallest and largest values.
std::pair<Wide, Wide> dtype_bounds(const DType& dtype) {
  const int bits = static_cast<int>(dtype.itemsize()) * 8;
  if (dtype.kind() == DTypeKind::signed_integer) {
    return {-(static_cast<Wide>(1) << (bits - 1)), (static_cast<Wide>(1) << (bits - 1)) - 1};
  }
  return {0, (static_cast<Wide>(1) << bits) - 1};
}

/// low and s - 1 (s the number of values) once numpy's checks pass.
std::pair<std::uint64_t, std::uint64_t> checked_range(const DType& dtype, IntegerBound low_bound,
                                                      IntegerBound high_bound, bool endpoint) {
  if (!is_integer(dtype)) {
    fail(
        fmt::format("array dtype {} is not supported (use int8, uint8, int16, uint16, int32, "
                    "uint32, int64 or uint64)",
                    dtype.name()));
  }
  const Wide low = wide(low_bound), high = wide(high_bound);
  const auto [min, max] = dtype_bounds(dtype);
  if (low < min || low > max) {
    fail(fmt::format("low = {} is out of bounds for {}", text(low), dtype.name()));
  }
  const Wide last = endpoint ? high : high - 1;
  if (high < min || last > max) {
    fail(fmt::format("high = {} is out of bounds for {}{}", text(high), dtype.name(),
                     endpoint ? " (with endpoint)" : ""));
  }
  if (last < low) {
    fail(fmt::format("low = {} {} high = {}", text(low), endpoint ? ">" : ">=", text(high)));
  }
  return {static_cast<std::uint64_t>(low), static_cast<std::uint64_t>(last - low)};
}

}  // namespace

void RandomGenerator::integers(const Queue& queue, const Array& array, IntegerBound low,
                               IntegerBound high, bool endpoint) {
  const DType dtype = array.dtype();
  const auto [first, s_minus_1] = checked_range(dtype, low, high, endpoint);
  const auto k = detail::recipe_cache().get<ElementwiseKernel>(
      "random", fmt::format("integers:{}", dtype.name()), [&] { return make_kernel(dtype); });
  const auto lo = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
  const auto hi = [](std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); };
  k(queue, array, lo(seed_), hi(seed_), lo(offset_), hi(offset_), std::uint64_t{0}, first,
    s_minus_1);
  ++offset_;
}

}  // namespace plinth
