#pragma once

/// \file
/// Counter-based random numbers (Philox-4x32-10, Salmon et al., "Parallel random numbers: as
/// easy as 1, 2, 3", SC 2011 — the generator of Random123, cuRAND and numpy's Philox),
/// reproducible: the same seed, offset and shape give bit-identical arrays on every backend
/// and device.
///
///     RandomGenerator rng(42);
///     rng.uniform(queue, x);              // x: float32 or float64, in [0, 1)
///     rng.normal(queue, y, 0.0, 2.0);     // y: float32/64 or complex64/128
///     rng.bits(queue, k);                 // k: any integer dtype, every bit random
///     rng.integers(queue, k, -5, 100);    // k: any integer dtype, in [-5, 100)
///
/// **The stream.** Element `i` of a call (its flat C-order index in the array, whatever the
/// array's strides) takes the four 32-bit words
///
///     philox4x32_10(counter = (lo32(i), hi32(i), lo32(offset), hi32(offset)),
///                   key = (lo32(seed), hi32(seed)))
///
/// and every call then advances `offset` by one, so consecutive calls give fresh numbers and
/// a generator made with the same seed and offset repeats them. The numbers depend only on
/// (seed, offset, i): never on the device, the backend, the group size, or the array's view.
///
/// **Conversions**, all exact or made of IEEE-rounded +, - and * in a fixed order (plinth's
/// own log, square root, sine and cosine: no math library, no division, no fused
/// multiply-add, no denormal), which is what makes them bit-identical everywhere:
/// - uniform float32: `u = (w0 >> 8) * 2^-24`; float64: `u = ((w0 >> 5) * 2^26 + (w1 >> 6)) *
///   2^-53`; the value is `low + (high - low) * u` (each operation rounded), replaced by the
///   largest number below `high` where rounding reached `high`, so it lies in [low, high).
/// - normal (Box–Muller): `u1` as above but in (0, 1] (bits + 1), `u2` from the next word(s)
///   (float32: w0 and w1; float64: w0, w1 and w2, w3); `(z0, z1) = sqrt(-2 ln u1) (cos 2 pi
///   u2, sin 2 pi u2)` to a few ulps. A real array gets `mean + stddev * z0`; a complex one
///   `mean + stddev / sqrt(2) * (z0 + i z1)`, so that E|x - mean|² = stddev² (each part has
///   the standard deviation stddev / sqrt(2)).
/// - bits: int32/uint32 take w0; int64/uint64 `w0 | w1 << 32`; narrower integers the low bits
///   of w0 (as C converts).
/// - integers in [low, high) (numpy's Generator.integers), without modulo bias by Lemire's
///   method ("Fast random integer generation in an interval", ACM TOMACS 2019): with
///   `s = high - low` (+1 with `endpoint`), a word `x` of b bits gives `m = x * s` (2b bits);
///   it is accepted when `m mod 2^b >= 2^b mod s`, and the value is `low + (m >> b)`. Where
///   `s <= 2^32`, b = 32 and the words are w0, w1, w2, w3 in turn; otherwise b = 64 and the
///   words are `w0 | w1 << 32`, then `w2 | w3 << 32`. Once a round's words are all rejected
///   (probability below 1/16 a round), round r = 1, 2, ... takes the words of stream index
///   `i + r * 2^48` (element indices are below 2^48, so no element's words are reused).
///
/// **Arrays** may be any view (strides, negative strides, offsets): ElementwiseKernel writes
/// them, so the element at flat index `i` gets number `i` as it would in a contiguous array.
/// Programs are built on the first call for each device, dtype and layout kind, and cached
/// by the generator (shared by its copies) and on disk.

#include <plinth/array.hpp>
#include <plinth/export.hpp>
#include <plinth/module.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/queue.hpp>

#include <complex>
#include <concepts>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace plinth {

/// A Module with the Philox-4x32-10 bijection, for kernels that draw their own numbers:
///
///     ${philox}words                         // struct { unsigned int x0, x1, x2, x3; }
///     ${philox}words ${philox}(${philox}words counter, unsigned int key0, unsigned int key1)
///     ${philox}words ${philox}stream(VSIZE_T i, unsigned int offset_lo, unsigned int offset_hi,
///                                    unsigned int seed_lo, unsigned int seed_hi)
///
/// `stream` gives the words RandomGenerator uses for element `i` (see the file comment), so a
/// kernel may reproduce or extend its numbers. `${philox}u64` is a 64-bit unsigned type.
/// The same text on every backend. Throws nothing but std::bad_alloc.
PLINTH_EXPORT Module philox4x32_10();

/// A bound of RandomGenerator::integers: any C++ integer value, kept exactly (built
/// implicitly from it). A value type.
struct IntegerBound {
  /// `value`, of any integer type (bool included), exactly.
  template <std::integral T>
  IntegerBound(T value) noexcept  // NOLINT(google-explicit-constructor): any integer converts
      : bits(static_cast<std::uint64_t>(value)) {
    if constexpr (std::is_signed_v<T>) negative = value < 0;
  }
  /// The value is `bits - 2^64` when `negative`, else `bits`.
  std::uint64_t bits = 0;
  /// Whether the value is below 0.
  bool negative = false;
};

/// A seeded Philox stream that fills arrays (see the file comment).
///
/// A value type: copying copies the seed and the offset (the copy then gives the same numbers
/// as the original; the compiled programs are shared). Threads: one object is used by one
/// thread at a time (a call reads and advances its offset); distinct objects, copies included,
/// may be used from any threads at once. Each call is asynchronous: it returns once the
/// kernel is enqueued on `queue`.
class PLINTH_EXPORT RandomGenerator {
 public:
  /// A generator with key `seed` whose next call uses `offset`. Throws nothing but
  /// std::bad_alloc.
  explicit RandomGenerator(std::uint64_t seed, std::uint64_t offset = 0);

  /// The key.
  std::uint64_t seed() const noexcept { return seed_; }
  /// The offset the next call uses (the number of calls so far, from the initial offset).
  std::uint64_t offset() const noexcept { return offset_; }
  /// Moves the stream to `offset` (e.g. back, to repeat a call's numbers).
  void set_offset(std::uint64_t offset) noexcept { offset_ = offset; }

  /// Fills `array` (float32 or float64) with numbers uniform in [low, high).
  /// Throws LogicError naming the problem for another dtype, for low and high that are not
  /// finite or not low < high once converted to the dtype, or whose difference overflows, for
  /// an array on another device than the queue's, for float64 on a device without doubles;
  /// CompileError, BackendError. The offset advances only when nothing is thrown; an empty
  /// array launches nothing and still takes an offset.
  void uniform(const Queue& queue, const Array& array, double low = 0.0, double high = 1.0);

  /// Fills `array` (float32, float64, complex64 or complex128) with normal numbers of mean
  /// `mean` and standard deviation `stddev` (see the file comment for complex arrays).
  /// Throws LogicError for another dtype (naming it), for a mean or stddev that is not finite
  /// or a negative stddev, and as uniform.
  void normal(const Queue& queue, const Array& array, double mean = 0.0, double stddev = 1.0);
  /// As above, with a complex mean (complex arrays only: LogicError for a real array with a
  /// mean whose imaginary part is not zero).
  void normal(const Queue& queue, const Array& array, std::complex<double> mean,
              double stddev = 1.0);

  /// Fills `array` (int8 … uint64) with uniformly random bits.
  /// Throws LogicError for another dtype (naming it), and as uniform.
  void bits(const Queue& queue, const Array& array);

  /// Fills `array` (int8 … uint64; numpy's default dtype is int64) with integers uniform in
  /// [low, high), or [low, high] with `endpoint` (numpy's Generator.integers), without modulo
  /// bias (Lemire's method: see the file comment). For the whole range of a 64-bit dtype use
  /// `endpoint` (2^64 is not a C++ integer). Throws LogicError naming the problem, as numpy
  /// refuses: another dtype; `low >= high` (`low > high` with `endpoint`); low or high out of
  /// the dtype's bounds (high may be the dtype's maximum + 1 without `endpoint`); and as
  /// uniform.
  void integers(const Queue& queue, const Array& array, IntegerBound low, IntegerBound high,
                bool endpoint = false);

  /// The MultiQueue forms fill the whole array a MultiArray stands for, on every queue of
  /// `queues` (one per device of the array, no other), with the numbers one Array of its
  /// shape would get from the same seed and offset: element `i` of the whole array (its flat
  /// C-order index) gets number `i`, on whichever device it lies. Each device's part must
  /// hold a run of consecutive elements in C order (EqualSplay, any split along the first
  /// axis, or CloneSplay, where every device gets the same numbers). The offset advances once
  /// per call, as for one Array. Throw as the single-queue forms, and LogicError if `queues`
  /// lacks a device of the array or has one without a part, or if a part is not such a run.
  /// Every part is checked, and each device's program built, before anything is enqueued.
  void uniform(const MultiQueue& queues, const MultiArray& array, double low = 0.0,
               double high = 1.0);
  /// As the single-queue normal, on a MultiArray (see uniform's MultiQueue form).
  void normal(const MultiQueue& queues, const MultiArray& array, double mean = 0.0,
              double stddev = 1.0);
  /// As the single-queue normal with a complex mean, on a MultiArray.
  void normal(const MultiQueue& queues, const MultiArray& array, std::complex<double> mean,
              double stddev = 1.0);
  /// As the single-queue bits, on a MultiArray.
  void bits(const MultiQueue& queues, const MultiArray& array);

 private:
  std::uint64_t seed_;
  std::uint64_t offset_;
};

}  // namespace plinth
