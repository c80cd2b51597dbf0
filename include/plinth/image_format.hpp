#pragma once

// The value types of images and samplers (<plinth/image.hpp>), shared by the public API and
// the plugin SDK (<plinth/backend/image.hpp>): what an image holds, how big it is, which part
// of it a copy touches, and how a kernel samples it.

#include <plinth/export.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace plinth {

/// The shape of an image. Layered ("array") images are stacks of 1-D or 2-D images that a
/// kernel addresses by layer and never filters across.
enum class ImageType : std::uint8_t {
  image1d,        ///< width
  image2d,        ///< width x height
  image3d,        ///< width x height x depth
  image1d_array,  ///< `layers` images of width
  image2d_array,  ///< `layers` images of width x height
};

/// Which channels a pixel has, in memory order. A read returns four components: the missing
/// ones are 0 and alpha 1 (R: (r, 0, 0, 1); RG: (r, g, 0, 1)).
enum class ChannelOrder : std::uint8_t { r, rg, rgba };

/// What one channel holds. The `unorm_`/`snorm_` types are integers that kernels read as
/// floats in [0, 1] and [-1, 1] (read_imagef) and write from floats (write_imagef,
/// rounded to nearest and saturated); the others are read as they are, integers with
/// read_imagei/read_imageui, floats (float16 widened) with read_imagef.
enum class ChannelType : std::uint8_t {
  unorm_int8,
  unorm_int16,
  snorm_int8,
  snorm_int16,
  int8,
  int16,
  int32,
  uint8,
  uint16,
  uint32,
  float16,
  float32,
};

///@{
/// How many ChannelOrder, ChannelType and ImageType values there are (for tables and masks).
inline constexpr std::size_t channel_order_count = 3;
inline constexpr std::size_t channel_type_count = 12;
inline constexpr std::size_t image_type_count = 5;
///@}

/// Which read function returns a channel type's values: read_imagef, read_imagei or
/// read_imageui (and the matching write).
enum class ImageReadKind : std::uint8_t { float_, int_, uint_ };

/// A pixel format: channel order and type.
struct ImageFormat {
  ChannelOrder order = ChannelOrder::rgba;  ///< which channels a pixel has
  ChannelType type = ChannelType::float32;  ///< how each channel is stored

  /// 1, 2 or 4.
  constexpr std::size_t channels() const noexcept {
    return order == ChannelOrder::r ? 1 : order == ChannelOrder::rg ? 2 : 4;
  }
  /// Bytes per channel: 1, 2 or 4.
  constexpr std::size_t channel_size() const noexcept {
    switch (type) {
      case ChannelType::unorm_int8:
      case ChannelType::snorm_int8:
      case ChannelType::int8:
      case ChannelType::uint8: return 1;
      case ChannelType::unorm_int16:
      case ChannelType::snorm_int16:
      case ChannelType::int16:
      case ChannelType::uint16:
      case ChannelType::float16: return 2;
      case ChannelType::int32:
      case ChannelType::uint32:
      case ChannelType::float32: return 4;
    }
    return 4;
  }
  /// Bytes per pixel, as copies pack them: channels() * channel_size().
  constexpr std::size_t pixel_size() const noexcept { return channels() * channel_size(); }
  /// Whether kernels read this format as normalised floats (unorm_*, snorm_*).
  constexpr bool normalized() const noexcept {
    return type == ChannelType::unorm_int8 || type == ChannelType::unorm_int16 ||
           type == ChannelType::snorm_int8 || type == ChannelType::snorm_int16;
  }
  /// Which read function returns its values.
  constexpr ImageReadKind read_kind() const noexcept {
    switch (type) {
      case ChannelType::int8:
      case ChannelType::int16:
      case ChannelType::int32: return ImageReadKind::int_;
      case ChannelType::uint8:
      case ChannelType::uint16:
      case ChannelType::uint32: return ImageReadKind::uint_;
      default: return ImageReadKind::float_;
    }
  }
  /// A number in [0, channel_order_count * channel_type_count), for masks and tables.
  constexpr std::size_t index() const noexcept {
    return static_cast<std::size_t>(order) * channel_type_count + static_cast<std::size_t>(type);
  }
  friend constexpr bool operator==(const ImageFormat&, const ImageFormat&) = default;
};

/// How many pixels an image has along each axis. Unused axes are 1: a 1-D image has
/// height 1 and depth 1; a 2-D image depth 1. For layered images `depth` is unused (1) and
/// `layers` counts the layers; for the others `layers` is 1.
struct ImageExtent {
  std::size_t width = 1;   ///< pixels along x
  std::size_t height = 1;  ///< pixels along y (1 for 1-D images)
  std::size_t depth = 1;   ///< pixels along z (3-D images only)
  std::size_t layers = 1;  ///< layers of a layered image
  friend constexpr bool operator==(const ImageExtent&, const ImageExtent&) = default;
};

/// A box of pixels of an image, for copies: `origin` is its first pixel's (x, y, z) and
/// `size` its width, height and depth in pixels. For layered images the layer takes the
/// next free axis, as in OpenCL: a 1-D array's layers are y, a 2-D array's z. Unused axes
/// have origin 0 and size 1.
struct ImageBox {
  std::array<std::size_t, 3> origin{0, 0, 0};  ///< the first pixel (x, y, z)
  std::array<std::size_t, 3> size{1, 1, 1};    ///< width, height, depth in pixels; each > 0
};

/// What coordinates outside the image read (OpenCL's address modes).
enum class AddressMode : std::uint8_t {
  clamp_to_edge,    ///< the nearest edge pixel
  clamp_to_border,  ///< the border colour: 0 in every channel, alpha 1 where the format has none
  repeat,           ///< the image tiled (normalised coordinates only)
  mirrored_repeat,  ///< the image tiled, every other tile mirrored (normalised coordinates only)
};

/// How a read between pixel centres is resolved.
enum class FilterMode : std::uint8_t {
  nearest,  ///< the pixel the coordinate falls in
  linear,   ///< the weighted mean of the 2 (1-D), 4 (2-D) or 8 (3-D) nearest pixels; float
            ///< reads only (read_imagef of a float or normalised format)
};

/// A sampler's settings.
struct SamplerDesc {
  AddressMode address = AddressMode::clamp_to_edge;  ///< what reads outside the image return
  FilterMode filter = FilterMode::nearest;           ///< how reads between pixels are resolved
  /// Coordinates in [0, 1) across the image rather than in pixels [0, width).
  bool normalized_coords = false;
  friend constexpr bool operator==(const SamplerDesc&, const SamplerDesc&) = default;
};

/// The largest images a device makes (0: none of that type).
struct ImageLimits {
  std::size_t max_width_1d = 0;   ///< of 1-D images
  std::size_t max_width_2d = 0;   ///< of 2-D images
  std::size_t max_height_2d = 0;  ///< of 2-D images
  std::size_t max_width_3d = 0;   ///< of 3-D images
  std::size_t max_height_3d = 0;  ///< of 3-D images
  std::size_t max_depth_3d = 0;   ///< of 3-D images
  std::size_t max_layers = 0;     ///< of 1-D and 2-D layered images (0: no layered images)
};

/// Whether and how a device makes images (plinth::image_support(), and SDK 1.8's
/// ContextAdapter::image_support()).
struct ImageSupport {
  bool available = false;  ///< the device makes images and samplers
  std::string reason;      ///< why not, where `available` is false
  ImageLimits limits;      ///< the largest images of each type
  /// Bit ImageFormat::index() of formats[ImageType] is set for each format the device makes
  /// images of that type in (reads, writes and copies).
  std::array<std::uint64_t, image_type_count> formats{};
  /// Kernels can write 3-D images (OpenCL: cl_khr_3d_image_writes); the other types are
  /// always writable.
  bool writes_3d = false;

  /// Whether the device makes images of `type` in `format`.
  bool supports(ImageType type, ImageFormat format) const noexcept {
    return available && ((formats[static_cast<std::size_t>(type)] >> format.index()) & 1u) != 0;
  }
};

///@{
/// The name of a value, as the API writes it ("image2d", "rgba", "unorm_int8",
/// "clamp_to_edge", "linear"). Never throws beyond std::bad_alloc.
PLINTH_EXPORT std::string to_string(ImageType type);
PLINTH_EXPORT std::string to_string(ChannelOrder order);
PLINTH_EXPORT std::string to_string(ChannelType type);
PLINTH_EXPORT std::string to_string(AddressMode mode);
PLINTH_EXPORT std::string to_string(FilterMode mode);
///@}
/// "rgba unorm_int8".
PLINTH_EXPORT std::string to_string(const ImageFormat& format);

}  // namespace plinth
