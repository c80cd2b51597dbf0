// Copies whose input and output move fastest along different dimensions (the tiled copy of
// core/algorithms/tiled_copy.cpp) against host references, for elements of 1, 2, 4, 8 and
// 16 bytes and struct elements of other sizes: transposes of 2-D arrays of odd shapes and of
// 3-D arrays in every axis order, copies into transposed views, views with offsets and
// strided slices, copy_into and Array::set across overlapping views, joins along axis 1, and
// astype of transposed views (converted in the tile). The
// reference reads each view's elements through its metadata from the bytes uploaded.

#include "fixture.hpp"

#include <plinth/array_shape.hpp>

#include <fmt/format.h>

#include <plinth/array_expression.hpp>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace plinth::conformance {
namespace tiled_copy_test {
namespace {

using TiledCopyTest = DeviceTest;
using Shape = std::vector<std::size_t>;
using Bytes = std::vector<std::byte>;

std::vector<DType> element_dtypes() {
  return {
      DType::uint8(),
      DType::float16(),
      DType::float32(),
      DType::float64(),
      DType::complex128(),
      DType::make_struct({{"a", DType::uint8()}, {"b", DType::uint8()}, {"c", DType::uint8()}})};
}

Bytes random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  Bytes bytes(n);
  for (auto& b : bytes) b = static_cast<std::byte>(byte(generator));
  return bytes;
}

/// Calls `f` with the byte offset (from the base buffer) of every element of `view`, in C
/// order.
void for_each_element(const Array& view, const std::function<void(std::size_t)>& f) {
  const auto& shape = view.shape();
  if (view.size() == 0) return;
  std::vector<std::size_t> index(shape.size(), 0);
  while (true) {
    auto offset = static_cast<std::ptrdiff_t>(view.first_element_offset());
    for (std::size_t d = 0; d < shape.size(); ++d) {
      offset += static_cast<std::ptrdiff_t>(index[d]) * view.strides()[d];
    }
    f(static_cast<std::size_t>(offset));
    std::size_t d = shape.size();
    while (d > 0 && ++index[d - 1] == shape[d - 1]) index[--d] = 0;
    if (d == 0) return;
  }
}

/// The elements of `view` in C order, read from `base` (the bytes of its base buffer).
Bytes gather(const Array& view, const Bytes& base) {
  const auto itemsize = view.dtype().itemsize();
  Bytes out;
  for_each_element(view, [&](std::size_t offset) {
    out.insert(out.end(), base.begin() + static_cast<std::ptrdiff_t>(offset),
               base.begin() + static_cast<std::ptrdiff_t>(offset + itemsize));
  });
  return out;
}

/// `base` with the elements of `view` replaced by `values` (C order).
Bytes scatter(const Array& view, Bytes base, const Bytes& values) {
  const auto itemsize = view.dtype().itemsize();
  std::size_t n = 0;
  for_each_element(view, [&](std::size_t offset) {
    std::memcpy(base.data() + offset, values.data() + n, itemsize);
    n += itemsize;
  });
  return base;
}

Bytes bytes_of(const HostArray& host) {
  const auto* data = host.data();
  return Bytes(data, data + host.nbytes());
}

/// A new C-order device array of `shape` and `dtype` holding random bytes; `bytes` gets them.
Array upload(const Queue& queue, const Shape& shape, const DType& dtype, unsigned seed,
             Bytes& bytes) {
  std::size_t size = dtype.itemsize();
  for (const auto extent : shape) size *= extent;
  bytes = random_bytes(size, seed);
  return Array::from_host(queue, HostArray::from_bytes(bytes, shape, dtype));
}

/// How many elements of `got` (C order) differ from `expected`, in elements of `itemsize`.
std::size_t wrong_elements(const Bytes& got, const Bytes& expected, std::size_t itemsize) {
  if (got.size() != expected.size()) return std::max(got.size(), expected.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); i += itemsize) {
    wrong += std::memcmp(got.data() + i, expected.data() + i, itemsize) != 0 ? 1 : 0;
  }
  return wrong;
}

/// Checks copy(view) (C order) against the view's elements from `base`.
void expect_copy(const Queue& queue, const Array& view, const Bytes& base) {
  const auto result = copy(queue, view);
  EXPECT_TRUE(result.is_contiguous());
  EXPECT_EQ(result.shape(), view.shape());
  EXPECT_EQ(
      wrong_elements(bytes_of(result.get(queue)), gather(view, base), view.dtype().itemsize()), 0u);
}

TEST_P(TiledCopyTest, TransposesOf2DArraysOfOddShapes) {
  const std::vector<Shape> shapes = {{1, 1}, {1, 77}, {77, 1}, {33, 65}, {1000, 3}, {517, 1029}};
  unsigned seed = 1;
  for (const auto& dtype : element_dtypes()) {
    for (const auto& shape : shapes) {
      SCOPED_TRACE(fmt::format("{} {}x{}", dtype.name(), shape[0], shape[1]));
      Bytes bytes;
      const auto a = upload(queue(), shape, dtype, seed++, bytes);
      const auto t = transpose(queue(), a);
      ASSERT_EQ(t.shape(), (Shape{shape[1], shape[0]}));
      EXPECT_EQ(wrong_elements(bytes_of(t.get(queue())), gather(transposed_view(a), bytes),
                               dtype.itemsize()),
                0u);
    }
  }
}

TEST_P(TiledCopyTest, TransposesOf3DArraysInEveryAxisOrder) {
  const Shape shape{5, 33, 70};
  unsigned seed = 100;
  for (const auto& dtype : element_dtypes()) {
    Bytes bytes;
    const auto a = upload(queue(), shape, dtype, seed++, bytes);
    std::vector<std::ptrdiff_t> axes{0, 1, 2};
    do {
      SCOPED_TRACE(fmt::format("{} axes ({}, {}, {})", dtype.name(), axes[0], axes[1], axes[2]));
      const auto t = transpose(queue(), a, axes);
      EXPECT_EQ(wrong_elements(bytes_of(t.get(queue())), gather(transposed_view(a, axes), bytes),
                               dtype.itemsize()),
                0u);
    } while (std::next_permutation(axes.begin(), axes.end()));
  }
}

TEST_P(TiledCopyTest, ViewsWithOffsetsAndStridedSlices) {
  unsigned seed = 200;
  for (const auto& dtype : element_dtypes()) {
    SCOPED_TRACE(dtype.name());
    Bytes bytes;
    const auto m = upload(queue(), {70, 90}, dtype, seed++, bytes);
    // m[3:, 5:].T, m[:, ::2], m[::3, ::-2].T, m[60:2:-1, 1:].T
    expect_copy(queue(), transposed_view(m.view({Slice(3, std::nullopt), Slice(5, std::nullopt)})),
                bytes);
    expect_copy(queue(), m.view({Slice::all(), Slice(std::nullopt, std::nullopt, 2)}), bytes);
    expect_copy(queue(),
                transposed_view(m.view(
                    {Slice(std::nullopt, std::nullopt, 3), Slice(std::nullopt, std::nullopt, -2)})),
                bytes);
    expect_copy(queue(), transposed_view(m.view({Slice(60, 2, -1), Slice(1, std::nullopt)})),
                bytes);
    // A 4-D view whose two middle axes swap, with a batch dimension on each side.
    Bytes bytes4;
    const auto b = upload(queue(), {3, 20, 40, 2}, dtype, seed++, bytes4);
    expect_copy(queue(), transposed_view(b, std::vector<std::ptrdiff_t>{0, 2, 1, 3}), bytes4);
    expect_copy(queue(), transposed_view(b, std::vector<std::ptrdiff_t>{3, 1, 0, 2}), bytes4);
  }
}

TEST_P(TiledCopyTest, CopiesIntoTransposedViews) {
  unsigned seed = 300;
  for (const auto& dtype : element_dtypes()) {
    SCOPED_TRACE(dtype.name());
    Bytes src_bytes, dest_bytes;
    const auto src = upload(queue(), {38, 45}, dtype, seed++, src_bytes);
    const auto dest = upload(queue(), {50, 60}, dtype, seed++, dest_bytes);
    // dest[2:40, 7:52].T = src.T (both transposed: the same fastest dimension).
    const auto both = transposed_view(dest.view({Slice(2, 40), Slice(7, 52)}));
    copy_into(queue(), both, transposed_view(src));
    auto expected = scatter(both, dest_bytes, gather(transposed_view(src), src_bytes));
    EXPECT_EQ(wrong_elements(bytes_of(dest.get(queue())), expected, dtype.itemsize()), 0u);
    // dest[5:50, 10:48].T = src[::-1]: the fastest dimensions differ.
    const auto into = transposed_view(dest.view({Slice(5, 50), Slice(10, 48)}));
    const auto from = src.view({Slice(std::nullopt, std::nullopt, -1), Slice::all()});
    ASSERT_EQ(into.shape(), from.shape());
    copy_into(queue(), into, from);
    expected = scatter(into, expected, gather(from, src_bytes));
    EXPECT_EQ(wrong_elements(bytes_of(dest.get(queue())), expected, dtype.itemsize()), 0u);
  }
}

TEST_P(TiledCopyTest, CopyIntoOverlappingViews) {
  unsigned seed = 400;
  for (const auto& dtype : element_dtypes()) {
    SCOPED_TRACE(dtype.name());
    Bytes bytes;
    const auto m = upload(queue(), {64, 64}, dtype, seed++, bytes);
    // m[:] = m.T: every element is read before any is written.
    copy_into(queue(), m, transposed_view(m));
    auto expected = gather(transposed_view(m), bytes);
    EXPECT_EQ(wrong_elements(bytes_of(m.get(queue())), expected, dtype.itemsize()), 0u);
    // m[1:40, 3:50] = m[10:57, 20:59].T (overlapping, shifted).
    const auto dest = m.view({Slice(1, 40), Slice(3, 50)});
    const auto src = transposed_view(m.view({Slice(10, 57), Slice(20, 59)}));
    ASSERT_EQ(dest.shape(), src.shape());
    copy_into(queue(), dest, src);
    expected = scatter(dest, expected, gather(src, expected));
    EXPECT_EQ(wrong_elements(bytes_of(m.get(queue())), expected, dtype.itemsize()), 0u);
  }
}

TEST_P(TiledCopyTest, ArraySetBetweenViewsOfOneDevice) {
  unsigned seed = 600;
  for (const auto& dtype : element_dtypes()) {
    SCOPED_TRACE(dtype.name());
    Bytes m_bytes, n_bytes;
    const auto m = upload(queue(), {48, 52}, dtype, seed++, m_bytes);
    const auto n = upload(queue(), {52, 48}, dtype, seed++, n_bytes);
    // n[2:50, 1:40] = m[4:44, 3:51].T, then m[:40, :40] = m[8:48, 5:45].T (overlapping).
    const auto into = n.view({Slice(2, 50), Slice(1, 41)});
    const auto from = transposed_view(m.view({Slice(4, 44), Slice(3, 51)}));
    into.set(queue(), from);
    const auto n_expected = scatter(into, n_bytes, gather(from, m_bytes));
    EXPECT_EQ(wrong_elements(bytes_of(n.get(queue())), n_expected, dtype.itemsize()), 0u);
    const auto dest = m.view({Slice(0, 40), Slice(0, 40)});
    const auto src = transposed_view(m.view({Slice(8, 48), Slice(5, 45)}));
    dest.set(queue(), src, true);
    const auto m_expected = scatter(dest, m_bytes, gather(src, m_bytes));
    EXPECT_EQ(wrong_elements(bytes_of(m.get(queue())), m_expected, dtype.itemsize()), 0u);
  }
}

TEST_P(TiledCopyTest, JoinsAlongAxis1OfTransposedViews) {
  unsigned seed = 500;
  for (const auto& dtype : element_dtypes()) {
    SCOPED_TRACE(dtype.name());
    Bytes a_bytes, b_bytes;
    const auto a = upload(queue(), {37, 41}, dtype, seed++, a_bytes);
    const auto b = upload(queue(), {37, 41}, dtype, seed++, b_bytes);
    const auto at = transposed_view(a);
    const auto bt = transposed_view(b);
    const auto at_values = gather(at, a_bytes);
    const auto bt_values = gather(bt, b_bytes);
    const std::size_t itemsize = dtype.itemsize();
    // concatenate((a.T, b.T), axis=1): row r is a.T's row r, then b.T's.
    const auto joined = concatenate(queue(), {at, bt}, 1);
    ASSERT_EQ(joined.shape(), (Shape{41, 74}));
    Bytes expected;
    for (std::size_t r = 0; r < 41; ++r) {
      const auto row = static_cast<std::ptrdiff_t>(r * 37 * itemsize);
      const auto length = static_cast<std::ptrdiff_t>(37 * itemsize);
      expected.insert(expected.end(), at_values.begin() + row, at_values.begin() + row + length);
      expected.insert(expected.end(), bt_values.begin() + row, bt_values.begin() + row + length);
    }
    EXPECT_EQ(wrong_elements(bytes_of(joined.get(queue())), expected, itemsize), 0u);
    // stack((a, b), axis=1) and stack((a.T, b.T), axis=2): element (i, k, j) is array k's (i, j).
    for (const bool transposed : {false, true}) {
      const auto& x = transposed ? at : a;
      const auto& y = transposed ? bt : b;
      const auto stacked = stack(queue(), {x, y}, transposed ? 2 : 1);
      const auto& xv = transposed ? at_values : a_bytes;
      const auto& yv = transposed ? bt_values : b_bytes;
      const auto rows = x.shape()[0], cols = x.shape()[1];
      Bytes reference;
      for (std::size_t i = 0; i < rows; ++i) {
        if (transposed) {
          for (std::size_t j = 0; j < cols; ++j) {
            for (const auto* v : {&xv, &yv}) {
              const auto at_byte = static_cast<std::ptrdiff_t>((i * cols + j) * itemsize);
              reference.insert(reference.end(), v->begin() + at_byte,
                               v->begin() + at_byte + static_cast<std::ptrdiff_t>(itemsize));
            }
          }
        } else {
          for (const auto* v : {&xv, &yv}) {
            const auto row = static_cast<std::ptrdiff_t>(i * cols * itemsize);
            reference.insert(reference.end(), v->begin() + row,
                             v->begin() + row + static_cast<std::ptrdiff_t>(cols * itemsize));
          }
        }
      }
      EXPECT_EQ(wrong_elements(bytes_of(stacked.get(queue())), reference, itemsize), 0u)
          << (transposed ? "stack of transposed views, axis 2" : "stack, axis 1");
    }
  }
}

/// astype(queue, m.T) and astype of a 3-D view with its axes rotated, m holding `values`,
/// against `convert` of each element on the host.
template <class From, class To, class Convert>
void expect_astype(const Queue& queue, const std::vector<From>& values, Convert convert) {
  SCOPED_TRACE(fmt::format("{} to {}", dtype_of<From>().name(), dtype_of<To>().name()));
  const auto is_double = [](const DType& d) {
    return d == DType::float64() || d == DType::complex128();
  };
  if ((is_double(dtype_of<From>()) || is_double(dtype_of<To>())) &&
      !queue.device().params().supports_double) {
    GTEST_SKIP() << "the device has no double precision";
  }
  const std::size_t rows = 35, cols = values.size() / 35;
  const auto m = Array::from_host(queue, HostArray::from_values(values, {rows, cols}));
  const auto t = astype(queue, transposed_view(m), dtype_of<To>());
  ASSERT_EQ(t.shape(), (Shape{cols, rows}));
  const auto got = t.get(queue).template to_vector<To>();
  std::size_t wrong = 0;
  for (std::size_t j = 0; j < cols; ++j) {
    for (std::size_t i = 0; i < rows; ++i) {
      wrong += got[j * rows + i] == convert(values[i * cols + j]) ? 0 : 1;
    }
  }
  EXPECT_EQ(wrong, 0u);
  // (5, 7, cols) seen with axes (2, 0, 1).
  const auto cube = Array::from_host(queue, HostArray::from_values(values, {5, 7, cols}));
  const auto r =
      astype(queue, transposed_view(cube, std::vector<std::ptrdiff_t>{2, 0, 1}), dtype_of<To>());
  const auto rotated = r.get(queue).template to_vector<To>();
  wrong = 0;
  for (std::size_t k = 0; k < cols; ++k) {
    for (std::size_t i = 0; i < 5; ++i) {
      for (std::size_t j = 0; j < 7; ++j) {
        wrong += rotated[(k * 5 + i) * 7 + j] == convert(values[(i * 7 + j) * cols + k]) ? 0 : 1;
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
}

TEST_P(TiledCopyTest, AstypeOfTransposedViews) {
  const std::size_t n = 35 * 41;
  std::vector<std::int32_t> ints(n);
  std::vector<float> floats(n);
  std::vector<double> doubles(n);
  std::vector<std::uint8_t> bytes(n);
  std::vector<std::complex<float>> complexes(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto v = static_cast<std::int32_t>(k * 37 % 2001) - 1000;
    ints[k] = v;
    floats[k] = static_cast<float>(v) / 8.0f;
    doubles[k] = static_cast<double>(v) / 3.0;
    bytes[k] = static_cast<std::uint8_t>(k % 3 == 0 ? 0 : k % 256);
    complexes[k] = {static_cast<float>(v) / 4.0f, static_cast<float>(k % 9)};
  }
  expect_astype<std::int32_t, float>(queue(), ints,
                                     [](std::int32_t v) { return static_cast<float>(v); });
  expect_astype<float, double>(queue(), floats, [](float v) { return static_cast<double>(v); });
  expect_astype<double, std::int32_t>(queue(), doubles,
                                      [](double v) { return static_cast<std::int32_t>(v); });
  expect_astype<std::uint8_t, bool>(queue(), bytes, [](std::uint8_t v) { return v != 0; });
  expect_astype<std::int32_t, std::int8_t>(
      queue(), ints, [](std::int32_t v) { return static_cast<std::int8_t>(v); });
  expect_astype<float, std::complex<double>>(
      queue(), floats, [](float v) { return std::complex<double>(static_cast<double>(v), 0.0); });
  expect_astype<std::complex<float>, std::complex<double>>(
      queue(), complexes, [](std::complex<float> v) {
        return std::complex<double>(static_cast<double>(v.real()), static_cast<double>(v.imag()));
      });
}

TEST_P(TiledCopyTest, ConcatenateOfTransposedViewsOfMixedDtypes) {
  if (!queue().device().params().supports_double) {
    GTEST_SKIP() << "int32 and float32 join in float64, which the device lacks";
  }
  std::vector<std::int32_t> ints(6 * 50);
  std::vector<float> floats(6 * 50);
  for (std::size_t k = 0; k < ints.size(); ++k) {
    ints[k] = static_cast<std::int32_t>(k * 7 % 101);
    floats[k] = static_cast<float>(k) * 0.5f;
  }
  const auto a = Array::from_host(queue(), HostArray::from_values(ints, {6, 50}));
  const auto b = Array::from_host(queue(), HostArray::from_values(floats, {6, 50}));
  // concatenate((a.T, b.T), axis=1): float64 (numpy's result type), shape (50, 12).
  const auto joined = concatenate(queue(), {transposed_view(a), transposed_view(b)}, 1);
  ASSERT_EQ(joined.dtype(), DType::float64());
  ASSERT_EQ(joined.shape(), (Shape{50, 12}));
  const auto got = joined.get(queue()).to_vector<double>();
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < 50; ++r) {
    for (std::size_t c = 0; c < 12; ++c) {
      const double expected = c < 6 ? static_cast<double>(ints[c * 50 + r])
                                    : static_cast<double>(floats[(c - 6) * 50 + r]);
      wrong += got[r * 12 + c] == expected ? 0 : 1;
    }
  }
  EXPECT_EQ(wrong, 0u);
}

PLINTH_INSTANTIATE_DEVICE_TEST(TiledCopyTest);

}  // namespace
}  // namespace tiled_copy_test
}  // namespace plinth::conformance
