#include "runtime/peer_copy.hpp"

#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"

#include <plinth/memory_pool.hpp>

#include <algorithm>
#include <optional>
#include <vector>

namespace plinth::detail {

namespace {

// Host staging moves at most this much at a time, so that copying a large buffer does not
// need as much host memory.
constexpr std::size_t staging_chunk = std::size_t{64} << 20;

void copy_through_host(const Queue& queue, const Buffer& dst, std::size_t dst_offset,
                       const Buffer& src, std::size_t src_offset, std::size_t size,
                       const Queue* src_queue) {
  std::optional<Queue> own;
  if (src_queue == nullptr) src_queue = &own.emplace(src.device());
  // The copy is ordered in `queue`: what was enqueued there before (including the wait for
  // the source's writes) finishes first.
  queue.synchronize();
  std::vector<std::byte> staging(std::min(size, staging_chunk));
  for (std::size_t done = 0; done < size;) {
    const std::size_t chunk = std::min(staging.size(), size - done);
    detail::Access::adapter(*src_queue)
        .read(staging.data(), detail::Access::adapter(src), src_offset + done, chunk, false);
    detail::Access::adapter(queue).write(detail::Access::adapter(dst), dst_offset + done,
                                         staging.data(), chunk, false);
    done += chunk;
  }
  // No queue_idle(): the blocking writes have copied `staging` out, but may still run.
}

// An overlapping copy goes in pieces that do not overlap where at most this many are needed
// (a shift by at least an eighth of the size), and through a temporary buffer otherwise.
constexpr std::size_t max_overlap_pieces = 8;

/// Copies between ranges of one allocation on one device, as memmove does: the destination
/// gets the source's bytes as they were before the copy. The backends' copies need ranges
/// that do not overlap (OpenCL refuses them with CL_MEM_COPY_OVERLAP; CUDA's are undefined).
void copy_on_device(const Queue& queue, const Buffer& dst, std::size_t dst_offset,
                    const Buffer& src, std::size_t src_offset, std::size_t size) {
  auto& adapter = detail::Access::adapter(queue);
  const std::size_t to = dst.offset() + dst_offset;
  const std::size_t from = src.offset() + src_offset;
  if (!dst.overlaps(src) || to >= from + size || from >= to + size) {
    adapter.copy(detail::Access::adapter(dst), dst_offset, detail::Access::adapter(src), src_offset,
                 size);
    return;
  }
  if (to == from) return;  // the same bytes
  const std::size_t shift = to > from ? to - from : from - to;
  if (size / shift < max_overlap_pieces) {
    // Pieces of `shift` bytes: each one's source and destination are disjoint; moving down,
    // front to back, moving up, back to front, so no piece reads bytes already overwritten.
    for (std::size_t done = 0; done < size;) {
      const std::size_t piece = std::min(shift, size - done);
      const std::size_t at = to < from ? done : size - done - piece;
      adapter.copy(detail::Access::adapter(dst), dst_offset + at, detail::Access::adapter(src),
                   src_offset + at, piece);
      done += piece;
    }
    return;
  }
  // From the pool, for `queue`: reused only after the copies (queue order).
  const auto temporary = MemoryPool::of(dst.device().context()).allocate(queue, size);
  adapter.copy(detail::Access::adapter(temporary), 0, detail::Access::adapter(src), src_offset,
               size);
  adapter.copy(detail::Access::adapter(dst), dst_offset, detail::Access::adapter(temporary), 0,
               size);
}

}  // namespace

void copy_buffer_region(const Queue& queue, const Buffer& dst, std::size_t dst_offset,
                        const Buffer& src, std::size_t src_offset, std::size_t size,
                        const Queue* src_queue) {
  if (size == 0) return;
  note_use(dst, queue);
  note_use(src, src_queue != nullptr ? *src_queue : queue);
  const BoundDevice& to = dst.device();
  const BoundDevice& from = src.device();
  if (to == from) {
    copy_on_device(queue, dst, dst_offset, src, src_offset, size);
    return;
  }
  const auto& api = loaded(to.context().api());
  if (api.abi_minor < 4) {
    // SDK 1.0 to 1.3 defined copy() for any two buffers of a context.
    detail::Access::adapter(queue).copy(detail::Access::adapter(dst), dst_offset,
                                        detail::Access::adapter(src), src_offset, size);
    debug(DebugTopic::transfer,
          "{} bytes from device {} ('{}') to device {} ('{}'): the backend's "
          "copy (SDK 1.{} plugin)",
          size, from.index(), from.name(), to.index(), to.name(), api.abi_minor);
    return;
  }
  if (detail::Access::adapter(queue).copy_peer(detail::Access::adapter(dst), to.index(), dst_offset,
                                               detail::Access::adapter(src), from.index(),
                                               src_offset, size)) {
    debug(DebugTopic::transfer, "{} bytes from device {} ('{}') to device {} ('{}'): peer copy",
          size, from.index(), from.name(), to.index(), to.name());
    return;
  }
  debug(DebugTopic::transfer,
        "{} bytes from device {} ('{}') to device {} ('{}'): through the host (the backend has "
        "no peer copy between them)",
        size, from.index(), from.name(), to.index(), to.name());
  copy_through_host(queue, dst, dst_offset, src, src_offset, size, src_queue);
}

}  // namespace plinth::detail
