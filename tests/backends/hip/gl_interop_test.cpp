// The HIP backend's OpenGL interop without an AMD GPU (gl_interop.hpp): the registration flags
// of each GlAccess (SurfaceLoadStore for textures kernels may store to), what the refusals of
// Api::create_gl_context() say for each answer of hipGLGetDevices, the interop functions found
// by C name in the HIP runtime the tests are linked with (HIP 5.2 has them all) and what a
// runtime without them is told, and the refusal of null GL handles before HIP is asked.

#include "gl_interop.hpp"
#include "api.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace plinth::hip {
namespace gl_interop_test {
namespace {

TEST(HipGlInterop, RegistrationFlagsFollowTheAccessAndTexturesGetSurfaceLoadStore) {
  EXPECT_EQ(gl_register_flags(GlAccess::read_write, false), hipGraphicsRegisterFlagsNone);
  EXPECT_EQ(gl_register_flags(GlAccess::read_only, false), hipGraphicsRegisterFlagsReadOnly);
  EXPECT_EQ(gl_register_flags(GlAccess::write_only, false), hipGraphicsRegisterFlagsWriteDiscard);
  EXPECT_EQ(gl_register_flags(GlAccess::read_write, true),
            hipGraphicsRegisterFlagsSurfaceLoadStore);
  EXPECT_EQ(gl_register_flags(GlAccess::read_only, true), hipGraphicsRegisterFlagsReadOnly);
  EXPECT_EQ(gl_register_flags(GlAccess::write_only, true),
            hipGraphicsRegisterFlagsWriteDiscard | hipGraphicsRegisterFlagsSurfaceLoadStore);
}

TEST(HipGlInterop, DevicesTheGlContextRunsOnPassAndOthersAreNamed) {
  const std::vector<int> listed{2, 0};
  EXPECT_EQ(gl_device_problem(std::vector<int>{0, 2}, hipSuccess, listed), "");
  EXPECT_EQ(gl_device_problem(std::vector<int>{2}, hipSuccess, listed), "");
  EXPECT_EQ(gl_device_problem(std::vector<int>{0, 1}, hipSuccess, listed),
            "the GL context current on this thread does not run on HIP device 1 "
            "(hipGLGetDevices lists devices 2, 0)");
  EXPECT_EQ(gl_device_problem(std::vector<int>{0, 1}, hipSuccess, {}),
            "the GL context current on this thread does not run on HIP devices 0, 1 "
            "(hipGLGetDevices lists no device)");
}

TEST(HipGlInterop, FailuresOfHipGlGetDevicesSayWhatTheyMean) {
  const std::vector<int> requested{0};
  const std::string none = gl_device_problem(requested, hipErrorInvalidGraphicsContext, {});
  EXPECT_TRUE(none.starts_with("no GL context is current on this thread")) << none;
  EXPECT_NE(none.find("hipErrorInvalidGraphicsContext"), std::string::npos) << none;
  const std::string elsewhere = gl_device_problem(requested, hipErrorNoDevice, {});
  EXPECT_TRUE(elsewhere.starts_with("the GL context current on this thread runs on no HIP device"))
      << elsewhere;
  const std::string other = gl_device_problem(requested, hipErrorOperatingSystem, {});
  EXPECT_NE(other.find("hipErrorOperatingSystem"), std::string::npos) << other;
}

TEST(HipGlInterop, TheRuntimesFunctionsAreFoundByTheirCNames) {
  EXPECT_EQ(missing_gl_functions(gl_calls(), true), "");
  const auto sharing = query_gl_sharing();
  EXPECT_TRUE(sharing.available) << sharing.reason;
  // A runtime without them.
  EXPECT_EQ(missing_gl_functions(GlCalls{}, false),
            "hipGLGetDevices, hipGraphicsGLRegisterBuffer, hipGraphicsMapResources, "
            "hipGraphicsResourceGetMappedPointer, hipGraphicsUnmapResources, "
            "hipGraphicsUnregisterResource");
  GlCalls buffers_only = gl_calls();
  buffers_only.hipGraphicsGLRegisterImage = nullptr;
  EXPECT_EQ(missing_gl_functions(buffers_only, false), "");
  EXPECT_EQ(missing_gl_functions(buffers_only, true), "hipGraphicsGLRegisterImage");
}

TEST(HipGlInterop, NullGlHandlesAreRefusedBeforeHipIsAsked) {
  Api api;  // not initialised: the refusal comes first
  int display = 0;
  int context = 0;
  const GlContext no_display{GlWindowSystem::egl, nullptr, &context};
  const GlContext no_context{GlWindowSystem::glx, &display, nullptr};
  try {
    api.create_gl_context({}, no_display);
    ADD_FAILURE() << "no LogicError";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("display handle is null"), std::string::npos);
  }
  try {
    api.create_gl_context({}, no_context);
    ADD_FAILURE() << "no LogicError";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("context handle is null"), std::string::npos);
  }
}

}  // namespace
}  // namespace gl_interop_test
}  // namespace plinth::hip
