#pragma once

// What a GL texture level holds, as a plinth image: the GL internal formats that have an
// ImageFormat, the texture targets that have an ImageType, and reading a level's format and
// size from GL. Internal to the core (exported for its tests).

#include <plinth/export.hpp>
#include <plinth/gl_types.hpp>
#include <plinth/image_format.hpp>

#include <optional>
#include <string>

namespace plinth::detail {

/// The ImageFormat of GL internal format `internal_format` (GL_RGBA8 → RGBA unorm_int8,
/// GL_R32UI → R uint32, ...), or none where plinth has no such format (GL_RGB8, GL_SRGB8,
/// depth and compressed formats).
PLINTH_EXPORT std::optional<ImageFormat> image_format_of_gl(unsigned internal_format) noexcept;

/// The GL internal format of `format` (the inverse of image_format_of_gl()).
PLINTH_EXPORT unsigned gl_internal_format_of(ImageFormat format) noexcept;

/// The ImageType of GL texture target `target` (GL_TEXTURE_2D → image2d, ...), or none.
PLINTH_EXPORT std::optional<ImageType> image_type_of_gl(unsigned target) noexcept;

/// A name for a GL internal format or target in messages: "GL_RGBA8", or "0x1907".
PLINTH_EXPORT std::string gl_enum_name(unsigned value);

/// Reads level `level` of texture `name` of target `target` from the GL context current on
/// the calling thread: its internal format, ImageFormat, type and extent. Throws LogicError,
/// naming `function`, when no GL library is loaded or no context is current, `name` is no
/// texture, the target is not one of the five plinth has, the level is negative or empty,
/// or its internal format has no ImageFormat.
PLINTH_EXPORT GlTextureDesc read_gl_texture(unsigned name, unsigned target, int level,
                                            const char* function);

}  // namespace plinth::detail
