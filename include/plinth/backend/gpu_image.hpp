#pragma once

// SDK 1.8: what the backends whose kernels are CUDA or HIP C++ (gpu_cxx_dialect()) share about
// images: the host side of the dialect's `struct plinth_image_data` (a kernel's image
// parameter), the numbering of sampler settings (a kernel's sampler parameter), and which
// settings an image's format allows. Pure values and functions: any thread may call them.

#include <plinth/backend/image.hpp>
#include <plinth/image_format.hpp>

#include <cstddef>

namespace plinth::backend {

/// The host side of the dialect's `struct plinth_image_data`, field by field: a texture object
/// per sampler setting (0 where the setting is invalid for the image: sampler_setting_valid()),
/// the surface object, the extent (unused axes 1), the ChannelType's number and 1, 2 or 4
/// channels. A kernel's image parameter receives it by value.
struct GpuImageData {
  /// The texture object of each sampler setting (sampler_setting()), made by the backend on
  /// the image's first kernel_arg(); 0 where sampler_setting_valid() says the format does not
  /// allow it.
  unsigned long long tex[16] = {};
  /// The surface object kernels write through; 0 where the image has none (a GL texture
  /// registered read-only).
  unsigned long long surf = 0;
  int width = 1;         ///< pixels along x
  int height = 1;        ///< pixels along y; 1 for 1-D images
  int depth = 1;         ///< pixels along z; 1 but for 3-D images
  int layers = 1;        ///< layers of an array image; 1 for others
  int channel_type = 0;  ///< the format's ChannelType, as its number
  int channels = 0;      ///< channels per pixel: 1, 2 or 4
};
static_assert(sizeof(GpuImageData) == 160, "must match the dialect's plinth_image_data");
static_assert(offsetof(GpuImageData, tex) == 0);
static_assert(offsetof(GpuImageData, surf) == 128);
static_assert(offsetof(GpuImageData, width) == 136);
static_assert(offsetof(GpuImageData, height) == 140);
static_assert(offsetof(GpuImageData, depth) == 144);
static_assert(offsetof(GpuImageData, layers) == 148);
static_assert(offsetof(GpuImageData, channel_type) == 152);
static_assert(offsetof(GpuImageData, channels) == 156);

/// The fields of GpuImageData that `desc` decides (the objects stay 0).
constexpr GpuImageData gpu_image_data(const ImageDesc& desc) noexcept {
  GpuImageData data;
  data.width = static_cast<int>(desc.extent.width);
  data.height = static_cast<int>(desc.extent.height);
  data.depth = static_cast<int>(desc.extent.depth);
  data.layers = static_cast<int>(desc.extent.layers);
  data.channel_type = static_cast<int>(desc.format.type);
  data.channels = static_cast<int>(desc.format.channels());
  return data;
}

/// How many sampler settings there are: address | filter << 2 | normalized << 3.
inline constexpr std::size_t sampler_setting_count = 16;

/// A sampler's setting as the dialect's plinth_sampler holds it.
constexpr unsigned int sampler_setting(const SamplerDesc& desc) noexcept {
  return static_cast<unsigned int>(desc.address) | static_cast<unsigned int>(desc.filter) << 2U |
         (desc.normalized_coords ? 1U : 0U) << 3U;
}

/// The sampler a setting (< sampler_setting_count) stands for.
constexpr SamplerDesc sampler_of_setting(unsigned int setting) noexcept {
  return {static_cast<AddressMode>(setting & 3U), static_cast<FilterMode>(setting >> 2U & 1U),
          (setting >> 3U & 1U) != 0};
}

/// Whether images of `format` have a texture object for `setting`: repeat and mirrored repeat
/// take normalised coordinates only, linear filtering float reads only (as OpenCL's rules).
constexpr bool sampler_setting_valid(unsigned int setting, const ImageFormat& format) noexcept {
  const auto sampler = sampler_of_setting(setting);
  if (!sampler.normalized_coords && sampler.address != AddressMode::clamp_to_edge &&
      sampler.address != AddressMode::clamp_to_border)
    return false;
  return sampler.filter != FilterMode::linear || format.read_kind() == ImageReadKind::float_;
}

/// Whether images of `type` are layered (1-D and 2-D arrays).
constexpr bool is_layered(ImageType type) noexcept {
  return type == ImageType::image1d_array || type == ImageType::image2d_array;
}

/// How many axes of an image of `type` are filtered and addressed by the sampler: its layers
/// are not. The texture objects give the other axes clamp to edge: a 1-D array's texture is
/// filtered as one row of a 2-D one, and a border on its second axis halves every linear read
/// (seen on an H200, driver 580).
constexpr std::size_t spatial_axes(ImageType type) noexcept {
  switch (type) {
    case ImageType::image1d:
    case ImageType::image1d_array: return 1;
    case ImageType::image2d:
    case ImageType::image2d_array: return 2;
    case ImageType::image3d: return 3;
  }
  return 3;
}

}  // namespace plinth::backend
