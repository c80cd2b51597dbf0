#pragma once

// The state behind Image and Sampler, and the checks their copies share. Internal to the core.

#include <plinth/backend/image.hpp>
#include <plinth/backend/rect_copy.hpp>
#include <plinth/context.hpp>
#include <plinth/image.hpp>

#include <array>
#include <cstddef>
#include <memory>

namespace plinth::detail {

struct ImageImpl {
  BoundDevice device;
  std::shared_ptr<backend::ImageAdapter> adapter;
  ImageType type;
  ImageFormat format;
  ImageExtent extent;
};

struct SamplerImpl {
  Context context;
  std::shared_ptr<backend::SamplerAdapter> adapter;
  SamplerDesc desc;
};

/// The image's size along the three axes a box addresses: (width, height, depth), the
/// layers taking the next free axis (a 1-D array's y, a 2-D array's z).
std::array<std::size_t, 3> box_axes(ImageType type, const ImageExtent& extent) noexcept;

/// Checks `box` against `image` (sizes > 0, inside the image, unused axes origin 0 and size
/// 1). Throws LogicError naming `function` and `side` ("source image").
void check_box(const Image& image, const ImageBox& box, const char* function, const char* side);

/// A box's bytes as a rectangular copy sees them: rows of box.size[0] pixels.
backend::RectShape box_shape(const ImageBox& box, const ImageFormat& format) noexcept;

/// Refuses a queue of another device than the image's, naming `function`.
void check_image_queue(const Queue& queue, const Image& image, const char* function);

}  // namespace plinth::detail
