// The GL internal formats and targets plinth maps to images (core/gl/gl_texture_format.hpp),
// without a GL context.

#include "gl/gl_texture_format.hpp"

#include <plinth/image_format.hpp>

#include <gtest/gtest.h>

#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>

namespace plinth::detail {
namespace {

TEST(GlFormats, EveryImageFormatHasAGlFormatThatMapsBack) {
  for (std::size_t order = 0; order < channel_order_count; ++order) {
    for (std::size_t type = 0; type < channel_type_count; ++type) {
      const ImageFormat format{static_cast<ChannelOrder>(order), static_cast<ChannelType>(type)};
      const unsigned gl = gl_internal_format_of(format);
      ASSERT_NE(gl, 0U) << to_string(format);
      const auto back = image_format_of_gl(gl);
      ASSERT_TRUE(back.has_value()) << to_string(format);
      EXPECT_EQ(back->order, format.order) << to_string(format);
      EXPECT_EQ(back->type, format.type) << to_string(format);
    }
  }
}

TEST(GlFormats, TheTableHasGlsOwnValues) {
  // Checked against the header, so that a typo in the table cannot pass.
  EXPECT_EQ(gl_internal_format_of({ChannelOrder::rgba, ChannelType::unorm_int8}),
            unsigned{GL_RGBA8});
  EXPECT_EQ(gl_internal_format_of({ChannelOrder::r, ChannelType::float32}), unsigned{GL_R32F});
  EXPECT_EQ(gl_internal_format_of({ChannelOrder::rg, ChannelType::float16}), unsigned{GL_RG16F});
  EXPECT_EQ(gl_internal_format_of({ChannelOrder::rgba, ChannelType::uint32}),
            unsigned{GL_RGBA32UI});
  EXPECT_EQ(gl_internal_format_of({ChannelOrder::rg, ChannelType::snorm_int16}),
            unsigned{GL_RG16_SNORM});
  EXPECT_EQ(gl_internal_format_of({ChannelOrder::r, ChannelType::int8}), unsigned{GL_R8I});
  EXPECT_EQ(gl_internal_format_of({ChannelOrder::rgba, ChannelType::unorm_int16}),
            unsigned{GL_RGBA16});
  EXPECT_EQ(gl_internal_format_of({ChannelOrder::rg, ChannelType::uint8}), unsigned{GL_RG8UI});
  EXPECT_EQ(image_type_of_gl(GL_TEXTURE_1D), ImageType::image1d);
  EXPECT_EQ(image_type_of_gl(GL_TEXTURE_2D), ImageType::image2d);
  EXPECT_EQ(image_type_of_gl(GL_TEXTURE_3D), ImageType::image3d);
  EXPECT_EQ(image_type_of_gl(GL_TEXTURE_1D_ARRAY), ImageType::image1d_array);
  EXPECT_EQ(image_type_of_gl(GL_TEXTURE_2D_ARRAY), ImageType::image2d_array);
}

TEST(GlFormats, FormatsAndTargetsWithoutAnImageAreRefused) {
  EXPECT_FALSE(image_format_of_gl(GL_RGB8).has_value());
  EXPECT_FALSE(image_format_of_gl(GL_SRGB8_ALPHA8).has_value());
  EXPECT_FALSE(image_format_of_gl(GL_DEPTH_COMPONENT32F).has_value());
  EXPECT_FALSE(image_format_of_gl(0).has_value());
  EXPECT_FALSE(image_type_of_gl(GL_TEXTURE_CUBE_MAP).has_value());
  EXPECT_FALSE(image_type_of_gl(GL_TEXTURE_RECTANGLE).has_value());
  EXPECT_EQ(gl_enum_name(GL_RGBA32F), "GL_RGBA32F");
  EXPECT_EQ(gl_enum_name(GL_TEXTURE_2D_ARRAY), "GL_TEXTURE_2D_ARRAY");
  EXPECT_EQ(gl_enum_name(GL_RGB8), "0x8051");
}

}  // namespace
}  // namespace plinth::detail
