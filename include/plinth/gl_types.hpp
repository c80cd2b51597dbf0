#pragma once

// The value types of OpenGL interop (<plinth/gl_interop.hpp>), shared by the public API and
// the plugin SDK (<plinth/backend/gl_interop.hpp>): which GL context a plinth context shares
// with, how a registered GL object is accessed, and whether a device can share at all.

#include <plinth/image_format.hpp>

#include <cstdint>
#include <string>

namespace plinth {

/// The window-system binding that made a GL context.
enum class GlWindowSystem : std::uint8_t {
  egl,  ///< EGL (headless or not; OpenGL or OpenGL ES): an EGLDisplay and an EGLContext
  glx,  ///< GLX on X11: a Display* and a GLXContext
};

/// An OpenGL (or OpenGL ES) context of this process, by its window system's handles: for EGL,
/// `display` is the EGLDisplay and `context` the EGLContext (eglGetCurrentDisplay(),
/// eglGetCurrentContext()); for GLX, the X11 Display* and the GLXContext. plinth never
/// creates, destroys or makes current a GL context: the caller keeps it alive for as long as
/// a plinth context made with it, and makes it current where a call says so.
struct GlContext {
  GlWindowSystem system = GlWindowSystem::egl;  ///< which window system the handles are of
  void* display = nullptr;                      ///< EGLDisplay, or X11 Display*
  void* context = nullptr;                      ///< EGLContext, or GLXContext
};

/// How kernels will use a registered GL object while it is mapped: a promise that lets the
/// driver skip copies (CUDA's CU_GRAPHICS_REGISTER_FLAGS_*, OpenCL's CL_MEM_* flags).
enum class GlAccess : std::uint8_t {
  read_write,  ///< kernels read and write it
  read_only,   ///< kernels only read it
  write_only,  ///< kernels overwrite it wholly; its contents before mapping are undefined
};

/// Whether a device of a context can share objects with OpenGL (plinth::gl_sharing(), and
/// SDK 1.9's ContextAdapter::gl_sharing()).
struct GlSharing {
  bool available = false;  ///< GL buffers and textures can be registered and mapped
  std::string reason;      ///< why not, where `available` is false
};

/// A GL texture level as the core read it from GL (SDK 1.9's
/// ContextAdapter::register_gl_texture()): its GL names and what it holds as a plinth image.
struct GlTextureDesc {
  unsigned name = 0;                    ///< the texture object
  unsigned target = 0;                  ///< GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_2D_ARRAY...
  int level = 0;                        ///< the mipmap level
  unsigned internal_format = 0;         ///< GL_RGBA8, GL_R32F... (GL_TEXTURE_INTERNAL_FORMAT)
  ImageType type = ImageType::image2d;  ///< the plinth image type of the level
  ImageFormat format;                   ///< the plinth format of internal_format
  ImageExtent extent;                   ///< the level's size (GL_TEXTURE_WIDTH, ...)
};

}  // namespace plinth
