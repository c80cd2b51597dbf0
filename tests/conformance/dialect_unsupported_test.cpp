// What the dialect refuses at build time (docs/kernel-dialect.md, "Fences and barriers" and
// "What a device has"): an order or scope held in a variable is a CompileError (they are
// written literally), and a kernel that uses what its device lacks (64-bit integer atomics,
// double atomics, device-scope acquire/release) fails to build with a CompileError whose
// headline names the operation and the device, never runs with a wrong answer.

#include "dialect_support.hpp"

#include <string>
#include <vector>

namespace plinth::conformance {
namespace dialect_unsupported_test {
namespace {

using DialectUnsupportedTest = DeviceTest;

// The CompileError's message when `source` fails to build, else "(built)".
std::string compile_error(const Context& context, const std::string& source) {
  try {
    const Program program(context, source);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(built)";
}

TEST_P(DialectUnsupportedTest, OrdersAndScopesMustBeWrittenLiterally) {
  PLINTH_SKIP_WITHOUT_DIALECT();
  // The literal forms build (the control)...
  const Program literal(context(), R"(
KERNEL void literal(GLOBAL_MEM int *p)
{
    atomic_fence(MEM_ORDER_ACQ_REL, MEM_SCOPE_WORK_GROUP);
    atomic_fence(MEM_ORDER_RELAXED, MEM_SCOPE_DEVICE);
    p[1] = atomic_load_global_int(p, MEM_ORDER_RELAXED);
    atomic_store_global_int(p + 2, 1, MEM_ORDER_RELAXED);
}
)");
  // ...and the same with an order or a scope in a variable does not.
  for (const char* body :
       {"atomic_fence(order, MEM_SCOPE_WORK_GROUP);", "atomic_fence(MEM_ORDER_RELEASE, order);",
        "p[1] = atomic_load_global_int(p, order);",
        "atomic_store_local_int(cell, 1, order); p[0] = cell[0];"}) {
    SCOPED_TRACE(body);
    const std::string source = std::string(
                                   "KERNEL void variable(GLOBAL_MEM int *p, int order)\n{\n"
                                   "    LOCAL_MEM int cell[1];\n    ") +
                               body + "\n}\n";
    const std::string message = compile_error(context(), source);
    EXPECT_NE(message, "(built)");
  }
}

TEST_P(DialectUnsupportedTest, WhatTheDeviceLacksIsACompileErrorNamingIt) {
  PLINTH_SKIP_WITHOUT_DIALECT();
  const auto& f = device().features();
  struct Use {
    std::string operation;  // what the headline must name
    std::string statement;
  };
  std::vector<Use> uses;
  if (!f.int64_atomics) {
    uses.push_back({"atomic_add_global_long", "atomic_add_global_long(wide, 1);"});
    uses.push_back({"atomic_cmpxchg_local_ulong", "atomic_cmpxchg_local_ulong(cell, 0ul, 1ul);"});
  }
  if (device().params().supports_double && !f.double_atomics)
    uses.push_back({"atomic_add_global_double", "atomic_add_global_double(real, 1.0);"});
  if (!f.device_scope_acquire_release) {
    uses.push_back({"atomic_fence", "atomic_fence(MEM_ORDER_RELEASE, MEM_SCOPE_DEVICE);"});
    uses.push_back(
        {"atomic_load_global_int", "p[0] = atomic_load_global_int(p, MEM_ORDER_ACQUIRE);"});
    uses.push_back(
        {"atomic_store_global_int", "atomic_store_global_int(p, 1, MEM_ORDER_RELEASE);"});
  }
  if (uses.empty())
    GTEST_SKIP() << device().name() << " has every feature of the dialect; nothing to refuse";
  for (const auto& use : uses) {
    SCOPED_TRACE(use.statement);
    const std::string source =
        std::string("KERNEL void lacking(GLOBAL_MEM int *p, GLOBAL_MEM long *wide") +
        (device().params().supports_double ? ", GLOBAL_MEM double *real" : "") +
        ")\n{\n    LOCAL_MEM unsigned long cell[1];\n    " + use.statement + "\n}\n";
    const std::string message = compile_error(context(), source);
    ASSERT_NE(message, "(built)");
    const std::string headline = message.substr(0, message.find('\n'));
    EXPECT_NE(headline.find(use.operation), std::string::npos) << headline;
    EXPECT_NE(headline.find(device().name()), std::string::npos) << headline;
    EXPECT_NE(headline.find("does not support"), std::string::npos) << headline;
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(DialectUnsupportedTest);

}  // namespace
}  // namespace dialect_unsupported_test
}  // namespace plinth::conformance
