// New shapes and orders of arrays (include/plinth/array_shape.hpp): reshape as a view where
// numpy's rules allow one and as a copy otherwise (C and Fortran order), ravel, flatten,
// squeeze, expand_dims, swapaxes, moveaxis, broadcast_to, asfortranarray/ascontiguousarray,
// Fortran-order arrays through an expression, an axis sum and transfers, the named splits and
// dstack, and may_share_memory; each against the element it must hold, from a host reference.

#include "fixture.hpp"

#include <plinth/array_creation.hpp>
#include <plinth/array_expression.hpp>
#include <plinth/array_reductions.hpp>
#include <plinth/array_shape.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace array_views_test {
namespace {

using ArrayViewsTest = DeviceTest;
using Shape = std::vector<std::size_t>;

/// 0, 1, 2, ... as int32 in a new C-order array of `shape`.
Array counting(const Queue& queue, const Shape& shape) {
  std::size_t n = 1;
  for (const auto e : shape) n *= e;
  std::vector<std::int32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<std::int32_t>(i);
  return Array::from_host(queue, HostArray::from_values(values, shape));
}

std::vector<std::int32_t> values(const Queue& queue, const Array& array) {
  return array.get(queue).to_vector<std::int32_t>();
}

/// The elements of a C-order `shape` array of values 0, 1, ... read in Fortran order.
std::vector<std::int32_t> fortran_read(const Shape& shape) {
  std::size_t n = 1;
  for (const auto e : shape) n *= e;
  std::vector<std::int32_t> out(n);
  for (std::size_t f = 0; f < n; ++f) {
    std::size_t rest = f, c = 0, scale = 1;
    std::vector<std::size_t> index(shape.size());
    for (std::size_t d = 0; d < shape.size(); ++d) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    for (std::size_t d = shape.size(); d-- > 0;) {
      c += index[d] * scale;
      scale *= shape[d];
    }
    out[f] = static_cast<std::int32_t>(c);
  }
  return out;
}

TEST_P(ArrayViewsTest, ReshapeIsAViewWhereNumpysIs) {
  const auto a = counting(queue(), {2, 3, 4});
  const auto r = reshape(queue(), a, {4, -1});
  EXPECT_EQ(r.shape(), (Shape{4, 6}));
  EXPECT_TRUE(may_share_memory(r, a));
  EXPECT_EQ(values(queue(), r), values(queue(), a));
  // Every other row of each plane: (2, 2, 4) with gaps between rows, so splitting the last
  // axis is a view, (12,) and (4, 4) copies (numpy's a[:, ::2].reshape(...)).
  const auto rows = a.view({Slice::all(), Slice(std::nullopt, std::nullopt, 2)});
  const auto split_view = reshape(queue(), rows, {2, 2, 2, -1});
  EXPECT_TRUE(may_share_memory(split_view, a));
  EXPECT_EQ(values(queue(), split_view), values(queue(), rows));
  for (const auto& shape : {std::vector<std::ptrdiff_t>{-1}, std::vector<std::ptrdiff_t>{4, 4}}) {
    const auto copied = reshape(queue(), rows, shape);
    EXPECT_FALSE(may_share_memory(copied, a));
    EXPECT_TRUE(copied.is_c_contiguous());
    EXPECT_EQ(values(queue(), copied), values(queue(), rows));
  }
  EXPECT_NE(logic_error_message([&] { reshape_view(rows, {-1}); }).find("without a copy"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              reshape(queue(), a, {5, -1});
            }).find("shape (2, 3, 4) (24 elements) into shape (5, -1)"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              reshape(queue(), a, {-1, 2, -1});
            }).find("unknown"),
            std::string::npos);
  // Zero-dimensional and empty arrays.
  const auto scalar = reshape(queue(), counting(queue(), {1, 1}), {});
  EXPECT_EQ(scalar.shape(), Shape{});
  const auto empty = counting(queue(), {0, 4});
  EXPECT_EQ(reshape(queue(), empty, {2, 0, 3}).shape(), (Shape{2, 0, 3}));
  // numpy refuses an unknown extent beside a 0 (it could be anything).
  EXPECT_FALSE(logic_error_message([&] { reshape(queue(), empty, {2, 0, -1}); }).empty());
}

TEST_P(ArrayViewsTest, FortranOrderReshapesReadColumnsFirst) {
  const Shape shape{3, 4};
  const auto a = counting(queue(), shape);
  // numpy: a.reshape(-1, order='F') of a C array is a copy holding the columns one after another.
  const auto r = reshape(queue(), a, {-1}, Order::F);
  EXPECT_FALSE(may_share_memory(r, a));
  EXPECT_EQ(values(queue(), r), fortran_read(shape));
  // ... and a.reshape(2, 6, order='F') (F layout, which get() reads back in C order).
  const auto r2 = reshape(queue(), a, {2, 6}, Order::F);
  EXPECT_TRUE(r2.is_f_contiguous());
  const auto back = reshape(queue(), r2, {3, 4}, Order::F);
  EXPECT_TRUE(may_share_memory(back, r2));
  EXPECT_EQ(values(queue(), back), values(queue(), a));
  // asfortranarray copies once, then is a view of itself; F-order ravel is then a view.
  const auto f = asfortranarray(queue(), a);
  EXPECT_TRUE(f.is_f_contiguous());
  EXPECT_FALSE(may_share_memory(f, a));
  EXPECT_EQ(values(queue(), f), values(queue(), a));
  EXPECT_EQ(asfortranarray(queue(), f).first_element_buffer().native_handle(),
            f.first_element_buffer().native_handle());
  const auto fr = ravel(queue(), f, Order::F);
  EXPECT_TRUE(may_share_memory(fr, f));
  EXPECT_EQ(values(queue(), fr), fortran_read(shape));
  const auto cr = ravel(queue(), f);
  EXPECT_FALSE(may_share_memory(cr, f));
  EXPECT_EQ(values(queue(), cr), values(queue(), a));
  const auto c = ascontiguousarray(queue(), f);
  EXPECT_TRUE(c.is_c_contiguous());
  EXPECT_EQ(values(queue(), c), values(queue(), a));
  EXPECT_TRUE(may_share_memory(ascontiguousarray(queue(), a), a));
  // flatten always copies.
  const auto fl = flatten(queue(), a);
  EXPECT_FALSE(may_share_memory(fl, a));
  EXPECT_EQ(values(queue(), fl), values(queue(), a));
  EXPECT_EQ(asfortranarray(queue(), reshape(queue(), a.view({0, 0}), {})).shape(), Shape{1});
}

TEST_P(ArrayViewsTest, FortranArraysWorkEverywhere) {
  const Shape shape{5, 3};
  const auto a = counting(queue(), shape);
  // A transfer into and out of an F-order array.
  const auto f = Array::empty(queue(), shape, DType::int32(), Order::F);
  f.set(queue(), a.get(queue()));
  EXPECT_EQ(values(queue(), f), values(queue(), a));
  // An expression of F arrays, written into a C array and into an F array.
  const auto expected_twice = [&] {
    auto v = values(queue(), a);
    for (auto& x : v) x = 2 * x + 1;
    return v;
  }();
  EXPECT_EQ(values(queue(), evaluate(queue(), f * 2 + 1)), expected_twice);
  const auto out = Array::empty(queue(), shape, DType::int32(), Order::F);
  assign(queue(), out, f + f + 1);
  EXPECT_EQ(values(queue(), out), expected_twice);
  // Sums over each axis of an F array.
  const auto rows = sum(queue(), f, {.axis = {{1}}});
  const auto columns = sum(queue(), f, {.axis = {{0}}});
  const auto row_sums = rows.get(queue()).to_vector<std::int64_t>();
  const auto column_sums = columns.get(queue()).to_vector<std::int64_t>();
  for (std::size_t r = 0; r < 5; ++r) EXPECT_EQ(row_sums[r], static_cast<std::int64_t>(9 * r + 3));
  for (std::size_t c = 0; c < 3; ++c)
    EXPECT_EQ(column_sums[c], static_cast<std::int64_t>(30 + 5 * c));
  // A copy of an F array and a transpose of it.
  EXPECT_EQ(values(queue(), copy(queue(), f)), values(queue(), a));
  EXPECT_EQ(values(queue(), transpose(queue(), f)), values(queue(), transpose(queue(), a)));
}

TEST_P(ArrayViewsTest, SqueezeExpandSwapMoveAreViews) {
  const auto a = counting(queue(), {2, 1, 3, 1});
  EXPECT_EQ(squeeze(a).shape(), (Shape{2, 3}));
  EXPECT_EQ(squeeze(a, std::vector<std::ptrdiff_t>{-1}).shape(), (Shape{2, 1, 3}));
  EXPECT_EQ(values(queue(), squeeze(a)), values(queue(), a));
  EXPECT_NE(logic_error_message([&] { squeeze(a, std::vector<std::ptrdiff_t>{0}); }).find("not 1"),
            std::string::npos);
  const auto b = counting(queue(), {2, 3});
  EXPECT_EQ(expand_dims(b, 0).shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(expand_dims(b, -1).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(expand_dims(b, {0, -1, 2}).shape(), (Shape{1, 2, 1, 3, 1}));
  EXPECT_TRUE(expand_dims(b, {0, 2}).is_c_contiguous());
  EXPECT_EQ(values(queue(), expand_dims(b, {0, 2})), values(queue(), b));
  EXPECT_FALSE(logic_error_message([&] { expand_dims(b, {1, 1}); }).empty());
  EXPECT_FALSE(logic_error_message([&] { expand_dims(b, 3); }).empty());
  // swapaxes and moveaxis against an element-by-element reference.
  const Shape shape{2, 3, 4};
  const auto c = counting(queue(), shape);
  const auto s = swapaxes(c, 0, -1);
  EXPECT_EQ(s.shape(), (Shape{4, 3, 2}));
  const auto m = moveaxis(c, 0, -1);
  EXPECT_EQ(m.shape(), (Shape{3, 4, 2}));
  const auto m2 = moveaxis(c, {0, 1}, {-1, -3});
  EXPECT_EQ(m2.shape(), (Shape{3, 4, 2}));  // numpy: moveaxis(x, [0, 1], [-1, -3])
  const auto sv = values(queue(), s), mv = values(queue(), m), m2v = values(queue(), m2);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 4; ++k) {
        const auto v = static_cast<std::int32_t>((i * 3 + j) * 4 + k);
        wrong += sv[(k * 3 + j) * 2 + i] != v;
        wrong += mv[(j * 4 + k) * 2 + i] != v;
        wrong += m2v[(j * 4 + k) * 2 + i] != v;
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_FALSE(logic_error_message([&] { moveaxis(c, {0, 1}, {2}); }).empty());
  EXPECT_FALSE(logic_error_message([&] { swapaxes(c, 0, 3); }).empty());
}

TEST_P(ArrayViewsTest, BroadcastToRepeatsWithZeroStrides) {
  const auto row = counting(queue(), {3});
  const auto b = broadcast_to(row, {4, 3});
  EXPECT_EQ(b.strides(), (std::vector<std::ptrdiff_t>{0, 4}));
  const auto v = values(queue(), b);
  for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(v[i], static_cast<std::int32_t>(i % 3));
  const auto column = counting(queue(), {2, 1});
  EXPECT_EQ(values(queue(), broadcast_to(column, {2, 3})),
            (std::vector<std::int32_t>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(broadcast_to(row, {0, 3}).size(), 0u);
  EXPECT_NE(logic_error_message([&] {
              broadcast_to(row, {4, 2});
            }).find("shape (3,) does not broadcast to (4, 2)"),
            std::string::npos);
  EXPECT_FALSE(logic_error_message([&] { broadcast_to(column, {3}); }).empty());
}

TEST_P(ArrayViewsTest, NamedSplitsAndDstack) {
  const auto a = counting(queue(), {4, 6, 2});
  const auto h = hsplit(a, 3);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[1].shape(), (Shape{4, 2, 2}));
  EXPECT_EQ(values(queue(), h[1])[0], 4);
  const auto v = vsplit(a, std::vector<std::ptrdiff_t>{1});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].shape(), (Shape{3, 6, 2}));
  const auto d = dsplit(a, 2);
  EXPECT_EQ(d[1].shape(), (Shape{4, 6, 1}));
  EXPECT_EQ(values(queue(), d[1])[0], 1);
  EXPECT_EQ(hsplit(counting(queue(), {6}), 2)[1].shape(), Shape{3});
  EXPECT_NE(logic_error_message([&] {
              dsplit(counting(queue(), {2, 2}), 2);
            }).find("at least 3"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { vsplit(counting(queue(), {4}), 2); }).find("at least 2"),
            std::string::npos);
  // dstack of 1-D arrays: (1, n, 2); of 2-D arrays: (m, n, 2).
  const auto x = counting(queue(), {3});
  const std::vector<Array> ones_and_twos{x, x};
  const auto s = dstack(queue(), ones_and_twos);
  EXPECT_EQ(s.shape(), (Shape{1, 3, 2}));
  EXPECT_EQ(values(queue(), s), (std::vector<std::int32_t>{0, 0, 1, 1, 2, 2}));
  const auto y = counting(queue(), {2, 2});
  const std::vector<Array> planes{y, y, y};
  EXPECT_EQ(dstack(queue(), planes).shape(), (Shape{2, 2, 3}));
}

TEST_P(ArrayViewsTest, MayShareMemoryIsNumpysBoundsCheck) {
  const auto a = counting(queue(), {10});
  const auto evens = a.view({Slice(0, std::nullopt, 2)});
  const auto odds = a.view({Slice(1, std::nullopt, 2)});
  EXPECT_TRUE(may_share_memory(a, evens));
  EXPECT_TRUE(may_share_memory(evens, odds));  // interleaved: the bounds overlap
  EXPECT_FALSE(may_share_memory(a.view({Slice(0, 5)}), a.view({Slice(5, 10)})));
  EXPECT_FALSE(may_share_memory(a, counting(queue(), {10})));
  EXPECT_FALSE(may_share_memory(a.view({Slice(3, 3)}), a));
}

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayViewsTest);

}  // namespace
}  // namespace array_views_test
}  // namespace plinth::conformance
