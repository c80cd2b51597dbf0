// histogram and bincount against host references: numpy's edges (linspace in float64,
// stored as float32 for float32 data), values exactly on the edges, outside the range, NaN
// and ±inf, the default range (min and max, widened when they are equal), integer data,
// explicit edges, bins beyond local memory (the global-memory path), views, empty arrays;
// bincount with minlength, bool and weights; misuse.

#include "fixture.hpp"
#include "large_device.hpp"

#include <plinth/array_expression.hpp>

#include <plinth/histogram.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace histogram_test {
namespace {

using HistogramTest = DeviceTest;

/// A uint8 array of 2^31 + 5 elements, all `base`, but `value` at each of `at`.
Array large_uint8(const Queue& queue, std::uint8_t base, std::uint8_t value,
                  const std::vector<std::size_t>& at) {
  const std::size_t n = (std::size_t{1} << 31) + 5;
  auto x = Array::empty(queue, {n}, DType::uint8());
  fill(queue, x, base);
  for (const auto k : at) {
    const auto p = static_cast<std::ptrdiff_t>(k);
    fill(queue, x.view({Slice(p, p + 1)}), value);
  }
  return x;
}

std::uint64_t next(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 33;
}

/// numpy.linspace(lo, hi, bins + 1) in float64, as T.
template <class T>
std::vector<T> numpy_edges(double lo, double hi, std::size_t bins) {
  std::vector<T> edges(bins + 1);
  const double step = (hi - lo) / static_cast<double>(bins);
  for (std::size_t k = 0; k <= bins; ++k)
    edges[k] = static_cast<T>(static_cast<double>(k) * step + lo);
  edges[bins] = static_cast<T>(hi);
  return edges;
}

/// Counts by the definition: edges[k] <= x < edges[k + 1], the last bin closed.
template <class T, class E>
std::vector<std::int64_t> host_counts(const std::vector<T>& xs, const std::vector<E>& edges) {
  const std::size_t bins = edges.size() - 1;
  std::vector<std::int64_t> counts(bins);
  for (const auto value : xs) {
    const E v = static_cast<E>(value);
    if (!(v >= edges.front() && v <= edges.back())) continue;
    std::size_t k =
        static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin());
    k = k == 0 ? 0 : k - 1;
    if (k >= bins) k = bins - 1;
    ++counts[k];
  }
  return counts;
}

TEST_P(HistogramTest, ValuesOnTheEdgesGoWhereNumpyPutsThem) {
  // float32 0.0, 0.1, ..., 1.0 into 10 bins over (0, 1): numpy gives [1, ..., 1, 2].
  std::vector<float> xs;
  for (int k = 0; k <= 10; ++k) xs.push_back(static_cast<float>(k / 10.0));
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto [counts, edges] = histogram(queue(), x, 10, {{0.0, 1.0}});
  EXPECT_EQ(counts.dtype(), DType::int64());
  EXPECT_EQ(edges.dtype(), DType::float32());
  std::vector<std::int64_t> expected(10, 1);
  expected[9] = 2;
  EXPECT_EQ(counts.get(queue()).to_vector<std::int64_t>(), expected);
  EXPECT_EQ(edges.get(queue()).to_vector<float>(), numpy_edges<float>(0.0, 1.0, 10));
}

TEST_P(HistogramTest, Float32WithARangeIgnoresOutsideAndNaN) {
  for (const std::size_t n : {0, 1, 2, 255, 257, 4097, 65537, 131073}) {
    for (const std::size_t bins : {1, 7, 256, 1000}) {
      SCOPED_TRACE(::testing::Message() << n << " elements, " << bins << " bins");
      std::vector<float> xs(n);
      std::uint64_t seed = n * 31 + bins;
      for (auto& x : xs) {
        const auto r = next(seed);
        switch (r % 32) {
          case 0: x = std::numeric_limits<float>::quiet_NaN(); break;
          case 1: x = std::numeric_limits<float>::infinity(); break;
          case 2: x = -std::numeric_limits<float>::infinity(); break;
          case 3: x = -0.0f; break;
          case 4: x = 0.75f; break;   // the upper end
          case 5: x = -0.25f; break;  // the lower end
          case 6: x = 0.8f; break;    // outside
          default: x = static_cast<float>(static_cast<double>(r % 100000) / 100000.0 - 0.25); break;
        }
      }
      const auto x = Array::from_host(queue(), HostArray::from_values(xs));
      const auto [counts, edges] = histogram(queue(), x, bins, {{-0.25, 0.75}});
      const auto expected_edges = numpy_edges<float>(-0.25, 0.75, bins);
      ASSERT_EQ(edges.get(queue()).to_vector<float>(), expected_edges);
      ASSERT_EQ(counts.get(queue()).to_vector<std::int64_t>(), host_counts(xs, expected_edges));
    }
  }
}

TEST_P(HistogramTest, EveryEdgeValueOfManyBins) {
  // Each float32 edge, and its neighbours, of 4096 bins over an awkward range.
  const double lo = -3.3, hi = 7.9;
  const std::size_t bins = 4096;
  const auto edges = numpy_edges<float>(lo, hi, bins);
  std::vector<float> xs;
  for (const auto e : edges) {
    xs.push_back(e);
    xs.push_back(std::nextafter(e, -1e30f));
    xs.push_back(std::nextafter(e, 1e30f));
  }
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto [counts, got_edges] = histogram(queue(), x, bins, {{lo, hi}});
  ASSERT_EQ(got_edges.get(queue()).to_vector<float>(), edges);
  EXPECT_EQ(counts.get(queue()).to_vector<std::int64_t>(), host_counts(xs, edges));
}

TEST_P(HistogramTest, BinsBeyondLocalMemoryCountInGlobalMemory) {
  const std::size_t bins = 20000, n = 100003;
  std::vector<float> xs(n);
  std::uint64_t seed = 8;
  for (auto& x : xs) x = static_cast<float>(next(seed) % 1000003) / 1000003.0f;
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto [counts, edges] = histogram(queue(), x, bins, {{0.0, 1.0}});
  EXPECT_EQ(counts.get(queue()).to_vector<std::int64_t>(),
            host_counts(xs, numpy_edges<float>(0.0, 1.0, bins)));
}

TEST_P(HistogramTest, DefaultRangeIsMinAndMax) {
  std::vector<float> xs{3.5f, -1.25f, 2.0f, 7.75f, 7.75f, -1.25f, 0.0f};
  auto x = Array::from_host(queue(), HostArray::from_values(xs));
  auto [counts, edges] = histogram(queue(), x, 5);
  const auto expected_edges = numpy_edges<float>(-1.25, 7.75, 5);
  EXPECT_EQ(edges.get(queue()).to_vector<float>(), expected_edges);
  EXPECT_EQ(counts.get(queue()).to_vector<std::int64_t>(), host_counts(xs, expected_edges));
  // Equal min and max: the range widens by 0.5 each way.
  const std::vector<float> same(9, 2.0f);
  x = Array::from_host(queue(), HostArray::from_values(same));
  auto result = histogram(queue(), x, 4);
  EXPECT_EQ(result.edges.get(queue()).to_vector<float>(), numpy_edges<float>(1.5, 2.5, 4));
  EXPECT_EQ(result.counts.get(queue()).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 0, 9, 0}));
  // No elements: range (0, 1), zero counts.
  result = histogram(queue(), Array::empty(queue(), {0}, DType::float32()), 3);
  EXPECT_EQ(result.counts.get(queue()).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_EQ(result.edges.get(queue()).to_vector<float>(), numpy_edges<float>(0.0, 1.0, 3));
  // A NaN or an infinity makes the default range not finite (numpy's ValueError).
  xs[2] = std::numeric_limits<float>::quiet_NaN();
  x = Array::from_host(queue(), HostArray::from_values(xs));
  EXPECT_NE(logic_error_message([&] { histogram(queue(), x, 5); }).find("not finite"),
            std::string::npos);
}

TEST_P(HistogramTest, IntegersAndFloat64UseDoubleEdges) {
  if (!device().params().supports_double) GTEST_SKIP() << "no doubles";
  std::vector<std::int32_t> xs(5001);
  std::uint64_t seed = 2;
  for (auto& x : xs) x = static_cast<std::int32_t>(next(seed) % 1000) - 300;
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto [counts, edges] = histogram(queue(), x, 13);
  EXPECT_EQ(edges.dtype(), DType::float64());
  const auto lo = *std::min_element(xs.begin(), xs.end());
  const auto hi = *std::max_element(xs.begin(), xs.end());
  const auto expected_edges = numpy_edges<double>(lo, hi, 13);
  EXPECT_EQ(edges.get(queue()).to_vector<double>(), expected_edges);
  EXPECT_EQ(counts.get(queue()).to_vector<std::int64_t>(), host_counts(xs, expected_edges));
  // A reversed float64 view, with a range.
  std::vector<double> ds(3001);
  for (auto& d : ds) d = static_cast<double>(next(seed) % 10007) / 1000.0;
  const auto all = Array::from_host(queue(), HostArray::from_values(ds));
  const auto view = all.view({Slice(std::nullopt, std::nullopt, -2)});
  std::vector<double> seen;
  for (std::size_t k = ds.size(); k-- > 0;)
    if ((ds.size() - 1 - k) % 2 == 0) seen.push_back(ds[k]);
  const auto result = histogram(queue(), view, 37, {{1.0, 9.0}});
  EXPECT_EQ(result.counts.get(queue()).to_vector<std::int64_t>(),
            host_counts(seen, numpy_edges<double>(1.0, 9.0, 37)));
}

TEST_P(HistogramTest, ExplicitEdges) {
  const std::vector<double> edges{-1.0, 0.0, 0.5, 0.5, 2.0, 10.0};
  std::vector<float> xs{-2.0f, -1.0f, -0.5f, 0.0f,  0.25f, 0.5f,
                        1.0f,  2.0f,  9.99f, 10.0f, 11.0f, std::numeric_limits<float>::quiet_NaN()};
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto result = histogram(queue(), x, edges);
  // numpy: [2, 2, 0, 2, 3] (0.5 lies in the bin [0.5, 2.0), the empty bin [0.5, 0.5) gets none).
  EXPECT_EQ(result.counts.get(queue()).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{2, 2, 0, 2, 3}));
  if (device().params().supports_double) {
    EXPECT_EQ(result.edges.get(queue()).to_vector<double>(), edges);
  }
  const std::vector<double> decreasing{0.0, 2.0, 1.0};
  EXPECT_NE(logic_error_message([&] { histogram(queue(), x, decreasing); }).find("'edges'"),
            std::string::npos);
}

TEST_P(HistogramTest, BincountCountsAndWeights) {
  for (const std::size_t n : {0, 1, 257, 70001}) {
    SCOPED_TRACE(n);
    std::vector<std::int32_t> xs(n);
    std::uint64_t seed = n + 3;
    for (auto& x : xs) x = static_cast<std::int32_t>(next(seed) % 300);
    const auto x = Array::from_host(queue(), HostArray::from_values(xs));
    const std::size_t minlength = 100;
    std::vector<std::int64_t> expected(minlength);
    for (const auto v : xs) {
      if (static_cast<std::size_t>(v) >= expected.size()) expected.resize(v + 1);
      ++expected[static_cast<std::size_t>(v)];
    }
    const auto counts = bincount(queue(), x, std::nullopt, minlength);
    EXPECT_EQ(counts.dtype(), DType::int64());
    EXPECT_EQ(counts.get(queue()).to_vector<std::int64_t>(), expected);
    if (device().features().double_atomics && device().params().supports_double) {
      std::vector<float> ws(n);
      for (auto& w : ws) w = static_cast<float>(next(seed) % 64) * 0.25f;  // exact sums
      const auto w = Array::from_host(queue(), HostArray::from_values(ws));
      std::vector<double> sums(expected.size());
      for (std::size_t k = 0; k < n; ++k) sums[static_cast<std::size_t>(xs[k])] += ws[k];
      const auto weighted = bincount(queue(), x, w, minlength);
      EXPECT_EQ(weighted.dtype(), DType::float64());
      EXPECT_EQ(weighted.get(queue()).to_vector<double>(), sums);
    }
  }
  // Bool and uint8 values, beyond local memory (30000 bins).
  const std::vector<std::uint8_t> flags{1, 0, 1, 1};
  const auto b = Array::from_host(
      queue(), HostArray::from_bytes(std::as_bytes(std::span(flags)), {4}, DType::boolean()));
  EXPECT_EQ(bincount(queue(), b).get(queue()).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 3}));
  const std::vector<std::int64_t> sparse{29999, 0, 29999, 5};
  const auto s = Array::from_host(queue(), HostArray::from_values(sparse));
  const auto sc = bincount(queue(), s).get(queue()).to_vector<std::int64_t>();
  ASSERT_EQ(sc.size(), 30000u);
  EXPECT_EQ(sc[0], 1);
  EXPECT_EQ(sc[5], 1);
  EXPECT_EQ(sc[29999], 2);
  EXPECT_EQ(std::count(sc.begin(), sc.end(), 0), 30000 - 3);
}

// Beyond 2^31 elements (GPUs with the memory only): counts past 32 bits' signed range.
TEST_P(HistogramTest, Beyond2To31Elements) {
  if (!large_device(device(), std::size_t{3} << 30)) GTEST_SKIP() << "not a large device";
  const std::size_t n = (std::size_t{1} << 31) + 5;
  const auto x = large_uint8(queue(), 1, 7, {0, std::size_t{1} << 31, n - 1});
  const auto counts = bincount(queue(), x).get(queue()).to_vector<std::int64_t>();
  ASSERT_EQ(counts.size(), 8u);
  EXPECT_EQ(counts[1], static_cast<std::int64_t>(n - 3));
  EXPECT_EQ(counts[7], 3);
  const auto result = histogram(queue(), x, 3, {{0.0, 6.0}});
  EXPECT_EQ(result.counts.get(queue()).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{static_cast<std::int64_t>(n - 3), 0, 0}));
}

TEST_P(HistogramTest, MisuseNamesTheArgument) {
  const auto x = Array::from_host(queue(), HostArray::from_values(std::vector<float>{1, 2, 3}));
  EXPECT_NE(logic_error_message([&] { histogram(queue(), x, 0); }).find("'bins'"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              histogram(queue(), x, 4, {{2.0, 1.0}});
            }).find("'range'"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              histogram(queue(), x, 4, {{0.0, std::numeric_limits<double>::infinity()}});
            }).find("'range'"),
            std::string::npos);
  const auto z = Array::empty(queue(), {2}, DType::complex64());
  EXPECT_NE(logic_error_message([&] { histogram(queue(), z, 4); }).find("'a'"), std::string::npos);
  const auto negative =
      Array::from_host(queue(), HostArray::from_values(std::vector<std::int32_t>{3, -1, 2}));
  EXPECT_NE(logic_error_message([&] { bincount(queue(), negative); }).find("negative"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] { bincount(queue(), x); }).find("'x'"), std::string::npos);
  const auto matrix =
      Array::from_host(queue(), HostArray::from_values(std::vector<std::int32_t>{1, 2}, {1, 2}));
  EXPECT_NE(logic_error_message([&] { bincount(queue(), matrix); }).find("1-D"), std::string::npos);
  const auto ints =
      Array::from_host(queue(), HostArray::from_values(std::vector<std::int32_t>{1, 2}));
  const auto short_weights =
      Array::from_host(queue(), HostArray::from_values(std::vector<float>{1}));
  EXPECT_NE(logic_error_message([&] { bincount(queue(), ints, short_weights); }).find("'weights'"),
            std::string::npos);
}

PLINTH_INSTANTIATE_DEVICE_TEST(HistogramTest);

}  // namespace
}  // namespace histogram_test
}  // namespace plinth::conformance
