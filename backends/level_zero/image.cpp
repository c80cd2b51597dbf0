#include "image.hpp"

#include "context.hpp"
#include "error.hpp"
#include "retirements.hpp"

#include <plinth/errors.hpp>

#include <iterator>
#include <limits>
#include <string>

namespace plinth::level_zero {

// spirv_reflection.cpp sizes image and sampler parameters as pointers, without this header.
static_assert(sizeof(ze_image_handle_t) == sizeof(void*));
static_assert(sizeof(ze_sampler_handle_t) == sizeof(void*));

namespace {

/// The format type of each ChannelType, in its order.
constexpr ze_image_format_type_t format_types[] = {
    ZE_IMAGE_FORMAT_TYPE_UNORM,  // unorm_int8
    ZE_IMAGE_FORMAT_TYPE_UNORM,  // unorm_int16
    ZE_IMAGE_FORMAT_TYPE_SNORM,  // snorm_int8
    ZE_IMAGE_FORMAT_TYPE_SNORM,  // snorm_int16
    ZE_IMAGE_FORMAT_TYPE_SINT,   // int8
    ZE_IMAGE_FORMAT_TYPE_SINT,   // int16
    ZE_IMAGE_FORMAT_TYPE_SINT,   // int32
    ZE_IMAGE_FORMAT_TYPE_UINT,   // uint8
    ZE_IMAGE_FORMAT_TYPE_UINT,   // uint16
    ZE_IMAGE_FORMAT_TYPE_UINT,   // uint32
    ZE_IMAGE_FORMAT_TYPE_FLOAT,  // float16
    ZE_IMAGE_FORMAT_TYPE_FLOAT,  // float32
};
static_assert(std::size(format_types) == channel_type_count);

/// The image type of each ImageType, in its order.
constexpr ze_image_type_t image_types[] = {ZE_IMAGE_TYPE_1D, ZE_IMAGE_TYPE_2D, ZE_IMAGE_TYPE_3D,
                                           ZE_IMAGE_TYPE_1DARRAY, ZE_IMAGE_TYPE_2DARRAY};
static_assert(std::size(image_types) == image_type_count);

/// The layouts of 1, 2 and 4 channels (rows) of 1, 2 and 4 bytes (columns).
constexpr ze_image_format_layout_t layouts[3][3] = {
    {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_LAYOUT_16, ZE_IMAGE_FORMAT_LAYOUT_32},
    {ZE_IMAGE_FORMAT_LAYOUT_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16, ZE_IMAGE_FORMAT_LAYOUT_32_32},
    {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16,
     ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32},
};

/// 0, 1, 2 for 1, 2, 4.
std::size_t log2_of_1_2_4(std::size_t value) noexcept {
  return value == 1 ? 0 : value == 2 ? 1 : 2;
}

/// Whether `value` fits Level Zero's 32-bit sizes.
bool fits_32_bits(std::size_t value) noexcept {
  return value <= std::numeric_limits<std::uint32_t>::max();
}

/// zeImageDestroy for Retirements.
void destroy_image(void* handle) noexcept {
  PLINTH_CHECK_IN_DESTRUCTOR(zeImageDestroy(static_cast<ze_image_handle_t>(handle)));
}

/// zeSamplerDestroy for Retirements.
void destroy_sampler(void* handle) noexcept {
  PLINTH_CHECK_IN_DESTRUCTOR(zeSamplerDestroy(static_cast<ze_sampler_handle_t>(handle)));
}

}  // namespace

ze_image_format_t image_format(const ImageFormat& format) noexcept {
  ze_image_format_t result{};
  result.layout = layouts[log2_of_1_2_4(format.channels())][log2_of_1_2_4(format.channel_size())];
  result.type = format_types[static_cast<std::size_t>(format.type)];
  const std::size_t channels = format.channels();
  result.x = ZE_IMAGE_FORMAT_SWIZZLE_R;
  result.y = channels >= 2 ? ZE_IMAGE_FORMAT_SWIZZLE_G : ZE_IMAGE_FORMAT_SWIZZLE_0;
  result.z = channels == 4 ? ZE_IMAGE_FORMAT_SWIZZLE_B : ZE_IMAGE_FORMAT_SWIZZLE_0;
  result.w = channels == 4 ? ZE_IMAGE_FORMAT_SWIZZLE_A : ZE_IMAGE_FORMAT_SWIZZLE_1;
  return result;
}

ze_image_desc_t image_desc(const backend::ImageDesc& desc) noexcept {
  ze_image_desc_t result{};
  result.stype = ZE_STRUCTURE_TYPE_IMAGE_DESC;
  result.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
  result.type = image_types[static_cast<std::size_t>(desc.type)];
  result.format = image_format(desc.format);
  // The core checked the extent against limits that are 32-bit.
  result.width = desc.extent.width;
  result.height = static_cast<std::uint32_t>(desc.extent.height);
  result.depth = static_cast<std::uint32_t>(desc.extent.depth);
  const bool layered =
      desc.type == ImageType::image1d_array || desc.type == ImageType::image2d_array;
  result.arraylevels = layered ? static_cast<std::uint32_t>(desc.extent.layers) : 0;
  result.miplevels = 0;
  return result;
}

ze_sampler_desc_t sampler_desc(const SamplerDesc& desc) noexcept {
  static constexpr ze_sampler_address_mode_t modes[] = {
      ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
      ZE_SAMPLER_ADDRESS_MODE_REPEAT, ZE_SAMPLER_ADDRESS_MODE_MIRROR};
  ze_sampler_desc_t result{};
  result.stype = ZE_STRUCTURE_TYPE_SAMPLER_DESC;
  result.addressMode = modes[static_cast<std::size_t>(desc.address)];
  result.filterMode = desc.filter == FilterMode::linear ? ZE_SAMPLER_FILTER_MODE_LINEAR
                                                        : ZE_SAMPLER_FILTER_MODE_NEAREST;
  result.isNormalized = desc.normalized_coords ? 1 : 0;
  return result;
}

ImageSupport image_support_from(const ze_device_image_properties_t& properties) {
  ImageSupport support;
  if (properties.maxImageDims1D == 0 && properties.maxImageDims2D == 0 &&
      properties.maxImageDims3D == 0) {
    support.reason =
        "zeDeviceGetImageProperties gives it no image sizes (maxImageDims1D, maxImageDims2D and "
        "maxImageDims3D are 0)";
    return support;
  }
  if (properties.maxReadImageArgs == 0 || properties.maxWriteImageArgs == 0) {
    support.reason =
        std::string("its kernels cannot ") + (properties.maxReadImageArgs == 0 ? "read" : "write") +
        " images (zeDeviceGetImageProperties: " +
        (properties.maxReadImageArgs == 0 ? "maxReadImageArgs" : "maxWriteImageArgs") + " is 0)";
    return support;
  }
  if (properties.maxSamplers == 0) {
    support.reason = "it has no samplers (zeDeviceGetImageProperties: maxSamplers is 0)";
    return support;
  }
  auto& limits = support.limits;
  limits.max_width_1d = properties.maxImageDims1D;
  limits.max_width_2d = properties.maxImageDims2D;
  limits.max_height_2d = properties.maxImageDims2D;
  limits.max_width_3d = properties.maxImageDims3D;
  limits.max_height_3d = properties.maxImageDims3D;
  limits.max_depth_3d = properties.maxImageDims3D;
  limits.max_layers = properties.maxImageArraySlices;
  constexpr std::uint64_t all =
      (std::uint64_t{1} << (channel_order_count * channel_type_count)) - 1;
  const bool layers = properties.maxImageArraySlices > 0;
  const auto set = [&](ImageType type, bool made) {
    support.formats[static_cast<std::size_t>(type)] = made ? all : 0;
  };
  set(ImageType::image1d, properties.maxImageDims1D > 0);
  set(ImageType::image2d, properties.maxImageDims2D > 0);
  set(ImageType::image3d, properties.maxImageDims3D > 0);
  set(ImageType::image1d_array, properties.maxImageDims1D > 0 && layers);
  set(ImageType::image2d_array, properties.maxImageDims2D > 0 && layers);
  support.writes_3d = properties.maxImageDims3D > 0;
  support.available = true;
  return support;
}

std::optional<MemoryLayout> memory_layout(ImageType type, const ImageBox& box,
                                          const backend::RectSide& side, std::size_t pixel_size,
                                          bool pitched_copies) noexcept {
  const std::size_t row = box.size[0] * pixel_size;
  const std::size_t slice = row * box.size[1];
  const bool rows_packed = box.size[1] == 1 || side.row_pitch == row;
  const bool slices_packed = box.size[2] == 1 || side.slice_pitch == slice;
  if (rows_packed && slices_packed) return MemoryLayout{};
  if (!pitched_copies || !fits_32_bits(side.row_pitch) || !fits_32_bits(side.slice_pitch))
    return std::nullopt;
  switch (type) {
    case ImageType::image2d:  // one slice: the extension wants a slice pitch of 0
      return MemoryLayout{true, static_cast<std::uint32_t>(side.row_pitch), 0};
    case ImageType::image3d:
    case ImageType::image2d_array:
      return MemoryLayout{true, static_cast<std::uint32_t>(side.row_pitch),
                          static_cast<std::uint32_t>(side.slice_pitch)};
    case ImageType::image1d:        // one row: always packed
    case ImageType::image1d_array:  // which pitch separates its layers is not clear
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<ze_image_region_t> image_region(const std::array<std::size_t, 3>& origin,
                                              const std::array<std::size_t, 3>& size) noexcept {
  for (std::size_t axis = 0; axis < 3; ++axis)
    if (!fits_32_bits(origin[axis]) || !fits_32_bits(size[axis])) return std::nullopt;
  return ze_image_region_t{
      static_cast<std::uint32_t>(origin[0]), static_cast<std::uint32_t>(origin[1]),
      static_cast<std::uint32_t>(origin[2]), static_cast<std::uint32_t>(size[0]),
      static_cast<std::uint32_t>(size[1]),   static_cast<std::uint32_t>(size[2])};
}

Image::~Image() { retirements_->retire(image_, destroy_image, device_); }

Sampler::~Sampler() { retirements_->retire(sampler_, destroy_sampler, std::nullopt); }

ImageSupport query_image_support(ze_device_handle_t device) {
  ze_device_image_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES;
  const ze_result_t result = zeDeviceGetImageProperties(device, &properties);
  if (result != ZE_RESULT_SUCCESS) {
    ImageSupport support;
    support.reason = std::string(
                         "the device's image properties could not be queried: "
                         "zeDeviceGetImageProperties: ") +
                     result_text(result);
    return support;
  }
  return image_support_from(properties);
}

std::unique_ptr<Image> create_image(const ContextState& state,
                                    std::shared_ptr<Retirements> retirements, std::size_t device,
                                    const backend::ImageDesc& desc) {
  const ze_image_desc_t native = image_desc(desc);
  ze_image_handle_t image = nullptr;
  PLINTH_CHECK(zeImageCreate(state.context(), state[device].device, &native, &image));
  try {
    return std::make_unique<Image>(std::move(retirements), device, image, desc);
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(zeImageDestroy(image));  // no queue has seen it yet
    throw;
  }
}

std::unique_ptr<Sampler> create_sampler(const ContextState& state,
                                        std::shared_ptr<Retirements> retirements,
                                        const SamplerDesc& desc) {
  std::size_t device = 0;
  while (device + 1 < state.size() && !query_image_support(state[device].device).available)
    ++device;
  const ze_sampler_desc_t native = sampler_desc(desc);
  ze_sampler_handle_t sampler = nullptr;
  PLINTH_CHECK(zeSamplerCreate(state.context(), state[device].device, &native, &sampler));
  try {
    return std::make_unique<Sampler>(std::move(retirements), sampler);
  } catch (...) {
    PLINTH_CHECK_IN_DESTRUCTOR(zeSamplerDestroy(sampler));  // no queue has seen it yet
    throw;
  }
}

}  // namespace plinth::level_zero
