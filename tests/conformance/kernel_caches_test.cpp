// What plinth keeps of its generated kernels (kernel_caches.hpp): a Context's compiled
// programs live in the Context, so that a Context used by every kernel family goes with its
// last handle (before, the process-wide caches of expression, reduction and copy kernels kept
// every Context they had seen alive, with its programs and device memory); and
// clear_kernel_caches() drops them all.

#include "fixture.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_reductions.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/kernel_caches.hpp>
#include <plinth/random.hpp>
#include <plinth/reduction.hpp>
#include <plinth/scan.hpp>

#include <memory>
#include <vector>

namespace plinth::conformance {
namespace kernel_caches_test {
namespace {

using KernelCachesTest = DeviceTest;

const DType f32 = DType::float32();

TEST_P(KernelCachesTest, AContextGoesWithItsLastHandleAfterEveryKernelFamily) {
  std::weak_ptr<detail::ContextImpl> weak;
  {
    const auto context = Context::from_devices({GetParam()});
    weak = detail::Access::impl(context);
    const Queue queue(context.devices()[0]);
    std::vector<float> values(64 * 48);
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<float>(k % 17);
    const auto m = Array::from_host(queue, HostArray::from_values(values, {64, 48}));
    const auto x = m.view({0, Slice::all()});
    // Expressions, copies and transposes, reductions along axes, scans, random numbers, and
    // user kernels of each family.
    const auto e = evaluate(queue, 2 * ArrayExpression(m) + 1);
    const auto t = transpose(queue, m);
    const auto s = sum(queue, m, {.axis = {{0}}});
    const auto mx = max(queue, m);
    const auto c = cumsum(queue, x);
    const auto r = Array::empty(queue, {1000}, f32);
    RandomGenerator(42).uniform(queue, r);
    const ElementwiseKernel twice(
        {ElementwiseArg::output("y", f32), ElementwiseArg::input("x", f32)}, "y[i] = 2 * x[i]",
        {.name = "twice"});
    twice(queue, e, m);
    const ReductionKernel total({ElementwiseArg::input("x", f32)}, f32, "0", "a + b", "x[i]",
                                {.name = "total"});
    const auto u = total(queue, m);
    const ScanKernel running(f32, "a + b", "0", ScanKind::exclusive, {.name = "running"});
    running(queue, c);
    float expected = 0;
    for (std::size_t k = 0; k < 48; ++k) expected += values[k];
    EXPECT_EQ(sum(queue, x).get(queue).to_vector<float>().at(0), expected);
    queue.synchronize();
    EXPECT_GE(twice.cached_programs(), 1u);
  }
  EXPECT_TRUE(weak.expired()) << "a cache keeps the Context alive";
}

TEST_P(KernelCachesTest, ClearingDropsEveryProgramAndTheNextCallBuildsAgain) {
  const ElementwiseKernel twice({ElementwiseArg::output("y", f32), ElementwiseArg::input("x", f32)},
                                "y[i] = 2 * x[i]", {.name = "twice"});
  const auto x = Array::from_host(queue(), HostArray::from_values(std::vector<float>{1, 2, 3}));
  const auto y = Array::empty(queue(), {3}, f32);
  twice(queue(), y, x);
  EXPECT_EQ(twice.cached_programs(), 1u);
  const auto before = expression_cache_info();
  static_cast<void>(evaluate(queue(), ArrayExpression(x) * 3));
  EXPECT_GE(expression_cache_info().kernels, 1u);
  EXPECT_LE(before.kernels, expression_cache_info().capacity);

  clear_kernel_caches();
  EXPECT_EQ(twice.cached_programs(), 0u);
  EXPECT_EQ(expression_cache_info().kernels, 0u);
  twice(queue(), y, x);  // builds again (from the program cache where there is one)
  EXPECT_EQ(twice.cached_programs(), 1u);
  EXPECT_EQ(y.get(queue()).to_vector<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(evaluate(queue(), ArrayExpression(x) * 3).get(queue()).to_vector<float>(),
            (std::vector<float>{3, 6, 9}));
}

PLINTH_INSTANTIATE_DEVICE_TEST(KernelCachesTest);

}  // namespace
}  // namespace kernel_caches_test
}  // namespace plinth::conformance
