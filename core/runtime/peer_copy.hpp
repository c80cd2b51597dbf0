#pragma once

// Copies between buffers of one context, on one device or on two.

#include <plinth/buffer.hpp>
#include <plinth/queue.hpp>

#include <cstddef>

namespace plinth::detail {

/// Copies `size` bytes of `src` from `src_offset` to `dst` at `dst_offset`, ordered in
/// `queue` (of dst's device). The buffers belong to one context (the caller checked, and the
/// ranges); on one device this is the backend's copy, never blocking, and ranges of one
/// allocation that overlap are copied as memmove copies (in pieces that do not overlap, or
/// through a temporary buffer: OutOfMemoryError). Between two devices it
/// is the backend's peer copy (SDK 1.4; copy() for older plugins), never blocking either;
/// where the backend has none it goes through the host in chunks, reading with
/// `src_queue` (a queue of src's device; a temporary one if null), and returns when done.
/// The caller has ordered the source's writes before `queue` (Queue::wait_for), as for any
/// other work. PLINTH_DEBUG=transfer says which way each copy between devices went.
/// Throws BackendError, OutOfMemoryError.
void copy_buffer_region(const Queue& queue, const Buffer& dst, std::size_t dst_offset,
                        const Buffer& src, std::size_t src_offset, std::size_t size,
                        const Queue* src_queue = nullptr);

}  // namespace plinth::detail
