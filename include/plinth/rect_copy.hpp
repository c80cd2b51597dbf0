#pragma once

// Rectangular (2-D and 3-D) copies between buffers, and between buffers and host memory:
// PyCUDA's Memcpy2D, Memcpy3D and Memcpy3DPeer, OpenCL's clEnqueue{Copy,Read,Write}BufferRect.

#include <plinth/buffer.hpp>
#include <plinth/export.hpp>
#include <plinth/queue.hpp>

#include <cstddef>
#include <span>

namespace plinth {

/// Where a rectangular region lies in one side of a copy (a buffer or host memory), in bytes:
/// its first byte is at `x_bytes + y * row_pitch + z * slice_pitch` from the side's start, its
/// rows are `row_pitch` bytes apart and its slices (planes) `slice_pitch` bytes apart.
/// `row_pitch` 0 means the copy's width (rows packed); `slice_pitch` 0 means row_pitch times
/// the copy's height (slices packed). A pitched buffer's (Buffer::allocate_pitched()) are
/// PitchedBuffer::row_pitch and slice_pitch.
struct RectRegion {
  std::size_t x_bytes = 0;      ///< bytes into a row where the region starts
  std::size_t y = 0;            ///< the first row
  std::size_t z = 0;            ///< the first slice
  std::size_t row_pitch = 0;    ///< bytes between row starts; 0: the copy's width_bytes
  std::size_t slice_pitch = 0;  ///< bytes between slice starts; 0: row_pitch * height
};

/// The size of a rectangular copy: `width_bytes` per row, `height` rows per slice, `depth`
/// slices (1 and 1 for a row; depth 1 for a 2-D copy). A copy with any of them 0 does nothing.
struct RectExtent {
  std::size_t width_bytes = 0;  ///< bytes per row
  std::size_t height = 1;       ///< rows per slice
  std::size_t depth = 1;        ///< slices
};

/// Copies the `extent` region at `src_region` of `src` to `dst_region` of `dst`, ordered in
/// `queue` (of dst's device), never blocking unless `no_async`. `src` may be on another device
/// of the same context (PyCUDA's Memcpy3DPeer): the backend's peer copy where it has one, else
/// through the host, blocking (the caller has ordered the source's writes before `queue`, as
/// for Buffer::set). Regions of one allocation that share bytes are copied as memmove copies:
/// `dst` gets `src`'s bytes as they were before the copy (through a temporary buffer of the
/// extent's size). Uses the backend's rectangular copies where it has them (SDK 1.6), else
/// copies plane by plane or row by row, and says which under PLINTH_DEBUG=transfer.
/// Throws LogicError on a queue or buffer of another device or context, a pitch smaller than
/// the width (row_pitch) or than row_pitch * height (slice_pitch), or a region that does not
/// fit its buffer (naming the side); OutOfMemoryError for the temporary; BackendError.
/// Thread-safe as the queue's other work (one thread at a time per queue).
PLINTH_EXPORT void copy_rect(const Queue& queue, const Buffer& dst, const RectRegion& dst_region,
                             const Buffer& src, const RectRegion& src_region,
                             const RectExtent& extent, bool no_async = false);

/// Copies the `extent` region at `src_region` of host memory `src` to `dst_region` of `dst`
/// (host to device), through `queue` (of dst's device). Asynchronous unless `no_async`: `src`
/// must then stay valid and unchanged until the queue is synchronized; with `no_async` it
/// returns once the data are out of `src`. Throws as copy_rect() (the host side is checked
/// against src.size()).
PLINTH_EXPORT void write_rect(const Queue& queue, const Buffer& dst, const RectRegion& dst_region,
                              std::span<const std::byte> src, const RectRegion& src_region,
                              const RectExtent& extent, bool no_async = false);

/// Copies the `extent` region at `src_region` of `src` to `dst_region` of host memory `dst`
/// (device to host), through `queue` (of src's device). With `async`, `dst` is valid after
/// queue.synchronize(); without, on return. Throws as copy_rect() (the host side is checked
/// against dst.size()).
PLINTH_EXPORT void read_rect(const Queue& queue, std::span<std::byte> dst,
                             const RectRegion& dst_region, const Buffer& src,
                             const RectRegion& src_region, const RectExtent& extent,
                             bool async = false);

}  // namespace plinth
