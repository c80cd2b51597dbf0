#pragma once

// SDK 1.6: what the core hands a backend's rectangular copies (QueueAdapter::copy_rect(),
// read_rect(), write_rect(), copy_rect_peer()).

#include <cstddef>

namespace plinth::backend {

/// One side of a rectangular copy: where its first byte lies and how its rows and slices are
/// spaced, all in bytes. `offset` counts from the start of the buffer adapter (or of the host
/// memory) it goes with. The core has checked that `row_pitch` >= the copy's width,
/// `slice_pitch` >= row_pitch * height (both nonzero), and that every byte of the region lies
/// inside its buffer. `slice_pitch` need not be a multiple of `row_pitch`: a backend whose API
/// needs that (CUDA's 3-D copies, OpenCL's rect copies) returns false, having done nothing,
/// and the core copies plane by plane.
struct RectSide {
  std::size_t offset = 0;       ///< bytes from the start of the buffer or host memory
  std::size_t row_pitch = 0;    ///< bytes from one row's start to the next's
  std::size_t slice_pitch = 0;  ///< bytes from one slice's start to the next's
};

/// The size of a rectangular copy: `width` bytes per row, `height` rows per slice, `depth`
/// slices, all > 0 (the core passes no empty copy).
struct RectShape {
  std::size_t width = 0;   ///< bytes per row
  std::size_t height = 1;  ///< rows per slice
  std::size_t depth = 1;   ///< slices; 1 for a 2-D copy (slice_pitch is then not meaningful)
};

}  // namespace plinth::backend
