// The CUDA backend's images and samplers (SDK 1.8, backends/cuda/image.hpp) against the fake
// driver (fake_driver.hpp): what image_support() reports (every format of every type, the
// smaller of the texture and surface limits), the CUDA_ARRAY3D_DESCRIPTOR of each image type,
// the kernel argument (the dialect's plinth_image_data: a texture object per valid sampler
// setting with its address mode, filter and flags, the surface object, extent and format), a
// sampler's setting, and the CUDA_MEMCPY3D of each copy (a 1-D array's layers, y in plinth's
// box, along CUDA's z).

#include "image.hpp"
#include "buffer.hpp"
#include "queue.hpp"
#include "two_device_context.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace cuda_image_test {
namespace {

using plinth::AddressMode;
using plinth::ChannelOrder;
using plinth::ChannelType;
using plinth::FilterMode;
using plinth::ImageBox;
using plinth::ImageExtent;
using plinth::ImageFormat;
using plinth::ImageType;
using plinth::SamplerDesc;
using plinth::backend::ImageDesc;
using plinth::cuda::Buffer;
using plinth::cuda::ImageData;
using plinth::cuda::Queue;
using plinth::cuda::test::FakeDriver;
using plinth::cuda::test::TwoDeviceContext;

using CudaImages = TwoDeviceContext;

/// An image description.
ImageDesc desc(ImageType type, ChannelOrder order, ChannelType channel, ImageExtent extent) {
  return {type, {order, channel}, extent};
}

/// The ImageData a kernel argument holds.
ImageData data_of(plinth::backend::ImageAdapter& image) {
  const auto arg = image.kernel_arg();
  EXPECT_EQ(arg.size, sizeof(ImageData));
  ImageData data;
  std::memcpy(&data, arg.data, sizeof(data));
  return data;
}

/// "0x3100".
std::string hex(unsigned long long value) {
  std::ostringstream text;
  text << "0x" << std::hex << value;
  return text.str();
}

/// The setting a kernel's sampler argument holds.
unsigned int setting_of(const plinth::backend::SamplerAdapter& sampler) {
  const auto arg = sampler.kernel_arg();
  EXPECT_EQ(arg.size, sizeof(unsigned int));
  unsigned int setting = 0;
  std::memcpy(&setting, arg.data, sizeof(setting));
  return setting;
}

TEST_F(CudaImages, SupportIsEveryFormatUpToTheSmallerOfTheTextureAndSurfaceLimits) {
  const std::vector<std::pair<CUdevice_attribute, int>> attributes{
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, 131072},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH, 32768},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH, 32768},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH, 16384},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH, 131072},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH, 131072},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH, 32768},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH, 32768},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT, 65536},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT, 65536},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, 32768},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT, 30000},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH, 16384},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH, 16384},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT, 16384},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT, 8192},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, 4096},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH, 16384},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS, 2048},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS, 2048},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 2048},
      {CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS, 1024},
  };
  for (const auto& [attribute, value] : attributes) FakeDriver::set_attribute(attribute, 1, value);
  const auto support = context_.image_support(1);
  ASSERT_TRUE(support.available) << support.reason;
  EXPECT_EQ(support.limits.max_width_1d, 16384U);
  EXPECT_EQ(support.limits.max_width_2d, 32768U);
  EXPECT_EQ(support.limits.max_height_2d, 30000U);
  EXPECT_EQ(support.limits.max_width_3d, 16384U);
  EXPECT_EQ(support.limits.max_height_3d, 8192U);
  EXPECT_EQ(support.limits.max_depth_3d, 4096U);
  EXPECT_EQ(support.limits.max_layers, 1024U);
  for (std::size_t type = 0; type < plinth::image_type_count; ++type) {
    for (std::size_t order = 0; order < plinth::channel_order_count; ++order) {
      for (std::size_t channel = 0; channel < plinth::channel_type_count; ++channel) {
        const ImageFormat format{static_cast<ChannelOrder>(order),
                                 static_cast<ChannelType>(channel)};
        EXPECT_TRUE(support.supports(static_cast<ImageType>(type), format))
            << type << " " << plinth::to_string(format);
      }
    }
    EXPECT_EQ(support.formats[type], (std::uint64_t{1} << 36) - 1);
  }
  // The other device's limits are its own (9 in every attribute the fake is not told).
  EXPECT_EQ(context_.image_support(0).limits.max_width_1d, 9U);
}

TEST_F(CudaImages, EachTypeIsAnArrayOfItsShapeWithSurfaceLoadStore) {
  std::vector<std::unique_ptr<plinth::backend::ImageAdapter>> images;
  images.push_back(context_.create_image(
      1, desc(ImageType::image1d, ChannelOrder::r, ChannelType::unorm_int8, {100, 1, 1, 1})));
  images.push_back(context_.create_image(
      1, desc(ImageType::image2d, ChannelOrder::rg, ChannelType::snorm_int16, {64, 32, 1, 1})));
  images.push_back(context_.create_image(
      1, desc(ImageType::image3d, ChannelOrder::rgba, ChannelType::float16, {16, 8, 4, 1})));
  images.push_back(context_.create_image(
      1, desc(ImageType::image1d_array, ChannelOrder::r, ChannelType::int32, {50, 1, 1, 6})));
  images.push_back(context_.create_image(
      1, desc(ImageType::image2d_array, ChannelOrder::rgba, ChannelType::uint8, {20, 10, 1, 3})));
  EXPECT_EQ(FakeDriver::current(), nullptr);  // the thread's context is restored
  EXPECT_EQ(images[0]->native_handle(), 0xa100U);
  EXPECT_EQ(images[4]->native_handle(), 0xa500U);
  images.clear();
  const std::vector<std::string> expected{
      "cuArray3DCreate 0xa100 100x0x0 u8x1 flags=surface_ldst current=dev1",
      "cuArray3DCreate 0xa200 64x32x0 s16x2 flags=surface_ldst current=dev1",
      "cuArray3DCreate 0xa300 16x8x4 halfx4 flags=surface_ldst current=dev1",
      "cuArray3DCreate 0xa400 50x0x6 s32x1 flags=layered|surface_ldst current=dev1",
      "cuArray3DCreate 0xa500 20x10x3 u8x4 flags=layered|surface_ldst current=dev1",
      "cuArrayDestroy 0xa100 current=dev1",
      "cuArrayDestroy 0xa200 current=dev1",
      "cuArrayDestroy 0xa300 current=dev1",
      "cuArrayDestroy 0xa400 current=dev1",
      "cuArrayDestroy 0xa500 current=dev1",
  };
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaImages, ChannelTypesAreArrayFormatsReadNormalisedOrNot) {
  const CUarray_format formats[] = {
      CU_AD_FORMAT_UNSIGNED_INT8,  CU_AD_FORMAT_UNSIGNED_INT16, CU_AD_FORMAT_SIGNED_INT8,
      CU_AD_FORMAT_SIGNED_INT16,   CU_AD_FORMAT_SIGNED_INT8,    CU_AD_FORMAT_SIGNED_INT16,
      CU_AD_FORMAT_SIGNED_INT32,   CU_AD_FORMAT_UNSIGNED_INT8,  CU_AD_FORMAT_UNSIGNED_INT16,
      CU_AD_FORMAT_UNSIGNED_INT32, CU_AD_FORMAT_HALF,           CU_AD_FORMAT_FLOAT,
  };
  for (std::size_t channel = 0; channel < plinth::channel_type_count; ++channel) {
    for (const auto order : {ChannelOrder::r, ChannelOrder::rg, ChannelOrder::rgba}) {
      const auto array = plinth::cuda::array_descriptor(
          desc(ImageType::image2d, order, static_cast<ChannelType>(channel), {7, 5, 1, 1}));
      EXPECT_EQ(array.Format, formats[channel]) << channel;
      EXPECT_EQ(array.NumChannels, order == ChannelOrder::r    ? 1U
                                   : order == ChannelOrder::rg ? 2U
                                                               : 4U);
      EXPECT_EQ(array.Width, 7U);
      EXPECT_EQ(array.Height, 5U);
      EXPECT_EQ(array.Depth, 0U);
    }
  }
}

TEST_F(CudaImages, TheKernelArgumentIsTheDialectsStructWithATextureObjectPerValidSetting) {
  auto image = context_.create_image(
      1, desc(ImageType::image2d, ChannelOrder::r, ChannelType::uint8, {40, 30, 1, 1}));
  FakeDriver::calls().clear();
  const ImageData data = data_of(*image);
  EXPECT_EQ(FakeDriver::current(), nullptr);
  EXPECT_EQ(data.surf, 0x5100U);
  EXPECT_EQ(data.width, 40);
  EXPECT_EQ(data.height, 30);
  EXPECT_EQ(data.depth, 1);
  EXPECT_EQ(data.layers, 1);
  EXPECT_EQ(data.channel_type, 7);  // ChannelType::uint8
  EXPECT_EQ(data.channels, 1);
  // uint8 is read as integers: no linear filtering, and repeat and mirror with normalised
  // coordinates only. Settings: address | filter << 2 | normalized << 3.
  const std::vector<unsigned int> valid{0, 1, 8, 9, 10, 11};
  const CUaddress_mode modes[] = {CU_TR_ADDRESS_MODE_CLAMP, CU_TR_ADDRESS_MODE_BORDER,
                                  CU_TR_ADDRESS_MODE_WRAP, CU_TR_ADDRESS_MODE_MIRROR};
  std::vector<std::string> expected{"cuSurfObjectCreate 0x5100 array 0xa100 current=dev1"};
  unsigned long long next = 0x3100;
  for (unsigned int setting = 0; setting < 16; ++setting) {
    if (std::find(valid.begin(), valid.end(), setting) == valid.end()) {
      EXPECT_EQ(data.tex[setting], 0U) << setting;
      continue;
    }
    EXPECT_EQ(data.tex[setting], next) << setting;
    expected.push_back("cuTexObjectCreate " + hex(next) + " array 0xa100 current=dev1");
    ++next;
    const auto* texture = FakeDriver::texture(data.tex[setting]);
    ASSERT_NE(texture, nullptr);
    EXPECT_EQ(texture->array, reinterpret_cast<CUarray>(0xa100));
    EXPECT_FALSE(texture->view);
    const auto& settings = texture->settings;
    EXPECT_EQ(settings.addressMode[0], modes[setting & 3U]) << setting;
    EXPECT_EQ(settings.addressMode[1], modes[setting & 3U]) << setting;
    EXPECT_EQ(settings.addressMode[2], CU_TR_ADDRESS_MODE_CLAMP) << setting;  // no such axis
    EXPECT_EQ(settings.filterMode, CU_TR_FILTER_MODE_POINT);
    const unsigned flags =
        CU_TRSF_READ_AS_INTEGER | (setting >= 8 ? CU_TRSF_NORMALIZED_COORDINATES : 0U);
    EXPECT_EQ(settings.flags, flags) << setting;
    for (const float channel : settings.borderColor) EXPECT_EQ(channel, 0.0f);
  }
  EXPECT_EQ(FakeDriver::calls(), expected);
  // The objects are made once.
  FakeDriver::calls().clear();
  EXPECT_EQ(data_of(*image).tex[9], data.tex[9]);
  EXPECT_TRUE(FakeDriver::calls().empty());
  image.reset();
  EXPECT_EQ(FakeDriver::calls().size(), 6U + 2U);  // textures, surface, array
  EXPECT_EQ(FakeDriver::calls().back(), "cuArrayDestroy 0xa100 current=dev1");
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

// The core calls kernel_arg() at every launch, on the launching thread: launches on several
// threads with one new image once made its objects on each of them (leaking all but one set,
// and writing the kernel argument's struct from several threads at once).
TEST_F(CudaImages, TheFirstKernelArgumentsOnSeveralThreadsMakeTheObjectsOnce) {
  auto image = context_.create_image(
      1, desc(ImageType::image2d, ChannelOrder::r, ChannelType::uint8, {40, 30, 1, 1}));
  FakeDriver::calls().clear();
  FakeDriver::set_object_create_delay(std::chrono::milliseconds{20});
  constexpr std::size_t thread_count = 4;
  std::array<ImageData, thread_count> seen{};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      const auto arg = image->kernel_arg();
      std::memcpy(&seen[t], arg.data, sizeof(ImageData));
    });
  }
  for (auto& thread : threads) thread.join();
  // One surface object and one texture object per valid setting (6 for uint8: see above).
  EXPECT_EQ(FakeDriver::calls().size(), 1U + 6U);
  for (const auto& data : seen) {
    EXPECT_EQ(data.surf, 0x5100U);
    EXPECT_EQ(data.tex[9], seen[0].tex[9]);
    EXPECT_NE(data.tex[9], 0U);
  }
}

TEST_F(CudaImages, TextureFlagsFollowTheChannelType) {
  for (std::size_t channel = 0; channel < plinth::channel_type_count; ++channel) {
    const ImageFormat format{ChannelOrder::rgba, static_cast<ChannelType>(channel)};
    const bool integers = format.read_kind() != plinth::ImageReadKind::float_;
    auto image =
        context_.create_image(0, desc(ImageType::image3d, format.order, format.type, {4, 4, 4, 1}));
    const ImageData data = data_of(*image);
    std::size_t made = 0;
    for (unsigned int setting = 0; setting < 16; ++setting) {
      const bool normalized = setting >= 8;
      const bool linear = (setting & 4U) != 0;
      const bool clamp = (setting & 3U) < 2;
      const bool valid = (normalized || clamp) && !(linear && integers);
      if (!valid) {
        EXPECT_EQ(data.tex[setting], 0U) << plinth::to_string(format) << " " << setting;
        continue;
      }
      ++made;
      const auto* texture = FakeDriver::texture(data.tex[setting]);
      ASSERT_NE(texture, nullptr) << plinth::to_string(format) << " " << setting;
      // Integers as integers (int8..uint32), the normalised types as floats in [0, 1] or
      // [-1, 1], float16 and float32 as they are.
      const unsigned flags = (integers ? CU_TRSF_READ_AS_INTEGER : 0U) |
                             (normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0U);
      EXPECT_EQ(texture->settings.flags, flags) << plinth::to_string(format) << " " << setting;
      EXPECT_EQ(texture->settings.filterMode,
                linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT);
    }
    EXPECT_EQ(made, integers ? 6U : 12U) << plinth::to_string(format);
    EXPECT_EQ(data.channel_type, static_cast<int>(channel));
    EXPECT_EQ(data.channels, 4);
    EXPECT_EQ(data.depth, 4);
  }
  // unorm_int8 in particular: read as normalised floats, so no READ_AS_INTEGER.
  auto unorm = context_.create_image(
      0, desc(ImageType::image2d, ChannelOrder::rgba, ChannelType::unorm_int8, {4, 4, 1, 1}));
  const auto* linear = FakeDriver::texture(data_of(*unorm).tex[4]);  // clamp_to_edge, linear
  ASSERT_NE(linear, nullptr);
  EXPECT_EQ(linear->settings.flags, 0U);
  EXPECT_EQ(linear->settings.filterMode, CU_TR_FILTER_MODE_LINEAR);
}

TEST_F(CudaImages, AxesAnImageLacksClampWhateverTheAddressMode) {
  // The texture of a 1-D array is filtered as a row of a 2-D one: a border along y would
  // blend half of every linear read with it. Layers are never filtered.
  const auto modes = [&](ImageType type, unsigned int setting) {
    auto image = context_.create_image(
        0, desc(type, ChannelOrder::rgba, ChannelType::float32, {8, 8, 8, 8}));
    const auto* texture = FakeDriver::texture(data_of(*image).tex[setting]);
    EXPECT_NE(texture, nullptr);
    const auto& mode = texture->settings.addressMode;
    return std::vector<CUaddress_mode>{mode[0], mode[1], mode[2]};
  };
  using Modes = std::vector<CUaddress_mode>;
  const auto clamp = CU_TR_ADDRESS_MODE_CLAMP;
  const auto border = CU_TR_ADDRESS_MODE_BORDER;
  const auto wrap = CU_TR_ADDRESS_MODE_WRAP;
  const auto mirror = CU_TR_ADDRESS_MODE_MIRROR;
  // 5: clamp_to_border, linear; 13: the same normalised; 10: repeat; 11: mirrored repeat.
  EXPECT_EQ(modes(ImageType::image1d, 5), (Modes{border, clamp, clamp}));
  EXPECT_EQ(modes(ImageType::image1d_array, 13), (Modes{border, clamp, clamp}));
  EXPECT_EQ(modes(ImageType::image2d, 10), (Modes{wrap, wrap, clamp}));
  EXPECT_EQ(modes(ImageType::image2d_array, 11), (Modes{mirror, mirror, clamp}));
  EXPECT_EQ(modes(ImageType::image3d, 5), (Modes{border, border, border}));
}

TEST_F(CudaImages, LayeredImagesCarryTheirLayers) {
  auto image = context_.create_image(
      0, desc(ImageType::image1d_array, ChannelOrder::rg, ChannelType::float32, {64, 1, 1, 9}));
  const ImageData data = data_of(*image);
  EXPECT_EQ(data.width, 64);
  EXPECT_EQ(data.height, 1);
  EXPECT_EQ(data.depth, 1);
  EXPECT_EQ(data.layers, 9);
  EXPECT_EQ(data.channels, 2);
  EXPECT_EQ(data.channel_type, 11);
}

TEST_F(CudaImages, ASamplerIsItsSetting) {
  const auto setting = [&](AddressMode address, FilterMode filter, bool normalized) {
    const auto sampler = context_.create_sampler(SamplerDesc{address, filter, normalized});
    EXPECT_EQ(sampler->native_handle(), 0U);
    return setting_of(*sampler);
  };
  EXPECT_EQ(setting(AddressMode::clamp_to_edge, FilterMode::nearest, false), 0U);
  EXPECT_EQ(setting(AddressMode::clamp_to_border, FilterMode::nearest, false), 1U);
  EXPECT_EQ(setting(AddressMode::clamp_to_edge, FilterMode::linear, false), 4U);
  EXPECT_EQ(setting(AddressMode::mirrored_repeat, FilterMode::nearest, true), 11U);
  EXPECT_EQ(setting(AddressMode::repeat, FilterMode::linear, true), 14U);
  EXPECT_TRUE(FakeDriver::calls().empty());  // no driver object
}

class CudaImageCopies : public TwoDeviceContext {
 protected:
  CudaImageCopies() { FakeDriver::set_host_base(host_.data()); }

  /// A new image on device 0 (arrays 0xa100, 0xa200... in order), the log cleared.
  std::unique_ptr<plinth::backend::ImageAdapter> image(ImageType type, ChannelOrder order,
                                                       ChannelType channel, ImageExtent extent) {
    auto made = context_.create_image(0, desc(type, order, channel, extent));
    FakeDriver::calls().clear();
    return made;
  }

  CUstream stream_ = reinterpret_cast<CUstream>(0x5000);
  Queue queue_{state_, 0, stream_, false};
  Buffer buffer_{state_, 0, 0x10000, 1 << 20, false};
  std::array<std::byte, 4096> host_{};
};

TEST_F(CudaImageCopies, AOneDimensionalArraysLayersAreCudasZ) {
  // rgba uint8: 4-byte pixels. Box rows (y) are layers: CUDA's slices, one row each.
  auto layers =
      image(ImageType::image1d_array, ChannelOrder::rgba, ChannelType::uint8, {64, 1, 1, 8});
  EXPECT_TRUE(queue_.write_image(*layers, ImageBox{{3, 2, 0}, {5, 4, 1}}, host_.data(),
                                 {16, 64, 256}, false));
  EXPECT_TRUE(queue_.read_image(host_.data(), {0, 256, 512}, *layers,
                                ImageBox{{0, 1, 0}, {64, 2, 1}}, true));
  EXPECT_TRUE(
      queue_.copy_buffer_to_image(*layers, ImageBox{{0, 0, 0}, {5, 4, 1}}, buffer_, {8, 20, 80}));
  EXPECT_TRUE(queue_.copy_image_to_buffer(buffer_, {0, 300, 300}, *layers,
                                          ImageBox{{10, 7, 0}, {6, 1, 1}}));
  const std::vector<std::string> expected{
      "cuMemcpy3DAsync array=0xa100 x=12 y=0 z=2 <- host+16 pitch=64 height=1 20x1x4 "
      "stream=0x5000 current=dev0",
      "cuStreamSynchronize 0x5000",  // the synchronous write
      "cuMemcpy3DAsync host+0 pitch=256 height=1 <- array=0xa100 x=0 y=0 z=1 256x1x2 "
      "stream=0x5000 current=dev0",
      "cuMemcpy3DAsync array=0xa100 x=0 y=0 z=0 <- dev=0x10008 pitch=20 height=1 20x1x4 "
      "stream=0x5000 current=dev0",
      "cuMemcpy3DAsync dev=0x10000 pitch=300 height=1 <- array=0xa100 x=40 y=0 z=7 24x1x1 "
      "stream=0x5000 current=dev0",
  };
  EXPECT_EQ(FakeDriver::calls(), expected);
  EXPECT_EQ(FakeDriver::current(), nullptr);
}

TEST_F(CudaImageCopies, OtherTypesKeepTheBoxsAxesAndSlicesAsRows) {
  // rgba float32: 16-byte pixels.
  auto planes =
      image(ImageType::image2d_array, ChannelOrder::rgba, ChannelType::float32, {32, 16, 1, 4});
  auto flat = image(ImageType::image1d, ChannelOrder::r, ChannelType::float16, {100, 1, 1, 1});
  EXPECT_TRUE(queue_.write_image(*planes, ImageBox{{1, 2, 3}, {4, 5, 1}}, host_.data(),
                                 {0, 64, 400}, true));
  EXPECT_TRUE(queue_.copy_buffer_to_image(*planes, ImageBox{{1, 2, 1}, {4, 5, 2}}, buffer_,
                                          {32, 64, 64 * 6}));
  // Two slices 400 bytes apart: not a whole number of 64-byte rows.
  EXPECT_FALSE(queue_.write_image(*planes, ImageBox{{1, 2, 1}, {4, 5, 2}}, host_.data(),
                                  {0, 64, 400}, false));
  EXPECT_FALSE(
      queue_.copy_image_to_buffer(buffer_, {0, 64, 400}, *planes, ImageBox{{1, 2, 1}, {4, 5, 2}}));
  EXPECT_TRUE(queue_.read_image(host_.data(), {6, 200, 200}, *flat,
                                ImageBox{{10, 0, 0}, {90, 1, 1}}, false));
  const std::vector<std::string> expected{
      "cuMemcpy3DAsync array=0xa100 x=16 y=2 z=3 <- host+0 pitch=64 height=5 64x5x1 "
      "stream=0x5000 current=dev0",
      "cuMemcpy3DAsync array=0xa100 x=16 y=2 z=1 <- dev=0x10020 pitch=64 height=6 64x5x2 "
      "stream=0x5000 current=dev0",
      "cuMemcpy3DAsync host+6 pitch=200 height=1 <- array=0xa200 x=20 y=0 z=0 180x1x1 "
      "stream=0x5000 current=dev0",
      "cuStreamSynchronize 0x5000",
  };
  EXPECT_EQ(FakeDriver::calls(), expected);
}

TEST_F(CudaImageCopies, PitchesBeyondTheDevicesLimitAreRefused) {
  FakeDriver::set_max_pitch(4096);
  auto state =
      std::make_shared<plinth::cuda::ContextState>(plinth::cuda::ContextState::Ownership::borrowed);
  state->add(0, FakeDriver::context(0));
  plinth::cuda::Context context(state);
  Queue queue(state, 0, stream_, false);
  auto flat = context.create_image(
      0, desc(ImageType::image2d, ChannelOrder::r, ChannelType::uint8, {100, 10, 1, 1}));
  FakeDriver::calls().clear();
  EXPECT_FALSE(queue.write_image(*flat, ImageBox{{0, 0, 0}, {100, 2, 1}}, host_.data(),
                                 {0, 4097, 8194}, true));
  EXPECT_TRUE(queue.write_image(*flat, ImageBox{{0, 0, 0}, {100, 1, 1}}, host_.data(),
                                {0, 4096, 4096}, true));
  EXPECT_EQ(FakeDriver::calls().size(), 1U);
}

TEST_F(CudaImageCopies, ImageToImageCopiesMapEachSidesAxes) {
  auto a = image(ImageType::image2d, ChannelOrder::rg, ChannelType::uint16, {32, 32, 1, 1});
  auto b = image(ImageType::image2d, ChannelOrder::rg, ChannelType::uint16, {32, 32, 1, 1});
  auto layers =
      image(ImageType::image1d_array, ChannelOrder::rg, ChannelType::uint16, {32, 1, 1, 8});
  auto more = image(ImageType::image1d_array, ChannelOrder::rg, ChannelType::uint16, {32, 1, 1, 8});
  // rg uint16: 4-byte pixels.
  queue_.copy_image(*b, {4, 5, 0}, *a, ImageBox{{1, 2, 0}, {3, 6, 1}});
  queue_.copy_image(*more, {0, 3, 0}, *layers, ImageBox{{2, 1, 0}, {7, 4, 1}});
  // Layers into rows: a copy per row.
  queue_.copy_image(*a, {8, 9, 0}, *layers, ImageBox{{2, 5, 0}, {7, 2, 1}});
  const std::vector<std::string> expected{
      "cuMemcpy3DAsync array=0xa200 x=16 y=5 z=0 <- array=0xa100 x=4 y=2 z=0 12x6x1 "
      "stream=0x5000 current=dev0",
      "cuMemcpy3DAsync array=0xa400 x=0 y=0 z=3 <- array=0xa300 x=8 y=0 z=1 28x1x4 "
      "stream=0x5000 current=dev0",
      "cuMemcpy3DAsync array=0xa100 x=32 y=9 z=0 <- array=0xa300 x=8 y=0 z=5 28x1x1 "
      "stream=0x5000 current=dev0",
      "cuMemcpy3DAsync array=0xa100 x=32 y=10 z=0 <- array=0xa300 x=8 y=0 z=6 28x1x1 "
      "stream=0x5000 current=dev0",
  };
  EXPECT_EQ(FakeDriver::calls(), expected);
}

}  // namespace
}  // namespace cuda_image_test
