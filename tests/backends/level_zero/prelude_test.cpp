// The Level Zero prelude defines the kernel dialect (docs/plugin-interface.md) in OpenCL C, as
// the OpenCL one does, names its own API, and compiles (alone and used by a kernel) to valid
// SPIR-V.

#include "prelude.hpp"
#include "compiler_available.hpp"
#include "spirv_compiler.hpp"
#include "spirv_reflection.hpp"
#include "spirv_validation.hpp"

#include <gtest/gtest.h>

#include <string>

namespace plinth::level_zero {
namespace prelude_test {
namespace {

bool defines(const std::string& prelude, const std::string& name) {
  return prelude.find("#define " + name + " ") != std::string::npos ||
         prelude.find("#define " + name + "\n") != std::string::npos ||
         prelude.find("#define " + name + "(") != std::string::npos;
}

TEST(LevelZeroPrelude, DefinesTheDialect) {
  const std::string prelude = level_zero::prelude(false);
  for (const char* name :
       {"KERNEL", "GLOBAL_MEM", "LOCAL_MEM", "LOCAL_MEM_DECL", "LOCAL_MEM_DYNAMIC", "LOCAL_MEM_ARG",
        "CONSTANT_MEM", "CONSTANT_MEM_DECL", "FUNCTION", "INLINE", "LOCAL_BARRIER", "SIZE_T",
        "VSIZE_T", "ALIGN", "COMPLEX_CTR"})
    EXPECT_TRUE(defines(prelude, name)) << name;
  EXPECT_NE(prelude.find("#define KERNEL __kernel\n"), std::string::npos);
  EXPECT_NE(prelude.find("#define LOCAL_MEM_DYNAMIC __local\n"), std::string::npos);
  EXPECT_NE(prelude.find("typedef float2 plinth_complex64;"), std::string::npos);
  EXPECT_NE(prelude.find("typedef double2 plinth_complex128;"), std::string::npos);
  EXPECT_NE(prelude.find("#define COMPLEX_CTR(T) (T)"), std::string::npos);
}

TEST(LevelZeroPrelude, NamesTheApiAndNoOther) {
  const std::string prelude = level_zero::prelude(false);
  EXPECT_TRUE(defines(prelude, "PLINTH_LEVEL_ZERO_API"));
  for (const char* other : {"PLINTH_CUDA_API", "PLINTH_HIP_API", "PLINTH_OPENCL_API"})
    EXPECT_EQ(prelude.find(other), std::string::npos) << other;
}

TEST(LevelZeroPrelude, FastMathDefinesItsMacroFirstAndOnlyThen) {
  EXPECT_EQ(level_zero::prelude(false).find("PLINTH_FAST_MATH"), std::string::npos);
  const std::string fast = level_zero::prelude(true);
  EXPECT_EQ(fast.rfind("#define PLINTH_FAST_MATH\n", 0), 0u);
  EXPECT_EQ(fast.substr(fast.find('\n') + 1), level_zero::prelude(false));
}

TEST(LevelZeroPrelude, AloneCompilesToValidSpirvWithoutKernels) {
  PLINTH_NEED_COMPILER();
  PLINTH_NEED_SPIRV_VAL();
  for (const bool fast_math : {false, true}) {
    backend::BuildOptions options;
    options.fast_math = fast_math;
    const auto module = compile_to_spirv(level_zero::prelude(fast_math), options);
    EXPECT_EQ(testing::validation_errors(module.binary), "") << "fast_math " << fast_math;
    EXPECT_TRUE(reflect_kernels(module.binary).empty());
  }
}

// Every macro and function of the dialect, used as the conformance suite's kernels use them.
constexpr const char* dialect_user = R"(
typedef struct { int a; float b; } pair;
INLINE FUNCTION float twice(float x) { return 2 * x; }
FUNCTION float first(const float *p) { return p[0]; }  // generic: any address space
CONSTANT_MEM_DECL float table[2] = {1.0f, 2.0f};
KERNEL void every_macro(GLOBAL_MEM float *out, CONSTANT_MEM const float *in, ulong n,
                        pair p, LOCAL_MEM_DYNAMIC float *scratch)
{
    LOCAL_MEM_DECL float shared[16];
    LOCAL_MEM float ALIGN(16) aligned[4];
    const SIZE_T i = get_global_id(0) + get_local_id(1) + get_group_id(2) + get_local_size(0) +
                     get_num_groups(1) + get_global_size(2);
    shared[get_local_id(0) % 16] = in[0] + table[1];
    aligned[0] = 1.0f;
    scratch[0] = aligned[0];
    LOCAL_BARRIER;
    plinth_complex64 z = COMPLEX_CTR(float2)(1.0f, 2.0f);
    plinth_complex64 y = COMPLEX_CTR(plinth_complex64)(3.0f, 4.0f);
#if defined(PLINTH_FAST_MATH)
    const float s = native_sin(z.x);
#else
    const float s = sin(z.x);
#endif
    plinth_complex128 w = COMPLEX_CTR(double2)(1.0, 2.0);
    if (i < n) out[i] = twice(s) + y.y + (float)w.x + first(shared) + first(out) + p.b + p.a;
}
)";

TEST(LevelZeroPrelude, EveryMacroCompilesToValidSpirv) {
  PLINTH_NEED_COMPILER();
  PLINTH_NEED_SPIRV_VAL();
  for (const bool fast_math : {false, true}) {
    backend::BuildOptions options;
    options.fast_math = fast_math;
    const auto module =
        compile_to_spirv(level_zero::prelude(fast_math) + '\n' + dialect_user, options);
    EXPECT_EQ(testing::validation_errors(module.binary), "") << "fast_math " << fast_math;
    const auto kernels = reflect_kernels(module.binary);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].name, "every_macro");
    ASSERT_EQ(kernels[0].parameters.size(), 5u);
    EXPECT_EQ(kernels[0].parameters[2].size, 8u);
    EXPECT_EQ(kernels[0].parameters[4].kind, backend::ParamKind::local_ptr);
  }
}

}  // namespace
}  // namespace prelude_test
}  // namespace plinth::level_zero
