#include "arrays/box_layout.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace plinth::detail {

namespace {

struct Dim {
  std::size_t extent;
  std::size_t a;  // strides, positive
  std::size_t b;
};

}  // namespace

std::optional<BoxCopy> box_copy(std::span<const std::size_t> shape,
                                std::span<const std::ptrdiff_t> a_strides,
                                std::span<const std::ptrdiff_t> b_strides, std::size_t itemsize) {
  if (itemsize == 0 || a_strides.size() != shape.size() || b_strides.size() != shape.size())
    return std::nullopt;
  std::vector<Dim> dims;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return std::nullopt;
    if (shape[i] == 1) continue;
    if (a_strides[i] <= 0 || b_strides[i] <= 0) return std::nullopt;
    dims.push_back(
        {shape[i], static_cast<std::size_t>(a_strides[i]), static_cast<std::size_t>(b_strides[i])});
  }
  // Slowest first by a's strides; b must agree on the order.
  std::stable_sort(dims.begin(), dims.end(), [](const Dim& x, const Dim& y) { return x.a > y.a; });
  // Merge each dimension into the next faster one where both sides are contiguous across it,
  // from the fastest up: the row is the fastest group.
  std::vector<Dim> merged;  // fastest first
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
    if (!merged.empty()) {
      Dim& inner = merged.back();
      // A group is one dimension of the group's fastest strides, over all its elements.
      if (it->a == inner.a * inner.extent && it->b == inner.b * inner.extent) {
        inner.extent *= it->extent;
        continue;
      }
    }
    merged.push_back(*it);
  }
  BoxCopy copy;
  if (merged.empty()) {  // one element
    copy.shape = {itemsize, 1, 1};
    copy.a = copy.b = {0, itemsize, itemsize};
    return copy;
  }
  if (merged.size() > 3 || merged[0].a != itemsize || merged[0].b != itemsize) return std::nullopt;
  const std::size_t width = merged[0].extent * itemsize;
  copy.shape = {width, 1, 1};
  copy.a = {0, width, width};
  copy.b = {0, width, width};
  if (merged.size() >= 2) {
    const Dim& rows = merged[1];
    if (rows.a < width || rows.b < width) return std::nullopt;  // rows would overlap
    copy.shape.height = rows.extent;
    copy.a.row_pitch = rows.a;
    copy.b.row_pitch = rows.b;
    copy.a.slice_pitch = rows.a * rows.extent;
    copy.b.slice_pitch = rows.b * rows.extent;
  }
  if (merged.size() == 3) {
    const Dim& slices = merged[2];
    // Strides sort by a's; b's may not: slices must not overlap on either side.
    if (slices.a < copy.a.slice_pitch || slices.b < copy.b.slice_pitch) return std::nullopt;
    copy.shape.depth = slices.extent;
    copy.a.slice_pitch = slices.a;
    copy.b.slice_pitch = slices.b;
  }
  return copy;
}

}  // namespace plinth::detail
