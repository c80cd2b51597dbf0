// Images and samplers (image.hpp, docs/kernel-dialect.md "Images"): every format of every
// image type the device makes round trips through the host, buffers, arrays and other images;
// box copies with pitches; kernels read every format (normalised, integer, float16) and
// write it (rounding and saturation) as OpenCL's conversion rules say; sampling with every
// address mode, filter and coordinate kind against a host reference of OpenCL's sampling
// rules (linear filtering within 2^-8 of the texels' range: CUDA's weights have 8 fractional
// bits); and the errors of bad images, boxes and arguments.

#include "fixture.hpp"
#include "float16_reference.hpp"

#include <plinth/image.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace image_test {
namespace {

class ImageTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    support_ = image_support(device());
    if (!support_.available) GTEST_SKIP() << "the device has no images: " << support_.reason;
  }
  const ImageSupport& support() const { return support_; }
  /// PoCL's image functions (3.1 and 5.0, the versions checked) deviate from OpenCL 1.2:
  /// integer reads of R and RG images return alpha 0, not 1; the border colour of R and RG
  /// images has alpha 0, not 1; and in 3.1, with normalised coordinates, a layer coordinate is
  /// normalised too. The tests expect PoCL's answers there and say so (README lists them);
  /// everything else is checked. (Its float16 images, which kernels read and write wrongly, the
  /// OpenCL backend does not offer.)
  bool pocl_deviations() const { return pocl_major() > 0 && pocl_major() <= 5; }
  /// The layer normalisation is PoCL 3's alone (5.0 rounds the layer coordinate as it is).
  bool pocl3() const { return pocl_major() == 3; }
  /// PoCL's major version, 0 for other platforms.
  int pocl_major() const {
    const auto platform = context().platform();
    const auto& version = platform.version();
    const auto at = version.find("PoCL ");
    if (platform.name() != "Portable Computing Language" || at == std::string::npos) return 0;
    return std::atoi(version.c_str() + at + 5);
  }
  /// Says once per test that a PoCL 3 deviation was accepted.
  void note_pocl(const std::string& what) {
    if (noted_.insert(what).second) std::cout << "[   NOTE   ] PoCL deviation: " << what << "\n";
  }

 private:
  ImageSupport support_;
  std::set<std::string> noted_;
};

constexpr std::array<ImageType, 5> all_types{ImageType::image1d, ImageType::image2d,
                                             ImageType::image3d, ImageType::image1d_array,
                                             ImageType::image2d_array};

std::vector<ImageFormat> all_formats() {
  std::vector<ImageFormat> formats;
  for (std::size_t o = 0; o < channel_order_count; ++o) {
    for (std::size_t t = 0; t < channel_type_count; ++t) {
      formats.push_back({static_cast<ChannelOrder>(o), static_cast<ChannelType>(t)});
    }
  }
  return formats;
}

/// A small extent of each type, with sizes that show transposed axes.
ImageExtent small_extent(ImageType type) {
  switch (type) {
    case ImageType::image1d: return {13, 1, 1, 1};
    case ImageType::image2d: return {7, 5, 1, 1};
    case ImageType::image3d: return {5, 4, 3, 1};
    case ImageType::image1d_array: return {9, 1, 1, 3};
    case ImageType::image2d_array: return {6, 4, 1, 3};
  }
  return {};
}

/// Bytes that are a valid value in every format: float16 and float32 patterns that are
/// neither NaN nor infinite (the drivers may canonicalise those).
std::vector<std::byte> pixels(std::size_t size, const ImageFormat& format, unsigned seed) {
  auto bytes = pattern(size, seed);
  if (format.type == ChannelType::float16 || format.type == ChannelType::float32) {
    const std::size_t step = format.channel_size();
    for (std::size_t i = step - 1; i < size; i += step) {
      bytes[i] = static_cast<std::byte>(static_cast<unsigned>(bytes[i]) & 0x3f);
    }
  }
  return bytes;
}

std::string name(ImageType type, const ImageFormat& format) {
  return to_string(type) + " " + to_string(format);
}

TEST_P(ImageTest, SupportHasLimitsAndFormats) {
  const auto& limits = support().limits;
  EXPECT_GT(limits.max_width_1d, 0u);
  EXPECT_GT(limits.max_width_2d, 0u);
  EXPECT_GT(limits.max_height_2d, 0u);
  EXPECT_GT(limits.max_depth_3d, 0u);
  // Every device with images makes RGBA float32 and unorm_int8 2-D images (OpenCL's minimum).
  EXPECT_TRUE(support().supports(ImageType::image2d, {ChannelOrder::rgba, ChannelType::float32}));
  EXPECT_TRUE(
      support().supports(ImageType::image2d, {ChannelOrder::rgba, ChannelType::unorm_int8}));
}

TEST_P(ImageTest, EveryFormatRoundTripsThroughHostBuffersAndImages) {
  std::size_t tried = 0;
  for (const auto type : all_types) {
    for (const auto& format : all_formats()) {
      if (!support().supports(type, format)) continue;
      SCOPED_TRACE(name(type, format));
      std::cout << "[   ...    ] " << name(type, format) << std::endl;
      ++tried;
      const auto image = Image::allocate(device(), type, format, small_extent(type));
      ASSERT_EQ(image.nbytes(), [&] {
        const auto axes = image.box().size;
        return axes[0] * axes[1] * axes[2] * format.pixel_size();
      }());
      const auto data = pixels(image.nbytes(), format, 1 + tried);
      image.set(queue(), data, true);
      std::vector<std::byte> back(image.nbytes());
      image.get(queue(), back);
      ASSERT_EQ(back, data) << "host round trip";

      // Image -> buffer -> another image -> host.
      const auto buffer = Buffer::allocate(device(), image.nbytes());
      copy_image_to_buffer(queue(), buffer, {}, image, image.box());
      std::vector<std::byte> from_buffer(image.nbytes());
      buffer.get(queue(), from_buffer);
      ASSERT_EQ(from_buffer, data) << "image to buffer";
      const auto other = Image::allocate(device(), type, format, small_extent(type));
      copy_buffer_to_image(queue(), other, other.box(), buffer);
      const auto third = Image::allocate(device(), type, format, small_extent(type));
      copy_image(queue(), third, {0, 0, 0}, other, other.box());
      std::vector<std::byte> final(image.nbytes());
      third.get(queue(), final);
      ASSERT_EQ(final, data) << "buffer to image to image";
    }
  }
  EXPECT_GT(tried, 0u);
}

/// What a box copy into an image does to the packed image, byte by byte.
void reference_box(std::vector<std::byte>& image, const std::array<std::size_t, 3>& axes,
                   std::size_t pixel, const ImageBox& box, const std::vector<std::byte>& src,
                   std::size_t offset, std::size_t row_pitch, std::size_t slice_pitch) {
  for (std::size_t z = 0; z < box.size[2]; ++z)
    for (std::size_t y = 0; y < box.size[1]; ++y)
      for (std::size_t x = 0; x < box.size[0] * pixel; ++x)
        image.at(((box.origin[2] + z) * axes[1] + box.origin[1] + y) * axes[0] * pixel +
                 box.origin[0] * pixel + x) = src.at(offset + z * slice_pitch + y * row_pitch + x);
}

TEST_P(ImageTest, BoxCopiesWithPitchesInEveryType) {
  const ImageFormat format{ChannelOrder::rgba, ChannelType::uint8};
  for (const auto type : all_types) {
    if (!support().supports(type, format)) continue;
    SCOPED_TRACE(to_string(type));
    std::cout << "[   ...    ] " << to_string(type) << std::endl;
    const auto extent = small_extent(type);
    const auto image = Image::allocate(device(), type, format, extent);
    const auto axes = image.box().size;
    auto expected = pattern(image.nbytes(), 3);
    image.set(queue(), expected, true);
    // A box one pixel in from the origin where the axis allows, of what remains.
    ImageBox box;
    for (std::size_t a = 0; a < 3; ++a) {
      box.origin[a] = axes[a] > 1 ? 1 : 0;
      box.size[a] = axes[a] > 2 ? axes[a] - 2 : 1;
    }
    const std::size_t row = box.size[0] * 4;
    const std::size_t row_pitch = row + 12;
    const std::size_t slice_pitch = row_pitch * box.size[1] + 20;
    const RectRegion region{8, 0, 0, row_pitch, slice_pitch};
    const auto host = pattern(8 + slice_pitch * box.size[2], 9);
    write_image(queue(), image, box, host, region, true);
    reference_box(expected, axes, 4, box, host, 8, row_pitch, slice_pitch);
    std::vector<std::byte> back(image.nbytes());
    image.get(queue(), back);
    ASSERT_EQ(back, expected) << "write_image";

    // The same box read into a pitched host region, and through a pitched buffer region
    // (OpenCL's buffer copies take packed rows only: the core packs through a temporary).
    std::vector<std::byte> read(host.size());
    read_image(queue(), read, region, image, box);
    const auto buffer = Buffer::allocate(device(), host.size());
    buffer.set(queue(), std::vector<std::byte>(host.size()), true);
    copy_image_to_buffer(queue(), buffer, region, image, box);
    std::vector<std::byte> through_buffer(host.size());
    buffer.get(queue(), through_buffer);
    for (std::size_t z = 0; z < box.size[2]; ++z) {
      for (std::size_t y = 0; y < box.size[1]; ++y) {
        const auto at = 8 + z * slice_pitch + y * row_pitch;
        ASSERT_TRUE(std::equal(host.begin() + at, host.begin() + at + row, read.begin() + at))
            << "read_image row " << y << " slice " << z;
        ASSERT_TRUE(
            std::equal(host.begin() + at, host.begin() + at + row, through_buffer.begin() + at))
            << "copy_image_to_buffer row " << y << " slice " << z;
      }
    }
    // Back from the pitched buffer region into a fresh image's same box.
    const auto other = Image::allocate(device(), type, format, extent);
    auto other_expected = pattern(image.nbytes(), 4);
    other.set(queue(), other_expected, true);
    copy_buffer_to_image(queue(), other, box, buffer, region);
    reference_box(other_expected, axes, 4, box, host, 8, row_pitch, slice_pitch);
    other.get(queue(), back);
    ASSERT_EQ(back, other_expected) << "copy_buffer_to_image";
  }
}

TEST_P(ImageTest, ArraysAndHostArraysOfTheImagesShape) {
  const auto image = Image::allocate(device(), ImageType::image2d,
                                     {ChannelOrder::rgba, ChannelType::float32}, {5, 3, 1, 1});
  EXPECT_EQ(image.shape(), (std::vector<std::size_t>{3, 5, 4}));
  EXPECT_EQ(image.channel_dtype(), DType::float32());
  std::vector<float> values(60);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.5f * static_cast<float>(i);
  image.set(queue(), HostArray::from_values(values, {3, 5, 4}), true);
  const auto array = Array::empty(device(), {3, 5, 4}, DType::float32());
  image.get(queue(), array);
  EXPECT_EQ(array.get(queue()).to_vector<float>(), values);
  // A single-channel image takes arrays with or without the trailing 1.
  const auto r = Image::allocate(device(), ImageType::image1d,
                                 {ChannelOrder::r, ChannelType::uint16}, {10, 1, 1, 1});
  std::vector<std::uint16_t> shorts(10);
  for (std::size_t i = 0; i < shorts.size(); ++i) shorts[i] = static_cast<std::uint16_t>(i * 999);
  r.set(queue(), Array::from_host(queue(), HostArray::from_values(shorts)));
  const auto back = HostArray::empty({10, 1}, DType::uint16());
  r.get(queue(), back);
  EXPECT_EQ(back.to_vector<std::uint16_t>(), shorts);
  // Mismatches are named.
  EXPECT_NE(logic_error_message([&] {
              image.get(queue(), Array::empty(device(), {5, 3, 4}, DType::float32()));
            }).find("shape (5, 3, 4)"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              image.set(queue(), HostArray::from_values(std::vector<double>(60), {3, 5, 4}));
            }).find("dtype float64"),
            std::string::npos);
}

// ---- Kernels reading and writing every format ------------------------------------------------

/// What read_imagef returns for a channel's stored bits (OpenCL's conversion rules).
float to_float(const std::byte* p, ChannelType type) {
  auto load = [&](auto value) {
    std::memcpy(&value, p, sizeof(value));
    return value;
  };
  switch (type) {
    case ChannelType::unorm_int8: return static_cast<float>(load(std::uint8_t{})) / 255.0f;
    case ChannelType::unorm_int16: return static_cast<float>(load(std::uint16_t{})) / 65535.0f;
    case ChannelType::snorm_int8:
      return std::max(static_cast<float>(load(std::int8_t{})) / 127.0f, -1.0f);
    case ChannelType::snorm_int16:
      return std::max(static_cast<float>(load(std::int16_t{})) / 32767.0f, -1.0f);
    case ChannelType::float16: return half::to_float(load(std::uint16_t{}));
    case ChannelType::float32: return load(float{});
    default: return 0.0f;
  }
}

/// What read_imagei/read_imageui return for a channel's stored bits, as 32 bits.
std::uint32_t to_integer(const std::byte* p, ChannelType type) {
  auto load = [&](auto value) {
    std::memcpy(&value, p, sizeof(value));
    return value;
  };
  switch (type) {
    case ChannelType::int8: return static_cast<std::uint32_t>(std::int32_t{load(std::int8_t{})});
    case ChannelType::int16: return static_cast<std::uint32_t>(std::int32_t{load(std::int16_t{})});
    case ChannelType::int32: return load(std::uint32_t{});
    case ChannelType::uint8: return load(std::uint8_t{});
    case ChannelType::uint16: return load(std::uint16_t{});
    case ChannelType::uint32: return load(std::uint32_t{});
    default: return 0;
  }
}

const char* const read_write_source = R"(
KERNEL void read_f(READ_IMAGE2D img, GLOBAL_MEM float4 *out, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = read_imagef(img, make_int2(x, y));
}
KERNEL void read_i(READ_IMAGE2D img, GLOBAL_MEM int4 *out, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = read_imagei(img, make_int2(x, y));
}
KERNEL void read_ui(READ_IMAGE2D img, GLOBAL_MEM uint4 *out, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = read_imageui(img, make_int2(x, y));
}
KERNEL void write_f(WRITE_IMAGE2D img, GLOBAL_MEM const float4 *in, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, make_int2(x, y), in[y * w + x]);
}
KERNEL void write_i(WRITE_IMAGE2D img, GLOBAL_MEM const int4 *in, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    write_imagei(img, make_int2(x, y), in[y * w + x]);
}
KERNEL void write_ui(WRITE_IMAGE2D img, GLOBAL_MEM const uint4 *in, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    write_imageui(img, make_int2(x, y), in[y * w + x]);
}
KERNEL void sizes(READ_IMAGE2D a, READ_IMAGE3D b, READ_IMAGE1D_ARRAY c, READ_IMAGE2D_ARRAY d,
                  GLOBAL_MEM int *out)
{
    out[0] = get_image_width(a); out[1] = get_image_height(a);
    out[2] = get_image_width(b); out[3] = get_image_height(b); out[4] = get_image_depth(b);
    out[5] = get_image_width(c); out[6] = (int)get_image_array_size(c);
    out[7] = get_image_width(d); out[8] = get_image_height(d);
    out[9] = (int)get_image_array_size(d);
}
)";

const char* read_kernel(ImageReadKind kind) {
  return kind == ImageReadKind::float_ ? "read_f"
         : kind == ImageReadKind::int_ ? "read_i"
                                       : "read_ui";
}

TEST_P(ImageTest, KernelsReadEveryFormat) {
  const Program program(context(), read_write_source);
  const std::size_t w = 16, h = 8;  // 128 pixels: every byte pattern of the low bytes
  for (const auto& format : all_formats()) {
    if (!support().supports(ImageType::image2d, format)) continue;
    SCOPED_TRACE(to_string(format));
    const auto image = Image::allocate(device(), ImageType::image2d, format, {w, h, 1, 1});
    const auto data = pixels(image.nbytes(), format, 7);
    image.set(queue(), data, true);
    const auto out = Buffer::allocate(device(), w * h * 16);
    program.kernel(read_kernel(format.read_kind()))(queue(), {w, h}, {}, image, out,
                                                    static_cast<int>(w));
    std::vector<std::byte> result(out.size());
    out.get(queue(), result);
    const auto channels = format.channels();
    const auto size = format.channel_size();
    for (std::size_t p = 0; p < w * h; ++p) {
      for (std::size_t c = 0; c < 4; ++c) {
        const std::byte* got = result.data() + p * 16 + c * 4;
        if (format.read_kind() == ImageReadKind::float_) {
          float value = 0;
          std::memcpy(&value, got, 4);
          const float expected =
              c < channels ? to_float(data.data() + p * channels * size + c * size, format.type)
              : c == 3     ? 1.0f
                           : 0.0f;
          ASSERT_NEAR(value, expected, std::abs(expected) * 1e-6f)
              << "pixel " << p << " channel " << c;
        } else {
          std::uint32_t value = 0;
          std::memcpy(&value, got, 4);
          const bool quirk = c == 3 && channels < 4 && pocl_deviations();
          const std::uint32_t expected =
              c < channels ? to_integer(data.data() + p * channels * size + c * size, format.type)
              : c == 3     ? (quirk ? 0u : 1u)
                           : 0u;
          if (quirk) note_pocl("integer reads of R and RG images return alpha 0");
          ASSERT_EQ(value, expected) << "pixel " << p << " channel " << c;
        }
      }
    }
  }
}

/// What write_imagef stores for `f` in a channel of `type` (round to nearest even, saturate).
std::uint32_t stored_float(float f, ChannelType type) {
  auto sat = [&](float scale, float lo, float hi) {
    const float v = std::isnan(f) ? 0.0f : std::clamp(f * scale, lo, hi);
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(std::nearbyint(v)));
  };
  switch (type) {
    case ChannelType::unorm_int8: return sat(255.0f, 0.0f, 255.0f) & 0xff;
    case ChannelType::unorm_int16: return sat(65535.0f, 0.0f, 65535.0f) & 0xffff;
    case ChannelType::snorm_int8: return sat(127.0f, -128.0f, 127.0f) & 0xff;
    case ChannelType::snorm_int16: return sat(32767.0f, -32768.0f, 32767.0f) & 0xffff;
    case ChannelType::float16: return half::from_float(f);
    default: {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &f, 4);
      return bits;
    }
  }
}

/// Whether `got` (the stored bits) lies within 0.6 of the exact scaled value of `f` in a
/// normalised channel of `type`, as OpenCL's conversion rules allow.
bool within_0_6_ulp(float f, ChannelType type, std::uint32_t got) {
  const bool is_signed = type == ChannelType::snorm_int8 || type == ChannelType::snorm_int16;
  const bool wide = type == ChannelType::unorm_int16 || type == ChannelType::snorm_int16;
  const double scale = is_signed ? (wide ? 32767.0 : 127.0) : (wide ? 65535.0 : 255.0);
  const double lo = is_signed ? -scale - 1 : 0.0;
  const double exact = std::clamp(static_cast<double>(f) * scale, lo, scale);
  double value = got;
  if (is_signed) {
    const std::uint32_t sign = wide ? 0x8000u : 0x80u;
    value = (got & sign) != 0 ? static_cast<double>(got) - 2.0 * sign : static_cast<double>(got);
  }
  return std::abs(value - exact) <= 0.6;
}

/// Whether `f` is below -1.0 and `got` is -1.0 as -max (not -max - 1) in a signed normalised
/// channel of `type`.
bool minus_one(float f, ChannelType type, std::uint32_t got) {
  if (f >= -1.0f) return false;
  if (type == ChannelType::snorm_int8) return got == 0x81u;
  if (type == ChannelType::snorm_int16) return got == 0x8001u;
  return false;
}

/// What write_imagei/ui store for `v` in a channel of `type` (saturated to its range).
std::uint32_t stored_integer(std::uint32_t v, ChannelType type) {
  const auto s = static_cast<std::int32_t>(v);
  switch (type) {
    case ChannelType::int8: return static_cast<std::uint32_t>(std::clamp(s, -128, 127)) & 0xff;
    case ChannelType::int16:
      return static_cast<std::uint32_t>(std::clamp(s, -32768, 32767)) & 0xffff;
    case ChannelType::uint8: return std::min(v, 255u);
    case ChannelType::uint16: return std::min(v, 65535u);
    default: return v;
  }
}

TEST_P(ImageTest, KernelsWriteEveryFormat) {
  const Program program(context(), read_write_source);
  const std::size_t w = 8, h = 4;
  // Values that need rounding and saturation: in and beyond each type's range.
  std::vector<float> floats(w * h * 4);
  std::vector<std::uint32_t> integers(w * h * 4);
  for (std::size_t i = 0; i < floats.size(); ++i) {
    floats[i] = -1.3f + 0.0211f * static_cast<float>(i * 7 % 128);
    const std::int64_t spread = (static_cast<std::int64_t>(i) * 2654435761LL) % 200003 - 100001;
    integers[i] =
        static_cast<std::uint32_t>(static_cast<std::int32_t>(spread * (i % 3 == 0 ? 1 : 3)));
  }
  const auto in = Buffer::allocate(device(), w * h * 16);
  for (const auto& format : all_formats()) {
    if (!support().supports(ImageType::image2d, format)) continue;
    SCOPED_TRACE(to_string(format));
    const auto kind = format.read_kind();

    const auto image = Image::allocate(device(), ImageType::image2d, format, {w, h, 1, 1});
    if (kind == ImageReadKind::float_) {
      in.set(queue(), std::as_bytes(std::span(floats)), true);
      program.kernel("write_f")(queue(), {w, h}, {}, image, in, static_cast<int>(w));
    } else {
      in.set(queue(), std::as_bytes(std::span(integers)), true);
      program.kernel(kind == ImageReadKind::int_ ? "write_i" : "write_ui")(
          queue(), {w, h}, {}, image, in, static_cast<int>(w));
    }
    std::vector<std::byte> back(image.nbytes());
    image.get(queue(), back);
    const auto channels = format.channels();
    const auto size = format.channel_size();
    for (std::size_t p = 0; p < w * h; ++p) {
      for (std::size_t c = 0; c < channels; ++c) {
        std::uint32_t got = 0;
        std::memcpy(&got, back.data() + (p * channels + c) * size, size);
        const auto expected = kind == ImageReadKind::float_
                                  ? stored_float(floats[p * 4 + c], format.type)
                                  : stored_integer(integers[p * 4 + c], format.type);
        // OpenCL allows 0.6 ulp in the conversion to a normalised format (NVIDIA's rounds
        // 163.506 down): the neighbour is right where the exact value is that close to it.
        // Below -1, a signed normalised channel holds -1.0 as -max or as -max - 1 (NVIDIA's
        // OpenCL clamps to -1.0 first); both read back as -1.0.
        if (format.normalized() && got != expected &&
            (within_0_6_ulp(floats[p * 4 + c], format.type, got) ||
             minus_one(floats[p * 4 + c], format.type, got))) {
          continue;
        }
        // float16: OpenCL lets image writes round to nearest even or toward zero (NVIDIA's).
        if (format.type == ChannelType::float16 && got + 1 == expected &&
            std::abs(half::to_float(static_cast<std::uint16_t>(got))) <=
                std::abs(floats[p * 4 + c])) {
          continue;
        }
        ASSERT_EQ(got, expected) << "pixel " << p << " channel " << c << " value "
                                 << (kind == ImageReadKind::float_
                                         ? floats[p * 4 + c]
                                         : static_cast<float>(
                                               static_cast<std::int32_t>(integers[p * 4 + c])));
      }
    }
  }
}

TEST_P(ImageTest, KernelsQuerySizes) {
  const Program program(context(), read_write_source);
  const ImageFormat format{ChannelOrder::rgba, ChannelType::float32};
  const auto a = Image::allocate(device(), ImageType::image2d, format, {7, 5, 1, 1});
  const auto b = Image::allocate(device(), ImageType::image3d, format, {5, 4, 3, 1});
  const auto c = Image::allocate(device(), ImageType::image1d_array, format, {9, 1, 1, 3});
  const auto d = Image::allocate(device(), ImageType::image2d_array, format, {6, 4, 1, 2});
  const auto out = Buffer::allocate(device(), 10 * sizeof(int));
  program.kernel("sizes")(queue(), {1}, {}, a, b, c, d, out);
  std::vector<int> values(10);
  out.get(queue(), std::as_writable_bytes(std::span(values)));
  EXPECT_EQ(values, (std::vector<int>{7, 5, 5, 4, 3, 9, 3, 6, 4, 2}));
}

// ---- Sampling --------------------------------------------------------------------------------

/// One axis of OpenCL's sampling rules (OpenCL 1.2, 8.2): the texels a coordinate reads and
/// their weights; an index of -1 or `n` outside the image is the border.
struct Taps {
  std::array<long, 2> index{0, 0};
  std::array<double, 2> weight{1, 0};
};

long clamp_index(long i, long lo, long hi) { return std::min(std::max(i, lo), hi); }

Taps axis_taps(double coord, long n, const SamplerDesc& s) {
  Taps t;
  const bool linear = s.filter == FilterMode::linear;
  double u = s.normalized_coords ? coord * static_cast<double>(n) : coord;
  if (s.address == AddressMode::repeat) {
    u = (coord - std::floor(coord)) * static_cast<double>(n);
    if (!linear) {
      long i = static_cast<long>(std::floor(u));
      if (i > n - 1) i -= n;
      t.index = {i, i};
      return t;
    }
    long i0 = static_cast<long>(std::floor(u - 0.5));
    long i1 = i0 + 1;
    const double a = (u - 0.5) - std::floor(u - 0.5);
    if (i0 < 0) i0 += n;
    if (i1 > n - 1) i1 -= n;
    t.index = {i0, i1};
    t.weight = {1 - a, a};
    return t;
  }
  if (s.address == AddressMode::mirrored_repeat) {
    double m = 2.0 * std::nearbyint(0.5 * coord);
    m = std::abs(coord - m);
    u = m * static_cast<double>(n);
    if (!linear) {
      const long i = std::min(static_cast<long>(std::floor(u)), n - 1);
      t.index = {i, i};
      return t;
    }
    const long i0 = std::max(static_cast<long>(std::floor(u - 0.5)), 0L);
    const long i1 = std::min(static_cast<long>(std::floor(u - 0.5)) + 1, n - 1);
    const double a = (u - 0.5) - std::floor(u - 0.5);
    t.index = {i0, i1};
    t.weight = {1 - a, a};
    return t;
  }
  const bool edge = s.address == AddressMode::clamp_to_edge;
  const long lo = edge ? 0 : -1;
  const long hi = edge ? n - 1 : n;
  if (!linear) {
    const long i = clamp_index(static_cast<long>(std::floor(u)), lo, hi);
    t.index = {i, i};
    return t;
  }
  const long i0 = static_cast<long>(std::floor(u - 0.5));
  const double a = (u - 0.5) - std::floor(u - 0.5);
  t.index = {clamp_index(i0, lo, hi), clamp_index(i0 + 1, lo, hi)};
  t.weight = {1 - a, a};
  return t;
}

/// The image the sampling tests read: RGBA or R float32 texels with distinct values in [0, 1].
float texel(long x, long y, long z, std::size_t c) {
  return static_cast<float>((x * 7 + y * 13 + z * 29 + static_cast<long>(c) * 5) % 17) / 16.0f;
}

std::vector<float> texels(const std::array<std::size_t, 3>& axes, std::size_t channels) {
  std::vector<float> v;
  for (std::size_t z = 0; z < axes[2]; ++z)
    for (std::size_t y = 0; y < axes[1]; ++y)
      for (std::size_t x = 0; x < axes[0]; ++x)
        for (std::size_t c = 0; c < channels; ++c)
          v.push_back(texel(static_cast<long>(x), static_cast<long>(y), static_cast<long>(z), c));
  return v;
}

/// The host's answer for sampling at `coord` (x, y, z or layer) in an image of `axes`.
std::array<float, 4> reference_sample(ImageType type, const std::array<std::size_t, 3>& axes,
                                      std::size_t channels, const SamplerDesc& s,
                                      const std::array<double, 3>& coord,
                                      bool border_alpha_0 = false, bool normalized_layers = false) {
  const bool layered1 = type == ImageType::image1d_array;
  const bool layered2 = type == ImageType::image2d_array;
  const std::size_t spatial = type == ImageType::image1d || layered1 ? 1
                              : type == ImageType::image3d           ? 3
                                                                     : 2;
  std::array<Taps, 3> taps;
  for (std::size_t a = 0; a < 3; ++a) {
    if (a < spatial) {
      taps[a] = axis_taps(coord[a], static_cast<long>(axes[a]), s);
    } else if ((layered1 && a == 1) || (layered2 && a == 2)) {
      const double scale =
          normalized_layers && s.normalized_coords ? static_cast<double>(axes[a]) : 1.0;
      const long layer = clamp_index(static_cast<long>(std::nearbyint(coord[a] * scale)), 0,
                                     static_cast<long>(axes[a]) - 1);
      taps[a].index = {layer, layer};
    }
  }
  const std::array<float, 4> border{0, 0, 0, channels == 4 || border_alpha_0 ? 0.0f : 1.0f};
  std::array<float, 4> out{0, 0, 0, 0};
  for (int k = 0; k < 8; ++k) {
    const std::array<int, 3> pick{k & 1, (k >> 1) & 1, (k >> 2) & 1};
    double w = 1;
    std::array<long, 3> at{};
    for (std::size_t a = 0; a < 3; ++a) {
      w *= taps[a].weight[pick[a]];
      at[a] = taps[a].index[pick[a]];
    }
    if (w == 0) continue;
    bool outside = false;
    for (std::size_t a = 0; a < 3; ++a) {
      outside = outside || at[a] < 0 || at[a] >= static_cast<long>(axes[a]);
    }
    for (std::size_t c = 0; c < 4; ++c) {
      const float v = outside        ? border[c]
                      : c < channels ? texel(at[0], at[1], at[2], c)
                      : c == 3       ? 1.0f
                                     : 0.0f;
      out[c] += static_cast<float>(w) * v;
    }
  }
  return out;
}

const char* const sample_source = R"(
KERNEL void sample1(READ_IMAGE1D img, SAMPLER s, GLOBAL_MEM const float4 *at, GLOBAL_MEM float4 *out)
{
    const int i = get_global_id(0);
    out[i] = read_imagef(img, s, at[i].x);
}
KERNEL void sample2(READ_IMAGE2D img, SAMPLER s, GLOBAL_MEM const float4 *at, GLOBAL_MEM float4 *out)
{
    const int i = get_global_id(0);
    out[i] = read_imagef(img, s, make_float2(at[i].x, at[i].y));
}
KERNEL void sample3(READ_IMAGE3D img, SAMPLER s, GLOBAL_MEM const float4 *at, GLOBAL_MEM float4 *out)
{
    const int i = get_global_id(0);
    out[i] = read_imagef(img, s, make_float4(at[i].x, at[i].y, at[i].z, 0.0f));
}
KERNEL void sample1a(READ_IMAGE1D_ARRAY img, SAMPLER s, GLOBAL_MEM const float4 *at, GLOBAL_MEM float4 *out)
{
    const int i = get_global_id(0);
    out[i] = read_imagef(img, s, make_float2(at[i].x, at[i].y));
}
KERNEL void sample2a(READ_IMAGE2D_ARRAY img, SAMPLER s, GLOBAL_MEM const float4 *at, GLOBAL_MEM float4 *out)
{
    const int i = get_global_id(0);
    out[i] = read_imagef(img, s, make_float4(at[i].x, at[i].y, at[i].z, 0.0f));
}
KERNEL void sample2_int(READ_IMAGE2D img, SAMPLER s, GLOBAL_MEM const int4 *at, GLOBAL_MEM float4 *out)
{
    const int i = get_global_id(0);
    out[i] = read_imagef(img, s, make_int2(at[i].x, at[i].y));
}
)";

const char* sample_kernel(ImageType type) {
  switch (type) {
    case ImageType::image1d: return "sample1";
    case ImageType::image2d: return "sample2";
    case ImageType::image3d: return "sample3";
    case ImageType::image1d_array: return "sample1a";
    case ImageType::image2d_array: return "sample2a";
  }
  return "";
}

/// Coordinates in texels: inside, at a quarter and three quarters of a texel (never on a
/// texel's boundary or centre, where hardware and reference may round apart), and beyond
/// both edges.
std::vector<double> texel_coords(std::size_t n) {
  std::vector<double> c;
  for (double u = -2.25; u < static_cast<double>(n) + 2.3; u += 0.5) c.push_back(u);
  return c;
}

std::vector<SamplerDesc> all_samplers() {
  std::vector<SamplerDesc> samplers;
  for (int a = 0; a < 4; ++a) {
    for (int f = 0; f < 2; ++f) {
      for (int n = 0; n < 2; ++n) {
        const SamplerDesc s{static_cast<AddressMode>(a), static_cast<FilterMode>(f), n == 1};
        if (!s.normalized_coords &&
            (s.address == AddressMode::repeat || s.address == AddressMode::mirrored_repeat))
          continue;
        samplers.push_back(s);
      }
    }
  }
  return samplers;
}

std::string name(const SamplerDesc& s) {
  return to_string(s.address) + " " + to_string(s.filter) +
         (s.normalized_coords ? " normalised" : " unnormalised");
}

TEST_P(ImageTest, SamplingFollowsOpenClsRulesInEveryTypeAndMode) {
  const Program program(context(), sample_source);
  for (const auto type : all_types) {
    for (const auto order : {ChannelOrder::rgba, ChannelOrder::r}) {
      const ImageFormat format{order, ChannelType::float32};
      if (!support().supports(type, format)) continue;
      const auto image = Image::allocate(device(), type, format, small_extent(type));
      const auto axes = image.box().size;
      const auto values = texels(axes, format.channels());
      image.set(queue(), std::as_bytes(std::span(values)), true);
      const std::size_t spatial = type == ImageType::image1d || type == ImageType::image1d_array ? 1
                                  : type == ImageType::image3d                                   ? 3
                                                               : 2;
      // Points: a grid of texel coordinates over the spatial axes, every layer (and one
      // beyond each end) for the layered types.
      std::vector<std::array<double, 3>> points;
      const auto xs = texel_coords(axes[0]);
      const auto ys = spatial > 1 ? texel_coords(axes[1]) : std::vector<double>{0};
      const auto zs = spatial > 2 ? texel_coords(axes[2]) : std::vector<double>{0};
      const std::size_t layer_axis = type == ImageType::image1d_array   ? 1
                                     : type == ImageType::image2d_array ? 2
                                                                        : 3;
      std::vector<double> layers{0};
      if (layer_axis < 3) layers = {-1.0, 0.0, 1.4, 1.6, static_cast<double>(axes[layer_axis])};
      for (const double z : (layer_axis == 2 ? layers : zs))
        for (const double y : (layer_axis == 1 ? layers : ys))
          for (const double x : xs) points.push_back({x, y, z});
      for (const auto& desc : all_samplers()) {
        SCOPED_TRACE(to_string(type) + " " + to_string(order) + " " + name(desc));
        const auto sampler = Sampler::create(context(), desc);
        std::vector<float> at(points.size() * 4);
        for (std::size_t i = 0; i < points.size(); ++i) {
          for (std::size_t a = 0; a < 3; ++a) {
            const bool is_layer = a == layer_axis;
            at[i * 4 + a] = static_cast<float>(desc.normalized_coords && !is_layer && a < spatial
                                                   ? points[i][a] / static_cast<double>(axes[a])
                                                   : points[i][a]);
          }
        }
        const auto at_buffer = Buffer::allocate(device(), at.size() * sizeof(float));
        at_buffer.set(queue(), std::as_bytes(std::span(at)), true);
        const auto out = Buffer::allocate(device(), at.size() * sizeof(float));
        program.kernel(sample_kernel(type))(queue(), {points.size()}, {}, image, sampler, at_buffer,
                                            out);
        std::vector<float> got(at.size());
        out.get(queue(), std::as_writable_bytes(std::span(got)));
        for (std::size_t i = 0; i < points.size(); ++i) {
          std::array<double, 3> coord{};
          for (std::size_t a = 0; a < 3; ++a) coord[a] = at[i * 4 + a];
          const bool quirk = pocl_deviations() && format.channels() < 4 &&
                             desc.address == AddressMode::clamp_to_border;
          if (quirk) note_pocl("the border colour of R and RG images has alpha 0");
          const bool layer_quirk = pocl3() && desc.normalized_coords && layer_axis < 3;
          if (layer_quirk)
            note_pocl("with normalised coordinates, layers are normalised too (PoCL 3)");
          const auto expected =
              reference_sample(type, axes, format.channels(), desc, coord, quirk, layer_quirk);
          const float tolerance = desc.filter == FilterMode::linear ? 1.0f / 256 + 1e-6f : 0.0f;
          for (std::size_t c = 0; c < 4; ++c) {
            ASSERT_NEAR(got[i * 4 + c], expected[c], tolerance)
                << "at (" << coord[0] << ", " << coord[1] << ", " << coord[2] << ") channel " << c;
          }
        }
      }
    }
  }
}

TEST_P(ImageTest, IntegerCoordinatesReadTexelsWithTheSamplersAddressMode) {
  const Program program(context(), sample_source);
  const ImageFormat format{ChannelOrder::rgba, ChannelType::float32};
  const auto image = Image::allocate(device(), ImageType::image2d, format, {7, 5, 1, 1});
  const auto axes = image.box().size;
  const auto values = texels(axes, 4);
  image.set(queue(), std::as_bytes(std::span(values)), true);
  std::vector<int> at;
  for (int y = -2; y < 7; ++y)
    for (int x = -2; x < 9; ++x) at.insert(at.end(), {x, y, 0, 0});
  const auto at_buffer = Buffer::allocate(device(), at.size() * sizeof(int));
  at_buffer.set(queue(), std::as_bytes(std::span(at)), true);
  const auto out = Buffer::allocate(device(), at.size() * sizeof(float));
  for (const auto address : {AddressMode::clamp_to_edge, AddressMode::clamp_to_border}) {
    SCOPED_TRACE(to_string(address));
    const SamplerDesc desc{address, FilterMode::nearest, false};
    const auto sampler = Sampler::create(context(), desc);
    program.kernel("sample2_int")(queue(), {at.size() / 4}, {}, image, sampler, at_buffer, out);
    std::vector<float> got(at.size());
    out.get(queue(), std::as_writable_bytes(std::span(got)));
    for (std::size_t i = 0; i < at.size() / 4; ++i) {
      const auto expected = reference_sample(ImageType::image2d, axes, 4, desc,
                                             {at[i * 4] + 0.5, at[i * 4 + 1] + 0.5, 0.0});
      for (std::size_t c = 0; c < 4; ++c) {
        ASSERT_EQ(got[i * 4 + c], expected[c])
            << "at (" << at[i * 4] << ", " << at[i * 4 + 1] << ") channel " << c;
      }
    }
  }
}

// ---- Errors ------------------------------------------------------------------------------------

TEST_P(ImageTest, BadImagesAndSamplersAreRefusedByName) {
  const ImageFormat format{ChannelOrder::rgba, ChannelType::float32};
  EXPECT_NE(logic_error_message([&] {
              (void)Image::allocate(device(), ImageType::image2d, format, {4, 4, 2, 1});
            }).find("an image2d has no depth"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              (void)Image::allocate(device(), ImageType::image1d, format, {0, 1, 1, 1});
            }).find("width must be greater than 0"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              (void)Image::allocate(device(), ImageType::image2d, format,
                                    {support().limits.max_width_2d + 1, 1, 1, 1});
            }).find("exceeds"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              (void)Image::allocate(device(), static_cast<ImageType>(9), format, {1, 1, 1, 1});
            }).find("9 is no image type"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              (void)Sampler::create(context(), {AddressMode::repeat, FilterMode::nearest, false});
            }).find("needs normalised coordinates"),
            std::string::npos);
  EXPECT_NE(
      logic_error_message([&] {
        (void)Sampler::create(context(), {static_cast<AddressMode>(7), FilterMode::nearest, true});
      }).find("7 is no address mode"),
      std::string::npos);
}

TEST_P(ImageTest, BadCopiesAreRefusedByName) {
  const ImageFormat format{ChannelOrder::rgba, ChannelType::uint8};
  const auto image = Image::allocate(device(), ImageType::image2d, format, {8, 4, 1, 1});
  std::vector<std::byte> host(1024);
  EXPECT_NE(logic_error_message([&] {
              write_image(queue(), image, {{6, 0, 0}, {3, 1, 1}}, host);
            }).find("does not fit"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              read_image(queue(), host, {}, image, {{0, 0, 0}, {2, 0, 1}});
            }).find("size along y is 0"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              write_image(queue(), image, image.box(), std::span(host).first(100));
            }).find("host source"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              image.set(queue(), std::span(host).first(100));
            }).find("the host data has 100 bytes, the image 128"),
            std::string::npos);
  const auto other = Image::allocate(device(), ImageType::image2d,
                                     {ChannelOrder::rgba, ChannelType::int8}, {8, 4, 1, 1});
  EXPECT_NE(logic_error_message([&] {
              copy_image(queue(), other, {0, 0, 0}, image, image.box());
            }).find("the source image is rgba uint8, the destination rgba int8"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              copy_image(queue(), image, {1, 0, 0}, image, {{0, 0, 0}, {4, 4, 1}});
            }).find("overlap"),
            std::string::npos);
  // Non-overlapping boxes of one image copy.
  const auto data = pattern(image.nbytes(), 2);
  image.set(queue(), data, true);
  copy_image(queue(), image, {4, 0, 0}, image, {{0, 0, 0}, {4, 4, 1}});
  std::vector<std::byte> back(image.nbytes());
  image.get(queue(), back);
  for (std::size_t y = 0; y < 4; ++y) {
    EXPECT_TRUE(
        std::equal(data.begin() + y * 32, data.begin() + y * 32 + 16, back.begin() + y * 32 + 16))
        << "row " << y;
  }
}

TEST_P(ImageTest, ImagesAndBuffersInEachOthersParametersAreRefused) {
  const Program program(context(), read_write_source);
  const auto image = Image::allocate(device(), ImageType::image2d,
                                     {ChannelOrder::rgba, ChannelType::float32}, {4, 4, 1, 1});
  const auto buffer = Buffer::allocate(device(), 256);
  const auto sampler = Sampler::create(context(), {});
  // An Image where a Buffer goes: always refused (OpenCL reports the parameter's kind, CUDA
  // its size, 8 bytes for a pointer and more for an image).
  EXPECT_NE(logic_error_message([&] {
              program.kernel("read_f")(queue(), {4, 4}, {}, image, image, 4);
            }).find("argument 1"),
            std::string::npos);
  // A Buffer or a Sampler where an image goes, where the backend reports kinds or sizes.
  const auto wrong = logic_error_message([&] {
    program.kernel("read_f")(queue(), {4, 4}, {}, buffer, buffer, 4);
  });
  const auto wrong_sampler = logic_error_message([&] {
    program.kernel("read_f")(queue(), {4, 4}, {}, sampler, buffer, 4);
  });
  EXPECT_NE(wrong.find("argument 0"), std::string::npos) << wrong;
  EXPECT_NE(wrong_sampler.find("argument 0"), std::string::npos) << wrong_sampler;
  // A 3-D image where the kernel declares a 2-D one, where the backend names the type.
  const auto volume = Image::allocate(device(), ImageType::image3d,
                                      {ChannelOrder::rgba, ChannelType::float32}, {4, 4, 2, 1});
  const auto wrong_type = logic_error_message([&] {
    program.kernel("read_f")(queue(), {4, 4}, {}, volume, buffer, 4);
  });
  if (context().api().shortcut() == "opencl" || context().api().shortcut() == "level_zero") {
    EXPECT_NE(wrong_type.find("the parameter is an image2d, the image an image3d"),
              std::string::npos)
        << wrong_type;
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(ImageTest);

}  // namespace
}  // namespace image_test
}  // namespace plinth::conformance
