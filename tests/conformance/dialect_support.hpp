#pragma once

// What the kernel-dialect tests (dialect_*_test.cpp, docs/kernel-dialect.md) share: typed
// transfers, the scalar types of the dialect's typed functions, source generation by
// substitution, and the skip for devices whose backend predates the dialect's atomics.

#include "fixture.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace plinth::conformance::dialect {

/// A new buffer on `queue`'s device holding `values` (at least one byte, so that empty
/// vectors make a valid buffer).
template <class T>
Buffer upload(const Queue& queue, const std::vector<T>& values) {
  auto buffer =
      Buffer::allocate(queue.device(), std::max<std::size_t>(values.size() * sizeof(T), 1));
  if (!values.empty()) buffer.set(queue, std::as_bytes(std::span(values)), true);
  return buffer;
}

/// The whole of `buffer` as elements of T.
template <class T>
std::vector<T> download(const Queue& queue, const Buffer& buffer) {
  std::vector<T> values(buffer.size() / sizeof(T));
  buffer.get(queue, std::as_writable_bytes(std::span(values)));
  return values;
}

/// The bits of a value (floats compared by representation).
template <class T>
auto bits_of(T value) {
  if constexpr (sizeof(T) == 4) {
    std::uint32_t out = 0;
    std::memcpy(&out, &value, 4);
    return out;
  } else {
    std::uint64_t out = 0;
    std::memcpy(&out, &value, 8);
    return out;
  }
}

/// The dialect's name suffix and C type of a host type (docs/kernel-dialect.md, "Scalar
/// types and their suffixes").
template <class T>
constexpr std::pair<std::string_view, std::string_view> dialect_type() {
  if constexpr (std::is_same_v<T, std::int32_t>) return {"int", "int"};
  if constexpr (std::is_same_v<T, std::uint32_t>) return {"uint", "unsigned int"};
  if constexpr (std::is_same_v<T, std::int64_t>) return {"long", "long"};
  if constexpr (std::is_same_v<T, std::uint64_t>) return {"ulong", "unsigned long"};
  if constexpr (std::is_same_v<T, float>) return {"float", "float"};
  if constexpr (std::is_same_v<T, double>) return {"double", "double"};
}

/// `text` with every `$S` replaced by the suffix and every `$T` by the C type of T.
template <class T>
std::string for_type(std::string_view text) {
  const auto [suffix, ctype] = dialect_type<T>();
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$' && i + 1 < text.size() && (text[i + 1] == 'S' || text[i + 1] == 'T')) {
      out += text[i + 1] == 'S' ? suffix : ctype;
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

/// Which of the six types a device's kernels may use in atomics (docs/kernel-dialect.md,
/// "What a device has"): the 32-bit ones always, long/ulong with int64_atomics, double with
/// double_atomics on a device with doubles.
struct AtomicTypes {
  bool int64 = false;
  bool float64 = false;
};

inline AtomicTypes atomic_types(const BoundDevice& device) {
  const auto& f = device.features();
  return {f.int64_atomics, f.double_atomics && device.params().supports_double};
}

/// A deterministic sequence of 64-bit values (a linear congruential generator's high bits).
class Sequence {
 public:
  explicit Sequence(std::uint64_t seed) : state_(seed * 2654435761u + 1) {}
  std::uint64_t next() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return state_ >> 16;
  }
  /// Uniform enough in [lo, hi].
  std::int64_t in(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

 private:
  std::uint64_t state_;
};

}  // namespace plinth::conformance::dialect

/// Skips the test on a device whose backend has no dialect atomics, fences, sub-group
/// operations and vector loads (a plugin built against SDK 1.4 or older).
#define PLINTH_SKIP_WITHOUT_DIALECT()                                                      \
  do {                                                                                     \
    if (!device().features().atomics)                                                      \
      GTEST_SKIP() << device().name()                                                      \
                   << ": the backend's prelude predates the dialect's atomics (features()" \
                      ".atomics is false)";                                                \
  } while (false)
