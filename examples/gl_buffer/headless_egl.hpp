#pragma once

// A headless OpenGL 4.5 core context through EGL, with no window and no X server: on an
// EGL device (EGL_EXT_platform_device: NVIDIA's driver, Mesa) or Mesa's surfaceless
// platform. Part of the gl_buffer example; plinth's GL tests use it too.

#define EGL_EGLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <plinth/gl_types.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace headless_egl {

/// An EGL display and an OpenGL 4.5 core context made current on the constructing thread.
class Context {
 public:
  /// Tries the EGL devices in order (a GPU's first), then Mesa's surfaceless platform.
  /// Throws std::runtime_error saying what each refused.
  Context() {
    std::string refusals;
    for (EGLDisplay display : candidate_displays(refusals)) {
      if (try_display(display, refusals)) return;
    }
    throw std::runtime_error("no headless EGL context could be made:" + refusals);
  }
  ~Context() {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// The handles plinth::make_gl_context() takes.
  plinth::GlContext handles() const {
    return {plinth::GlWindowSystem::egl, static_cast<void*>(display_),
            static_cast<void*>(context_)};
  }
  /// The EGL vendor ("NVIDIA", "Mesa Project").
  std::string vendor() const {
    const char* v = eglQueryString(display_, EGL_VENDOR);
    return v != nullptr ? v : "";
  }

 private:
  static std::vector<EGLDisplay> candidate_displays(std::string& refusals) {
    std::vector<EGLDisplay> displays;
    auto query_devices =
        reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    EGLint count = 0;
    EGLDeviceEXT devices[16];
    if (query_devices != nullptr && platform_display != nullptr &&
        query_devices(16, devices, &count) == EGL_TRUE) {
      for (EGLint i = 0; i < count; ++i) {
        EGLDisplay d = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (d != EGL_NO_DISPLAY) displays.push_back(d);
      }
    } else {
      refusals += " (no EGL_EXT_device_enumeration)";
    }
    if (platform_display != nullptr) {
      EGLDisplay d = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
      if (d != EGL_NO_DISPLAY) displays.push_back(d);
    }
    if (displays.empty()) {
      refusals +=
          " no EGL display (no EGL vendor library, or none offers a device or Mesa's "
          "surfaceless platform)";
    }
    return displays;
  }

  bool try_display(EGLDisplay display, std::string& refusals) {
    EGLint major = 0, minor = 0;
    if (eglInitialize(display, &major, &minor) != EGL_TRUE) {
      refusals += " eglInitialize: " + std::to_string(eglGetError()) + ";";
      return false;
    }
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                        EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (eglChooseConfig(display, config_attributes, &config, 1, &configs) != EGL_TRUE ||
        configs == 0) {
      config = nullptr;  // EGL_KHR_no_config_context, as Mesa's surfaceless platform has
    }
    const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                         4,
                                         EGL_CONTEXT_MINOR_VERSION,
                                         5,
                                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                         EGL_NONE};
    if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) {
      refusals += " eglBindAPI(EGL_OPENGL_API) refused;";
      eglTerminate(display);
      return false;
    }
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
    if (context == EGL_NO_CONTEXT) {
      refusals += " eglCreateContext: " + std::to_string(eglGetError()) + ";";
      eglTerminate(display);
      return false;
    }
    if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) != EGL_TRUE) {
      refusals += " eglMakeCurrent: " + std::to_string(eglGetError()) + ";";
      eglDestroyContext(display, context);
      eglTerminate(display);
      return false;
    }
    display_ = display;
    context_ = context;
    return true;
  }

  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
};

}  // namespace headless_egl
