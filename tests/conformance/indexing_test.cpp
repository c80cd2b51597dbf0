// take, put, gather and scatter against host references of numpy's rules: flat and along an
// axis, every index mode with negative and out-of-range indices, empty index arrays, 0-d
// arrays and indices, index dtypes int8 … uint64 and bool, non-contiguous views as input and
// output, struct and float16 elements; one array, several broadcast arrays (adjacent or not),
// integers among arrays, bool masks, basic indexing; and misuse (LogicError naming it).

#include "fixture.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/indexing.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace indexing_test {
namespace {

using IndexingTest = DeviceTest;

/// 0, 1, 2, ... as int32, of `shape`.
Array iota(const Queue& queue, std::vector<std::size_t> shape) {
  std::size_t n = 1;
  for (const auto e : shape) n *= e;
  std::vector<std::int32_t> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = static_cast<std::int32_t>(k);
  return Array::from_host(queue, HostArray::from_values(v, std::move(shape)));
}

template <class T>
Array make(const Queue& queue, const std::vector<T>& v, std::vector<std::size_t> shape) {
  return Array::from_host(queue, HostArray::from_values(v, std::move(shape)));
}

template <class T = std::int32_t>
std::vector<T> values(const Queue& queue, const Array& a) {
  return a.get(queue).to_vector<T>();
}

std::string message_of(const std::function<void()>& call) { return logic_error_message(call); }

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

TEST_P(IndexingTest, TakeFlatFollowsNumpyInEveryIndexDtype) {
  const auto a = iota(queue(), {3, 4});
  const auto check = [&]<class I>(std::vector<I> idx, std::vector<std::int32_t> expected) {
    SCOPED_TRACE(dtype_of<I>().name());
    const auto got = take(queue(), a, make(queue(), idx, {2, 2}));
    EXPECT_EQ(got.shape(), (std::vector<std::size_t>{2, 2}));
    EXPECT_EQ(values(queue(), got), expected);
  };
  check(std::vector<std::int64_t>{0, 11, -1, -12}, {0, 11, 11, 0});
  check(std::vector<std::int8_t>{5, -3, 7, 1}, {5, 9, 7, 1});
  check(std::vector<std::uint8_t>{5, 3, 7, 11}, {5, 3, 7, 11});
  check(std::vector<std::int16_t>{-5, 3, 7, 10}, {7, 3, 7, 10});
  check(std::vector<std::uint16_t>{0, 1, 2, 3}, {0, 1, 2, 3});
  check(std::vector<std::int32_t>{-7, 3, 7, 10}, {5, 3, 7, 10});
  check(std::vector<std::uint32_t>{4, 4, 4, 4}, {4, 4, 4, 4});
  check(std::vector<std::uint64_t>{9, 8, 7, 6}, {9, 8, 7, 6});
}

TEST_P(IndexingTest, TakeAlongAnAxisPutsTheIndexShapeThere) {
  const auto a = iota(queue(), {2, 3, 4});
  const auto idx = make<std::int64_t>(queue(), {2, -3, 0}, {3});
  const auto t1 = take(queue(), a, idx, 1);
  ASSERT_EQ(t1.shape(), (std::vector<std::size_t>{2, 3, 4}));
  std::vector<std::int32_t> expected;
  for (int p = 0; p < 2; ++p)
    for (const int j : {2, 0, 0})
      for (int q = 0; q < 4; ++q) expected.push_back((p * 3 + j) * 4 + q);
  EXPECT_EQ(values(queue(), t1), expected);
  const auto idx2 = make<std::int32_t>(queue(), {3, 0, -1, 1}, {2, 2});
  const auto t2 = take(queue(), a, idx2, -1);
  ASSERT_EQ(t2.shape(), (std::vector<std::size_t>{2, 3, 2, 2}));
  expected.clear();
  for (int r = 0; r < 6; ++r)
    for (const int j : {3, 0, 3, 1}) expected.push_back(r * 4 + j);
  EXPECT_EQ(values(queue(), t2), expected);
  const auto t0 = take(queue(), a, make<std::int64_t>(queue(), {1}, {}), 0);  // 0-d index
  ASSERT_EQ(t0.shape(), (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ(values(queue(), t0)[0], 12);
}

TEST_P(IndexingTest, IndexModesRaiseWrapAndClipAsNumpy) {
  const auto a = iota(queue(), {12});
  const auto idx = make<std::int64_t>(queue(), {-13, 12, 25, -1, 3}, {5});
  EXPECT_EQ(values(queue(), take(queue(), a, idx, std::nullopt, IndexMode::wrap)),
            (std::vector<std::int32_t>{11, 0, 1, 11, 3}));
  EXPECT_EQ(values(queue(), take(queue(), a, idx, std::nullopt, IndexMode::clip)),
            (std::vector<std::int32_t>{0, 11, 11, 0, 3}));
  const auto m = message_of([&] { take(queue(), a, idx); });
  EXPECT_TRUE(has(m, "is out of bounds for axis 0 with size 12")) << m;
  const auto big = make<std::uint64_t>(queue(), {~0ULL, 12}, {2});
  EXPECT_EQ(values(queue(), take(queue(), a, big, std::nullopt, IndexMode::wrap)),
            (std::vector<std::int32_t>{static_cast<std::int32_t>(~0ULL % 12), 0}));
  EXPECT_EQ(values(queue(), take(queue(), a, big, std::nullopt, IndexMode::clip)),
            (std::vector<std::int32_t>{11, 11}));
  const auto mu = message_of([&] { take(queue(), a, make<std::uint64_t>(queue(), {~0ULL}, {1})); });
  EXPECT_TRUE(has(mu, "index 18446744073709551615 is out of bounds")) << mu;
  const auto m2 = message_of([&] {
    take(queue(), iota(queue(), {2, 3}), make<std::int8_t>(queue(), {-4}, {1}), 1);
  });
  EXPECT_TRUE(has(m2, "index -4 is out of bounds for axis 1 with size 3")) << m2;
  // Still usable after a raise.
  EXPECT_EQ(values(queue(), take(queue(), a, make<std::int64_t>(queue(), {-12}, {1}))),
            (std::vector<std::int32_t>{0}));
}

TEST_P(IndexingTest, EmptyAndZeroDimensionalCases) {
  const auto a = iota(queue(), {2, 3, 4});
  const auto none = make<std::int64_t>(queue(), {}, {0});
  EXPECT_EQ(take(queue(), a, none).shape(), (std::vector<std::size_t>{0}));
  EXPECT_EQ(take(queue(), a, none, 1).shape(), (std::vector<std::size_t>{2, 0, 4}));
  const auto scalar = make<std::int32_t>(queue(), {7}, {});
  const auto t = take(queue(), scalar, make<std::int64_t>(queue(), {0, -1, 0}, {3}));
  EXPECT_EQ(values(queue(), t), (std::vector<std::int32_t>{7, 7, 7}));
  const auto t0 = take(queue(), a, make<std::int64_t>(queue(), {-1}, {}));
  EXPECT_EQ(t0.shape(), (std::vector<std::size_t>{}));
  EXPECT_EQ(values(queue(), t0), (std::vector<std::int32_t>{23}));
  const auto empty = Array::empty(queue(), {0, 3}, DType::int32());
  EXPECT_TRUE(has(message_of([&] { take(queue(), empty, make<std::int64_t>(queue(), {0}, {1})); }),
                  "size 0"));
  EXPECT_EQ(take(queue(), empty, none, 0).shape(), (std::vector<std::size_t>{0, 3}));
  put(queue(), a, none, make<std::int32_t>(queue(), {1}, {1}));  // nothing to write
  EXPECT_EQ(values(queue(), a)[0], 0);
}

TEST_P(IndexingTest, NonContiguousViewsAsInputAndOutput) {
  const auto a = iota(queue(), {4, 6});
  // Rows reversed, every other column from 1: view (r, c) is a[3 - r, 1 + 2c].
  const auto v = a.view({Slice(std::nullopt, std::nullopt, -1), Slice(1, std::nullopt, 2)});
  const auto idx_base = make<std::int64_t>(queue(), {2, 9, 0, 9, -1, 9}, {6});
  const auto idx = idx_base.view({Slice(0, std::nullopt, 2)});  // 2, 0, -1
  std::vector<std::int32_t> expected;
  for (int r = 0; r < 4; ++r)
    for (const int c : {2, 0, 2}) expected.push_back((3 - r) * 6 + 1 + 2 * c);
  EXPECT_EQ(values(queue(), take(queue(), v, idx, 1)), expected);
  // put into the view: flat positions 0, 5, -1 of v are a[3, 1], a[2, 5], a[0, 5].
  put(queue(), v, make<std::int64_t>(queue(), {0, 5, -1}, {3}),
      make<std::int32_t>(queue(), {-1, -2}, {2}));
  auto got = values(queue(), a);
  EXPECT_EQ(got[3 * 6 + 1], -1);
  EXPECT_EQ(got[2 * 6 + 5], -2);
  EXPECT_EQ(got[0 * 6 + 5], -1);  // values repeat cyclically
  EXPECT_EQ(got[0 * 6 + 4], 4);
  // scatter into a transposed view.
  const auto b = iota(queue(), {3, 4});
  const auto bt = transposed_view(b);
  scatter(queue(), bt, {make<std::int64_t>(queue(), {1, 3}, {2})},
          make<std::int32_t>(queue(), {100, 101, 102}, {3}));
  got = values(queue(), b);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(got[r * 4 + 1], 100 + r);
    EXPECT_EQ(got[r * 4 + 3], 100 + r);
    EXPECT_EQ(got[r * 4 + 2], r * 4 + 2);
  }
}

TEST_P(IndexingTest, StructAndFloat16ElementsAreCopiedAsBytes) {
  const auto point =
      DType::make_struct({{"x", DType::float32()}, {"y", DType::int32()}, {"z", DType::int32()}});
  ASSERT_EQ(point.itemsize(), 12u);
  std::vector<std::int32_t> words(3 * 5);
  for (std::size_t k = 0; k < words.size(); ++k) words[k] = static_cast<std::int32_t>(k * 7 + 1);
  const auto s =
      Array::from_host(queue(), HostArray::from_bytes(std::as_bytes(std::span(words)), {5}, point));
  const auto idx = make<std::int64_t>(queue(), {4, 0, -2}, {3});
  const auto host = take(queue(), s, idx).get(queue());
  std::vector<std::int32_t> got(9);
  std::memcpy(got.data(), host.data(), 36);
  for (int k = 0; k < 3; ++k) {
    const int row = std::vector<int>{4, 0, 3}[static_cast<std::size_t>(k)];
    for (int w = 0; w < 3; ++w) EXPECT_EQ(got[k * 3 + w], words[row * 3 + w]);
  }
  std::vector<std::uint16_t> halves{0x3c00, 0x4000, 0x7e00, 0x8000};
  const auto h = Array::from_host(
      queue(), HostArray::from_bytes(std::as_bytes(std::span(halves)), {4}, DType::float16()));
  const auto hh = gather(queue(), h, {make<std::int32_t>(queue(), {3, 2, 1}, {3})}).get(queue());
  std::vector<std::uint16_t> got16(3);
  std::memcpy(got16.data(), hh.data(), 6);
  EXPECT_EQ(got16, (std::vector<std::uint16_t>{0x8000, 0x7e00, 0x4000}));
}

TEST_P(IndexingTest, GatherFollowsNumpysAdvancedIndexing) {
  const auto x = iota(queue(), {3, 4, 5});
  const auto at = [](int i, int j, int k) { return (i * 4 + j) * 5 + k; };
  const auto i21 = make<std::int64_t>(queue(), {2, -3}, {2, 1});
  const auto j3 = make<std::int16_t>(queue(), {0, 4, 2}, {3});
  {  // x[:, idx, :]: one array in the middle.
    const auto g = gather(queue(), x, {Slice(), make<std::int64_t>(queue(), {3, -4}, {2})});
    ASSERT_EQ(g.shape(), (std::vector<std::size_t>{3, 2, 5}));
    std::vector<std::int32_t> e;
    for (int i = 0; i < 3; ++i)
      for (const int j : {3, 0})
        for (int k = 0; k < 5; ++k) e.push_back(at(i, j, k));
    EXPECT_EQ(values(queue(), g), e);
  }
  {  // x[i, :, j]: not adjacent, B = (2, 3) first.
    const auto g = gather(queue(), x, {i21, Slice(), j3});
    ASSERT_EQ(g.shape(), (std::vector<std::size_t>{2, 3, 4}));
    std::vector<std::int32_t> e;
    for (const int i : {2, 0})
      for (const int k : {0, 4, 2})
        for (int j = 0; j < 4; ++j) e.push_back(at(i, j, k));
    EXPECT_EQ(values(queue(), g), e);
  }
  {  // x[1, :, j]: the integer is an index array too, so B = (3,) comes first.
    const auto g = gather(queue(), x, {1, Slice(), j3});
    ASSERT_EQ(g.shape(), (std::vector<std::size_t>{3, 4}));
    std::vector<std::int32_t> e;
    for (const int k : {0, 4, 2})
      for (int j = 0; j < 4; ++j) e.push_back(at(1, j, k));
    EXPECT_EQ(values(queue(), g), e);
  }
  {  // x[0:3:2, i, j]: adjacent arrays broadcast to (2, 3) in their place.
    const auto g =
        gather(queue(), x, {Slice(0, 3, 2), make<std::int64_t>(queue(), {1, 3}, {2, 1}), j3});
    ASSERT_EQ(g.shape(), (std::vector<std::size_t>{2, 2, 3}));
    std::vector<std::int32_t> e;
    for (const int i : {0, 2})
      for (const int j : {1, 3})
        for (const int k : {0, 4, 2}) e.push_back(at(i, j, k));
    EXPECT_EQ(values(queue(), g), e);
  }
  {  // x[mask] with a (3, 4) mask: (count, 5).
    std::vector<std::uint8_t> flags(12, 0);
    flags[1] = flags[6] = flags[11] = 1;
    const auto mask = Array::from_host(
        queue(), HostArray::from_bytes(std::as_bytes(std::span(flags)), {3, 4}, DType::boolean()));
    const auto g = gather(queue(), x, {mask});
    ASSERT_EQ(g.shape(), (std::vector<std::size_t>{3, 5}));
    std::vector<std::int32_t> e;
    for (const int f : {1, 6, 11})
      for (int k = 0; k < 5; ++k) e.push_back(at(f / 4, f % 4, k));
    EXPECT_EQ(values(queue(), g), e);
  }
  {  // basic indexing: a copy of the view.
    const auto g = gather(queue(), x, {2, Slice(1, 3)});
    ASSERT_EQ(g.shape(), (std::vector<std::size_t>{2, 5}));
    EXPECT_EQ(values(queue(), g)[0], at(2, 1, 0));
  }
  {  // empty index array.
    const auto g = gather(queue(), x, {Slice(), make<std::int64_t>(queue(), {}, {0})});
    EXPECT_EQ(g.shape(), (std::vector<std::size_t>{3, 0, 5}));
  }
  const auto four = make<std::int64_t>(queue(), {4}, {1});
  const auto m = message_of([&] { gather(queue(), x, {0, four}); });
  EXPECT_TRUE(has(m, "gather: index 4 is out of bounds for axis 1 with size 4")) << m;
  EXPECT_EQ(values(queue(), gather(queue(), x, {0, four}, IndexMode::wrap)),
            (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
  EXPECT_FALSE(message_of([&] { gather(queue(), x, {0, 4}); }).empty());  // basic: view()'s
}

TEST_P(IndexingTest, ScatterAndPutWriteWhereGatherReads) {
  const auto x = iota(queue(), {3, 4});
  scatter(queue(), x, {Slice(), make<std::int64_t>(queue(), {-1, 0}, {2})},
          make<std::int32_t>(queue(), {-5, -6}, {2}));  // broadcast over the rows
  auto got = values(queue(), x);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(got[r * 4 + 3], -5);
    EXPECT_EQ(got[r * 4 + 0], -6);
    EXPECT_EQ(got[r * 4 + 1], r * 4 + 1);
  }
  std::vector<std::uint8_t> flags(12, 0);
  flags[5] = flags[10] = 1;
  const auto mask = Array::from_host(
      queue(), HostArray::from_bytes(std::as_bytes(std::span(flags)), {3, 4}, DType::boolean()));
  scatter(queue(), x, {mask}, make<std::int32_t>(queue(), {77}, {1}));
  got = values(queue(), x);
  EXPECT_EQ(got[5], 77);
  EXPECT_EQ(got[10], 77);
  EXPECT_EQ(got[6], 6);
  const auto y = iota(queue(), {10});
  put(queue(), y, make<std::int8_t>(queue(), {0, -1, 12}, {3}),
      make<std::int32_t>(queue(), {50, 51, 52}, {3}), IndexMode::wrap);
  got = values(queue(), y);
  EXPECT_EQ(got[0], 50);
  EXPECT_EQ(got[9], 51);
  EXPECT_EQ(got[2], 52);
  put(queue(), y, make<std::int64_t>(queue(), {-20, 20}, {2}),
      make<std::int32_t>(queue(), {60, 61}, {2}), IndexMode::clip);
  got = values(queue(), y);
  EXPECT_EQ(got[0], 60);
  EXPECT_EQ(got[9], 61);
  const auto m = message_of([&] {
    put(queue(), y, make<std::int64_t>(queue(), {10}, {1}), make<std::int32_t>(queue(), {1}, {1}));
  });
  EXPECT_TRUE(has(m, "put: index 10 is out of bounds for axis 0 with size 10")) << m;
  EXPECT_EQ(values(queue(), y)[9], 61);
}

TEST_P(IndexingTest, MisuseThrowsLogicErrorNamingIt) {
  const auto x = iota(queue(), {3, 4});
  const auto f = Array::empty(queue(), {2}, DType::float32());
  const auto i2 = make<std::int64_t>(queue(), {0, 1}, {2});
  EXPECT_TRUE(has(message_of([&] { take(queue(), x, f); }), "float32"));
  EXPECT_TRUE(has(message_of([&] { take(queue(), x, i2, 2); }), "axis 2 is out of bounds"));
  EXPECT_TRUE(has(message_of([&] { put(queue(), x, i2, f); }), "'values'"));
  EXPECT_TRUE(has(message_of([&] { gather(queue(), x, {0, 1, i2}); }), "too many indices"));
  EXPECT_TRUE(has(message_of([&] {
                    gather(queue(), x, {i2, make<std::int64_t>(queue(), {0, 1, 2}, {3})});
                  }),
                  "could not be broadcast"));
  const std::vector<std::uint8_t> flags(4, 1);
  const auto mask = Array::from_host(
      queue(), HostArray::from_bytes(std::as_bytes(std::span(flags)), {4}, DType::boolean()));
  EXPECT_TRUE(has(message_of([&] { gather(queue(), x, {mask}); }), "boolean index did not match"));
  EXPECT_TRUE(has(message_of([&] {
                    scatter(queue(), x, {i2}, make<std::int32_t>(queue(), {1, 2, 3}, {3}));
                  }),
                  "broadcast"));
}

}  // namespace

PLINTH_INSTANTIATE_DEVICE_TEST(IndexingTest);

}  // namespace indexing_test
}  // namespace plinth::conformance
