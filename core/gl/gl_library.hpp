#pragma once

// The GL functions the core calls to read what a texture holds (gl_texture_format.hpp), found
// in the GL library the process has already loaded (libOpenGL, libGL, libGLESv2 or through
// libEGL's eglGetProcAddress). The core never loads one itself: GL interop needs a GL context,
// and so a GL library, before any of it is used. Internal to the core.

#include <cstdint>

namespace plinth::detail {

/// The few GL 1.0-4.5 entry points the core uses (the names of <GL/glcorearb.h>).
struct GlFunctions {
  using GetError = unsigned (*)();
  using GetString = const unsigned char* (*)(unsigned name);
  using GetIntegerv = void (*)(unsigned name, int* data);
  using BindTexture = void (*)(unsigned target, unsigned texture);
  using IsTexture = unsigned char (*)(unsigned texture);
  using IsBuffer = unsigned char (*)(unsigned buffer);
  using GetTexLevelParameteriv = void (*)(unsigned target, int level, unsigned name, int* value);
  using GetTextureLevelParameteriv = void (*)(unsigned texture, int level, unsigned name,
                                              int* value);

  GetError get_error = nullptr;
  GetString get_string = nullptr;
  GetIntegerv get_integerv = nullptr;
  BindTexture bind_texture = nullptr;
  IsTexture is_texture = nullptr;
  IsBuffer is_buffer = nullptr;                                        // GL 1.5 and OpenGL ES 2
  GetTexLevelParameteriv get_tex_level_parameteriv = nullptr;          // GL 1.0, OpenGL ES 3.1
  GetTextureLevelParameteriv get_texture_level_parameteriv = nullptr;  // GL 4.5; may be null
};

/// The GL functions of the process's GL library, looked up once. Throws LogicError when no GL
/// library is loaded or it lacks one of the functions the core cannot do without (all but
/// glGetTextureLevelParameteriv), naming what is missing. Any thread.
const GlFunctions& gl_functions();

/// Throws LogicError, naming `function`, when no GL context is current on the calling thread
/// (glGetString(GL_VERSION) answers null).
void require_current_gl_context(const GlFunctions& gl, const char* function);

}  // namespace plinth::detail
