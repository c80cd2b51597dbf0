// Strided arrays named outside the operation of an ElementwiseKernel or the map of a
// ReductionKernel: through a preamble macro, a `<%def>` of the preamble, or a render global
// that the operation renders. `name[i]` there is rewritten as in the operation (the results
// match the host); any other use of a strided array's name there is refused with a
// LogicError naming the array and where it is used; and a preamble function whose own
// parameter has an array's name is no use of the array at all. A use the kernel cannot see
// (a Snippet's text) does not compile. Never a silent wrong answer.

#include "fixture.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>
#include <plinth/module.hpp>
#include <plinth/reduction.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace strided_names_test {
namespace {

using StridedNamesTest = DeviceTest;

const DType i32 = DType::int32();

// 0, 1, ..., 63 on the device, and its view of every other element (0, 2, ..., 62).
struct EveryOther {
  Array base;
  Array view;
};

EveryOther every_other(const Queue& queue) {
  std::vector<std::int32_t> values(64);
  for (std::int32_t k = 0; k < 64; ++k) values[static_cast<std::size_t>(k)] = k;
  const auto base = Array::from_host(queue, HostArray::from_values(values));
  return {base, base.view({Slice(std::nullopt, std::nullopt, 2)})};
}

std::vector<std::int32_t> doubled_evens() {
  std::vector<std::int32_t> values(32);
  for (std::int32_t k = 0; k < 32; ++k) values[static_cast<std::size_t>(k)] = 4 * k;
  return values;
}

ElementwiseKernel doubling(const std::string& operation, const std::string& preamble,
                           RenderGlobals globals = {}) {
  return ElementwiseKernel({ElementwiseArg::output("y", i32), ElementwiseArg::input("x", i32)},
                           operation,
                           {.name = "doubling", .preamble = preamble, .render_globals = globals});
}

TEST_P(StridedNamesTest, ElementwiseRewritesMacrosDefsAndRenderGlobals) {
  const auto x = every_other(queue());
  const auto y = Array::empty(device(), {32}, i32);
  const std::vector<ElementwiseKernel> kernels{
      doubling("y[i] = 2 * LOAD", "#define LOAD x[i]"),
      doubling("y[i] = 2 * LOAD", "#define LOAD \\\n  (x [ i ])"),
      doubling("y[i] = 2 * ${load()}", "<%def name=\"load()\">x[i]</%def>"),
      doubling("y[i] = 2 * ${load}", "", {{"load", "x[i]"}}),
  };
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    SCOPED_TRACE(k);
    fill(queue(), y, 0);
    kernels[k](queue(), y, x.view);
    EXPECT_EQ(y.get(queue()).to_vector<std::int32_t>(), doubled_evens());
    // Contiguous arrays take the same kernel source unrewritten.
    const auto contiguous = Array::from_host(queue(), x.view.get(queue()));
    kernels[k](queue(), y, contiguous);
    EXPECT_EQ(y.get(queue()).to_vector<std::int32_t>(), doubled_evens());
  }
}

TEST_P(StridedNamesTest, ElementwiseRefusesOtherUsesOutsideTheOperation) {
  const auto x = every_other(queue());
  const auto y = Array::empty(device(), {32}, i32);
  const auto refused = [&](const ElementwiseKernel& kernel, const char* where) {
    const auto message = logic_error_message([&] { kernel(queue(), y, x.view); });
    EXPECT_NE(message.find("argument 'x'"), std::string::npos) << message;
    EXPECT_NE(message.find(where), std::string::npos) << message;
  };
  refused(doubling("y[i] = 2 * AT(i)", "#define AT(j) x[j]"), "preamble");
  refused(doubling("y[i] = 2 * ${at(\"i\")}", "<%def name=\"at(j)\">x[${j}]</%def>"), "preamble");
  refused(doubling("y[i] = 2 * ${load}", "", {{"load", "*(x + i)"}}), "render global 'load'");
  // A contiguous x is fine, whatever the preamble does with it.
  const auto contiguous = Array::from_host(queue(), x.view.get(queue()));
  const auto macro = doubling("y[i] = 2 * AT(i)", "#define AT(j) x[j]");
  macro(queue(), y, contiguous);
  EXPECT_EQ(y.get(queue()).to_vector<std::int32_t>(), doubled_evens());
}

TEST_P(StridedNamesTest, APreambleFunctionsOwnParameterIsNoUse) {
  const auto x = every_other(queue());
  const auto y = Array::empty(device(), {32}, i32);
  const auto kernel = doubling("y[i] = twice(x[i])",
                               "FUNCTION int twice(int x) { int x2[1] = {x}; return 2 * x2[0]; }\n"
                               "FUNCTION int unused(GLOBAL_MEM const int *x, int i) "
                               "{ return x[i]; }");
  kernel(queue(), y, x.view);
  EXPECT_EQ(y.get(queue()).to_vector<std::int32_t>(), doubled_evens());
}

// Text the kernel cannot look at (a Snippet's) is not rewritten; the kernel declares no
// variable under a strided array's own name, so such a use does not compile: a CompileError,
// never values read as if the array were contiguous.
TEST_P(StridedNamesTest, AUseThatIsNotRewrittenDoesNotCompile) {
  const auto x = every_other(queue());
  const auto y = Array::empty(device(), {32}, i32);
  const auto kernel =
      doubling("y[i] = 2 * ${load()}", "", {{"load", Snippet::from_string("x[i]", "load")}});
  EXPECT_THROW(kernel(queue(), y, x.view), CompileError);
  const auto contiguous = Array::from_host(queue(), x.view.get(queue()));
  kernel(queue(), y, contiguous);
  EXPECT_EQ(y.get(queue()).to_vector<std::int32_t>(), doubled_evens());

  const ReductionKernel sum(
      {ElementwiseArg::input("x", i32)}, i32, "0", "a + b", "${load()}",
      {.name = "sum_evens", .render_globals = {{"load", Snippet::from_string("x[i]", "load")}}});
  EXPECT_THROW(sum(queue(), x.view), CompileError);
  EXPECT_EQ(sum(queue(), contiguous).get(queue()).to_vector<std::int32_t>(),
            std::vector<std::int32_t>{992});
}

TEST_P(StridedNamesTest, ReductionRewritesAndRefusesAsElementwise) {
  const auto x = every_other(queue());
  const auto sum = [&](const std::string& map, const std::string& preamble) {
    return ReductionKernel({ElementwiseArg::input("x", i32)}, i32, "0", "a + b", map,
                           {.name = "sum_evens", .preamble = preamble});
  };
  // 0 + 2 + ... + 62.
  EXPECT_EQ(
      sum("LOAD", "#define LOAD x[i]")(queue(), x.view).get(queue()).to_vector<std::int32_t>(),
      std::vector<std::int32_t>{992});
  EXPECT_EQ(sum("${load()}", "<%def name=\"load()\">x[i]</%def>")(queue(), x.view)
                .get(queue())
                .to_vector<std::int32_t>(),
            std::vector<std::int32_t>{992});
  const auto message =
      logic_error_message([&] { sum("AT(i)", "#define AT(j) x[j]")(queue(), x.view); });
  EXPECT_NE(message.find("argument 'x'"), std::string::npos) << message;
  EXPECT_NE(message.find("preamble"), std::string::npos) << message;
}

PLINTH_INSTANTIATE_DEVICE_TEST(StridedNamesTest);

}  // namespace
}  // namespace strided_names_test
}  // namespace plinth::conformance
