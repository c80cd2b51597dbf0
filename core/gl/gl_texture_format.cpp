#include "gl/gl_texture_format.hpp"

#include "gl/gl_library.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <array>
#include <string>

namespace plinth::detail {

namespace {

struct FormatName {
  unsigned gl;
  const char* name;
  ImageFormat format;
};

using O = ChannelOrder;
using T = ChannelType;

/// Every GL internal format with a plinth ImageFormat (values of <GL/glcorearb.h>).
constexpr std::array<FormatName, 36> formats{{
    {0x8229, "GL_R8", {O::r, T::unorm_int8}},
    {0x822B, "GL_RG8", {O::rg, T::unorm_int8}},
    {0x8058, "GL_RGBA8", {O::rgba, T::unorm_int8}},
    {0x822A, "GL_R16", {O::r, T::unorm_int16}},
    {0x822C, "GL_RG16", {O::rg, T::unorm_int16}},
    {0x805B, "GL_RGBA16", {O::rgba, T::unorm_int16}},
    {0x8F94, "GL_R8_SNORM", {O::r, T::snorm_int8}},
    {0x8F95, "GL_RG8_SNORM", {O::rg, T::snorm_int8}},
    {0x8F97, "GL_RGBA8_SNORM", {O::rgba, T::snorm_int8}},
    {0x8F98, "GL_R16_SNORM", {O::r, T::snorm_int16}},
    {0x8F99, "GL_RG16_SNORM", {O::rg, T::snorm_int16}},
    {0x8F9B, "GL_RGBA16_SNORM", {O::rgba, T::snorm_int16}},
    {0x8231, "GL_R8I", {O::r, T::int8}},
    {0x8237, "GL_RG8I", {O::rg, T::int8}},
    {0x8D8E, "GL_RGBA8I", {O::rgba, T::int8}},
    {0x8233, "GL_R16I", {O::r, T::int16}},
    {0x8239, "GL_RG16I", {O::rg, T::int16}},
    {0x8D88, "GL_RGBA16I", {O::rgba, T::int16}},
    {0x8235, "GL_R32I", {O::r, T::int32}},
    {0x823B, "GL_RG32I", {O::rg, T::int32}},
    {0x8D82, "GL_RGBA32I", {O::rgba, T::int32}},
    {0x8232, "GL_R8UI", {O::r, T::uint8}},
    {0x8238, "GL_RG8UI", {O::rg, T::uint8}},
    {0x8D7C, "GL_RGBA8UI", {O::rgba, T::uint8}},
    {0x8234, "GL_R16UI", {O::r, T::uint16}},
    {0x823A, "GL_RG16UI", {O::rg, T::uint16}},
    {0x8D76, "GL_RGBA16UI", {O::rgba, T::uint16}},
    {0x8236, "GL_R32UI", {O::r, T::uint32}},
    {0x823C, "GL_RG32UI", {O::rg, T::uint32}},
    {0x8D70, "GL_RGBA32UI", {O::rgba, T::uint32}},
    {0x822D, "GL_R16F", {O::r, T::float16}},
    {0x822F, "GL_RG16F", {O::rg, T::float16}},
    {0x881A, "GL_RGBA16F", {O::rgba, T::float16}},
    {0x822E, "GL_R32F", {O::r, T::float32}},
    {0x8230, "GL_RG32F", {O::rg, T::float32}},
    {0x8814, "GL_RGBA32F", {O::rgba, T::float32}},
}};

struct TargetName {
  unsigned gl;
  const char* name;
  ImageType type;
  unsigned binding;  // GL_TEXTURE_BINDING_* of the target
};

constexpr std::array<TargetName, 5> targets{{
    {0x0DE0, "GL_TEXTURE_1D", ImageType::image1d, 0x8068},
    {0x0DE1, "GL_TEXTURE_2D", ImageType::image2d, 0x8069},
    {0x806F, "GL_TEXTURE_3D", ImageType::image3d, 0x806A},
    {0x8C18, "GL_TEXTURE_1D_ARRAY", ImageType::image1d_array, 0x8C1C},
    {0x8C1A, "GL_TEXTURE_2D_ARRAY", ImageType::image2d_array, 0x8C1D},
}};

constexpr unsigned gl_texture_width = 0x1000;
constexpr unsigned gl_texture_height = 0x1001;
constexpr unsigned gl_texture_depth = 0x8071;
constexpr unsigned gl_texture_internal_format = 0x1003;

const TargetName* find_target(unsigned target) noexcept {
  for (const auto& t : targets) {
    if (t.gl == target) return &t;
  }
  return nullptr;
}

}  // namespace

std::optional<ImageFormat> image_format_of_gl(unsigned internal_format) noexcept {
  for (const auto& f : formats) {
    if (f.gl == internal_format) return f.format;
  }
  return std::nullopt;
}

unsigned gl_internal_format_of(ImageFormat format) noexcept {
  for (const auto& f : formats) {
    if (f.format.order == format.order && f.format.type == format.type) return f.gl;
  }
  return 0;  // unreachable: the table has every order and type
}

std::optional<ImageType> image_type_of_gl(unsigned target) noexcept {
  const auto* t = find_target(target);
  return t != nullptr ? std::optional<ImageType>(t->type) : std::nullopt;
}

std::string gl_enum_name(unsigned value) {
  for (const auto& f : formats) {
    if (f.gl == value) return f.name;
  }
  for (const auto& t : targets) {
    if (t.gl == value) return t.name;
  }
  return fmt::format("{:#06x}", value);
}

GlTextureDesc read_gl_texture(unsigned name, unsigned target, int level, const char* function) {
  const auto* t = find_target(target);
  if (t == nullptr) {
    throw LogicError(
        fmt::format("{}: texture target {} is not one plinth maps (GL_TEXTURE_1D, GL_TEXTURE_2D, "
                    "GL_TEXTURE_3D, GL_TEXTURE_1D_ARRAY, GL_TEXTURE_2D_ARRAY)",
                    function, gl_enum_name(target)));
  }
  if (name == 0) throw LogicError(fmt::format("{}: texture 0 is no texture", function));
  if (level < 0) throw LogicError(fmt::format("{}: level {} is negative", function, level));
  const auto& gl = gl_functions();
  require_current_gl_context(gl, function);
  while (gl.get_error() != 0) {
  }  // errors of the caller's earlier GL calls are not this call's
  if (gl.is_texture(name) == 0) {
    throw LogicError(fmt::format("{}: {} is no texture of the current GL context", function, name));
  }
  int values[4] = {};
  constexpr unsigned queries[4] = {gl_texture_internal_format, gl_texture_width, gl_texture_height,
                                   gl_texture_depth};
  if (gl.get_texture_level_parameteriv != nullptr) {
    for (int i = 0; i < 4; ++i)
      gl.get_texture_level_parameteriv(name, level, queries[i], &values[i]);
  }
  if (gl.get_texture_level_parameteriv == nullptr || gl.get_error() != 0) {
    // Before GL 4.5 (or where the direct query failed): bind, query, bind back.
    int bound = 0;
    gl.get_integerv(t->binding, &bound);
    gl.bind_texture(target, name);
    for (int i = 0; i < 4; ++i) gl.get_tex_level_parameteriv(target, level, queries[i], &values[i]);
    gl.bind_texture(target, static_cast<unsigned>(bound));
  }
  if (const unsigned error = gl.get_error(); error != 0) {
    throw LogicError(fmt::format(
        "{}: GL refused to describe level {} of texture {} as {} (glGetError: {:#06x}): is "
        "that its target?",
        function, level, name, t->name, error));
  }
  const auto internal_format = static_cast<unsigned>(values[0]);
  if (values[1] <= 0) {
    throw LogicError(
        fmt::format("{}: level {} of texture {} ({}) is empty", function, level, name, t->name));
  }
  const auto format = image_format_of_gl(internal_format);
  if (!format) {
    throw LogicError(fmt::format(
        "{}: texture {} has internal format {}, which has no plinth ImageFormat (R, RG or RGBA "
        "of 8, 16 or 32 bits: GL_R8, GL_RGBA16F, GL_RG32UI, ...)",
        function, name, gl_enum_name(internal_format)));
  }
  GlTextureDesc desc;
  desc.name = name;
  desc.target = target;
  desc.level = level;
  desc.internal_format = internal_format;
  desc.type = t->type;
  desc.format = *format;
  const auto width = static_cast<std::size_t>(values[1]);
  const auto height = static_cast<std::size_t>(values[2] > 0 ? values[2] : 1);
  const auto depth = static_cast<std::size_t>(values[3] > 0 ? values[3] : 1);
  switch (t->type) {
    case ImageType::image1d: desc.extent = {width, 1, 1, 1}; break;
    case ImageType::image2d: desc.extent = {width, height, 1, 1}; break;
    case ImageType::image3d: desc.extent = {width, height, depth, 1}; break;
    case ImageType::image1d_array: desc.extent = {width, 1, 1, height}; break;
    case ImageType::image2d_array: desc.extent = {width, height, 1, depth}; break;
  }
  return desc;
}

}  // namespace plinth::detail
