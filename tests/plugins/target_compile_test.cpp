// Compiling for a named target (SDK 1.3, include/plinth/compile.hpp), through the core's
// public calls, on the host test backends: hostv13 offers the targets "host-a" and
// "host-b:fast+" (host_backend.cpp); hostv12 predates compiling for targets.
// The real backends' targets (NVRTC, hiprtc) are checked by tests/targets/.

#include <plinth/plinth.hpp>

#include "error_message.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace plinth {
namespace target_compile_test {
namespace {

std::string text_of(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

using plinth::test::message_of;

TEST(TargetCompile, ListsTheBackendsTargetsAndDropsUnusableNames) {
  const auto targets = compile_targets(APIID{"hostv13"});
  ASSERT_EQ(targets.size(), 2U);  // "bad name/.." is refused by the core
  EXPECT_EQ(targets[0].name, "host-a");
  EXPECT_EQ(targets[0].extension, "hosta");
  EXPECT_EQ(targets[0].params.warp_size, 7U);
  EXPECT_EQ(targets[1].name, "host-b:fast+");
  EXPECT_EQ(targets[1].description, "the second test target");
}

TEST(TargetCompile, RendersWithTheTargetsParametersAndReturnsTheBinary) {
  ProgramOptions options;
  options.render_globals.emplace("n", 3);
  options.constant_arrays.push_back({"table", "float", 4, 4});
  const auto result = compile_for_target(
      APIID{"hostv13"}, "host-b:fast+",
      "KERNEL void k() { int w = ${device_params.warp_size}; int n = ${n}; }", options);
  EXPECT_EQ(result.api, APIID{"hostv13"});
  EXPECT_EQ(result.target, "host-b:fast+");
  EXPECT_EQ(result.extension, "hostb");
  EXPECT_EQ(text_of(result.binary),
            "host-b:fast+\n#define KERNEL\n\nfloat table[4];\n"
            "KERNEL void k() { int w = 64; int n = 3; }");
  EXPECT_EQ(result.source, "#define KERNEL\n\nKERNEL void k() { int w = 64; int n = 3; }");
  EXPECT_EQ(result.log, "");
  EXPECT_TRUE(result.kept_directory.empty());
}

// A target's DeviceFeatures come from target_features() (SDK 1.5), into CompileTarget and
// device_params; before 1.5 they promise nothing.
TEST(TargetCompile, TargetsCarryTheirFeaturesFrom1_5) {
  const auto targets = compile_targets(APIID{"hostv15"});
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_TRUE(targets[0].features.atomics);
  EXPECT_FALSE(targets[0].features.native_sub_groups);
  EXPECT_TRUE(targets[1].features.native_sub_groups);
  EXPECT_EQ(targets[1].features.sub_group_sizes, std::vector<std::size_t>{64});
  const auto result =
      compile_for_target(APIID{"hostv15"}, "host-b:fast+",
                         "${device_params.native_sub_groups} ${device_params.atomics}");
  EXPECT_EQ(result.source, "#define KERNEL\n\ntrue true");
  for (const auto& old : compile_targets(APIID{"hostv13"})) {
    EXPECT_FALSE(old.features.atomics) << old.name;
    EXPECT_TRUE(old.features.sub_group_sizes.empty()) << old.name;
  }
}

TEST(TargetCompile, NoPreludeFastMathAndKeep) {
  ProgramOptions options;
  options.no_prelude = true;
  options.fast_math = true;
  options.keep = true;
  const auto result = compile_for_target(APIID{"hostv13"}, "host-a", "void f() {}", options);
  EXPECT_EQ(text_of(result.binary), "host-a\nvoid f() {}");
  EXPECT_EQ(result.log, "fast math on");
  ASSERT_FALSE(result.kept_directory.empty());
  std::ifstream kept(std::filesystem::path(result.kept_directory) / "program.host");
  std::stringstream text;
  text << kept.rdbuf();
  EXPECT_EQ(text.str(), "void f() {}");
  std::filesystem::remove_all(result.kept_directory);
}

TEST(TargetCompile, AnUnknownTargetIsRefusedWithTheOffer) {
  const auto message = message_of<LogicError>(
      [] { compile_for_target(APIID{"hostv13"}, "host-c", "KERNEL void k() {}"); });
  EXPECT_NE(message.find("has no compile target 'host-c'"), std::string::npos) << message;
  EXPECT_NE(message.find("host-a, host-b:fast+"), std::string::npos) << message;
  // The name the core refused from the plugin's list is not reachable either.
  EXPECT_NE(message_of<LogicError>([] {
              compile_for_target(APIID{"hostv13"}, "bad name/..", "KERNEL void k() {}");
            }).find("has no compile target"),
            std::string::npos);
}

TEST(TargetCompile, CompileErrorsCarryTheNumberedSource) {
  const auto message = message_of<CompileError>(
      [] { compile_for_target(APIID{"hostv13"}, "host-a", "KERNEL void k() {}\n#error no"); });
  EXPECT_NE(message.find("#error in the source"), std::string::npos) << message;
  EXPECT_NE(message.find("4 | #error no"), std::string::npos) << message;
}

TEST(TargetCompile, TheDeviceParamsGlobalIsReserved) {
  ProgramOptions options;
  options.render_globals.emplace("device_params", 1);
  EXPECT_NE(message_of<LogicError>([&] {
              compile_for_target(APIID{"hostv13"}, "host-a", "x", options);
            }).find("reserved"),
            std::string::npos);
}

TEST(TargetCompile, RenderErrorsAreRenderErrors) {
  EXPECT_THROW(compile_for_target(APIID{"hostv13"}, "host-a", "${missing}"), RenderError);
}

TEST(TargetCompile, PluginsBeforeSdk13AreRefusedNamingTheirVersion) {
  const auto message = message_of<LogicError>([] { compile_targets(APIID{"hostv12"}); });
  EXPECT_NE(message.find("SDK 1.2"), std::string::npos) << message;
  EXPECT_NE(message.find("SDK 1.3"), std::string::npos) << message;
}

TEST(TargetCompile, UnknownApisAreRefusedWithTheCandidates) {
  const auto message = message_of<PluginError>([] { compile_targets(APIID{"nosuchapi"}); });
  EXPECT_NE(message.find("unknown API 'nosuchapi'"), std::string::npos) << message;
  EXPECT_NE(message.find("hostv13"), std::string::npos) << message;
}

}  // namespace
}  // namespace target_compile_test
}  // namespace plinth
