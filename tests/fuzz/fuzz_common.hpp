#pragma once

// Shared by the libFuzzer harnesses. A harness's rule: a plinth::Error (or subclass) is an
// accepted outcome for bad input; any other exception escaping (libFuzzer reports it as a
// crash through std::terminate), a crash, a sanitizer report or a leak is a finding. Where a
// check is cheap, a harness also asserts an invariant with PLINTH_FUZZ_CHECK.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>

/// Stops with a crash (a finding) if `condition` is false, naming the check.
#define PLINTH_FUZZ_CHECK(condition)                                                           \
  do {                                                                                         \
    if (!(condition)) {                                                                        \
      std::fprintf(stderr, "%s:%d: invariant violated: %s\n", __FILE__, __LINE__, #condition); \
      __builtin_trap();                                                                        \
    }                                                                                          \
  } while (false)

namespace plinth_fuzz {

/// Takes values off the front of the fuzz input; past its end every read returns 0 (or an
/// empty string), so any input decodes to something.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const noexcept { return pos_ >= size_; }
  std::size_t remaining() const noexcept { return empty() ? 0 : size_ - pos_; }

  std::uint8_t byte() noexcept { return empty() ? 0 : data_[pos_++]; }
  bool flag() noexcept { return (byte() & 1) != 0; }

  std::uint64_t u64() noexcept {
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return value;
  }

  /// Mostly small values, with the boundaries and any 64-bit pattern reachable: the first
  /// byte picks the kind.
  std::int64_t interesting_signed() noexcept {
    const std::uint8_t tag = byte();
    constexpr auto min = std::numeric_limits<std::int64_t>::min();
    constexpr auto max = std::numeric_limits<std::int64_t>::max();
    if (tag < 0x80) return static_cast<std::int64_t>(tag) - 8;  // -8 .. 119
    switch (tag >> 4) {
      case 0x8: return min + (tag & 0xf);
      case 0x9: return max - (tag & 0xf);
      case 0xa: return -(static_cast<std::int64_t>(1) << (32 + (tag & 0xf)));
      case 0xb: return static_cast<std::int64_t>(1) << (32 + (tag & 0xf));
      case 0xc: return static_cast<std::int64_t>(byte()) << 8 | byte();
      case 0xd: return -(static_cast<std::int64_t>(byte()) << 8 | byte());
      default: return static_cast<std::int64_t>(u64());
    }
  }
  std::uint64_t interesting_unsigned() noexcept {
    const std::uint8_t tag = byte();
    constexpr auto max = std::numeric_limits<std::uint64_t>::max();
    if (tag < 0xa0) return tag & 0x1f;  // 0 .. 31
    switch (tag >> 4) {
      case 0xa: return max - (tag & 0xf);
      case 0xb: return (static_cast<std::uint64_t>(1) << 63) - (tag & 0xf);
      case 0xc: return static_cast<std::uint64_t>(1) << (32 + (tag & 0xf));
      case 0xd: return static_cast<std::uint64_t>(byte()) << 8 | byte();
      default: return u64();
    }
  }

  /// The rest of the input, as text.
  std::string_view rest() noexcept {
    if (empty()) return {};
    const auto text = std::string_view(reinterpret_cast<const char*>(data_ + pos_), size_ - pos_);
    pos_ = size_;
    return text;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// Splits `text` at NUL bytes into at most `n` parts (the last takes the rest); missing
/// parts are empty.
template <std::size_t N>
void split_at_nul(std::string_view text, std::string_view (&parts)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    const auto end = i + 1 < N ? text.find('\0') : std::string_view::npos;
    parts[i] = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
  }
}

}  // namespace plinth_fuzz
