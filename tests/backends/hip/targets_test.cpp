// The targets comgr lists and the checking of target IDs: nothing unknown to this
// installation's comgr may reach hiprtc, which corrupts the heap on it.

#include "targets.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace plinth::hip {
namespace targets_test {
namespace {

bool listed(const std::string& name) {
  const auto& list = isas();
  return std::any_of(list.begin(), list.end(), [&](const Isa& isa) { return isa.name == name; });
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(HipTargets, ComgrListsProcessorsWithoutItsPrefix) {
  ASSERT_FALSE(isas().empty());
  EXPECT_TRUE(listed("gfx90a"));
  EXPECT_TRUE(listed("gfx1030"));
  for (const auto& isa : isas()) {
    EXPECT_TRUE(isa.name.starts_with("gfx")) << isa.name;
    EXPECT_EQ(isa.name.find(':'), std::string::npos) << isa.name;
  }
  const auto& gfx90a = *std::find_if(isas().begin(), isas().end(),
                                     [](const Isa& isa) { return isa.name == "gfx90a"; });
  EXPECT_NE(std::find(gfx90a.features.begin(), gfx90a.features.end(), "xnack"),
            gfx90a.features.end());
  EXPECT_NE(std::find(gfx90a.features.begin(), gfx90a.features.end(), "sramecc"),
            gfx90a.features.end());
}

TEST(HipTargets, AcceptsKnownProcessorsAndTheirFeatures) {
  for (const char* target : {"gfx90a", "gfx908", "gfx1030", "gfx90a:sramecc+:xnack-",
                             "gfx90a:xnack+", "gfx906:xnack-:sramecc+", "gfx900:xnack+"})
    EXPECT_EQ(target_problem(target), std::nullopt) << target << ": " << *target_problem(target);
  EXPECT_EQ(processor_of("gfx90a:sramecc+:xnack-"), "gfx90a");
  EXPECT_EQ(processor_of("gfx1030"), "gfx1030");
}

TEST(HipTargets, RefusesUnknownProcessorsNamingThemAndWhatIsSupported) {
  for (const char* target : {"gfx942", "gfx1100", "gfx940", "sm_90", "", "gfx90a\n", "GFX90A"}) {
    if (listed(target)) continue;  // a newer comgr than Debian's HIP 5.2 has
    const auto problem = target_problem(target);
    ASSERT_TRUE(problem.has_value()) << target;
    EXPECT_TRUE(contains(*problem, "'" + std::string(target) + "'")) << *problem;
    EXPECT_TRUE(contains(*problem, "gfx90a")) << *problem;  // the supported list
    EXPECT_TRUE(contains(*problem, comgr_version())) << *problem;
  }
}

TEST(HipTargets, RefusesFeaturesTheProcessorDoesNotTake) {
  // hiprtc 5.2 aborts ("munmap_chunk(): invalid pointer") on each of these.
  for (const char* target :
       {"gfx1030:xnack+", "gfx1030:sramecc+", "gfx803:sramecc+", "gfx90a:bogus+", "gfx90a:xnack",
        "gfx90a:xnack+:xnack-", "gfx90a:", "gfx90a::xnack+", "gfx90a:+", "gfx90a:xnack*"}) {
    const auto problem = target_problem(target);
    ASSERT_TRUE(problem.has_value()) << target;
    EXPECT_TRUE(contains(*problem, "'" + std::string(target) + "'")) << *problem;
  }
  EXPECT_TRUE(contains(*target_problem("gfx1030:xnack+"), "no feature 'xnack'"));
  EXPECT_TRUE(contains(*target_problem("gfx90a:xnack+:xnack-"), "given twice"));
  EXPECT_TRUE(contains(*target_problem("gfx90a:bogus+"), "sramecc, xnack"));
}

TEST(HipTargets, WavefrontSizeFollowsTheGeneration) {
  EXPECT_EQ(default_wavefront_size("gfx600"), 64u);
  EXPECT_EQ(default_wavefront_size("gfx803"), 64u);
  EXPECT_EQ(default_wavefront_size("gfx90a"), 64u);
  EXPECT_EQ(default_wavefront_size("gfx942"), 64u);
  EXPECT_EQ(default_wavefront_size("gfx1010"), 32u);
  EXPECT_EQ(default_wavefront_size("gfx1030"), 32u);
  EXPECT_EQ(default_wavefront_size("gfx1100"), 32u);
}

TEST(HipTargets, CompileTargetsAreComgrsListWithNominalParameters) {
  const auto targets = compile_targets();
  ASSERT_EQ(targets.size(), isas().size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const auto& target = targets[i];
    EXPECT_EQ(target.name, isas()[i].name);
    EXPECT_EQ(target.extension, "hsaco");
    EXPECT_TRUE(target.description.starts_with("AMD GPU code object for " + target.name))
        << target.description;
    EXPECT_EQ(target.params.type, DeviceType::gpu);
    EXPECT_EQ(target.params.warp_size, default_wavefront_size(target.name));
    EXPECT_EQ(target.params.local_mem_size, 65536u);
    EXPECT_EQ(target.params.max_total_local_size, 1024u);
    EXPECT_EQ(target.params.max_local_sizes, (std::vector<std::size_t>{1024, 1024, 1024}));
    EXPECT_EQ(target.params.max_num_groups, (std::vector<std::size_t>{2147483647, 65535, 65535}));
    EXPECT_TRUE(target.params.supports_double);
    EXPECT_EQ(target.params.compute_capability, target.name);
    EXPECT_TRUE(target.params.driver_version.empty());
  }
  const auto gfx90a = std::find_if(targets.begin(), targets.end(),
                                   [](const auto& target) { return target.name == "gfx90a"; });
  ASSERT_NE(gfx90a, targets.end());
  EXPECT_EQ(gfx90a->description, "AMD GPU code object for gfx90a (CDNA 2; wavefront 64)");
  EXPECT_EQ(target_description("gfx1030"),
            "AMD GPU code object for gfx1030 (RDNA 2; wavefront 32)");
}

}  // namespace
}  // namespace targets_test
}  // namespace plinth::hip
