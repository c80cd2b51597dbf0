// The Level Zero backend's images without a driver (image.hpp): every plinth format as a
// ze_image_format_t (layout, type, OpenCL's missing channels as swizzles), the image and
// sampler descriptors of every type and setting, what zeDeviceGetImageProperties's answers
// mean (limits, formats per type, the reasons for none), and which memory layouts of a copy
// take the plain copy, the pitched one of ZE_extension_image_copy, or neither. The copies
// themselves run against the fake driver (CMakeLists.txt: the conformance image tests).

#include "image.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>

namespace plinth::level_zero {
namespace image_test {
namespace {

constexpr std::uint64_t all_formats =
    (std::uint64_t{1} << (channel_order_count * channel_type_count)) - 1;

/// Bytes per pixel of a layout the backend uses (0 for others).
std::size_t layout_bytes(ze_image_format_layout_t layout) {
  switch (layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_8: return 1;
    case ZE_IMAGE_FORMAT_LAYOUT_16:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8: return 2;
    case ZE_IMAGE_FORMAT_LAYOUT_32:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8: return 4;
    case ZE_IMAGE_FORMAT_LAYOUT_32_32:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16: return 8;
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32: return 16;
    default: return 0;
  }
}

TEST(LevelZeroImages, FormatsOfEveryOrderAndType) {
  struct Case {
    ImageFormat format;
    ze_image_format_layout_t layout;
    ze_image_format_type_t type;
  };
  const Case cases[] = {
      {{ChannelOrder::r, ChannelType::unorm_int8},
       ZE_IMAGE_FORMAT_LAYOUT_8,
       ZE_IMAGE_FORMAT_TYPE_UNORM},
      {{ChannelOrder::rg, ChannelType::unorm_int16},
       ZE_IMAGE_FORMAT_LAYOUT_16_16,
       ZE_IMAGE_FORMAT_TYPE_UNORM},
      {{ChannelOrder::rgba, ChannelType::snorm_int8},
       ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
       ZE_IMAGE_FORMAT_TYPE_SNORM},
      {{ChannelOrder::r, ChannelType::snorm_int16},
       ZE_IMAGE_FORMAT_LAYOUT_16,
       ZE_IMAGE_FORMAT_TYPE_SNORM},
      {{ChannelOrder::rg, ChannelType::int8},
       ZE_IMAGE_FORMAT_LAYOUT_8_8,
       ZE_IMAGE_FORMAT_TYPE_SINT},
      {{ChannelOrder::rgba, ChannelType::int16},
       ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16,
       ZE_IMAGE_FORMAT_TYPE_SINT},
      {{ChannelOrder::r, ChannelType::int32}, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_SINT},
      {{ChannelOrder::rgba, ChannelType::uint8},
       ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
       ZE_IMAGE_FORMAT_TYPE_UINT},
      {{ChannelOrder::r, ChannelType::uint16},
       ZE_IMAGE_FORMAT_LAYOUT_16,
       ZE_IMAGE_FORMAT_TYPE_UINT},
      {{ChannelOrder::rg, ChannelType::uint32},
       ZE_IMAGE_FORMAT_LAYOUT_32_32,
       ZE_IMAGE_FORMAT_TYPE_UINT},
      {{ChannelOrder::rgba, ChannelType::float16},
       ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16,
       ZE_IMAGE_FORMAT_TYPE_FLOAT},
      {{ChannelOrder::rgba, ChannelType::float32},
       ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32,
       ZE_IMAGE_FORMAT_TYPE_FLOAT},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(to_string(c.format));
    const auto format = image_format(c.format);
    EXPECT_EQ(format.layout, c.layout);
    EXPECT_EQ(format.type, c.type);
  }
  // Every format: a layout of its pixel size, and OpenCL's (r, 0, 0, 1) and (r, g, 0, 1).
  for (std::size_t o = 0; o < channel_order_count; ++o) {
    for (std::size_t t = 0; t < channel_type_count; ++t) {
      const ImageFormat plinth_format{static_cast<ChannelOrder>(o), static_cast<ChannelType>(t)};
      SCOPED_TRACE(to_string(plinth_format));
      const auto format = image_format(plinth_format);
      EXPECT_EQ(layout_bytes(format.layout), plinth_format.pixel_size());
      EXPECT_EQ(format.x, ZE_IMAGE_FORMAT_SWIZZLE_R);
      const auto channels = plinth_format.channels();
      EXPECT_EQ(format.y, channels >= 2 ? ZE_IMAGE_FORMAT_SWIZZLE_G : ZE_IMAGE_FORMAT_SWIZZLE_0);
      EXPECT_EQ(format.z, channels == 4 ? ZE_IMAGE_FORMAT_SWIZZLE_B : ZE_IMAGE_FORMAT_SWIZZLE_0);
      EXPECT_EQ(format.w, channels == 4 ? ZE_IMAGE_FORMAT_SWIZZLE_A : ZE_IMAGE_FORMAT_SWIZZLE_1);
    }
  }
}

TEST(LevelZeroImages, DescriptorsOfEveryType) {
  const ImageFormat format{ChannelOrder::rg, ChannelType::float32};
  struct Case {
    ImageType type;
    ImageExtent extent;
    ze_image_type_t native;
    std::uint32_t height, depth, layers;
  };
  const Case cases[] = {
      {ImageType::image1d, {13, 1, 1, 1}, ZE_IMAGE_TYPE_1D, 1, 1, 0},
      {ImageType::image2d, {7, 5, 1, 1}, ZE_IMAGE_TYPE_2D, 5, 1, 0},
      {ImageType::image3d, {5, 4, 3, 1}, ZE_IMAGE_TYPE_3D, 4, 3, 0},
      {ImageType::image1d_array, {9, 1, 1, 3}, ZE_IMAGE_TYPE_1DARRAY, 1, 1, 3},
      {ImageType::image2d_array, {6, 4, 1, 3}, ZE_IMAGE_TYPE_2DARRAY, 4, 1, 3},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(to_string(c.type));
    const auto desc = image_desc({c.type, format, c.extent});
    EXPECT_EQ(desc.stype, ZE_STRUCTURE_TYPE_IMAGE_DESC);
    EXPECT_EQ(desc.pNext, nullptr);
    EXPECT_EQ(desc.flags, ZE_IMAGE_FLAG_KERNEL_WRITE);  // kernels may write every image
    EXPECT_EQ(desc.type, c.native);
    EXPECT_EQ(desc.format.layout, ZE_IMAGE_FORMAT_LAYOUT_32_32);
    EXPECT_EQ(desc.width, c.extent.width);
    EXPECT_EQ(desc.height, c.height);
    EXPECT_EQ(desc.depth, c.depth);
    EXPECT_EQ(desc.arraylevels, c.layers);
    EXPECT_EQ(desc.miplevels, 0u);
  }
}

TEST(LevelZeroImages, SamplerDescriptorsOfEverySetting) {
  const std::pair<AddressMode, ze_sampler_address_mode_t> modes[] = {
      {AddressMode::clamp_to_edge, ZE_SAMPLER_ADDRESS_MODE_CLAMP},
      {AddressMode::clamp_to_border, ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER},
      {AddressMode::repeat, ZE_SAMPLER_ADDRESS_MODE_REPEAT},
      {AddressMode::mirrored_repeat, ZE_SAMPLER_ADDRESS_MODE_MIRROR},
  };
  for (const auto& [mode, native] : modes) {
    for (const auto filter : {FilterMode::nearest, FilterMode::linear}) {
      for (const bool normalized : {false, true}) {
        SCOPED_TRACE(to_string(mode) + " " + to_string(filter) + (normalized ? " normalised" : ""));
        const auto desc = sampler_desc({mode, filter, normalized});
        EXPECT_EQ(desc.stype, ZE_STRUCTURE_TYPE_SAMPLER_DESC);
        EXPECT_EQ(desc.pNext, nullptr);
        EXPECT_EQ(desc.addressMode, native);
        EXPECT_EQ(desc.filterMode, filter == FilterMode::linear ? ZE_SAMPLER_FILTER_MODE_LINEAR
                                                                : ZE_SAMPLER_FILTER_MODE_NEAREST);
        EXPECT_EQ(desc.isNormalized, normalized ? 1 : 0);
      }
    }
  }
}

/// Answers like an Intel GPU's (the image limits its OpenCL driver reports too).
ze_device_image_properties_t gpu_properties() {
  ze_device_image_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES;
  properties.maxImageDims1D = 16384;
  properties.maxImageDims2D = 16384;
  properties.maxImageDims3D = 2048;
  properties.maxImageBufferSize = std::uint64_t{1} << 32;
  properties.maxImageArraySlices = 2048;
  properties.maxSamplers = 16;
  properties.maxReadImageArgs = 128;
  properties.maxWriteImageArgs = 128;
  return properties;
}

TEST(LevelZeroImages, SupportFromTheDevicesImageProperties) {
  const auto support = image_support_from(gpu_properties());
  ASSERT_TRUE(support.available) << support.reason;
  EXPECT_EQ(support.limits.max_width_1d, 16384u);
  EXPECT_EQ(support.limits.max_width_2d, 16384u);
  EXPECT_EQ(support.limits.max_height_2d, 16384u);
  EXPECT_EQ(support.limits.max_width_3d, 2048u);
  EXPECT_EQ(support.limits.max_height_3d, 2048u);
  EXPECT_EQ(support.limits.max_depth_3d, 2048u);
  EXPECT_EQ(support.limits.max_layers, 2048u);
  for (const auto mask : support.formats) EXPECT_EQ(mask, all_formats);
  EXPECT_TRUE(support.writes_3d);
  EXPECT_TRUE(support.supports(ImageType::image2d_array, {ChannelOrder::r, ChannelType::float16}));

  // No layers: no layered types; no 3-D images: no 3-D formats and no 3-D writes.
  auto properties = gpu_properties();
  properties.maxImageArraySlices = 0;
  properties.maxImageDims3D = 0;
  const auto flat = image_support_from(properties);
  ASSERT_TRUE(flat.available);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image1d)], all_formats);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image2d)], all_formats);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image3d)], 0u);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image1d_array)], 0u);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image2d_array)], 0u);
  EXPECT_FALSE(flat.writes_3d);
  EXPECT_EQ(flat.limits.max_layers, 0u);
}

TEST(LevelZeroImages, NoSupportSaysWhichPropertyIsMissing) {
  const auto reason = [](auto change) {
    auto properties = gpu_properties();
    change(properties);
    const auto support = image_support_from(properties);
    EXPECT_FALSE(support.available);
    EXPECT_EQ(support.formats, (std::array<std::uint64_t, image_type_count>{}));
    return support.reason;
  };
  EXPECT_EQ(reason([](auto& p) { p.maxImageDims1D = p.maxImageDims2D = p.maxImageDims3D = 0; }),
            "zeDeviceGetImageProperties gives it no image sizes (maxImageDims1D, maxImageDims2D "
            "and maxImageDims3D are 0)");
  EXPECT_EQ(reason([](auto& p) { p.maxReadImageArgs = 0; }),
            "its kernels cannot read images (zeDeviceGetImageProperties: maxReadImageArgs is 0)");
  EXPECT_EQ(reason([](auto& p) { p.maxWriteImageArgs = 0; }),
            "its kernels cannot write images (zeDeviceGetImageProperties: maxWriteImageArgs is 0)");
  EXPECT_EQ(reason([](auto& p) { p.maxSamplers = 0; }),
            "it has no samplers (zeDeviceGetImageProperties: maxSamplers is 0)");
}

/// A box of `size` at the origin.
ImageBox box_of(std::size_t width, std::size_t height, std::size_t depth) {
  return {{0, 0, 0}, {width, height, depth}};
}

TEST(LevelZeroImages, PackedMemoryTakesThePlainCopy) {
  constexpr std::size_t pixel = 4;
  for (const bool ext : {false, true}) {
    for (const auto type : {ImageType::image1d, ImageType::image2d, ImageType::image3d,
                            ImageType::image1d_array, ImageType::image2d_array}) {
      SCOPED_TRACE(to_string(type) + (ext ? " with the extension" : ""));
      // Rows of 5 pixels, 3 rows a slice, 2 slices: packed pitches.
      const auto layout = memory_layout(type, box_of(5, 3, 2), {8, 20, 60}, pixel, ext);
      ASSERT_TRUE(layout.has_value());
      EXPECT_FALSE(layout->pitched);
      // One row: its pitch does not matter; one slice: nor does the slice pitch.
      const auto row = memory_layout(type, box_of(5, 1, 1), {0, 999, 5000}, pixel, ext);
      ASSERT_TRUE(row.has_value());
      EXPECT_FALSE(row->pitched);
      const auto plane = memory_layout(type, box_of(5, 3, 1), {0, 20, 5000}, pixel, ext);
      ASSERT_TRUE(plane.has_value());
      EXPECT_FALSE(plane->pitched);
      // One row per slice: the slices a row apart are packed, whatever the row pitch says.
      const auto rows = memory_layout(type, box_of(5, 1, 4), {0, 64, 20}, pixel, ext);
      ASSERT_TRUE(rows.has_value());
      EXPECT_FALSE(rows->pitched);
    }
  }
}

TEST(LevelZeroImages, PitchedMemoryNeedsTheExtension) {
  constexpr std::size_t pixel = 4;
  const backend::RectSide rows_apart{4, 32, 32 * 3};  // rows of 20 bytes, 32 apart
  const backend::RectSide slices_apart{0, 20, 100};   // packed rows, slices 100 apart
  for (const auto type : {ImageType::image2d, ImageType::image3d, ImageType::image1d_array,
                          ImageType::image2d_array}) {
    SCOPED_TRACE(to_string(type));
    EXPECT_FALSE(memory_layout(type, box_of(5, 3, 1), rows_apart, pixel, false).has_value());
    EXPECT_FALSE(memory_layout(type, box_of(5, 3, 2), slices_apart, pixel, false).has_value());
  }
  // With it: a 2-D image's slice pitch is 0, as the extension asks.
  auto layout = memory_layout(ImageType::image2d, box_of(5, 3, 1), rows_apart, pixel, true);
  ASSERT_TRUE(layout.has_value());
  EXPECT_TRUE(layout->pitched);
  EXPECT_EQ(layout->row_pitch, 32u);
  EXPECT_EQ(layout->slice_pitch, 0u);
  for (const auto type : {ImageType::image3d, ImageType::image2d_array}) {
    SCOPED_TRACE(to_string(type));
    layout = memory_layout(type, box_of(5, 3, 2), slices_apart, pixel, true);
    ASSERT_TRUE(layout.has_value());
    EXPECT_TRUE(layout->pitched);
    EXPECT_EQ(layout->row_pitch, 20u);
    EXPECT_EQ(layout->slice_pitch, 100u);
  }
  // A 1-D array's layers (its rows) apart: which pitch the extension means is unclear.
  EXPECT_FALSE(memory_layout(ImageType::image1d_array, box_of(5, 3, 1), rows_apart, pixel, true));
  // Pitches beyond the extension's 32 bits.
  const std::size_t big = std::size_t{std::numeric_limits<std::uint32_t>::max()} + 1;
  EXPECT_FALSE(memory_layout(ImageType::image2d, box_of(5, 3, 1), {0, big, big * 3}, pixel, true));
  EXPECT_FALSE(memory_layout(ImageType::image3d, box_of(5, 3, 2), {0, 20, big}, pixel, true));
}

TEST(LevelZeroImages, RegionsOfBoxes) {
  const auto region = image_region({1, 2, 3}, {4, 5, 6});
  ASSERT_TRUE(region.has_value());
  EXPECT_EQ(region->originX, 1u);
  EXPECT_EQ(region->originY, 2u);
  EXPECT_EQ(region->originZ, 3u);
  EXPECT_EQ(region->width, 4u);
  EXPECT_EQ(region->height, 5u);
  EXPECT_EQ(region->depth, 6u);
  const std::size_t big = std::size_t{std::numeric_limits<std::uint32_t>::max()} + 1;
  EXPECT_FALSE(image_region({big, 0, 0}, {1, 1, 1}).has_value());
  EXPECT_FALSE(image_region({0, 0, 0}, {1, 1, big}).has_value());
}

}  // namespace
}  // namespace image_test
}  // namespace plinth::level_zero
