#include "runtime/rect_region.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

namespace plinth::detail {

namespace {

[[noreturn]] void overflow(const char* function, const char* side) {
  throw LogicError(fmt::format(
      "{}: the {} region's offsets and pitches overflow the size of an address", function, side));
}

std::size_t times(std::size_t a, std::size_t b, const char* function, const char* side) {
  std::size_t result = 0;
  if (__builtin_mul_overflow(a, b, &result)) overflow(function, side);
  return result;
}

std::size_t plus(std::size_t a, std::size_t b, const char* function, const char* side) {
  std::size_t result = 0;
  if (__builtin_add_overflow(a, b, &result)) overflow(function, side);
  return result;
}

}  // namespace

backend::RectShape rect_shape(const RectExtent& extent) noexcept {
  return {extent.width_bytes, extent.height, extent.depth};
}

bool rect_empty(const RectExtent& extent) noexcept {
  return extent.width_bytes == 0 || extent.height == 0 || extent.depth == 0;
}

backend::RectSide rect_side(const RectRegion& region, const RectExtent& extent,
                            std::size_t side_size, const char* function, const char* side) {
  const std::size_t row_pitch = region.row_pitch == 0 ? extent.width_bytes : region.row_pitch;
  if (row_pitch < extent.width_bytes) {
    throw LogicError(fmt::format("{}: the {} region's row pitch {} is smaller than the width {}",
                                 function, side, row_pitch, extent.width_bytes));
  }
  const std::size_t plane = times(row_pitch, extent.height, function, side);
  const std::size_t slice_pitch = region.slice_pitch == 0 ? plane : region.slice_pitch;
  if (slice_pitch < plane) {
    throw LogicError(fmt::format(
        "{}: the {} region's slice pitch {} is smaller than its row pitch times the height ({} "
        "x {} = {})",
        function, side, slice_pitch, row_pitch, extent.height, plane));
  }
  const std::size_t offset =
      plus(plus(region.x_bytes, times(region.y, row_pitch, function, side), function, side),
           times(region.z, slice_pitch, function, side), function, side);
  // One past the last byte: the last slice's last row's end.
  const std::size_t end =
      plus(plus(plus(offset, times(extent.depth - 1, slice_pitch, function, side), function, side),
                times(extent.height - 1, row_pitch, function, side), function, side),
           extent.width_bytes, function, side);
  if (end > side_size) {
    throw LogicError(fmt::format(
        "{}: the {} region (x {}, y {}, z {}; {} x {} x {} bytes, row pitch {}, slice pitch {}) "
        "reaches byte {}, past the {} bytes there",
        function, side, region.x_bytes, region.y, region.z, extent.width_bytes, extent.height,
        extent.depth, row_pitch, slice_pitch, end, side_size));
  }
  return {offset, row_pitch, slice_pitch};
}

std::size_t rect_span(const backend::RectSide& side, const backend::RectShape& shape) noexcept {
  // Checked by rect_side() for every side the core passes on.
  return (shape.depth - 1) * side.slice_pitch + (shape.height - 1) * side.row_pitch + shape.width;
}

backend::RectSide rect_plane(backend::RectSide side, std::size_t planes) noexcept {
  side.offset += planes * side.slice_pitch;
  return side;
}

}  // namespace plinth::detail
