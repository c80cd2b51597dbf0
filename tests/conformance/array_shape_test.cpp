// Shape operations (include/plinth/array_shape.hpp) against host references on 3-D arrays:
// concatenate and stack along every axis (negative ones too), of views with negative strides
// and of mixed dtypes, hstack/vstack, split/array_split as views, transpose with every
// permutation, and misuse.

#include "fixture.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace array_shape_test {
namespace {

using ArrayShapeTest = DeviceTest;
using Shape = std::vector<std::size_t>;

// A C-order host array of int32 whose element at (i, j, k) is `base + 100 i + 10 j + k`.
std::vector<std::int32_t> numbered(const Shape& shape, std::int32_t base) {
  std::vector<std::int32_t> values(shape[0] * shape[1] * shape[2]);
  std::size_t n = 0;
  for (std::size_t i = 0; i < shape[0]; ++i) {
    for (std::size_t j = 0; j < shape[1]; ++j) {
      for (std::size_t k = 0; k < shape[2]; ++k) {
        values[n++] = base + static_cast<std::int32_t>(100 * i + 10 * j + k);
      }
    }
  }
  return values;
}

std::int32_t at(const std::vector<std::int32_t>& values, const Shape& shape,
                const std::array<std::size_t, 3>& index) {
  return values[(index[0] * shape[1] + index[1]) * shape[2] + index[2]];
}

TEST_P(ArrayShapeTest, ConcatenateAlongEveryAxis) {
  const Shape sa{2, 3, 4};
  const auto av = numbered(sa, 0);
  const auto a = Array::from_host(queue(), HostArray::from_values(av, sa));
  for (std::ptrdiff_t axis = -3; axis < 3; ++axis) {
    SCOPED_TRACE(axis);
    const auto ax = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
    Shape sb = sa;
    sb[ax] = 5;
    const auto bv = numbered(sb, 5000);
    const auto b = Array::from_host(queue(), HostArray::from_values(bv, sb));
    const auto r = concatenate(queue(), {a, b, a}, axis);
    Shape expected_shape = sa;
    expected_shape[ax] = 2 * sa[ax] + 5;
    ASSERT_EQ(r.shape(), expected_shape);
    EXPECT_EQ(r.dtype(), DType::int32());
    const auto got = r.get(queue()).to_vector<std::int32_t>();
    std::size_t n = 0, wrong = 0;
    for (std::size_t i = 0; i < expected_shape[0]; ++i) {
      for (std::size_t j = 0; j < expected_shape[1]; ++j) {
        for (std::size_t k = 0; k < expected_shape[2]; ++k) {
          std::array<std::size_t, 3> index{i, j, k};
          std::int32_t expected = 0;
          if (index[ax] < sa[ax]) {
            expected = at(av, sa, index);
          } else if (index[ax] < sa[ax] + 5) {
            index[ax] -= sa[ax];
            expected = at(bv, sb, index);
          } else {
            index[ax] -= sa[ax] + 5;
            expected = at(av, sa, index);
          }
          wrong += got[n++] != expected ? 1 : 0;
        }
      }
    }
    EXPECT_EQ(wrong, 0u);
  }
}

TEST_P(ArrayShapeTest, StackAlongEveryAxisOfViewsWithNegativeStrides) {
  const Shape sa{3, 4, 5};
  const auto av = numbered(sa, 0), bv = numbered(sa, 7000);
  const auto a = Array::from_host(queue(), HostArray::from_values(av, sa));
  const auto b = Array::from_host(queue(), HostArray::from_values(bv, sa));
  const auto flipped = a.view({Slice(std::nullopt, std::nullopt, -1)});  // a[::-1]
  for (std::ptrdiff_t axis = -4; axis < 4; ++axis) {
    SCOPED_TRACE(axis);
    const auto ax = static_cast<std::size_t>(axis < 0 ? axis + 4 : axis);
    const auto r = stack(queue(), {flipped, b}, axis);
    Shape expected_shape = sa;
    expected_shape.insert(expected_shape.begin() + static_cast<std::ptrdiff_t>(ax), 2);
    ASSERT_EQ(r.shape(), expected_shape);
    const auto got = r.get(queue()).to_vector<std::int32_t>();
    std::size_t n = 0, wrong = 0;
    std::array<std::size_t, 4> index{};
    for (index[0] = 0; index[0] < expected_shape[0]; ++index[0]) {
      for (index[1] = 0; index[1] < expected_shape[1]; ++index[1]) {
        for (index[2] = 0; index[2] < expected_shape[2]; ++index[2]) {
          for (index[3] = 0; index[3] < expected_shape[3]; ++index[3]) {
            std::array<std::size_t, 3> inner{};
            std::size_t m = 0;
            for (std::size_t d = 0; d < 4; ++d) {
              if (d != ax) inner[m++] = index[d];
            }
            std::int32_t expected = 0;
            if (index[ax] == 0) {
              inner[0] = sa[0] - 1 - inner[0];
              expected = at(av, sa, inner);
            } else {
              expected = at(bv, sa, inner);
            }
            wrong += got[n++] != expected ? 1 : 0;
          }
        }
      }
    }
    EXPECT_EQ(wrong, 0u);
  }
}

TEST_P(ArrayShapeTest, MixedDtypesJoinInTheirResultType) {
  const auto ints =
      Array::from_host(queue(), HostArray::from_values(std::vector<std::int32_t>{1, -2}));
  const auto floats = Array::from_host(queue(), HostArray::from_values(std::vector<float>{0.5f}));
  const auto bytes =
      Array::from_host(queue(), HostArray::from_values(std::vector<std::uint8_t>{200}));
  const auto small =
      concatenate(queue(), {bytes, bytes.view({Slice(std::nullopt, std::nullopt, -1)})});
  EXPECT_EQ(small.dtype(), DType::uint8());
  EXPECT_EQ(small.get(queue()).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{200, 200}));
  const auto mixed = concatenate(queue(), {bytes, ints});
  EXPECT_EQ(mixed.dtype(), DType::int32());
  EXPECT_EQ(mixed.get(queue()).to_vector<std::int32_t>(), (std::vector<std::int32_t>{200, 1, -2}));
  if (device().params().supports_double) {
    const auto r = concatenate(queue(), {ints, floats});
    EXPECT_EQ(r.dtype(), DType::float64());
    EXPECT_EQ(r.get(queue()).to_vector<double>(), (std::vector<double>{1, -2, 0.5}));
  }
}

TEST_P(ArrayShapeTest, HstackAndVstack) {
  const auto a = Array::from_host(queue(), HostArray::from_values(std::vector<float>{1, 2, 3}));
  const auto b = Array::from_host(queue(), HostArray::from_values(std::vector<float>{4, 5, 6}));
  const std::vector<Array> pair{a, b};
  const auto h = hstack(queue(), pair);
  EXPECT_EQ(h.shape(), (Shape{6}));
  EXPECT_EQ(h.get(queue()).to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  const auto v = vstack(queue(), pair);
  EXPECT_EQ(v.shape(), (Shape{2, 3}));
  EXPECT_EQ(v.get(queue()).to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  const std::vector<Array> rows{v, v};
  const auto h2 = hstack(queue(), rows);
  EXPECT_EQ(h2.shape(), (Shape{2, 6}));
  EXPECT_EQ(h2.get(queue()).to_vector<float>(),
            (std::vector<float>{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));
}

TEST_P(ArrayShapeTest, SplitGivesViews) {
  const Shape sa{2, 6, 3};
  const auto av = numbered(sa, 0);
  const auto a = Array::from_host(queue(), HostArray::from_values(av, sa));
  const auto parts = split(a, 3, 1);
  ASSERT_EQ(parts.size(), 3u);
  for (std::size_t p = 0; p < 3; ++p) {
    EXPECT_EQ(parts[p].shape(), (Shape{2, 2, 3}));
    const auto got = parts[p].get(queue()).to_vector<std::int32_t>();
    std::size_t n = 0;
    for (std::size_t i = 0; i < 2; ++i) {
      for (std::size_t j = 0; j < 2; ++j) {
        for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(got[n++], at(av, sa, {i, 2 * p + j, k}));
      }
    }
  }
  // Views: writing a part changes the array.
  fill(queue(), parts[1], 0);
  const auto after = a.get(queue()).to_vector<std::int32_t>();
  EXPECT_EQ(after[(0 * 6 + 2) * 3 + 0], 0);
  EXPECT_EQ(after[(1 * 6 + 3) * 3 + 2], 0);
  EXPECT_EQ(after[(1 * 6 + 4) * 3 + 2], at(av, sa, {1, 4, 2}));

  const std::ptrdiff_t indices[] = {1, -2, 10};
  const auto by_index = split(a, indices, -2);  // [0,1) [1,4) [4,6) [6,6)
  ASSERT_EQ(by_index.size(), 4u);
  EXPECT_EQ(by_index[0].shape(), (Shape{2, 1, 3}));
  EXPECT_EQ(by_index[1].shape(), (Shape{2, 3, 3}));
  EXPECT_EQ(by_index[2].shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(by_index[3].shape(), (Shape{2, 0, 3}));
  const auto uneven = array_split(a, 4, 1);  // 2, 2, 1, 1
  ASSERT_EQ(uneven.size(), 4u);
  EXPECT_EQ(uneven[0].shape()[1], 2u);
  EXPECT_EQ(uneven[3].shape()[1], 1u);
  EXPECT_EQ(uneven[3].get(queue()).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{at(av, sa, {0, 5, 0}), at(av, sa, {0, 5, 1}),
                                       at(av, sa, {0, 5, 2}), at(av, sa, {1, 5, 0}),
                                       at(av, sa, {1, 5, 1}), at(av, sa, {1, 5, 2})}));
  EXPECT_NE(logic_error_message([&] { split(a, 4, 1); }).find("4 sections do not divide"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { split(a, 2, 3); }).find("axis 3 is out of bounds"),
            std::string::npos);
}

// split with indices as numpy 2.4 splits np.arange(7) (results printed by numpy): each part
// is [d_k, d_k+1) of [0, indices..., 7] taken as a Python slice, so a decreasing index gives
// an empty part and the next part starts at the smaller index again; negative indices count
// from the end and out-of-range ones are clamped.
TEST_P(ArrayShapeTest, SplitByIndicesFollowsNumpy) {
  struct Case {
    std::vector<std::ptrdiff_t> indices;
    std::vector<std::vector<std::int32_t>> parts;
  };
  const std::vector<Case> cases{
      {{5, 2}, {{0, 1, 2, 3, 4}, {}, {2, 3, 4, 5, 6}}},
      {{3, 3}, {{0, 1, 2}, {}, {3, 4, 5, 6}}},
      {{2, 2, 5}, {{0, 1}, {}, {2, 3, 4}, {5, 6}}},
      {{0, 10, 3}, {{}, {0, 1, 2, 3, 4, 5, 6}, {}, {3, 4, 5, 6}}},
      {{-2, -5}, {{0, 1, 2, 3, 4}, {}, {2, 3, 4, 5, 6}}},
      {{-100, 4}, {{}, {0, 1, 2, 3}, {4, 5, 6}}},
      {{100, -100}, {{0, 1, 2, 3, 4, 5, 6}, {}, {0, 1, 2, 3, 4, 5, 6}}},
      {{6, 1, 4}, {{0, 1, 2, 3, 4, 5}, {}, {1, 2, 3}, {4, 5, 6}}},
      {{7, 7}, {{0, 1, 2, 3, 4, 5, 6}, {}, {}}},
      {{-1}, {{0, 1, 2, 3, 4, 5}, {6}}},
  };
  const std::vector<std::int32_t> values{0, 1, 2, 3, 4, 5, 6};
  const auto a = Array::from_host(queue(), HostArray::from_values(values));
  // The same numbers down axis 1 of a (2, 7) array: row r holds 10 r + column.
  std::vector<std::int32_t> rows;
  for (std::int32_t r = 0; r < 2; ++r) {
    for (const auto v : values) rows.push_back(10 * r + v);
  }
  const auto b = Array::from_host(queue(), HostArray::from_values(rows, {2, 7}));
  for (const auto& c : cases) {
    SCOPED_TRACE(fmt::format("indices [{}]", fmt::join(c.indices, ", ")));
    const auto parts = split(a, c.indices);
    const auto columns = split(b, c.indices, -1);
    ASSERT_EQ(parts.size(), c.parts.size());
    ASSERT_EQ(columns.size(), c.parts.size());
    for (std::size_t p = 0; p < parts.size(); ++p) {
      SCOPED_TRACE(p);
      const auto& expected = c.parts[p];
      EXPECT_EQ(parts[p].shape(), (Shape{expected.size()}));
      EXPECT_EQ(columns[p].shape(), (Shape{2, expected.size()}));
      if (expected.empty()) continue;
      EXPECT_EQ(parts[p].get(queue()).to_vector<std::int32_t>(), expected);
      auto expected_rows = expected;
      for (const auto v : expected) expected_rows.push_back(10 + v);
      EXPECT_EQ(columns[p].get(queue()).to_vector<std::int32_t>(), expected_rows);
    }
  }
}

TEST_P(ArrayShapeTest, TransposeEveryPermutation) {
  const Shape sa{2, 3, 4};
  const auto av = numbered(sa, 0);
  const auto a = Array::from_host(queue(), HostArray::from_values(av, sa));
  std::vector<std::ptrdiff_t> axes{0, 1, 2};
  do {
    SCOPED_TRACE(::testing::PrintToString(axes));
    const auto t = transpose(queue(), a, axes);
    EXPECT_TRUE(t.is_contiguous());
    const Shape expected_shape{sa[static_cast<std::size_t>(axes[0])],
                               sa[static_cast<std::size_t>(axes[1])],
                               sa[static_cast<std::size_t>(axes[2])]};
    ASSERT_EQ(t.shape(), expected_shape);
    const auto got = t.get(queue()).to_vector<std::int32_t>();
    std::size_t n = 0, wrong = 0;
    std::array<std::size_t, 3> index{};
    for (index[0] = 0; index[0] < expected_shape[0]; ++index[0]) {
      for (index[1] = 0; index[1] < expected_shape[1]; ++index[1]) {
        for (index[2] = 0; index[2] < expected_shape[2]; ++index[2]) {
          std::array<std::size_t, 3> source{};
          for (std::size_t d = 0; d < 3; ++d) source[static_cast<std::size_t>(axes[d])] = index[d];
          wrong += got[n++] != at(av, sa, source) ? 1 : 0;
        }
      }
    }
    EXPECT_EQ(wrong, 0u);
  } while (std::next_permutation(axes.begin(), axes.end()));
  // The default reverses the axes; negative axes count from the end.
  const auto reversed = transpose(queue(), a);
  EXPECT_EQ(reversed.shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(reversed.get(queue()).to_vector<std::int32_t>(),
            transpose(queue(), a, std::vector<std::ptrdiff_t>{-1, 1, 0})
                .get(queue())
                .to_vector<std::int32_t>());
  EXPECT_NE(logic_error_message([&] {
              transpose(queue(), a, std::vector<std::ptrdiff_t>{0, 0, 1});
            }).find("repeat axis 0"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              transpose(queue(), a, std::vector<std::ptrdiff_t>{0, 1});
            }).find("do not match"),
            std::string::npos);
}

TEST_P(ArrayShapeTest, MisuseIsALogicError) {
  const auto a = Array::empty(device(), {2, 3}, DType::float32());
  const auto b = Array::empty(device(), {2, 4}, DType::float32());
  EXPECT_NE(logic_error_message([&] {
              concatenate(queue(), {a, b}, 0);
            }).find("array 1 has shape (2, 4), array 0 (2, 3)"),
            std::string::npos);
  EXPECT_NO_THROW(concatenate(queue(), {a, b}, 1));
  EXPECT_NE(logic_error_message([&] {
              concatenate(queue(), {a, b}, 2);
            }).find("out of bounds"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              stack(queue(), {a, b});
            }).find("all must be equal"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              concatenate(queue(), std::span<const Array>{});
            }).find("at least one"),
            std::string::npos);
  const auto point = DType::make_struct({{"x", DType::float32()}});
  const auto points = Array::empty(device(), {2, 3}, point);
  EXPECT_NE(logic_error_message([&] {
              concatenate(queue(), {a, points});
            }).find("do not join"),
            std::string::npos);
  // Empty inputs join.
  const auto none = Array::empty(device(), {2, 0}, DType::float32());
  EXPECT_EQ(concatenate(queue(), {none, a}, 1).shape(), (Shape{2, 3}));
}

PLINTH_INSTANTIATE_DEVICE_TEST(ArrayShapeTest);

}  // namespace
}  // namespace array_shape_test
}  // namespace plinth::conformance
