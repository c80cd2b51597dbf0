// What the OpenCL backend's ContextAdapter::gl_sharing() says (backends/opencl/gl_interop.hpp's
// gl_sharing_problem()), from device answers written out as PoCL 3.1 and NVIDIA's OpenCL give
// them: a platform without cl_khr_gl_sharing refuses first, then a context not made with a GL
// context. The same answers through the plugin, on the machine's platforms, are
// gl_interop_plugin_test.cpp's.

#include "gl_interop.hpp"

#include <gtest/gtest.h>

namespace plinth::opencl {
namespace gl_sharing_test {
namespace {

const char* const pocl_extensions =
    "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics cl_khr_3d_image_writes "
    "cl_khr_command_buffer cl_khr_spir cl_khr_fp64";
const char* const nvidia_extensions =
    "cl_khr_global_int32_base_atomics cl_khr_fp64 cl_khr_3d_image_writes "
    "cl_khr_byte_addressable_store cl_khr_icd cl_khr_gl_sharing cl_nv_compiler_options "
    "cl_khr_int64_base_atomics cl_khr_fp16";

TEST(OpenClGlSharing, PlatformWithoutTheExtensionRefusesWhateverTheContext) {
  for (const bool gl_context : {false, true}) {
    const auto problem = gl_sharing_problem(gl_context, "Portable Computing Language",
                                            "cpu-haswell", pocl_extensions);
    EXPECT_NE(problem.find("cl_khr_gl_sharing"), std::string::npos) << problem;
    EXPECT_NE(problem.find("'Portable Computing Language'"), std::string::npos) << problem;
    EXPECT_NE(problem.find("'cpu-haswell'"), std::string::npos) << problem;
  }
}

TEST(OpenClGlSharing, OrdinaryContextSaysHowToMakeOne) {
  const auto problem =
      gl_sharing_problem(false, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3", nvidia_extensions);
  EXPECT_EQ(problem,
            "this OpenCL context was not made with a GL context: make it with make_gl_context()");
}

TEST(OpenClGlSharing, GlContextOnPlatformWithTheExtensionShares) {
  EXPECT_EQ(gl_sharing_problem(true, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3", nvidia_extensions),
            "");
}

TEST(OpenClGlSharing, ExtensionNamesMatchWhole) {
  // cl_khr_gl_sharing_ext is not cl_khr_gl_sharing.
  EXPECT_NE(gl_sharing_problem(true, "P", "D", "cl_khr_icd cl_khr_gl_sharing_ext"), "");
  EXPECT_NE(gl_sharing_problem(true, "P", "D", ""), "");
  EXPECT_EQ(gl_sharing_problem(true, "P", "D", "cl_khr_gl_sharing"), "");
}

}  // namespace
}  // namespace gl_sharing_test
}  // namespace plinth::opencl
