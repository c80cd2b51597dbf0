// The kernel dialect's OpenCL C prelude compiled by clang to SPIR-V for Level Zero: a kernel
// calling every function of docs/kernel-dialect.md for every type and space compiles, with
// native sub-groups, to a module spirv-val accepts; what a device lacks fails the build naming
// the operation.

#include "../../conformance/dialect_every_function.hpp"
#include "compiler_available.hpp"
#include "prelude.hpp"
#include "spirv_compiler.hpp"
#include "spirv_reflection.hpp"
#include "spirv_validation.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace plinth::level_zero {
namespace dialect_spirv_test {
namespace {

std::string every_function() {
  return level_zero::prelude(false) + "\n" + plinth::testing::every_dialect_function_source;
}

bool contains(const std::vector<std::byte>& module, const std::string& text) {
  const auto* begin = reinterpret_cast<const char*>(module.data());
  return std::search(begin, begin + module.size(), text.begin(), text.end()) !=
         begin + module.size();
}

TEST(LevelZeroDialect, EveryFunctionCompilesToValidSpirv) {
  PLINTH_NEED_COMPILER();
  PLINTH_NEED_SPIRV_VAL();
  for (const bool fast_math : {false, true}) {
    backend::BuildOptions options;
    options.fast_math = fast_math;
    const auto module = compile_to_spirv(every_function(), options);
    EXPECT_EQ(testing::validation_errors(module.binary), "") << "fast_math " << fast_math;
    const auto kernels = reflect_kernels(module.binary);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels.front().name, "every_function");
    // The sub-groups are the device's: Intel's shuffles, not the size-1 forms.
    EXPECT_TRUE(contains(module.binary, "SPV_INTEL_subgroups"));
  }
}

// As OpenCL C 1.2 (what NVIDIA's OpenCL compiles), every function compiles but those of device
// scope with acquire or release, and each of these names itself.
TEST(LevelZeroDialect, EveryFunctionInOpenCl12FailsOnlyOnDeviceScopeAcquireRelease) {
  PLINTH_NEED_COMPILER();
  backend::BuildOptions options;
  options.compiler_options = {"-cl-std=CL1.2"};  // 15 errors: under clang's limit of 20
  try {
    compile_to_spirv(every_function(), options);
    FAIL() << "device-scope acquire and release compiled as OpenCL C 1.2";
  } catch (const CompileError& e) {
    const std::string& log = e.log();
    std::vector<std::string> expected{"atomic_fence_device_acquire", "atomic_fence_device_release",
                                      "atomic_fence_device_acq_rel"};
    for (const char* type : {"int", "uint", "long", "ulong", "float", "double"}) {
      expected.push_back(std::string("atomic_load_global_") + type + "_acquire");
      expected.push_back(std::string("atomic_store_global_") + type + "_release");
    }
    for (const auto& name : expected)
      EXPECT_NE(log.find("'plinth_unsupported__" + name + "'"), std::string::npos) << name;
    std::size_t errors = 0;
    for (auto at = log.find("error:"); at != std::string::npos; at = log.find("error:", at + 1)) {
      ++errors;
      const std::string line = log.substr(at, log.find('\n', at) - at);
      EXPECT_NE(line.find("plinth_unsupported__"), std::string::npos) << line;
    }
    EXPECT_EQ(errors, expected.size()) << log;
  }
}

TEST(LevelZeroDialect, SixtyFourBitAtomicsOffNameThemselves) {
  PLINTH_NEED_COMPILER();
  const std::string source = level_zero::prelude(false) + R"(
KERNEL void k(GLOBAL_MEM long *p, GLOBAL_MEM int *q) {
  atomic_add_global_long(p, 1);
  atomic_add_global_int(q, 1);
})";
  backend::BuildOptions options;
  EXPECT_NO_THROW(compile_to_spirv(source, options, device_dialect_flags(true)));
  try {
    compile_to_spirv(source, options, device_dialect_flags(false));
    FAIL() << "64-bit atomics compiled with their macros off";
  } catch (const CompileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the kernel uses atomic_add_global_long, which"), std::string::npos)
        << what;
    EXPECT_EQ(what.find("atomic_add_global_int,"), std::string::npos) << what;
  }
}

TEST(LevelZeroDialect, DeviceScopeReleaseFenceInOpenCl12NamesItself) {
  PLINTH_NEED_COMPILER();
  const std::string source = level_zero::prelude(false) + R"(
KERNEL void k(GLOBAL_MEM int *p) {
  p[0] = 1;
  atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_DEVICE);
  atomic_store_global_int(p + 1, 1, MEM_ORDER_RELAXED);
})";
  backend::BuildOptions options;
  EXPECT_NO_THROW(compile_to_spirv(source, options));
  options.compiler_options = {"-cl-std=CL1.2"};
  try {
    compile_to_spirv(source, options);
    FAIL() << "a device-scope release fence compiled as OpenCL C 1.2";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("the kernel uses atomic_fence_device_release, which"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dialect_spirv_test
}  // namespace plinth::level_zero
