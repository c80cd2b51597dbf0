#pragma once

// The engine behind rect_copy.hpp, on checked sides (rect_region.hpp): the backend's
// rectangular copies (SDK 1.6), plane by plane where it refuses a 3-D one, row by row where it
// has none; PLINTH_DEBUG=transfer says which. Array transfers of box-shaped views use the
// try_ functions, which never fall back to rows (the array layer has a staged path of its own).

#include <plinth/backend/rect_copy.hpp>
#include <plinth/buffer.hpp>
#include <plinth/queue.hpp>

#include <cstddef>

namespace plinth::detail {

/// Host to device through the backend alone: its write_rect() of the whole region, or of one
/// plane at a time where it refuses the whole. Returns false, having done nothing, where the
/// plugin predates SDK 1.6 or refuses even one plane. Notes the queue's use of `dst`.
bool try_write_rect(const Queue& queue, const Buffer& dst, const backend::RectSide& dst_side,
                    const void* src, const backend::RectSide& src_side,
                    const backend::RectShape& shape, bool async);
/// Device to host, as try_write_rect().
bool try_read_rect(const Queue& queue, void* dst, const backend::RectSide& dst_side,
                   const Buffer& src, const backend::RectSide& src_side,
                   const backend::RectShape& shape, bool async);

/// Host to device, any plugin: try_write_rect(), else one write() per row.
void write_rect_sides(const Queue& queue, const Buffer& dst, const backend::RectSide& dst_side,
                      const void* src, const backend::RectSide& src_side,
                      const backend::RectShape& shape, bool async);
/// Device to host, any plugin: try_read_rect(), else one read() per row.
void read_rect_sides(const Queue& queue, void* dst, const backend::RectSide& dst_side,
                     const Buffer& src, const backend::RectSide& src_side,
                     const backend::RectShape& shape, bool async);
/// Buffer to buffer of one context, ordered in `queue` (of dst's device), as
/// copy_buffer_region() does for ranges: on one device never blocking, regions that share
/// bytes through a temporary buffer (memmove); between devices the backend's rectangular peer
/// copy, else its peer copy row by row, else through the host (blocking, reading with
/// `src_queue`, a queue of src's device, or a temporary one if null). Throws BackendError,
/// OutOfMemoryError.
void copy_rect_sides(const Queue& queue, const Buffer& dst, const backend::RectSide& dst_side,
                     const Buffer& src, const backend::RectSide& src_side,
                     const backend::RectShape& shape, const Queue* src_queue = nullptr);

}  // namespace plinth::detail
