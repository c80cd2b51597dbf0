#include "runtime/buffer_fill.hpp"

#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"

#include <plinth/backend/queue.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <array>
#include <cstring>

namespace plinth {

namespace detail {

namespace {

bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

/// A piece of a fill: `size` bytes at `at` (from the start of the allocation), each pattern
/// of `pattern_size` bytes starting at `pattern_at` of the rotated pattern.
struct Piece {
  std::size_t at, size, pattern_at, pattern_size;
};

/// Splits [from, to) (shorter than `period`, a power of two) into naturally aligned pieces
/// of powers of two, each one copy of its pattern, appending them to `pieces`.
template <class Pieces>
void split_unaligned(std::size_t from, std::size_t to, std::size_t period, Pieces& pieces) {
  while (from < to) {
    std::size_t s = period / 2;
    while (s > 1 && (from % s != 0 || s > to - from)) s /= 2;
    pieces.push_back(Piece{from, s, from % period, s});
    from += s;
  }
}

}  // namespace

std::span<const std::byte> shortest_period(std::span<const std::byte> pattern) noexcept {
  const std::size_t n = pattern.size();
  for (std::size_t d = 1; d < n; ++d) {
    if (n % d == 0 && std::memcmp(pattern.data(), pattern.data() + d, n - d) == 0) {
      return pattern.first(d);
    }
  }
  return pattern;
}

void check_fill(std::string_view what, std::size_t size, std::span<const std::byte> pattern) {
  if (pattern.empty()) throw LogicError(fmt::format("{}: the pattern is empty", what));
  if (pattern.size() > max_fill_pattern) {
    throw LogicError(fmt::format("{}: the pattern has {} bytes, more than the {} a fill takes",
                                 what, pattern.size(), max_fill_pattern));
  }
  if (size % pattern.size() != 0) {
    throw LogicError(fmt::format("{}: {} bytes are not a whole number of {}-byte patterns", what,
                                 size, pattern.size()));
  }
}

bool fill_natively(const Queue& queue, const Buffer& buffer, std::size_t offset, std::size_t size,
                   std::span<const std::byte> pattern) {
  const std::size_t period = pattern.size();
  if (size == 0) return true;
  if (!is_power_of_two(period) || period > max_fill_pattern) return false;
  if (loaded(buffer.device().context().api()).abi_minor < 6) return false;
  // The byte at `a` (from the allocation's start) gets rotated[a % period].
  const std::size_t begin = buffer.offset() + offset;
  const std::size_t end = begin + size;
  std::array<std::byte, max_fill_pattern> rotated{};
  for (std::size_t j = 0; j < period; ++j) {
    rotated[j] = pattern[(j + period - begin % period) % period];
  }
  const std::size_t body_begin = (begin + period - 1) / period * period;
  const std::size_t body_end = end / period * period;
  // At most 2 log2(128) pieces besides the body.
  struct Pieces {
    std::array<Piece, 16> items{};
    std::size_t count = 0;
    void push_back(const Piece& p) { items[count++] = p; }
  } pieces;
  if (body_begin < body_end) {
    pieces.push_back(Piece{body_begin, body_end - body_begin, 0, period});
    split_unaligned(begin, body_begin, period, pieces);
    split_unaligned(body_end, end, period, pieces);
  } else {
    split_unaligned(begin, end, period, pieces);
  }
  note_use(buffer, queue);
  auto& adapter = detail::Access::adapter(queue);
  for (std::size_t k = 0; k < pieces.count; ++k) {
    const Piece& p = pieces.items[k];
    const auto piece_pattern =
        std::span<const std::byte>(rotated).subspan(p.pattern_at, p.pattern_size);
    if (adapter.fill(detail::Access::adapter(buffer), p.at - buffer.offset(), p.size,
                     piece_pattern))
      continue;
    if (k == 0) return false;  // nothing done yet
    debug(DebugTopic::transfer,
          "fill of {} bytes with a {}-byte pattern on device {} ('{}'): a fill kernel (the "
          "backend has no fill for this piece)",
          p.size, p.pattern_size, buffer.device().index(), buffer.device().name());
    fill_with_kernel(queue, buffer, p.at - buffer.offset(), p.size, piece_pattern);
  }
  return true;
}

}  // namespace detail

void Buffer::fill(const Queue& queue, std::span<const std::byte> pattern) const {
  if (!(queue.device() == device())) {
    throw LogicError(
        fmt::format("Buffer::fill: {}",
                    detail::describe_mismatch("queue", queue.device(), "buffer", device())));
  }
  detail::check_fill("Buffer::fill", size(), pattern);
  const auto period = detail::shortest_period(pattern);
  const auto& api = detail::loaded(device().context().api());
  if (detail::fill_natively(queue, *this, 0, size(), period)) {
    detail::debug(detail::DebugTopic::transfer,
                  "fill of {} bytes with a {}-byte pattern on device {} ('{}'): the backend's fill",
                  size(), period.size(), device().index(), device().name());
    return;
  }
  detail::debug(detail::DebugTopic::transfer,
                "fill of {} bytes with a {}-byte pattern on device {} ('{}'): a fill kernel ({})",
                size(), period.size(), device().index(), device().name(),
                api.abi_minor < 6 ? fmt::format("SDK 1.{} plugin", api.abi_minor)
                                  : std::string("the backend has no fill for this pattern"));
  detail::fill_with_kernel(queue, *this, 0, size(), period);
}

}  // namespace plinth
