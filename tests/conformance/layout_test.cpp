// Every layout kind the layout planner (core/algorithms/kit/layout_plan.hpp) tells apart, run
// through ElementwiseKernel and array expressions on each device, against the host: arrays
// contiguous and aligned (vector loads and stores), contiguous but not aligned (one element
// at a time), transposed alike (the dimensions reordered until every array is contiguous),
// strided with 32-bit offsets, broadcast through zero strides, reversed, and a kernel whose
// operation uses `i` itself (the dimensions keep their order). Each case also checks, in the
// program's source, that the kind it meant was chosen. Last, sizes beyond 2^31 on devices
// with the memory for them (not PoCL: too slow there), where 32-bit offsets would be wrong.

#include "fixture.hpp"
#include "large_device.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/elementwise.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace layout_test {
namespace {

using LayoutTest = DeviceTest;

const DType f32 = DType::float32();
const DType u8 = DType::uint8();

/// A rows x cols float32 matrix on the device: element (r, c) is r * 1000 + c.
Array matrix(const Queue& queue, std::size_t rows, std::size_t cols) {
  std::vector<float> values(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) values[r * cols + c] = static_cast<float>(r * 1000 + c);
  }
  return Array::from_host(queue, HostArray::from_values(values, {rows, cols}));
}

std::vector<float> values_of(const Queue& queue, const Array& array) {
  return array.get(queue).to_vector<float>();
}

/// y = 2x + 1, elementwise; `writes_every_element` as given.
ElementwiseKernel affine(bool promise) {
  return ElementwiseKernel({ElementwiseArg::output("y", f32), ElementwiseArg::input("x", f32)},
                           "y[i] = 2 * x[i] + 1",
                           {.name = "affine", .writes_every_element = promise});
}

/// Checks y == 2x + 1 element for element (both read back in row-major order).
void expect_affine(const Queue& queue, const Array& y, const Array& x) {
  const auto ys = values_of(queue, y), xs = values_of(queue, x);
  ASSERT_EQ(ys.size(), xs.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < ys.size(); ++k) wrong += ys[k] == 2 * xs[k] + 1 ? 0 : 1;
  EXPECT_EQ(wrong, 0u);
}

bool has(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

TEST_P(LayoutTest, ContiguousAlignedArraysMoveAsVectors) {
  for (const bool promise : {false, true}) {
    SCOPED_TRACE(promise);
    const auto kernel = affine(promise);
    const auto x = matrix(queue(), 37, 29);  // 1073 elements: a tail after the vectors
    const auto y = Array::empty(queue(), {37, 29}, f32);
    kernel(queue(), y, x);
    expect_affine(queue(), y, x);
    const std::vector<ElementwiseValue> args{y, x};
    const auto source = kernel.program(queue(), args).source();
    EXPECT_TRUE(has(source, "_elw_u1.v = ")) << "x is not loaded as vectors";
    EXPECT_EQ(has(source, "= _elw_u0.v"), promise) << "y's vector stores";
  }
}

TEST_P(LayoutTest, ContiguousArraysOffByAnElementRunOneAtATime) {
  const auto kernel = affine(true);
  const auto base = matrix(queue(), 1, 1001);
  const auto x = base.view({0, Slice(1, 1001)});  // 4 bytes into its buffer
  const auto y = Array::empty(queue(), {1000}, f32);
  kernel(queue(), y, x);
  expect_affine(queue(), y, x);
  const std::vector<ElementwiseValue> args{y, x};
  // No vector union (_elw_u<k>); the prelude's own helpers may use unions.
  EXPECT_FALSE(has(kernel.program(queue(), args).source(), "_elw_u"));
}

TEST_P(LayoutTest, ArraysTransposedAlikeAreWalkedInMemoryOrder) {
  const auto kernel = affine(false);
  const auto x = transposed_view(matrix(queue(), 30, 50));
  const auto y = transposed_view(Array::empty(queue(), {30, 50}, f32));
  kernel(queue(), y, x);
  expect_affine(queue(), y, x);
  const std::vector<ElementwiseValue> args{y, x};
  EXPECT_FALSE(has(kernel.program(queue(), args).source(), "_elw_s1_")) << "not reordered";
  // An expression too.
  const auto z = transposed_view(Array::empty(queue(), {30, 50}, f32));
  assign(queue(), z, 2 * ArrayExpression(x) + 1);
  expect_affine(queue(), z, x);
}

TEST_P(LayoutTest, AnOperationUsingTheIndexKeepsTheOrder) {
  const ElementwiseKernel kernel(
      {ElementwiseArg::output("y", f32), ElementwiseArg::input("x", f32)}, "y[i] = x[i] + i",
      {.name = "with_index"});
  const auto x = transposed_view(matrix(queue(), 6, 7));
  const auto y = transposed_view(Array::empty(queue(), {6, 7}, f32));
  kernel(queue(), y, x);
  const auto ys = values_of(queue(), y), xs = values_of(queue(), x);
  for (std::size_t k = 0; k < ys.size(); ++k) {
    EXPECT_EQ(ys[k], xs[k] + static_cast<float>(k)) << k;  // i is the row-major index
  }
  const std::vector<ElementwiseValue> args{y, x};
  EXPECT_TRUE(has(kernel.program(queue(), args).source(), "_elw_s1_"));
}

TEST_P(LayoutTest, AnArrayUsedOtherThanAsXiKeepsTheOrder) {
  // x is contiguous and read at another index than i: i must stay the row-major index, though
  // y is a transposed view that reordering would walk in memory order.
  const ElementwiseKernel kernel({ElementwiseArg::output("y", f32), ElementwiseArg::input("x", f32),
                                  ElementwiseArg::scalar("n", DType::uint64())},
                                 "y[i] = x[(i + 1) % n]", {.name = "next"});
  const auto x = matrix(queue(), 7, 6);
  const auto y = transposed_view(Array::empty(queue(), {6, 7}, f32));
  kernel(queue(), y, x, std::uint64_t{42});
  const auto ys = values_of(queue(), y), xs = values_of(queue(), x);
  for (std::size_t k = 0; k < ys.size(); ++k) EXPECT_EQ(ys[k], xs[(k + 1) % 42]) << k;
}

TEST_P(LayoutTest, StridedViewsUse32BitOffsets) {
  const auto kernel = affine(false);
  const auto m = matrix(queue(), 33, 64);
  for (const auto& x :
       {m.view({Slice::all(), Slice(std::nullopt, std::nullopt, 2)}),
        m.view({Slice(std::nullopt, std::nullopt, -1), Slice(5, 60, 3)}), transposed_view(m)}) {
    SCOPED_TRACE(x.shape()[0]);
    const auto y = Array::empty(queue(), x.shape(), f32);
    kernel(queue(), y, x);
    expect_affine(queue(), y, x);
    const std::vector<ElementwiseValue> args{y, x};
    const auto source = kernel.program(queue(), args).source();
    EXPECT_TRUE(has(source, "_elw_s1_0")) << "x is not strided";
    EXPECT_TRUE(has(source, "int _elw_o1 = 0")) << "no 32-bit offsets";
    const auto z = evaluate(queue(), 2 * ArrayExpression(x) + 1);
    expect_affine(queue(), z, x);
  }
}

TEST_P(LayoutTest, BroadcastArraysStepByZero) {
  const auto column = matrix(queue(), 40, 1), row = matrix(queue(), 1, 70);
  const ElementwiseKernel add({ElementwiseArg::output("z", f32), ElementwiseArg::input("a", f32),
                               ElementwiseArg::input("b", f32)},
                              "z[i] = a[i] + b[i]", {.name = "add"});
  const auto sum = Array::empty(queue(), {40, 70}, f32);
  add(queue(), sum, column, row);
  const std::vector<ElementwiseValue> args{sum, column, row};
  const auto source = add.program(queue(), args).source();
  EXPECT_TRUE(has(source, "_elw_m1")) << "no 32-bit division";
  EXPECT_TRUE(has(source, "_elw_s1_1") && has(source, "_elw_s2_0"));
  const auto values = values_of(queue(), sum);
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < 40; ++r) {
    for (std::size_t c = 0; c < 70; ++c) {
      wrong += values[r * 70 + c] == static_cast<float>(r * 1000 + c) ? 0 : 1;
    }
  }
  EXPECT_EQ(wrong, 0u);
  const auto expression = evaluate(queue(), ArrayExpression(column) + ArrayExpression(row));
  EXPECT_EQ(values_of(queue(), expression), values);
}

// --- beyond 2^31 elements or bytes ---

/// The uint8 values of the contiguous `array` at the flat indices `at` (read through small
/// views of it seen as 1-D).
std::vector<int> bytes_at(const Queue& queue, const Array& array, std::vector<std::size_t> at) {
  const auto flat = Array::from_buffer(
      array.base_buffer(),
      ArrayMetadata({array.size()}, array.dtype(), std::nullopt, array.first_element_offset()));
  std::vector<int> out;
  for (const auto k : at) {
    const auto one =
        flat.view({Slice(static_cast<std::ptrdiff_t>(k), static_cast<std::ptrdiff_t>(k + 1))});
    out.push_back(copy(queue, one).get(queue).to_vector<std::uint8_t>().at(0));
  }
  return out;
}

TEST_P(LayoutTest, IndicesBeyond31BitsAreExact) {
  if (!large_device(device())) GTEST_SKIP() << "needs 12 GiB of device memory and not PoCL";
  // 2^31 + 2^17 bytes: the flat index and the offsets pass 2^31.
  const std::size_t n = (std::size_t{1} << 31) + (std::size_t{1} << 17);
  const auto big = Array::empty(queue(), {n}, u8);
  fill(queue(), big, 7);
  big.view({Slice(static_cast<std::ptrdiff_t>(n - 2), std::nullopt)})
      .set(queue(), HostArray::from_values(std::vector<std::uint8_t>{200, 201}));
  const auto plus = evaluate(queue(), ArrayExpression(big) + std::uint8_t{1});
  EXPECT_EQ(bytes_at(queue(), plus, {0, n / 2, n - 3, n - 2, n - 1}),
            (std::vector<int>{8, 8, 8, 201, 202}));
  // Every other byte: 2^30 + 2^16 elements reaching past 2^31.
  const auto every_other = big.view({Slice(std::nullopt, std::nullopt, 2)});
  const auto doubled = evaluate(queue(), ArrayExpression(every_other) * std::uint8_t{2});
  EXPECT_EQ(doubled.size(), n / 2);
  EXPECT_EQ(bytes_at(queue(), doubled, {0, n / 2 - 2, n / 2 - 1}), (std::vector<int>{14, 14, 144}));
  // A transposed 32769 x 65537 matrix: more than 2^31 elements, walked with divisions.
  const std::size_t rows = 32769, cols = 65537;
  const auto m = Array::from_buffer(big.base_buffer(), ArrayMetadata({rows, cols}, u8));
  fill(queue(), m.view({Slice(rows - 1, rows), Slice::all()}), 9);  // the last row
  const auto t = evaluate(queue(), ArrayExpression(transposed_view(m)) + std::uint8_t{1});
  ASSERT_EQ(t.shape(), (std::vector<std::size_t>{cols, rows}));
  // t[c, r] = m[r, c] + 1: the last column of t is the last row of m.
  EXPECT_EQ(bytes_at(queue(), t, {0, rows - 1, cols * rows - 1, cols * rows - rows}),
            (std::vector<int>{8, 10, 10, 8}));
}

PLINTH_INSTANTIATE_DEVICE_TEST(LayoutTest);

}  // namespace
}  // namespace layout_test
}  // namespace plinth::conformance
