// The real plugin, loaded by the core from the build tree's plugin directory: without a Level
// Zero driver it is `no devices` with zeInit's own result, and still compiles the dialect to
// SPIR-V for the target "spirv64".

#include "spirv_compiler.hpp"

#include <plinth/backend/abi_version.hpp>
#include <plinth/compile.hpp>
#include <plinth/errors.hpp>
#include <plinth/plugins.hpp>

#include <level_zero/ze_api.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace plinth {
namespace plugin_state_test {
namespace {

// Loads only the Level Zero plugin (the registry is loaded once per process, at first use).
void only_level_zero() { setenv("PLINTH_API", "level_zero", 1); }

bool level_zero_driver_present() { return zeInit(0) == ZE_RESULT_SUCCESS; }

const PluginInfo* level_zero_candidate() {
  only_level_zero();
  const auto& candidates = plugins();
  const auto found = std::find_if(candidates.begin(), candidates.end(), [](const PluginInfo& info) {
    return info.shortcut == "level_zero" && info.state != PluginState::shadowed;
  });
  return found == candidates.end() ? nullptr : &*found;
}

TEST(LevelZeroPlugin, HasNoDevicesAndSaysWhyInLevelZerosWords) {
  if (level_zero_driver_present()) GTEST_SKIP() << "a Level Zero driver is present";
  const PluginInfo* plugin = level_zero_candidate();
  ASSERT_NE(plugin, nullptr) << describe_plugins(plugins());
  EXPECT_EQ(plugin->state, PluginState::no_devices) << describe_plugins(plugins());
  EXPECT_EQ(plugin->kind, "backend");
  EXPECT_EQ(plugin->abi_major, PLINTH_ABI_MAJOR);
  EXPECT_EQ(plugin->abi_minor, PLINTH_ABI_MINOR);
  EXPECT_NE(plugin->reason.find("zeInit: ZE_RESULT_ERROR_UNINITIALIZED"), std::string::npos)
      << plugin->reason;
  EXPECT_NE(plugin->reason.find("no Level Zero driver"), std::string::npos) << plugin->reason;
}

TEST(LevelZeroPlugin, ListsSpirv64AsItsCompileTarget) {
  ASSERT_NE(level_zero_candidate(), nullptr) << describe_plugins(plugins());
  const auto targets = compile_targets(APIID{"level_zero"});
  const auto found = std::find_if(targets.begin(), targets.end(), [](const CompileTarget& target) {
    return target.name == "spirv64";
  });
  ASSERT_NE(found, targets.end());
  EXPECT_EQ(found->extension, "spv");
  EXPECT_EQ(found->params.type, DeviceType::gpu);
}

TEST(LevelZeroPlugin, CompilesToSpirvThroughTheCore) {
  ASSERT_NE(level_zero_candidate(), nullptr) << describe_plugins(plugins());
  // The GPU machines have no clang-15: the compile tests say so rather than fail.
  if (const auto problem = level_zero::compiler_problem()) GTEST_SKIP() << *problem;
  const auto compiled =
      compile_for_target(APIID{"level_zero"}, "spirv64",
                         "KERNEL void fill(GLOBAL_MEM float *x) { x[get_global_id(0)] = 1; }");
  EXPECT_EQ(compiled.target, "spirv64");
  EXPECT_EQ(compiled.extension, "spv");
  ASSERT_GE(compiled.binary.size(), 20u);
  EXPECT_EQ(compiled.binary.size() % 4, 0u);
  std::uint32_t magic = 0;
  std::memcpy(&magic, compiled.binary.data(), sizeof(magic));
  EXPECT_EQ(magic, 0x07230203u);
  EXPECT_NE(compiled.source.find("fill"), std::string::npos);
  // Source the compiler refuses is a CompileError through the core too; a target that is not
  // the backend's is the core's LogicError.
  EXPECT_THROW(compile_for_target(APIID{"level_zero"}, "spirv64", "KERNEL void broken( {"),
               CompileError);
  EXPECT_THROW(compile_for_target(APIID{"level_zero"}, "gfx90a", "KERNEL void k() {}"), LogicError);
}

}  // namespace
}  // namespace plugin_state_test
}  // namespace plinth
