#include "runtime/rect_copy.hpp"

#include "diagnostics/debug.hpp"
#include "runtime/impl.hpp"
#include "runtime/rect_region.hpp"

#include <plinth/errors.hpp>
#include <plinth/memory_pool.hpp>
#include <plinth/rect_copy.hpp>

#include <fmt/format.h>

#include <optional>
#include <vector>

namespace plinth {

namespace detail {

namespace {

using backend::RectShape;
using backend::RectSide;

int abi_minor(const BoundDevice& device) { return loaded(device.context().api()).abi_minor; }

/// Calls `whole(dst_side, src_side, shape)` (a backend's rectangular copy) on the whole
/// region, else plane by plane. Returns false where the backend refused the first call of
/// the second kind too (it then did nothing). `what` names the copy for PLINTH_DEBUG.
template <class Call>
bool by_backend(const RectSide& dst_side, const RectSide& src_side, const RectShape& shape,
                const char* what, const BoundDevice& device, Call&& whole) {
  if (whole(dst_side, src_side, shape)) {
    debug(DebugTopic::transfer, "{} of {} x {} x {} bytes on device {} ('{}'): the backend's copy",
          what, shape.width, shape.height, shape.depth, device.index(), device.name());
    return true;
  }
  if (shape.depth == 1) return false;
  const RectShape plane{shape.width, shape.height, 1};
  if (!whole(dst_side, src_side, plane)) return false;
  for (std::size_t z = 1; z < shape.depth; ++z) {
    if (!whole(rect_plane(dst_side, z), rect_plane(src_side, z), plane)) {
      // Refusing one plane of a shape it took before: a backend's fault.
      throw LogicError(
          fmt::format("{}: the backend refused plane {} of a copy whose first plane "
                      "it made",
                      what, z));
    }
  }
  debug(DebugTopic::transfer,
        "{} of {} x {} x {} bytes on device {} ('{}'): {} planes (the backend refused the 3-D "
        "copy)",
        what, shape.width, shape.height, shape.depth, device.index(), device.name(), shape.depth);
  return true;
}

/// Calls `row(dst_offset, src_offset)` for every row of the region.
template <class Row>
void by_rows(const RectSide& dst_side, const RectSide& src_side, const RectShape& shape,
             Row&& row) {
  for (std::size_t z = 0; z < shape.depth; ++z) {
    for (std::size_t y = 0; y < shape.height; ++y) {
      row(dst_side.offset + z * dst_side.slice_pitch + y * dst_side.row_pitch,
          src_side.offset + z * src_side.slice_pitch + y * src_side.row_pitch);
    }
  }
}

void say_rows(const char* what, const RectShape& shape, const BoundDevice& device,
              const char* why) {
  debug(DebugTopic::transfer, "{} of {} x {} x {} bytes on device {} ('{}'): {} rows ({})", what,
        shape.width, shape.height, shape.depth, device.index(), device.name(),
        shape.height * shape.depth, why);
}

const char* why_rows(const BoundDevice& device) {
  return abi_minor(device) < 6 ? "the plugin predates SDK 1.6's rectangular copies"
                               : "the backend has no rectangular copy for it";
}

/// Whether two sides of one allocation share a byte's covering range (then the copy goes
/// through a temporary buffer).
bool may_overlap(const Buffer& dst, const RectSide& dst_side, const Buffer& src,
                 const RectSide& src_side, const RectShape& shape) {
  if (!dst.overlaps(src) && !src.overlaps(dst)) return false;
  const std::size_t to = dst.offset() + dst_side.offset;
  const std::size_t from = src.offset() + src_side.offset;
  return to < from + rect_span(src_side, shape) && from < to + rect_span(dst_side, shape);
}

/// One device, regions that share no byte.
void copy_on_device(const Queue& queue, const Buffer& dst, const RectSide& dst_side,
                    const Buffer& src, const RectSide& src_side, const RectShape& shape) {
  auto& adapter = detail::Access::adapter(queue);
  if (abi_minor(queue.device()) >= 6 &&
      by_backend(dst_side, src_side, shape, "rectangular copy", queue.device(),
                 [&](const RectSide& d, const RectSide& s, const RectShape& r) {
                   return adapter.copy_rect(detail::Access::adapter(dst), d,
                                            detail::Access::adapter(src), s, r);
                 })) {
    return;
  }
  say_rows("rectangular copy", shape, queue.device(), why_rows(queue.device()));
  by_rows(dst_side, src_side, shape, [&](std::size_t to, std::size_t from) {
    adapter.copy(detail::Access::adapter(dst), to, detail::Access::adapter(src), from, shape.width);
  });
}

void copy_between_devices(const Queue& queue, const Buffer& dst, const RectSide& dst_side,
                          const Buffer& src, const RectSide& src_side, const RectShape& shape,
                          const Queue* src_queue) {
  auto& adapter = detail::Access::adapter(queue);
  const BoundDevice& to = dst.device();
  const BoundDevice& from = src.device();
  const int minor = abi_minor(to);
  if (minor >= 6 && by_backend(dst_side, src_side, shape, "rectangular peer copy", to,
                               [&](const RectSide& d, const RectSide& s, const RectShape& r) {
                                 return adapter.copy_rect_peer(
                                     detail::Access::adapter(dst), to.index(), d,
                                     detail::Access::adapter(src), from.index(), s, r);
                               })) {
    return;
  }
  if (minor < 4) {
    // SDK 1.0 to 1.3 defined copy() for any two buffers of a context.
    say_rows("rectangular peer copy", shape, to, "the plugin's copy() between devices");
    by_rows(dst_side, src_side, shape, [&](std::size_t d, std::size_t s) {
      adapter.copy(detail::Access::adapter(dst), d, detail::Access::adapter(src), s, shape.width);
    });
    return;
  }
  // The backend's peer copy, row by row, where it has one (it answers for the first row).
  if (adapter.copy_peer(detail::Access::adapter(dst), to.index(), dst_side.offset,
                        detail::Access::adapter(src), from.index(), src_side.offset, shape.width)) {
    say_rows("rectangular peer copy", shape, to, "the backend's peer copy");
    bool first = true;
    by_rows(dst_side, src_side, shape, [&](std::size_t d, std::size_t s) {
      if (!first &&
          !adapter.copy_peer(detail::Access::adapter(dst), to.index(), d,
                             detail::Access::adapter(src), from.index(), s, shape.width)) {
        throw LogicError("rectangular peer copy: the backend refused a row after the first");
      }
      first = false;
    });
    return;
  }
  debug(DebugTopic::transfer,
        "rectangular peer copy of {} x {} x {} bytes from device {} ('{}') to device {} ('{}'): "
        "through the host (the backend has no peer copy between them)",
        shape.width, shape.height, shape.depth, from.index(), from.name(), to.index(), to.name());
  std::optional<Queue> own;
  if (src_queue == nullptr) src_queue = &own.emplace(from);
  queue.synchronize();  // what was enqueued before, the wait for the source's writes included
  const RectShape& s = shape;
  std::vector<std::byte> staging(s.width * s.height * s.depth);
  const RectSide packed{0, s.width, s.width * s.height};
  read_rect_sides(*src_queue, staging.data(), packed, src, src_side, shape, false);
  // Blocking: `staging` may go once it returns, but the write may still run (no queue_idle()).
  write_rect_sides(queue, dst, dst_side, staging.data(), packed, shape, false);
}

}  // namespace

bool try_write_rect(const Queue& queue, const Buffer& dst, const RectSide& dst_side,
                    const void* src, const RectSide& src_side, const RectShape& shape, bool async) {
  if (abi_minor(queue.device()) < 6) return false;
  note_use(dst, queue);
  return by_backend(dst_side, src_side, shape, "rectangular write", queue.device(),
                    [&](const RectSide& d, const RectSide& s, const RectShape& r) {
                      return detail::Access::adapter(queue).write_rect(
                          detail::Access::adapter(dst), d, static_cast<const std::byte*>(src), s, r,
                          async);
                    });
}

bool try_read_rect(const Queue& queue, void* dst, const RectSide& dst_side, const Buffer& src,
                   const RectSide& src_side, const RectShape& shape, bool async) {
  if (abi_minor(queue.device()) < 6) return false;
  note_use(src, queue);
  return by_backend(dst_side, src_side, shape, "rectangular read", queue.device(),
                    [&](const RectSide& d, const RectSide& s, const RectShape& r) {
                      return detail::Access::adapter(queue).read_rect(
                          static_cast<std::byte*>(dst), d, detail::Access::adapter(src), s, r,
                          async);
                    });
}

void write_rect_sides(const Queue& queue, const Buffer& dst, const RectSide& dst_side,
                      const void* src, const RectSide& src_side, const RectShape& shape,
                      bool async) {
  if (try_write_rect(queue, dst, dst_side, src, src_side, shape, async)) return;
  note_use(dst, queue);
  say_rows("rectangular write", shape, queue.device(), why_rows(queue.device()));
  const auto* bytes = static_cast<const std::byte*>(src);
  by_rows(dst_side, src_side, shape, [&](std::size_t to, std::size_t from) {
    detail::Access::adapter(queue).write(detail::Access::adapter(dst), to, bytes + from,
                                         shape.width, async);
  });
}

void read_rect_sides(const Queue& queue, void* dst, const RectSide& dst_side, const Buffer& src,
                     const RectSide& src_side, const RectShape& shape, bool async) {
  if (try_read_rect(queue, dst, dst_side, src, src_side, shape, async)) return;
  note_use(src, queue);
  say_rows("rectangular read", shape, queue.device(), why_rows(queue.device()));
  auto* bytes = static_cast<std::byte*>(dst);
  by_rows(dst_side, src_side, shape, [&](std::size_t to, std::size_t from) {
    detail::Access::adapter(queue).read(bytes + to, detail::Access::adapter(src), from, shape.width,
                                        async);
  });
}

void copy_rect_sides(const Queue& queue, const Buffer& dst, const RectSide& dst_side,
                     const Buffer& src, const RectSide& src_side, const RectShape& shape,
                     const Queue* src_queue) {
  note_use(dst, queue);
  note_use(src, src_queue != nullptr ? *src_queue : queue);
  if (!(dst.device() == src.device())) {
    copy_between_devices(queue, dst, dst_side, src, src_side, shape, src_queue);
    return;
  }
  if (!may_overlap(dst, dst_side, src, src_side, shape)) {
    copy_on_device(queue, dst, dst_side, src, src_side, shape);
    return;
  }
  // memmove: the whole source into a packed temporary (from the pool, for `queue`: reused only
  // after these copies), then into the destination.
  debug(DebugTopic::transfer,
        "rectangular copy of {} x {} x {} bytes on device {} ('{}'): through a temporary buffer "
        "(the regions share bytes)",
        shape.width, shape.height, shape.depth, queue.device().index(), queue.device().name());
  const RectSide packed{0, shape.width, shape.width * shape.height};
  const auto temporary = MemoryPool::of(dst.device().context())
                             .allocate(queue, shape.width * shape.height * shape.depth);
  copy_on_device(queue, temporary, packed, src, src_side, shape);
  copy_on_device(queue, dst, dst_side, temporary, packed, shape);
}

}  // namespace detail

namespace {

void check_queue(const Queue& queue, const Buffer& buffer, const char* function,
                 const char* buffer_name) {
  if (!(queue.device() == buffer.device())) {
    throw LogicError(fmt::format(
        "{}: {}", function,
        detail::describe_mismatch("queue", queue.device(), buffer_name, buffer.device())));
  }
}

}  // namespace

void copy_rect(const Queue& queue, const Buffer& dst, const RectRegion& dst_region,
               const Buffer& src, const RectRegion& src_region, const RectExtent& extent,
               bool no_async) {
  constexpr const char* function = "copy_rect";
  check_queue(queue, dst, function, "destination buffer");
  if (!(src.device().context() == dst.device().context())) {
    throw LogicError(fmt::format("{}: {}", function,
                                 detail::describe_mismatch("source buffer", src.device(),
                                                           "destination buffer", dst.device())));
  }
  if (detail::rect_empty(extent)) return;
  const auto dst_side =
      detail::rect_side(dst_region, extent, dst.size(), function, "destination buffer's");
  const auto src_side =
      detail::rect_side(src_region, extent, src.size(), function, "source buffer's");
  detail::copy_rect_sides(queue, dst, dst_side, src, src_side, detail::rect_shape(extent));
  if (no_async) queue.synchronize();
}

void write_rect(const Queue& queue, const Buffer& dst, const RectRegion& dst_region,
                std::span<const std::byte> src, const RectRegion& src_region,
                const RectExtent& extent, bool no_async) {
  constexpr const char* function = "write_rect";
  check_queue(queue, dst, function, "destination buffer");
  if (detail::rect_empty(extent)) return;
  const auto dst_side =
      detail::rect_side(dst_region, extent, dst.size(), function, "destination buffer's");
  const auto src_side =
      detail::rect_side(src_region, extent, src.size(), function, "host source's");
  detail::write_rect_sides(queue, dst, dst_side, src.data(), src_side, detail::rect_shape(extent),
                           !no_async);
  // No queue_idle() when blocking: a blocking write waits for its source, not for the queue.
}

void read_rect(const Queue& queue, std::span<std::byte> dst, const RectRegion& dst_region,
               const Buffer& src, const RectRegion& src_region, const RectExtent& extent,
               bool async) {
  constexpr const char* function = "read_rect";
  check_queue(queue, src, function, "source buffer");
  if (detail::rect_empty(extent)) return;
  const auto dst_side =
      detail::rect_side(dst_region, extent, dst.size(), function, "host destination's");
  const auto src_side =
      detail::rect_side(src_region, extent, src.size(), function, "source buffer's");
  detail::read_rect_sides(queue, dst.data(), dst_side, src, src_side, detail::rect_shape(extent),
                          async);
  if (!async) detail::queue_idle(queue);
}

}  // namespace plinth
