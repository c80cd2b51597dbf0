// Fills by kernel (runtime/buffer_fill.hpp's fallback): a byte range as an array of the
// widest unsigned elements the pattern and the range's alignment allow, filled by fill()'s
// kernel with one value, or, for a pattern of several elements, assigned the pattern
// broadcast along it; and the bytes of a fill value, for the backend's fill.

#include "algorithms/fill_pattern.hpp"

#include "runtime/buffer_fill.hpp"
#include "runtime/impl.hpp"

#include <plinth/backend/queue.hpp>
#include <plinth/host_array.hpp>

#include <algorithm>
#include <complex>
#include <cstring>

namespace plinth::detail {

namespace {

template <class T>
std::vector<std::byte> bytes_of(T value) {
  std::vector<std::byte> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

DType unsigned_of_size(std::size_t size) {
  switch (size) {
    case 1: return DType::uint8();
    case 2: return DType::uint16();
    case 4: return DType::uint32();
    default: return DType::uint64();
  }
}

/// Writes bytes [offset, offset + size) of `buffer` (the pattern's phase at `offset` being
/// `phase`) from the host, blocking until written.
void write_from_host(const Queue& queue, const Buffer& buffer, std::size_t offset, std::size_t size,
                     std::size_t phase, std::span<const std::byte> pattern) {
  if (size == 0) return;
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = pattern[(phase + i) % pattern.size()];
  detail::Access::adapter(queue).write(detail::Access::adapter(buffer), offset, bytes.data(), size,
                                       false);
}

}  // namespace

std::optional<std::vector<std::byte>> fill_value_bytes(const ElementwiseValue& value,
                                                       const DType& dtype) {
  const auto& v = detail::Access::impl(value);
  const auto integer = [&]() -> std::uint64_t {
    if (const auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
    if (const auto* s = std::get_if<std::int64_t>(&v)) return static_cast<std::uint64_t>(*s);
    if (const auto* u = std::get_if<std::uint64_t>(&v)) return *u;
    return 0;
  };
  const bool holds_integer = std::holds_alternative<bool>(v) ||
                             std::holds_alternative<std::int64_t>(v) ||
                             std::holds_alternative<std::uint64_t>(v);
  if (dtype == DType::boolean() || is_integer(dtype)) {
    if (!holds_integer) return std::nullopt;
    auto bytes = bytes_of(integer());  // little-endian: the low bytes are the value's
    bytes.resize(dtype.itemsize());
    return bytes;
  }
  // A real or complex dtype: an integer converts as the kernel would only where a double
  // holds it exactly (|v| <= 2^53: zeros() and ones() included); others go to the kernel.
  std::complex<double> number;
  constexpr std::uint64_t exact = std::uint64_t{1} << 53;
  if (const auto* c = std::get_if<std::complex<double>>(&v)) {
    number = *c;
  } else if (const auto* d = std::get_if<double>(&v)) {
    number = *d;
  } else if (const auto* s = std::get_if<std::int64_t>(&v)) {
    if (*s > static_cast<std::int64_t>(exact) || *s < -static_cast<std::int64_t>(exact)) {
      return std::nullopt;
    }
    number = static_cast<double>(*s);
  } else {
    if (integer() > exact) return std::nullopt;
    number = static_cast<double>(integer());
  }
  const auto complex = [&] { return number; };
  if (dtype == DType::float32()) return bytes_of(static_cast<float>(complex().real()));
  if (dtype == DType::float64()) return bytes_of(complex().real());
  if (dtype == DType::complex64()) return bytes_of(std::complex<float>(complex()));
  if (dtype == DType::complex128()) return bytes_of(complex());
  return std::nullopt;
}

void fill_with_kernel(const Queue& queue, const Buffer& buffer, std::size_t offset,
                      std::size_t size, std::span<const std::byte> pattern) {
  if (size == 0) return;
  note_use(buffer, queue);
  const std::size_t period = pattern.size();
  const std::size_t begin = buffer.offset() + offset;  // from the allocation's start
  std::size_t unit = 8;
  while (unit > 1 && (period % unit != 0 || begin % unit != 0)) unit /= 2;
  // The first element where a kernel argument may start (OpenCL: sub-buffers).
  const std::size_t alignment =
      std::max<std::size_t>(unit, buffer.device().params().address_alignment);
  const std::size_t start = std::min((begin + alignment - 1) / alignment * alignment, begin + size);
  const std::size_t head = start - begin;
  const std::size_t count = (size - head) / period;  // whole patterns from `start`
  const std::size_t tail_at = head + count * period;
  write_from_host(queue, buffer, offset, head, 0, pattern);
  write_from_host(queue, buffer, offset + tail_at, size - tail_at, tail_at % period, pattern);
  if (count == 0) return;
  std::vector<std::byte> rotated(period);
  for (std::size_t i = 0; i < period; ++i) rotated[i] = pattern[(head + i) % period];
  const DType dtype = unsigned_of_size(unit);
  const std::size_t per_pattern = period / unit;
  std::vector<std::size_t> shape{count};
  if (per_pattern > 1) shape.push_back(per_pattern);
  // Over the root allocation: a kernel may receive the array's base buffer (with the first
  // element's offset), which for a region at an unaligned origin could not be an argument.
  const Buffer root = detail::Access::impl(buffer)->parent
                          ? detail::Access::make<Buffer>(detail::Access::impl(buffer)->parent)
                          : buffer;
  const auto out =
      Array::from_buffer(root, ArrayMetadata(shape, dtype, std::nullopt, start, root.size()));
  if (per_pattern == 1) {
    std::uint64_t value = 0;
    std::memcpy(&value, rotated.data(), unit);  // little-endian
    fill_by_kernel(queue, out, ScalarValue(value));
    return;
  }
  const auto one = Array::from_host(queue, HostArray::from_bytes(rotated, {per_pattern}, dtype));
  assign(queue, out, ArrayExpression(one));
}

}  // namespace plinth::detail
