// OpenGL interop end to end (<plinth/gl_interop.hpp>), in a headless EGL context: reading a
// texture's format from GL, then on every device of every API either a kernel reading and
// writing a GL buffer and a GL texture in place, or a refusal that says why. Here (PoCL, Mesa's
// llvmpipe) every device refuses; on the GPU machines CUDA shares (NVIDIA's EGL).

#include "gl/gl_texture_format.hpp"
#include "headless_egl.hpp"

#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>

#include <plinth/gl_interop.hpp>
#include <plinth/plinth.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace plinth {
namespace {

/// Expects `statement` to throw LogicError whose text has `part`.
#define EXPECT_LOGIC_ERROR(statement, part)                                       \
  do {                                                                            \
    try {                                                                         \
      statement;                                                                  \
      ADD_FAILURE() << #statement " did not throw";                               \
    } catch (const LogicError& e) {                                               \
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what(); \
    }                                                                             \
  } while (false)

/// One headless GL context for the whole test program, current on the main thread, or null
/// with `why` set where EGL cannot make one.
headless_egl::Context* egl_or_null(std::string& why) {
  static std::string failure;
  static headless_egl::Context* context = [] {
    try {
      return new headless_egl::Context();  // never destroyed: GL outlives plinth
    } catch (const std::runtime_error& e) {
      failure = e.what();
      return static_cast<headless_egl::Context*>(nullptr);
    }
  }();
  why = failure;
  return context;
}

headless_egl::Context& egl() {
  std::string why;
  return *egl_or_null(why);
}

/// Skips a test where no headless EGL context can be made (a machine without Mesa's EGL or a
/// GPU's), unless PLINTH_GL_TESTS_REQUIRE_EGL is set (the GPU runs set it): then it fails.
class GlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (egl_or_null(why) != nullptr) return;
    if (std::getenv("PLINTH_GL_TESTS_REQUIRE_EGL") != nullptr) FAIL() << why;
    GTEST_SKIP() << why;
  }
};
class GlTextures : public GlTest {};
class GlInterop : public GlTest {};

GLuint make_texture(GLenum target, GLenum internal_format, GLsizei w, GLsizei h, GLsizei d,
                    GLsizei levels = 1) {
  GLuint texture = 0;
  glCreateTextures(target, 1, &texture);
  switch (target) {
    case GL_TEXTURE_1D: glTextureStorage1D(texture, levels, internal_format, w); break;
    case GL_TEXTURE_2D:
    case GL_TEXTURE_1D_ARRAY: glTextureStorage2D(texture, levels, internal_format, w, h); break;
    default: glTextureStorage3D(texture, levels, internal_format, w, h, d); break;
  }
  return texture;
}

TEST_F(GlTextures, TypeFormatAndSizeOfEveryTargetAreReadFromGl) {
  egl();
  struct Case {
    GLenum target;
    GLenum internal_format;
    GLsizei w, h, d;
    ImageType type;
    ImageFormat format;
    ImageExtent extent;
  };
  const Case cases[] = {
      {GL_TEXTURE_1D,
       GL_R8UI,
       40,
       1,
       1,
       ImageType::image1d,
       {ChannelOrder::r, ChannelType::uint8},
       {40, 1, 1, 1}},
      {GL_TEXTURE_2D,
       GL_RGBA32F,
       40,
       24,
       1,
       ImageType::image2d,
       {ChannelOrder::rgba, ChannelType::float32},
       {40, 24, 1, 1}},
      {GL_TEXTURE_3D,
       GL_RG16_SNORM,
       8,
       6,
       4,
       ImageType::image3d,
       {ChannelOrder::rg, ChannelType::snorm_int16},
       {8, 6, 4, 1}},
      {GL_TEXTURE_1D_ARRAY,
       GL_RGBA8,
       16,
       3,
       1,
       ImageType::image1d_array,
       {ChannelOrder::rgba, ChannelType::unorm_int8},
       {16, 1, 1, 3}},
      {GL_TEXTURE_2D_ARRAY,
       GL_R16F,
       16,
       8,
       5,
       ImageType::image2d_array,
       {ChannelOrder::r, ChannelType::float16},
       {16, 8, 1, 5}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(detail::gl_enum_name(c.target));
    const GLuint texture = make_texture(c.target, c.internal_format, c.w, c.h, c.d);
    const auto desc = detail::read_gl_texture(texture, c.target, 0, "test");
    EXPECT_EQ(desc.name, texture);
    EXPECT_EQ(desc.internal_format, c.internal_format);
    EXPECT_EQ(desc.type, c.type);
    EXPECT_EQ(desc.format.order, c.format.order);
    EXPECT_EQ(desc.format.type, c.format.type);
    EXPECT_EQ(desc.extent, c.extent);
    glDeleteTextures(1, &texture);
  }
}

TEST_F(GlTextures, ALevelHasItsOwnSizeAndTheBindingIsKept) {
  egl();
  const GLuint texture = make_texture(GL_TEXTURE_2D, GL_RG32F, 64, 32, 1, 3);
  const auto desc = detail::read_gl_texture(texture, GL_TEXTURE_2D, 2, "test");
  EXPECT_EQ(desc.extent, (ImageExtent{16, 8, 1, 1}));
  EXPECT_EQ(desc.level, 2);
  EXPECT_LOGIC_ERROR(detail::read_gl_texture(texture, GL_TEXTURE_2D, 3, "test"), "level 3");
  glDeleteTextures(1, &texture);
}

TEST_F(GlTextures, WhatHasNoImageIsRefusedByName) {
  egl();
  const GLuint rgb = make_texture(GL_TEXTURE_2D, GL_RGB8, 4, 4, 1);
  EXPECT_LOGIC_ERROR(detail::read_gl_texture(rgb, GL_TEXTURE_2D, 0, "GlTexture"),
                     "internal format 0x8051");
  EXPECT_LOGIC_ERROR(detail::read_gl_texture(rgb, GL_TEXTURE_CUBE_MAP, 0, "GlTexture"),
                     "texture target 0x8513");
  EXPECT_LOGIC_ERROR(detail::read_gl_texture(rgb, GL_TEXTURE_2D, -1, "GlTexture"), "negative");
  EXPECT_LOGIC_ERROR(detail::read_gl_texture(0, GL_TEXTURE_2D, 0, "GlTexture"), "texture 0");
  EXPECT_LOGIC_ERROR(detail::read_gl_texture(rgb + 1000, GL_TEXTURE_2D, 0, "GlTexture"),
                     "is no texture");
  glDeleteTextures(1, &rgb);
}

TEST_F(GlTextures, NoCurrentContextIsNamed) {
  egl();
  EGLDisplay display = eglGetCurrentDisplay();
  EGLContext context = eglGetCurrentContext();
  ASSERT_TRUE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  EXPECT_LOGIC_ERROR(detail::read_gl_texture(1, GL_TEXTURE_2D, 0, "GlTexture"),
                     "no GL context is current");
  ASSERT_TRUE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context));
}

const char* const kernels = R"(
KERNEL void twice_plus_one(GLOBAL_MEM float *data, int n)
{
    const SIZE_T i = get_global_id(0);
    if (i < (SIZE_T)n) data[i] = data[i] * 2.0f + 1.0f;
}
KERNEL void double_texels(READ_IMAGE2D src, WRITE_IMAGE2D dst, GLOBAL_MEM float4 *seen, int w)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const float4 v = read_imagef(src, make_int2(x, y));
    seen[y * w + x] = v;
    write_imagef(dst, make_int2(x, y), make_float4(v.x * 2.0f, v.y * 2.0f, v.z * 2.0f, v.w * 2.0f));
}
)";

/// A GL buffer filled by a kernel and read back through GL; mapping rules on the way.
void buffer_round_trip(const Context& context) {
  const auto device = context.devices()[0];
  const Queue queue(device);
  const int n = 4096;
  std::vector<float> initial(n);
  for (int i = 0; i < n; ++i) initial[i] = static_cast<float>(i) - 100.0f;
  GLuint vbo = 0;
  glCreateBuffers(1, &vbo);
  glNamedBufferData(vbo, n * sizeof(float), initial.data(), GL_DYNAMIC_DRAW);
  glFinish();
  {
    const GlBuffer buffer(device, vbo);
    EXPECT_EQ(buffer.name(), vbo);
    EXPECT_EQ(buffer.access(), GlAccess::read_write);
    GlBufferMapping mapped = buffer.map(queue);
    EXPECT_TRUE(mapped.mapped());
    EXPECT_EQ(mapped.buffer().size(), n * sizeof(float));
    EXPECT_LOGIC_ERROR(buffer.map(queue), "mapped already");
    const Program program(context, kernels);
    program.kernel("twice_plus_one")(queue, {n}, {}, mapped.buffer(), n);
    mapped.unmap();
    EXPECT_FALSE(mapped.mapped());
    EXPECT_LOGIC_ERROR(mapped.buffer(), "unmapped");
    EXPECT_LOGIC_ERROR(mapped.unmap(), "unmapped already");
    // A second mapping of the same registration, dropped without unmap(): the destructor
    // unmaps.
    { const GlBufferMapping again = buffer.map(queue); }
    const GlBufferMapping third = buffer.map(queue);
  }
  std::vector<float> result(n);
  glGetNamedBufferSubData(vbo, 0, n * sizeof(float), result.data());
  glDeleteBuffers(1, &vbo);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(result[i], initial[i] * 2.0f + 1.0f) << "at " << i;
  }
}

/// A GL texture read and written by a kernel, and copied through plinth's image copies.
void texture_round_trip(const Context& context) {
  const auto device = context.devices()[0];
  const Queue queue(device);
  const int w = 32, h = 16;
  std::vector<float> texels(static_cast<std::size_t>(w) * h * 4);
  for (std::size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<float>(i % 1000) / 4;
  const GLuint src = make_texture(GL_TEXTURE_2D, GL_RGBA32F, w, h, 1);
  const GLuint dst = make_texture(GL_TEXTURE_2D, GL_RGBA32F, w, h, 1);
  glTextureSubImage2D(src, 0, 0, 0, w, h, GL_RGBA, GL_FLOAT, texels.data());
  glFinish();
  std::vector<float> seen(texels.size()), copied(texels.size());
  {
    const GlTexture source(device, src, GL_TEXTURE_2D, 0, GlAccess::read_only);
    const GlTexture target(device, dst, GL_TEXTURE_2D);
    EXPECT_EQ(source.type(), ImageType::image2d);
    EXPECT_EQ(source.extent(), (ImageExtent{w, h, 1, 1}));
    EXPECT_EQ(source.internal_format(), unsigned{GL_RGBA32F});
    GlTextureMapping in = source.map(queue);
    GlTextureMapping out = target.map(queue);
    EXPECT_EQ(in.image().extent(), source.extent());
    auto seen_device = Buffer::allocate(device, seen.size() * sizeof(float));
    const Program program(context, kernels);
    program.kernel("double_texels")(queue, {w, h}, {}, in.image(), out.image(), seen_device, w);
    seen_device.get(queue, std::as_writable_bytes(std::span(seen)));
    in.image().get(queue, std::as_writable_bytes(std::span(copied)));
    in.unmap();
    out.unmap();
  }
  std::vector<float> doubled(texels.size());
  glGetTextureImage(dst, 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(doubled.size() * 4),
                    doubled.data());
  glDeleteTextures(1, &src);
  glDeleteTextures(1, &dst);
  for (std::size_t i = 0; i < texels.size(); ++i) {
    ASSERT_EQ(seen[i], texels[i]) << "kernel read, at " << i;
    ASSERT_EQ(copied[i], texels[i]) << "image copy, at " << i;
    ASSERT_EQ(doubled[i], texels[i] * 2) << "kernel write seen by GL, at " << i;
  }
}

TEST_F(GlInterop, EveryDeviceSharesOrSaysWhy) {
  egl();
  int shared = 0, refused = 0;
  for (const auto& api : API::all_available()) {
    for (const auto& platform : api.platforms()) {
      for (const auto& device : platform.devices()) {
        SCOPED_TRACE(api.name() + ": " + device.name() + " (" + platform.name() + ")");
        std::unique_ptr<Context> context;
        std::string refusal;
        try {
          context = std::make_unique<Context>(make_gl_context({device}, egl().handles()));
        } catch (const LogicError& e) {
          refusal = e.what();
        }
        if (context == nullptr) {
          ++refused;
          EXPECT_FALSE(refusal.empty());
          if (platform.name().find("Portable Computing Language") != std::string::npos) {
            EXPECT_NE(refusal.find("cl_khr_gl_sharing"), std::string::npos) << refusal;
          }
          // An ordinary context says why too, and refuses to register.
          const auto ordinary = Context::from_devices({device});
          const auto sharing = gl_sharing(ordinary.devices()[0]);
          if (!sharing.available) {
            EXPECT_FALSE(sharing.reason.empty());
            EXPECT_LOGIC_ERROR(GlBuffer(ordinary.devices()[0], 1), "cannot share with OpenGL");
          }
          std::cout << "[ refused  ] " << api.name() << ", " << device.name() << ": " << refusal
                    << "\n";
          continue;
        }
        ++shared;
        const auto sharing = gl_sharing(context->devices()[0]);
        ASSERT_TRUE(sharing.available) << sharing.reason;
        buffer_round_trip(*context);
        if (image_support(context->devices()[0]).available) texture_round_trip(*context);
        std::cout << "[ shared   ] " << api.name() << ", " << device.name() << " (EGL "
                  << egl().vendor() << ")\n";
      }
    }
  }
  EXPECT_GT(shared + refused, 0) << "no device at all";
  RecordProperty("shared", shared);
  RecordProperty("refused", refused);
}

TEST_F(GlInterop, NullHandlesAndBadArgumentsAreRefused) {
  egl();
  const auto api = API::from_env();
  const auto device = api.platforms().front().devices().front();
  EXPECT_LOGIC_ERROR(make_gl_context({device}, GlContext{}), "display");
  GlContext no_context = egl().handles();
  no_context.context = nullptr;
  EXPECT_LOGIC_ERROR(make_gl_context({device}, no_context), "context");
  EXPECT_LOGIC_ERROR(make_gl_context({}, egl().handles()), "at least one device");
  GlContext bad_system = egl().handles();
  bad_system.system = static_cast<GlWindowSystem>(7);
  EXPECT_LOGIC_ERROR(make_gl_context({device}, bad_system), "GlWindowSystem 7");
}

}  // namespace
}  // namespace plinth
