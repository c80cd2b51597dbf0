// The HIP prelude defines the kernel dialect (docs/plugin-interface.md) as the CUDA one does.

#include "prelude.hpp"

#include <gtest/gtest.h>

#include <string>

namespace plinth::hip {
namespace prelude_test {
namespace {

bool defines(const std::string& prelude, const std::string& name) {
  return prelude.find("#define " + name + " ") != std::string::npos ||
         prelude.find("#define " + name + "\n") != std::string::npos ||
         prelude.find("#define " + name + "(") != std::string::npos;
}

TEST(HipPrelude, DefinesTheDialect) {
  const std::string prelude = hip::prelude(false);
  for (const char* name : {"KERNEL",
                           "GLOBAL_MEM",
                           "LOCAL_MEM",
                           "LOCAL_MEM_DECL",
                           "LOCAL_MEM_DYNAMIC",
                           "CONSTANT_MEM",
                           "CONSTANT_MEM_DECL",
                           "FUNCTION",
                           "INLINE",
                           "LOCAL_BARRIER",
                           "SIZE_T",
                           "VSIZE_T",
                           "ALIGN",
                           "COMPLEX_CTR",
                           "make_plinth_complex64",
                           "make_plinth_complex128",
                           "LOCAL_GLOBAL_BARRIER",
                           "SUB_GROUP_BARRIER",
                           "atomic_fence",
                           "atomic_add_global_int",
                           "atomic_load_local_double",
                           "sub_group_reduce_max_ulong"})
    EXPECT_TRUE(defines(prelude, name)) << name;
  for (const char* function : {"get_local_id", "get_group_id", "get_global_id", "get_local_size",
                               "get_num_groups", "get_global_size"})
    EXPECT_NE(prelude.find(std::string(" ") + function + "(unsigned int dim)"), std::string::npos)
        << function;
  for (const char* function : {"get_sub_group_size", "get_max_sub_group_size", "get_num_sub_groups",
                               "get_sub_group_id", "get_sub_group_local_id"})
    EXPECT_NE(prelude.find(std::string(" ") + function + "()"), std::string::npos) << function;
  for (const char* function : {"sub_group_ballot", "sub_group_any", "sub_group_all"})
    EXPECT_NE(prelude.find(std::string(" ") + function + "(int predicate)"), std::string::npos)
        << function;
  for (const char* function : {" vload2(", " vload4(", " vstore2(", " vstore4("})
    EXPECT_NE(prelude.find(function), std::string::npos) << function;
  EXPECT_NE(prelude.find("typedef float2 plinth_complex64;"), std::string::npos);
  EXPECT_NE(prelude.find("typedef double2 plinth_complex128;"), std::string::npos);
  EXPECT_NE(prelude.find("#define KERNEL extern \"C\" __global__"), std::string::npos);
  EXPECT_NE(prelude.find("#define LOCAL_MEM_DYNAMIC extern __shared__"), std::string::npos);
}

TEST(HipPrelude, NamesTheApiAndNoOther) {
  const std::string prelude = hip::prelude(false);
  EXPECT_TRUE(defines(prelude, "PLINTH_HIP_API"));
  for (const char* other : {"PLINTH_CUDA_API", "PLINTH_OPENCL_API", "PLINTH_LEVEL_ZERO_API"})
    EXPECT_EQ(prelude.find(other), std::string::npos) << other;
}

TEST(HipPrelude, FastMathDefinesItsMacroFirstAndOnlyThen) {
  EXPECT_EQ(hip::prelude(false).find("PLINTH_FAST_MATH"), std::string::npos);
  const std::string fast = hip::prelude(true);
  EXPECT_EQ(fast.rfind("#define PLINTH_FAST_MATH\n", 0), 0u);
  EXPECT_EQ(fast.substr(fast.find('\n') + 1), hip::prelude(false));
}

}  // namespace
}  // namespace prelude_test
}  // namespace plinth::hip
