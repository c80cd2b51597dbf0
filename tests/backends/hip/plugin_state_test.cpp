// The real plugin, loaded by the core from the build tree's plugin directory: without an AMD
// GPU it is `no devices` with HIP's own error name, and still compiles for named targets.

#include "api.hpp"

#include <plinth/backend/abi_version.hpp>
#include <plinth/compile.hpp>
#include <plinth/errors.hpp>
#include <plinth/plugins.hpp>

#include <hip/hip_runtime_api.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace plinth {
namespace plugin_state_test {
namespace {

// Loads only the HIP plugin (the registry is loaded once per process, at the first use).
void only_hip() { setenv("PLINTH_API", "hip", 1); }

bool amd_gpu_present() {
  int count = 0;
  return hipGetDeviceCount(&count) == hipSuccess && count > 0;
}

const PluginInfo* hip_candidate() {
  only_hip();
  const auto& candidates = plugins();
  const auto found = std::find_if(candidates.begin(), candidates.end(), [](const PluginInfo& info) {
    return info.shortcut == "hip" && info.state != PluginState::shadowed;
  });
  return found == candidates.end() ? nullptr : &*found;
}

TEST(HipPlugin, HasNoDevicesAndSaysWhyInHipsWords) {
  if (amd_gpu_present()) GTEST_SKIP() << "an AMD GPU is present: the plugin has devices";
  const PluginInfo* hip = hip_candidate();
  ASSERT_NE(hip, nullptr) << describe_plugins(plugins());
  EXPECT_EQ(hip->state, PluginState::no_devices) << describe_plugins(plugins());
  EXPECT_EQ(hip->abi_major, 1);
  EXPECT_EQ(hip->abi_minor, PLINTH_ABI_MINOR);
  EXPECT_NE(hip->reason.find("hipGetDeviceCount: hipErrorNoDevice"), std::string::npos)
      << hip->reason;
}

TEST(HipPlugin, CompilesForNamedTargetsThroughTheCore) {
  const PluginInfo* hip = hip_candidate();
  ASSERT_NE(hip, nullptr) << describe_plugins(plugins());
  const auto targets = compile_targets(APIID{"hip"});
  const auto has = [&](const std::string& name) {
    return std::any_of(targets.begin(), targets.end(),
                       [&](const CompileTarget& target) { return target.name == name; });
  };
  EXPECT_TRUE(has("gfx90a"));
  EXPECT_TRUE(has("gfx1030"));
  const auto compiled = compile_for_target(
      APIID{"hip"}, "gfx90a", "KERNEL void fill(GLOBAL_MEM float *x) { x[get_global_id(0)] = 1; }");
  EXPECT_EQ(compiled.extension, "hsaco");
  ASSERT_GE(compiled.binary.size(), 64u);
  EXPECT_EQ(static_cast<unsigned>(compiled.binary[18]), 224u);  // EM_AMDGPU
  if (!has("gfx942")) {
    EXPECT_THROW(compile_for_target(APIID{"hip"}, "gfx942", "KERNEL void k() {}"), LogicError);
  }
}

// Issue 33: HIP's products run on plinth's kernels, and the backend says why it offers no
// library (no hipBLAS adapter; Debian's HIP has no hipBLAS to build one against).
TEST(HipPlugin, RefusesABlasLibraryClearly) {
  const hip::Api api;
  const auto library = api.blas_library();
  EXPECT_FALSE(library.available);
  EXPECT_NE(library.description.find("no hipBLAS adapter yet"), std::string::npos)
      << library.description;
  EXPECT_NE(library.description.find("libhipblas.so.2"), std::string::npos) << library.description;
}

}  // namespace
}  // namespace plugin_state_test
}  // namespace plinth
