// The box copies of images (image.hpp): checks, the backend's copy, and where it cannot take
// a layout directly (QueueAdapter's image copies return false), the same copy through a
// packed temporary (host memory for host sides, a buffer for buffer sides).

#include "diagnostics/debug.hpp"
#include "images/image_impl.hpp"
#include "runtime/impl.hpp"
#include "runtime/rect_copy.hpp"
#include "runtime/rect_region.hpp"

#include <plinth/errors.hpp>
#include <plinth/image.hpp>

#include <fmt/format.h>

#include <cstring>
#include <memory>

namespace plinth {

namespace {

using backend::RectShape;
using backend::RectSide;

RectExtent box_extent(const ImageBox& box, const ImageFormat& format) {
  std::size_t width = 0;
  if (__builtin_mul_overflow(box.size[0], format.pixel_size(), &width)) {
    throw LogicError("image copy: the box's width in bytes overflows");
  }
  return {width, box.size[1], box.size[2]};
}

RectSide packed(const RectShape& shape) { return {0, shape.width, shape.width * shape.height}; }

/// Copies `shape` between two host sides, row by row.
void host_rows(std::byte* dst, const RectSide& dst_side, const std::byte* src,
               const RectSide& src_side, const RectShape& shape) {
  for (std::size_t z = 0; z < shape.depth; ++z) {
    for (std::size_t y = 0; y < shape.height; ++y) {
      std::memcpy(dst + dst_side.offset + z * dst_side.slice_pitch + y * dst_side.row_pitch,
                  src + src_side.offset + z * src_side.slice_pitch + y * src_side.row_pitch,
                  shape.width);
    }
  }
}

[[noreturn]] void refused_packed(const char* function) {
  throw LogicError(fmt::format("{}: the backend refused a packed copy", function));
}

void say_packed(const char* function, const Image& image) {
  detail::debug(detail::DebugTopic::transfer,
                "{} on device {} ('{}'): through a packed temporary (the backend takes no such "
                "layout directly)",
                function, image.device().index(), image.device().name());
}

void check_buffer(const Queue& queue, const Buffer& buffer, const char* function,
                  const char* side) {
  if (!(queue.device() == buffer.device())) {
    throw LogicError(
        fmt::format("{}: {}", function,
                    detail::describe_mismatch("queue", queue.device(), side, buffer.device())));
  }
}

}  // namespace

void write_image(const Queue& queue, const Image& dst, const ImageBox& box,
                 std::span<const std::byte> src, const RectRegion& src_region, bool no_async) {
  constexpr const char* function = "write_image";
  detail::check_image_queue(queue, dst, function);
  detail::check_box(dst, box, function, "destination image's");
  const auto extent = box_extent(box, dst.format());
  const auto side = detail::rect_side(src_region, extent, src.size(), function, "host source's");
  const auto shape = detail::rect_shape(extent);
  auto& adapter = detail::Access::adapter(queue);
  if (!adapter.write_image(detail::Access::adapter(dst), box, src.data(), side, !no_async)) {
    say_packed(function, dst);
    const auto packed_side = packed(shape);
    auto temp =
        std::make_unique_for_overwrite<std::byte[]>(shape.width * shape.height * shape.depth);
    host_rows(temp.get(), packed_side, src.data(), side, shape);
    if (!adapter.write_image(detail::Access::adapter(dst), box, temp.get(), packed_side, false)) {
      refused_packed(function);
    }
  }
  // No queue_idle() when blocking: the write waits for `src` to be copied out, not for the
  // queue's work.
}

void read_image(const Queue& queue, std::span<std::byte> dst, const RectRegion& dst_region,
                const Image& src, const ImageBox& box, bool async) {
  constexpr const char* function = "read_image";
  detail::check_image_queue(queue, src, function);
  detail::check_box(src, box, function, "source image's");
  const auto extent = box_extent(box, src.format());
  const auto side =
      detail::rect_side(dst_region, extent, dst.size(), function, "host destination's");
  const auto shape = detail::rect_shape(extent);
  auto& adapter = detail::Access::adapter(queue);
  if (!adapter.read_image(dst.data(), side, detail::Access::adapter(src), box, async)) {
    say_packed(function, src);
    const auto packed_side = packed(shape);
    auto temp =
        std::make_unique_for_overwrite<std::byte[]>(shape.width * shape.height * shape.depth);
    if (!adapter.read_image(temp.get(), packed_side, detail::Access::adapter(src), box, false)) {
      refused_packed(function);
    }
    host_rows(dst.data(), side, temp.get(), packed_side, shape);
    async = false;
  }
  if (!async) detail::queue_idle(queue);
}

void copy_buffer_to_image(const Queue& queue, const Image& dst, const ImageBox& box,
                          const Buffer& src, const RectRegion& src_region) {
  constexpr const char* function = "copy_buffer_to_image";
  detail::check_image_queue(queue, dst, function);
  check_buffer(queue, src, function, "source buffer");
  detail::check_box(dst, box, function, "destination image's");
  const auto extent = box_extent(box, dst.format());
  const auto side = detail::rect_side(src_region, extent, src.size(), function, "source buffer's");
  const auto shape = detail::rect_shape(extent);
  detail::note_use(src, queue);
  auto& adapter = detail::Access::adapter(queue);
  if (adapter.copy_buffer_to_image(detail::Access::adapter(dst), box, detail::Access::adapter(src),
                                   side))
    return;
  say_packed(function, dst);
  const auto packed_side = packed(shape);
  const auto temp = Buffer::allocate(queue.device(), shape.width * shape.height * shape.depth);
  detail::copy_rect_sides(queue, temp, packed_side, src, side, shape);
  if (!adapter.copy_buffer_to_image(detail::Access::adapter(dst), box,
                                    detail::Access::adapter(temp), packed_side)) {
    refused_packed(function);
  }
  queue.synchronize();  // the temporary goes with this scope
}

void copy_image_to_buffer(const Queue& queue, const Buffer& dst, const RectRegion& dst_region,
                          const Image& src, const ImageBox& box) {
  constexpr const char* function = "copy_image_to_buffer";
  detail::check_image_queue(queue, src, function);
  check_buffer(queue, dst, function, "destination buffer");
  detail::check_box(src, box, function, "source image's");
  const auto extent = box_extent(box, src.format());
  const auto side =
      detail::rect_side(dst_region, extent, dst.size(), function, "destination buffer's");
  const auto shape = detail::rect_shape(extent);
  detail::note_use(dst, queue);
  auto& adapter = detail::Access::adapter(queue);
  if (adapter.copy_image_to_buffer(detail::Access::adapter(dst), side, detail::Access::adapter(src),
                                   box))
    return;
  say_packed(function, src);
  const auto packed_side = packed(shape);
  const auto temp = Buffer::allocate(queue.device(), shape.width * shape.height * shape.depth);
  if (!adapter.copy_image_to_buffer(detail::Access::adapter(temp), packed_side,
                                    detail::Access::adapter(src), box)) {
    refused_packed(function);
  }
  detail::copy_rect_sides(queue, dst, side, temp, packed_side, shape);
  queue.synchronize();  // the temporary goes with this scope
}

void copy_image(const Queue& queue, const Image& dst, const std::array<std::size_t, 3>& dst_origin,
                const Image& src, const ImageBox& src_box) {
  constexpr const char* function = "copy_image";
  detail::check_image_queue(queue, dst, function);
  detail::check_image_queue(queue, src, function);
  if (!(dst.format() == src.format())) {
    throw LogicError(fmt::format("{}: the source image is {}, the destination {}", function,
                                 to_string(src.format()), to_string(dst.format())));
  }
  detail::check_box(src, src_box, function, "source image's");
  const ImageBox dst_box{dst_origin, src_box.size};
  detail::check_box(dst, dst_box, function, "destination image's");
  if (dst == src) {
    bool overlap = true;
    for (std::size_t a = 0; a < 3; ++a) {
      overlap = overlap && dst_origin[a] < src_box.origin[a] + src_box.size[a] &&
                src_box.origin[a] < dst_origin[a] + src_box.size[a];
    }
    if (overlap) {
      throw LogicError(fmt::format("{}: the boxes overlap within one image", function));
    }
    // Two boxes of one image: the backends copy them as two images would be.
  }
  detail::Access::adapter(queue).copy_image(detail::Access::adapter(dst), dst_origin,
                                            detail::Access::adapter(src), src_box);
}

}  // namespace plinth
