// OpenGL interop: a kernel fills a GL buffer object in place, and GL reads it back, with no
// copy through the host on plinth's side. A headless EGL context (headless_egl.hpp) stands in
// for an application's window. On the default API (PLINTH_API); where the device cannot share
// with GL (PoCL, Level Zero, a platform without cl_khr_gl_sharing) it prints why and exits 0,
// or 1 with --require-sharing (so too where no headless EGL context can be made).

#include "headless_egl.hpp"

#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>

#include <plinth/gl_interop.hpp>
#include <plinth/plinth.hpp>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <vector>

const char* const source = R"(
KERNEL void fill(GLOBAL_MEM float *points, int n)
{
    const SIZE_T i = get_global_id(0);
    if (i < (SIZE_T)n)
        points[i] = points[i] * 2.0f + 1.0f;
}
)";

int main(int argc, char** argv) try {
  const bool require_sharing = argc > 1 && std::strcmp(argv[1], "--require-sharing") == 0;
  std::unique_ptr<headless_egl::Context> made;
  try {
    made = std::make_unique<headless_egl::Context>();  // current on this thread from here on
  } catch (const std::runtime_error& e) {
    std::cout << "gl_buffer: " << e.what() << "\n";
    return require_sharing ? 1 : 0;
  }
  const headless_egl::Context& egl = *made;

  const auto api = plinth::API::from_env();
  const auto from_env = plinth::devices_from_env(api);  // PLINTH_DEVICE, where it is set
  const auto device = from_env ? from_env->front() : plinth::select_devices(api, false, 1).front();
  plinth::Context context = [&] {
    try {
      return plinth::make_gl_context({device}, egl.handles());
    } catch (const plinth::LogicError& e) {
      std::cout << "gl_buffer: " << api.name() << ", " << device.name()
                << " cannot share with GL (EGL: " << egl.vendor() << "): " << e.what() << "\n";
      std::exit(require_sharing ? 1 : 0);
    }
  }();
  const auto bound = context.devices()[0];
  const plinth::Queue queue(bound);

  // The application's GL buffer: n floats 0, 1, 2, ...
  const int n = 1 << 16;
  std::vector<float> initial(n);
  for (int i = 0; i < n; ++i) initial[i] = static_cast<float>(i);
  GLuint vbo = 0;
  glCreateBuffers(1, &vbo);
  glNamedBufferData(vbo, n * sizeof(float), initial.data(), GL_DYNAMIC_DRAW);
  glFinish();  // the GL work is done before plinth's queue takes the buffer

  {
    const plinth::GlBuffer points(bound, vbo);
    plinth::GlBufferMapping mapped = points.map(queue);
    const plinth::Program program(context, source);
    program.kernel("fill")(queue, {n}, {}, mapped.buffer(), n);
    mapped.unmap();  // GL sees the kernel's writes from here on
  }

  std::vector<float> result(n);
  glGetNamedBufferSubData(vbo, 0, n * sizeof(float), result.data());
  glDeleteBuffers(1, &vbo);
  for (int i = 0; i < n; ++i) {
    if (result[i] != initial[i] * 2.0f + 1.0f) {
      std::cerr << "gl_buffer: mismatch at " << i << ": " << result[i] << "\n";
      return 1;
    }
  }
  std::cout << "gl_buffer: " << n << " floats of a GL buffer filled on " << api.name() << ", "
            << device.name() << " (EGL: " << egl.vendor() << ")\nOK\n";
  return 0;
} catch (const plinth::Error& e) {
  std::cerr << "gl_buffer: " << e.what() << "\n";
  return 1;
}
