// The HIP backend's images without an AMD GPU (image.hpp): the samplers' settings, the texture
// object of each setting for each format and type (the settings CUDA's rule refuses, address
// modes on the axes an image has, normalised reads), the array descriptors of every type (and
// the surface flag that HIP 5 refuses), what a device's properties support, which runtimes keep
// a 1-D layered array's layers on z, and the hipMemcpy3DParms of every kind of copy: their
// sides, pitches, kinds, the layouts refused, and 1-D arrays on both generations of HIP.

#include "image.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace plinth::hip {
namespace image_test {
namespace {

constexpr std::uint64_t all_formats =
    (std::uint64_t{1} << (channel_order_count * channel_type_count)) - 1;

TEST(HipImages, SamplerSettingsNumberAddressFilterAndCoordinates) {
  EXPECT_EQ(sampler_setting({}), 0u);  // clamp to edge, nearest, pixel coordinates
  EXPECT_EQ(sampler_setting({AddressMode::clamp_to_border, FilterMode::nearest, false}), 1u);
  EXPECT_EQ(sampler_setting({AddressMode::mirrored_repeat, FilterMode::linear, true}), 15u);
  EXPECT_EQ(sampler_setting({AddressMode::repeat, FilterMode::nearest, true}), 10u);
  EXPECT_EQ(sampler_setting({AddressMode::clamp_to_edge, FilterMode::linear, false}), 4u);
  const Sampler sampler({AddressMode::repeat, FilterMode::linear, true});
  const auto arg = sampler.kernel_arg();
  ASSERT_EQ(arg.size, 4u);
  EXPECT_EQ(*static_cast<const unsigned int*>(arg.data), 14u);
  EXPECT_EQ(sampler.native_handle(), 0u);
}

TEST(HipImages, TextureObjectsOfEverySetting) {
  const ImageFormat unorm{ChannelOrder::rgba, ChannelType::unorm_int8};
  const ImageFormat snorm{ChannelOrder::r, ChannelType::snorm_int16};
  const ImageFormat half{ChannelOrder::rg, ChannelType::float16};
  const ImageFormat integer{ChannelOrder::rgba, ChannelType::int32};
  const ImageFormat unsigned_integer{ChannelOrder::r, ChannelType::uint8};
  for (unsigned int setting = 0; setting < sampler_setting_count; ++setting) {
    const auto address = static_cast<AddressMode>(setting & 3U);
    const bool linear = (setting >> 2U & 1U) != 0;
    const bool normalized = (setting >> 3U & 1U) != 0;
    const bool wraps = address == AddressMode::repeat || address == AddressMode::mirrored_repeat;
    SCOPED_TRACE("setting " + std::to_string(setting));
    for (const auto& format : {unorm, snorm, half, integer, unsigned_integer}) {
      SCOPED_TRACE(to_string(format));
      hipTextureDesc desc{};
      const bool made = texture_desc(setting, ImageType::image2d, format, desc);
      const bool float_read = format.read_kind() == ImageReadKind::float_;
      EXPECT_EQ(made, !(wraps && !normalized) && !(linear && !float_read));
      if (!made) continue;
      const hipTextureAddressMode modes[] = {hipAddressModeClamp, hipAddressModeBorder,
                                             hipAddressModeWrap, hipAddressModeMirror};
      EXPECT_EQ(desc.addressMode[0], modes[setting & 3U]);
      EXPECT_EQ(desc.addressMode[1], modes[setting & 3U]);
      EXPECT_EQ(desc.addressMode[2], hipAddressModeClamp);  // a 2-D image has no third axis
      EXPECT_EQ(desc.filterMode, linear ? hipFilterModeLinear : hipFilterModePoint);
      EXPECT_EQ(desc.normalizedCoords, normalized ? 1 : 0);
      EXPECT_EQ(desc.readMode,
                format.normalized() ? hipReadModeNormalizedFloat : hipReadModeElementType);
      EXPECT_EQ(desc.sRGB, 0);
      EXPECT_EQ(desc.maxAnisotropy, 0u);
      EXPECT_EQ(desc.minMipmapLevelClamp, 0.0f);  // HIP 5 refuses anything else
      EXPECT_EQ(desc.maxMipmapLevelClamp, 0.0f);
      for (const float border : desc.borderColor) EXPECT_EQ(border, 0.0f);
    }
  }
}

TEST(HipImages, OnlyTheAxesAnImageHasTakeTheAddressMode) {
  const ImageFormat format{ChannelOrder::rgba, ChannelType::float32};
  const unsigned int border =
      sampler_setting({AddressMode::clamp_to_border, FilterMode::linear, true});
  const std::pair<ImageType, int> axes[] = {{ImageType::image1d, 1},
                                            {ImageType::image1d_array, 1},
                                            {ImageType::image2d, 2},
                                            {ImageType::image2d_array, 2},
                                            {ImageType::image3d, 3}};
  for (const auto& [type, count] : axes) {
    SCOPED_TRACE(to_string(type));
    hipTextureDesc desc{};
    ASSERT_TRUE(texture_desc(border, type, format, desc));
    for (int axis = 0; axis < 3; ++axis)
      EXPECT_EQ(desc.addressMode[axis], axis < count ? hipAddressModeBorder : hipAddressModeClamp)
          << axis;
  }
}

TEST(HipImages, ArrayDescriptorsOfEveryType) {
  struct Case {
    ImageType type;
    ImageExtent extent;
    std::size_t width, height, depth;
    bool layered;
  };
  const Case cases[] = {
      {ImageType::image1d, {13, 1, 1, 1}, 13, 0, 0, false},
      {ImageType::image2d, {7, 5, 1, 1}, 7, 5, 0, false},
      {ImageType::image3d, {5, 4, 3, 1}, 5, 4, 3, false},
      {ImageType::image1d_array, {9, 1, 1, 3}, 9, 0, 3, true},
      {ImageType::image2d_array, {6, 4, 1, 3}, 6, 4, 3, true},
  };
  const ImageFormat format{ChannelOrder::rg, ChannelType::snorm_int8};
  for (const auto& c : cases) {
    for (const bool surface : {false, true}) {
      SCOPED_TRACE(to_string(c.type) + (surface ? " with the surface flag" : ""));
      const auto desc = array_descriptor({c.type, format, c.extent}, surface);
      EXPECT_EQ(desc.Width, c.width);
      EXPECT_EQ(desc.Height, c.height);
      EXPECT_EQ(desc.Depth, c.depth);
      EXPECT_EQ(desc.Format, HIP_AD_FORMAT_SIGNED_INT8);
      EXPECT_EQ(desc.NumChannels, 2u);
      // HIP 5 compares the flags with hipArrayDefault and hipArrayLayered exactly.
      EXPECT_EQ(desc.Flags,
                (c.layered ? hipArrayLayered : 0U) | (surface ? hipArraySurfaceLoadStore : 0U));
    }
  }
  const std::pair<ChannelType, hipArray_Format> formats[] = {
      {ChannelType::unorm_int8, HIP_AD_FORMAT_UNSIGNED_INT8},
      {ChannelType::unorm_int16, HIP_AD_FORMAT_UNSIGNED_INT16},
      {ChannelType::snorm_int16, HIP_AD_FORMAT_SIGNED_INT16},
      {ChannelType::int16, HIP_AD_FORMAT_SIGNED_INT16},
      {ChannelType::int32, HIP_AD_FORMAT_SIGNED_INT32},
      {ChannelType::uint32, HIP_AD_FORMAT_UNSIGNED_INT32},
      {ChannelType::float16, HIP_AD_FORMAT_HALF},
      {ChannelType::float32, HIP_AD_FORMAT_FLOAT},
  };
  for (const auto& [type, native] : formats) {
    const auto desc =
        array_descriptor({ImageType::image2d, {ChannelOrder::rgba, type}, {4, 4, 1, 1}}, false);
    EXPECT_EQ(desc.Format, native) << to_string(type);
    EXPECT_EQ(desc.NumChannels, 4u);
  }
}

/// Limits like those of an AMD GPU (OpenCL's 2-D and 3-D maxima of AMD's GPUs).
hipDeviceProp_t gpu_properties() {
  hipDeviceProp_t properties{};
  properties.maxTexture1D = 16384;
  properties.maxTexture2D[0] = 16384;
  properties.maxTexture2D[1] = 16384;
  properties.maxTexture3D[0] = 2048;
  properties.maxTexture3D[1] = 2048;
  properties.maxTexture3D[2] = 2048;
  return properties;
}

TEST(HipImages, SupportFromTheDevicesProperties) {
  const auto support = image_support_from(gpu_properties(), true, fallback_max_layers);
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

  // No layers: no layered types; no 3-D limits: no 3-D images or writes.
  auto properties = gpu_properties();
  properties.maxTexture3D[2] = 0;
  const auto flat = image_support_from(properties, true, 0);
  ASSERT_TRUE(flat.available);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image2d)], all_formats);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image3d)], 0u);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image1d_array)], 0u);
  EXPECT_EQ(flat.formats[static_cast<std::size_t>(ImageType::image2d_array)], 0u);
  EXPECT_FALSE(flat.writes_3d);

  const auto none = image_support_from(gpu_properties(), false, fallback_max_layers);
  EXPECT_FALSE(none.available);
  EXPECT_EQ(none.reason, "hipDeviceAttributeImageSupport is 0");
  EXPECT_EQ(none.formats, (std::array<std::uint64_t, image_type_count>{}));
  const auto zero = image_support_from(hipDeviceProp_t{}, true, fallback_max_layers);
  EXPECT_FALSE(zero.available);
  EXPECT_EQ(zero.reason, "its image limits (maxTexture1D, maxTexture2D, maxTexture3D) are 0");
}

TEST(HipImages, HipSixOneKeepsLayersOnZ) {
  EXPECT_FALSE(layers_on_z(50221153));  // Debian 12's HIP 5.2
  EXPECT_FALSE(layers_on_z(50631061));
  EXPECT_FALSE(layers_on_z(60032831));  // 6.0.2
  EXPECT_TRUE(layers_on_z(60100000));
  EXPECT_TRUE(layers_on_z(60241134));
}

// Arrays that are never dereferenced: the copies only carry them.
hipArray_t fake_array(std::uintptr_t value) { return reinterpret_cast<hipArray_t>(value); }

ImageCopyEnd array_end(std::uintptr_t value, ImageType type, std::array<std::size_t, 3> origin,
                       std::size_t pixel_size = 4) {
  ImageCopyEnd end;
  end.array = fake_array(value);
  end.type = type;
  end.origin = origin;
  end.pixel_size = pixel_size;
  return end;
}

std::byte memory[1 << 16];  // where memory sides point (never touched)

constexpr std::size_t no_limit = std::numeric_limits<std::uint32_t>::max();

void expect_pos(const hipPos& pos, std::size_t x, std::size_t y, std::size_t z) {
  EXPECT_EQ(pos.x, x);
  EXPECT_EQ(pos.y, y);
  EXPECT_EQ(pos.z, z);
}

void expect_extent(const hipExtent& extent, std::size_t width, std::size_t height,
                   std::size_t depth) {
  EXPECT_EQ(extent.width, width);
  EXPECT_EQ(extent.height, height);
  EXPECT_EQ(extent.depth, depth);
}

TEST(HipImages, HostAndDeviceMemoryToAndFromArrays) {
  for (const bool on_z : {false, true}) {
    SCOPED_TRACE(on_z ? "HIP 6.1" : "HIP 5.2");
    // Host memory into a box at (1, 2, 0) of 3 x 2 of a 2-D image of 4-byte pixels, rows 16
    // bytes apart from byte 8.
    auto copies =
        image_copies(array_end(1, ImageType::image2d, {1, 2, 0}),
                     ImageCopyEnd::of(memory, true, {8, 16, 64}), {3, 2, 1}, no_limit, on_z);
    ASSERT_TRUE(copies.has_value());
    ASSERT_EQ(copies->size(), 1u);
    auto copy = copies->front();
    EXPECT_EQ(copy.dstArray, fake_array(1));
    expect_pos(copy.dstPos, 1, 2, 0);  // pixels
    EXPECT_EQ(copy.srcArray, nullptr);
    EXPECT_EQ(copy.srcPtr.ptr, memory + 8);
    EXPECT_EQ(copy.srcPtr.pitch, 16u);
    EXPECT_EQ(copy.srcPtr.xsize, 12u);
    EXPECT_EQ(copy.srcPtr.ysize, 2u);  // one slice: its rows
    expect_pos(copy.srcPos, 0, 0, 0);
    expect_extent(copy.extent, 3, 2, 1);  // pixels: an array takes part
    EXPECT_EQ(copy.kind, hipMemcpyHostToDevice);

    // A 3-D image's box to device memory whose slices are 5 rows apart.
    copies =
        image_copies(ImageCopyEnd::of(memory, false, {0, 32, 160}),
                     array_end(2, ImageType::image3d, {0, 1, 2}, 8), {4, 3, 2}, no_limit, on_z);
    ASSERT_TRUE(copies.has_value());
    copy = copies->front();
    EXPECT_EQ(copy.srcArray, fake_array(2));
    expect_pos(copy.srcPos, 0, 1, 2);
    EXPECT_EQ(copy.dstPtr.ptr, memory);
    EXPECT_EQ(copy.dstPtr.pitch, 32u);
    EXPECT_EQ(copy.dstPtr.ysize, 5u);
    expect_extent(copy.extent, 4, 3, 2);
    EXPECT_EQ(copy.kind, hipMemcpyDeviceToDevice);

    // Array to host.
    copies =
        image_copies(ImageCopyEnd::of(memory, true, {0, 12, 24}),
                     array_end(3, ImageType::image2d_array, {0, 0, 1}), {3, 2, 2}, no_limit, on_z);
    ASSERT_TRUE(copies.has_value());
    EXPECT_EQ(copies->front().kind, hipMemcpyDeviceToHost);
    expect_pos(copies->front().srcPos, 0, 0, 1);  // a 2-D array's layers are z on every HIP
  }
}

TEST(HipImages, LayoutsAHipCopyCannotSayAreRefused) {
  const auto image = array_end(1, ImageType::image3d, {0, 0, 0});
  // Slices that are not a whole number of rows apart (with several slices)...
  EXPECT_FALSE(
      image_copies(image, ImageCopyEnd::of(memory, true, {0, 16, 40}), {3, 2, 2}, no_limit, false));
  // ... but with one slice the slice pitch does not matter.
  EXPECT_TRUE(
      image_copies(image, ImageCopyEnd::of(memory, true, {0, 16, 40}), {3, 2, 1}, no_limit, false));
  // A row pitch beyond the device's.
  EXPECT_FALSE(
      image_copies(image, ImageCopyEnd::of(memory, true, {0, 4096, 8192}), {3, 2, 1}, 2048, false));
  // A row pitch, or a slice of rows, beyond HIP 5's 32 bits.
  const std::size_t big = std::size_t{1} << 32;
  const std::size_t huge_limit = std::numeric_limits<std::size_t>::max();
  EXPECT_FALSE(image_copies(image, ImageCopyEnd::of(memory, true, {0, big, big * 2}), {3, 2, 1},
                            huge_limit, false));
  EXPECT_FALSE(image_copies(image, ImageCopyEnd::of(memory, true, {0, big / 2, big}), {3, 2, 2},
                            huge_limit, false));
  EXPECT_TRUE(image_copies(image, ImageCopyEnd::of(memory, true, {0, big / 4, big / 2}), {3, 2, 2},
                           huge_limit, false));
}

TEST(HipImages, OneDimensionalArraysAndMemoryOnBothGenerations) {
  // Layers 1 and 2 of a 1-D array, 5 pixels from x = 2, with host rows 24 bytes apart.
  const auto layers = array_end(1, ImageType::image1d_array, {2, 1, 0});
  const auto host = ImageCopyEnd::of(memory, true, {0, 24, 48});
  // HIP 5.2: OpenCL's axes, the layers along y, as plinth's box.
  auto copies = image_copies(layers, host, {5, 2, 1}, no_limit, false);
  ASSERT_TRUE(copies.has_value());
  ASSERT_EQ(copies->size(), 1u);
  expect_pos(copies->front().dstPos, 2, 1, 0);
  expect_extent(copies->front().extent, 5, 2, 1);
  EXPECT_EQ(copies->front().srcPtr.pitch, 24u);
  EXPECT_EQ(copies->front().srcPtr.ysize, 2u);
  // HIP 6.1: CUDA's axes, the layers along z, each a slice of one row of memory.
  copies = image_copies(layers, host, {5, 2, 1}, no_limit, true);
  ASSERT_TRUE(copies.has_value());
  ASSERT_EQ(copies->size(), 1u);
  expect_pos(copies->front().dstPos, 2, 0, 1);
  expect_extent(copies->front().extent, 5, 1, 2);
  EXPECT_EQ(copies->front().srcPtr.pitch, 24u);
  EXPECT_EQ(copies->front().srcPtr.ysize, 1u);
  // Between two 1-D arrays: one copy on both.
  copies = image_copies(array_end(2, ImageType::image1d_array, {0, 0, 0}), layers, {5, 2, 1},
                        no_limit, true);
  ASSERT_TRUE(copies.has_value());
  ASSERT_EQ(copies->size(), 1u);
  expect_pos(copies->front().dstPos, 0, 0, 0);
  expect_pos(copies->front().srcPos, 2, 0, 1);
  expect_extent(copies->front().extent, 5, 1, 2);
  EXPECT_EQ(copies->front().kind, hipMemcpyDeviceToDevice);
}

TEST(HipImages, OneDimensionalArraysAndOtherTypesRowByRowOnHipSixOne) {
  // Layers 1 to 3 of a 1-D array into rows 4 to 6 of layer 2 of a 2-D array.
  const auto layers = array_end(1, ImageType::image1d_array, {0, 1, 0});
  const auto plane = array_end(2, ImageType::image2d_array, {3, 4, 2});
  auto copies = image_copies(plane, layers, {5, 3, 1}, no_limit, false);
  ASSERT_TRUE(copies.has_value());
  ASSERT_EQ(copies->size(), 1u);  // HIP 5.2: OpenCL's axes on both sides
  expect_pos(copies->front().dstPos, 3, 4, 2);
  expect_pos(copies->front().srcPos, 0, 1, 0);
  expect_extent(copies->front().extent, 5, 3, 1);
  copies = image_copies(plane, layers, {5, 3, 1}, no_limit, true);
  ASSERT_TRUE(copies.has_value());
  ASSERT_EQ(copies->size(), 3u);  // HIP 6.1: a row at a time
  for (std::size_t row = 0; row < 3; ++row) {
    SCOPED_TRACE("row " + std::to_string(row));
    const auto& copy = (*copies)[row];
    EXPECT_EQ(copy.dstArray, fake_array(2));
    EXPECT_EQ(copy.srcArray, fake_array(1));
    expect_pos(copy.dstPos, 3, 4 + row, 2);
    expect_pos(copy.srcPos, 0, 0, 1 + row);
    expect_extent(copy.extent, 5, 1, 1);
    EXPECT_EQ(copy.kind, hipMemcpyDeviceToDevice);
  }
}

}  // namespace
}  // namespace image_test
}  // namespace plinth::hip
