#include "gl/gl_library.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <dlfcn.h>

#include <array>
#include <mutex>
#include <string>

namespace plinth::detail {

namespace {

/// The GL libraries that export GL's entry points, most specific first (glvnd's libOpenGL
/// has the core profile; libGL adds GLX; libGLESv2 is OpenGL ES's).
constexpr std::array<const char*, 3> gl_library_names{"libOpenGL.so.0", "libGL.so.1",
                                                      "libGLESv2.so.2"};
/// Where eglGetProcAddress and glXGetProcAddressARB are: the last resort, for functions a
/// library exports only through them.
constexpr std::array<const char*, 2> proc_library_names{"libEGL.so.1", "libGL.so.1"};

using GetProcAddress = void* (*)(const char* name);

struct Found {
  GlFunctions functions;
  std::string missing;  // what was not found; empty when everything needed was
};

/// A handle of `name` if the process has loaded it, else null (RTLD_NOLOAD loads nothing).
void* loaded_library(const char* name) { return ::dlopen(name, RTLD_NOW | RTLD_NOLOAD); }

Found find_functions() {
  std::array<void*, gl_library_names.size()> libraries{};
  bool any = false;
  for (std::size_t i = 0; i < libraries.size(); ++i) {
    libraries[i] = loaded_library(gl_library_names[i]);
    any = any || libraries[i] != nullptr;
  }
  std::array<GetProcAddress, 2> proc_addresses{};
  if (void* egl = loaded_library(proc_library_names[0])) {
    proc_addresses[0] = reinterpret_cast<GetProcAddress>(::dlsym(egl, "eglGetProcAddress"));
    any = true;
  }
  if (void* glx = loaded_library(proc_library_names[1])) {
    proc_addresses[1] = reinterpret_cast<GetProcAddress>(::dlsym(glx, "glXGetProcAddressARB"));
  }
  Found found;
  if (!any) {
    found.missing =
        "no GL library is loaded in this process (libOpenGL.so.0, libGL.so.1, libGLESv2.so.2 "
        "or libEGL.so.1): make a GL context before using GL interop";
    return found;
  }
  auto lookup = [&](const char* name) -> void* {
    for (void* library : libraries) {
      if (library == nullptr) continue;
      if (void* f = ::dlsym(library, name)) return f;
    }
    for (GetProcAddress get : proc_addresses) {
      if (get == nullptr) continue;
      if (void* f = get(name)) return f;
    }
    return nullptr;
  };
  auto& f = found.functions;
  auto need = [&](auto& slot, const char* name, bool required) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(lookup(name));
    if (slot == nullptr && required) {
      found.missing += found.missing.empty() ? name : fmt::format(", {}", name);
    }
  };
  need(f.get_error, "glGetError", true);
  need(f.get_string, "glGetString", true);
  need(f.get_integerv, "glGetIntegerv", true);
  need(f.bind_texture, "glBindTexture", true);
  need(f.is_texture, "glIsTexture", true);
  need(f.is_buffer, "glIsBuffer", true);
  need(f.get_tex_level_parameteriv, "glGetTexLevelParameteriv", true);
  need(f.get_texture_level_parameteriv, "glGetTextureLevelParameteriv", false);
  if (!found.missing.empty()) {
    found.missing = "the loaded GL library lacks " + found.missing;
  }
  return found;
}

}  // namespace

const GlFunctions& gl_functions() {
  // Looked up until found: a process may load its GL library after a first, failed call.
  static std::mutex mutex;
  static Found found;
  static bool complete = false;
  const std::scoped_lock lock(mutex);
  if (!complete) {
    found = find_functions();
    complete = found.missing.empty();
  }
  if (!complete) throw LogicError(found.missing);
  return found.functions;
}

void require_current_gl_context(const GlFunctions& gl, const char* function) {
  constexpr unsigned gl_version = 0x1F02;
  if (gl.get_string(gl_version) == nullptr) {
    throw LogicError(
        fmt::format("{}: no GL context is current on this thread (glGetString(GL_VERSION) "
                    "returned null): make the GL context current first",
                    function));
  }
}

}  // namespace plinth::detail
