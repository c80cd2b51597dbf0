// The kernel dialect's atomics, fences, sub-groups and vector loads in the HIP prelude
// (docs/kernel-dialect.md), compiled with hiprtc for named targets through the plugin's
// ApiAdapter (no GPU): every function for every type and space, without warnings, for a
// wavefront-64 (gfx90a) and a wavefront-32 (gfx1030) processor; orders that the dialect
// refuses; and what the targets support.

#include "../../conformance/dialect_every_function.hpp"
#include "api.hpp"
#include "code_object.hpp"
#include "device_parameters.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace plinth::hip {
namespace dialect_test {
namespace {

class HipDialect : public ::testing::Test {
 protected:
  backend::TargetBinary compile(std::string_view target, const std::string& source,
                                bool fast_math = false) {
    prelude_ = api_->prelude(fast_math);
    backend::ProgramInput input;
    input.prelude = prelude_;
    input.source = source;
    backend::BuildOptions options;
    options.fast_math = fast_math;
    return api_->compile_for_target(target, input, options);
  }
  // The CompileError's log where `source` fails to compile for gfx90a, or "compiled".
  std::string failure(const std::string& source) {
    try {
      compile("gfx90a", source);
    } catch (const CompileError& e) {
      return e.log();
    }
    return "compiled";
  }

  std::unique_ptr<backend::ApiAdapter> api_ = create_api();
  std::string prelude_;
};

TEST_F(HipDialect, CompilesEveryFunctionForEveryTypeAndSpaceWithoutWarnings) {
  const std::string source = plinth::testing::every_dialect_function_source;
  for (const char* target : {"gfx90a", "gfx1030"}) {
    const auto compiled = compile(target, source);
    EXPECT_EQ(code_object_problem(compiled.binary), "") << target;
    EXPECT_EQ(compiled.log.find("warning"), std::string::npos) << target << compiled.log;
  }
  const auto fast = compile("gfx90a", source, true);
  EXPECT_EQ(fast.log.find("warning"), std::string::npos) << fast.log;
}

TEST_F(HipDialect, AnOrderTheOperationDoesNotTakeFailsToCompile) {
  EXPECT_NE(failure("KERNEL void k(GLOBAL_MEM int *p)\n"
                    "{ p[1] = atomic_load_global_int(p, MEM_ORDER_RELEASE); }\n")
                .find("plinth_load_MEM_ORDER_RELEASE"),
            std::string::npos);
  EXPECT_NE(failure("KERNEL void k(GLOBAL_MEM float *p)\n"
                    "{ atomic_store_local_float(p, 1.0f, MEM_ORDER_ACQUIRE); }\n")
                .find("plinth_store_MEM_ORDER_ACQUIRE"),
            std::string::npos);
  EXPECT_NE(failure("KERNEL void k(GLOBAL_MEM int *p, int order)\n"
                    "{ atomic_fence(order, MEM_SCOPE_DEVICE); }\n")
                .find("plinth_fence_order_MEM_SCOPE_DEVICE"),
            std::string::npos);
}

TEST_F(HipDialect, SubGroupsAreTheWavefrontHiprtcCompilesFor) {
  const auto sizes = [&](const char* target) {
    DeviceFeatures features;
    api_->target_features(target, features);
    EXPECT_TRUE(features.atomics && features.int64_atomics && features.double_atomics);
    EXPECT_TRUE(features.device_scope_acquire_release);
    EXPECT_TRUE(features.native_sub_groups);
    EXPECT_FALSE(features.native_float_atomic_add);  // CAS loops without -munsafe-fp-atomics
    EXPECT_FALSE(features.native_double_atomic_add);
    EXPECT_FALSE(features.sub_group_independent_forward_progress);
    return features.sub_group_sizes;
  };
  EXPECT_EQ(sizes("gfx90a"), std::vector<std::size_t>{64});
  EXPECT_EQ(sizes("gfx90a:sramecc+:xnack-"), std::vector<std::size_t>{64});
  EXPECT_EQ(sizes("gfx1030"), std::vector<std::size_t>{32});
  EXPECT_EQ(features_for_wavefront(32).sub_group_sizes, std::vector<std::size_t>{32});
  // The prelude's sub-group size is hiprtc's warpSize: what the features promise.
  for (const auto& [target, size] : {std::pair{"gfx90a", "64"}, std::pair{"gfx1030", "32"}})
    EXPECT_NO_THROW(compile(target, std::string("static_assert(PLINTH_SG_W == ") + size +
                                        ", \"wavefront\");\nKERNEL void k() {}\n"))
        << target;
}

}  // namespace
}  // namespace dialect_test
}  // namespace plinth::hip
