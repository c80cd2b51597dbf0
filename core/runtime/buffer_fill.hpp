#pragma once

// Fills of buffer regions with a repeated byte pattern (Buffer::fill, and Array fill of
// contiguous arrays): through the backend's fill (SDK 1.6's QueueAdapter::fill) in pieces the
// SDK allows, else through a fill kernel (algorithms/fill_pattern.hpp).

#include <plinth/buffer.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <span>
#include <string_view>

namespace plinth::detail {

/// The longest pattern Buffer::fill takes: the most any backend's fill takes (OpenCL's
/// clEnqueueFillBuffer), which the kernel fallback takes too.
inline constexpr std::size_t max_fill_pattern = 128;

/// The shortest prefix of `pattern` whose repetition is `pattern` (a length dividing it).
std::span<const std::byte> shortest_period(std::span<const std::byte> pattern) noexcept;

/// Checks a fill of `size` bytes with `pattern`: LogicError naming `what` for an empty
/// pattern, one longer than max_fill_pattern, or a size that is not a multiple of it.
void check_fill(std::string_view what, std::size_t size, std::span<const std::byte> pattern);

/// Fills bytes [offset, offset + size) of `buffer` (size a multiple of pattern.size()) with
/// `pattern` through the backend's fill: the part aligned to the pattern's size in one call,
/// the bytes before and after it in naturally aligned pieces. Returns false, having done
/// nothing, where the backend has no fill (a plugin of SDK 1.5 or older), the pattern's size
/// is not a power of two or the backend refuses the first piece; a later piece it refuses is
/// filled by fill_with_kernel(). Notes the queue's use of the buffer. Throws BackendError.
bool fill_natively(const Queue& queue, const Buffer& buffer, std::size_t offset, std::size_t size,
                   std::span<const std::byte> pattern);

/// Fills as fill_natively() would, by a fill kernel (algorithms/fill_pattern.cpp): elements
/// of the widest unsigned type (up to 8 bytes) that divides the pattern's size and the
/// region's alignment, the pattern broadcast over them; the bytes before the first element
/// aligned to the device's address_alignment (OpenCL sub-buffers) and the tail shorter than a
/// pattern are written from the host, blocking until written. Throws as a launch.
void fill_with_kernel(const Queue& queue, const Buffer& buffer, std::size_t offset,
                      std::size_t size, std::span<const std::byte> pattern);

}  // namespace plinth::detail
