// plinth's own declarations of cudaGL.h's functions (backends/cuda/driver.hpp's gl namespace)
// against cudaGL.h: the backend never includes it (it includes <GL/gl.h>), so this file is
// where a difference shows, at compile time. Where <GL/gl.h> is missing (a machine without GL
// headers) there is nothing to compare with, and the test says so.

#include "driver.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#if __has_include(<GL/gl.h>)
#include <cudaGL.h>
#define PLINTH_HAVE_CUDA_GL_H 1
#endif

namespace gl_declarations_test {
namespace {

#ifdef PLINTH_HAVE_CUDA_GL_H

namespace gl = plinth::cuda::gl;

// cudaGL.h's types as plinth declares them: its function types map onto the table's.
template <class T>
struct Mapped {
  using type = T;
};
template <>
struct Mapped<CUGLDeviceList> {
  using type = gl::DeviceList;
};
template <class R, class... Args>
struct Mapped<R (*)(Args...)> {
  using type = typename Mapped<R>::type (*)(typename Mapped<Args>::type...);
};

template <class Declared, class Header>
constexpr bool same_function = std::is_same_v<Declared, typename Mapped<Header>::type>;

// cudaGL.h #defines cuGLGetDevices to cuGLGetDevices_v2: the table's member is the symbol.
static_assert(
    same_function<decltype(plinth::cuda::Driver{}.cuGLGetDevices_v2), decltype(&cuGLGetDevices)>,
    "cuGLGetDevices differs from cudaGL.h");
static_assert(same_function<decltype(plinth::cuda::Driver{}.cuGraphicsGLRegisterBuffer),
                            decltype(&cuGraphicsGLRegisterBuffer)>,
              "cuGraphicsGLRegisterBuffer differs from cudaGL.h");
static_assert(same_function<decltype(plinth::cuda::Driver{}.cuGraphicsGLRegisterImage),
                            decltype(&cuGraphicsGLRegisterImage)>,
              "cuGraphicsGLRegisterImage differs from cudaGL.h");
static_assert(sizeof(gl::DeviceList) == sizeof(CUGLDeviceList));
static_assert(static_cast<int>(gl::device_list_all) == CU_GL_DEVICE_LIST_ALL);
static_assert(static_cast<int>(gl::device_list_current_frame) == CU_GL_DEVICE_LIST_CURRENT_FRAME);
static_assert(static_cast<int>(gl::device_list_next_frame) == CU_GL_DEVICE_LIST_NEXT_FRAME);
static_assert(std::is_same_v<GLuint, unsigned int> && std::is_same_v<GLenum, unsigned int>);

TEST(CudaGlDeclarations, MatchCudaGlH) { SUCCEED() << "checked at compile time"; }

#else

TEST(CudaGlDeclarations, MatchCudaGlH) {
  GTEST_SKIP() << "no <GL/gl.h>: cudaGL.h cannot be included";
}

#endif

}  // namespace
}  // namespace gl_declarations_test
