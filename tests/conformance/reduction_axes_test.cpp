// numpy's axis, keepdims and out for every reduction of array_reductions.hpp (ReductionAxes):
// keepdims shapes and values, negative axes, axes out of bounds and given twice (numpy's
// AxisError wording), out arrays, and argmin/argmax's keepdims.

#include "fixture.hpp"

#include <plinth/array_reductions.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace reduction_axes_test {
namespace {

using ReductionAxesTest = DeviceTest;

using Reduce = std::function<Array(const Queue&, const Array&, const ReductionAxes&)>;

/// Every reduction of float32 arrays by name.
std::vector<std::pair<std::string, Reduce>> reductions() {
  return {
      {"sum", [](auto& q, auto& x, auto& a) { return sum(q, x, a); }},
      {"prod", [](auto& q, auto& x, auto& a) { return prod(q, x, a); }},
      {"min", [](auto& q, auto& x, auto& a) { return min(q, x, a); }},
      {"max", [](auto& q, auto& x, auto& a) { return max(q, x, a); }},
      {"any", [](auto& q, auto& x, auto& a) { return any(q, x, a); }},
      {"all", [](auto& q, auto& x, auto& a) { return all(q, x, a); }},
      {"mean", [](auto& q, auto& x, auto& a) { return mean(q, x, a); }},
      {"var", [](auto& q, auto& x, auto& a) { return var(q, x, a); }},
      {"std", [](auto& q, auto& x, auto& a) { return std(q, x, a, 1); }},
      {"nansum", [](auto& q, auto& x, auto& a) { return nansum(q, x, a); }},
      {"nanmin", [](auto& q, auto& x, auto& a) { return nanmin(q, x, a); }},
      {"nanmax", [](auto& q, auto& x, auto& a) { return nanmax(q, x, a); }},
  };
}

/// The bytes of a result, whatever its dtype (compared between keepdims and not).
std::vector<std::byte> bytes_of(const Queue& queue, const Array& a) {
  const auto host = a.get(queue);
  const auto block = host.block();
  return {block.begin() + static_cast<std::ptrdiff_t>(host.metadata().first_element_offset()),
          block.begin() +
              static_cast<std::ptrdiff_t>(host.metadata().first_element_offset() + host.nbytes())};
}

Array test_array(const Queue& queue) {
  std::vector<float> xs(2 * 3 * 4);
  for (std::size_t k = 0; k < xs.size(); ++k) xs[k] = 0.25f * static_cast<float>(k % 7) + 0.5f;
  return Array::from_host(queue, HostArray::from_values(xs, {2, 3, 4}));
}

TEST_P(ReductionAxesTest, KeepdimsAndNegativeAxesForEveryReduction) {
  const auto x = test_array(queue());
  using Shape = std::vector<std::size_t>;
  struct Case {
    std::vector<std::ptrdiff_t> axis, same;  // `same`: the axes with non-negative numbers
    Shape shape, kept;
  };
  const std::vector<Case> cases{
      {{-1}, {2}, {2, 3}, {2, 3, 1}},
      {{0, -1}, {0, 2}, {3}, {1, 3, 1}},
      {{-3, -2, -1}, {0, 1, 2}, {}, {1, 1, 1}},
      {{}, {}, {2, 3, 4}, {2, 3, 4}},
  };
  for (const auto& [name, reduce] : reductions()) {
    SCOPED_TRACE(name);
    for (const auto& c : cases) {
      SCOPED_TRACE(c.axis.size());
      const auto plain = reduce(queue(), x, {.axis = c.same});
      const auto negative = reduce(queue(), x, {.axis = c.axis});
      const auto kept = reduce(queue(), x, {.axis = c.axis, .keepdims = true});
      EXPECT_EQ(plain.shape(), c.shape);
      EXPECT_EQ(negative.shape(), c.shape);
      EXPECT_EQ(kept.shape(), c.kept);
      EXPECT_EQ(bytes_of(queue(), negative), bytes_of(queue(), plain));
      EXPECT_EQ(bytes_of(queue(), kept), bytes_of(queue(), plain));
      // Into an out array of the keepdims shape.
      const auto out = Array::empty(queue(), c.kept, kept.dtype());
      const auto returned = reduce(queue(), x, {.axis = c.axis, .keepdims = true, .out = out});
      EXPECT_TRUE(returned.base_buffer().overlaps(out.base_buffer()));
      EXPECT_EQ(bytes_of(queue(), out), bytes_of(queue(), plain));
    }
    // Without axes, keepdims gives (1, 1, 1).
    EXPECT_EQ(reduce(queue(), x, {.keepdims = true}).shape(), (Shape{1, 1, 1}));
    EXPECT_EQ(reduce(queue(), x, {}).shape(), Shape{});
  }
}

TEST_P(ReductionAxesTest, BadAxesAreRefusedAsNumpy) {
  const auto x = test_array(queue());
  for (const auto& [name, reduce] : reductions()) {
    SCOPED_TRACE(name);
    EXPECT_EQ(logic_error_message([&] { reduce(queue(), x, {.axis = {{3}}}); }),
              name + ": axis 3 is out of bounds for array of dimension 3");
    EXPECT_EQ(logic_error_message([&] {
                reduce(queue(), x, {.axis = {{0, -4}}});
              }),
              name + ": axis -4 is out of bounds for array of dimension 3");
    EXPECT_NE(logic_error_message([&] {
                reduce(queue(), x, {.axis = {{1, -2}}});
              }).find("duplicate value in 'axis'"),
              std::string::npos);
    const auto wrong_shape = Array::empty(queue(), {2, 3}, reduce(queue(), x, {}).dtype());
    EXPECT_NE(logic_error_message([&] {
                reduce(queue(), x, {.axis = {{-1}}, .keepdims = true, .out = wrong_shape});
              }).find("shape"),
              std::string::npos);
    const auto wrong_dtype = Array::empty(queue(), {2, 3}, DType::int16());
    EXPECT_NE(logic_error_message([&] {
                reduce(queue(), x, {.axis = {{-1}}, .out = wrong_dtype});
              }).find("int16"),
              std::string::npos);
  }
}

TEST_P(ReductionAxesTest, ArgminAndArgmaxKeepdims) {
  const auto x = test_array(queue());
  for (const bool is_min : {true, false}) {
    const auto arg = [&](std::optional<std::ptrdiff_t> axis, bool keepdims) {
      return is_min ? argmin(queue(), x, axis, keepdims) : argmax(queue(), x, axis, keepdims);
    };
    const auto whole = arg(std::nullopt, true);
    EXPECT_EQ(whole.shape(), (std::vector<std::size_t>{1, 1, 1}));
    EXPECT_EQ(whole.get(queue()).to_vector<std::int64_t>(),
              arg(std::nullopt, false).get(queue()).to_vector<std::int64_t>());
    const auto along = arg(-2, true);
    EXPECT_EQ(along.shape(), (std::vector<std::size_t>{2, 1, 4}));
    EXPECT_EQ(along.get(queue()).to_vector<std::int64_t>(),
              arg(1, false).get(queue()).to_vector<std::int64_t>());
    EXPECT_EQ(logic_error_message([&] { arg(3, true); }),
              std::string(is_min ? "argmin" : "argmax") +
                  ": axis 3 is out of bounds for array of dimension 3");
  }
}

}  // namespace

PLINTH_INSTANTIATE_DEVICE_TEST(ReductionAxesTest);

}  // namespace reduction_axes_test
}  // namespace plinth::conformance
