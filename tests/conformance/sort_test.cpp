// sort, argsort, sort_by_key, unique, searchsorted, partition and topk (sorting.hpp) against
// host references: every integer dtype, bool, float32 and float64 with NaNs (of both signs
// and other payloads), -0.0, +0.0, ±inf and duplicates; stability (argsort against
// std::stable_sort); sizes 0, 1, 2, 2^k ± 1 and 100k; rows of n-D arrays along every axis;
// views with offsets and negative strides; values of several dtypes (structs too); misuse.

#include "fixture.hpp"
#include "large_device.hpp"

#include <plinth/sorting.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace plinth::conformance {
namespace sort_test {
namespace {

using SortTest = DeviceTest;

std::uint64_t next(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 11;
}

// numpy's order as unsigned bits: NaN last, -0.0 just before +0.0 (the device's transform).
template <class T>
std::uint64_t order_key(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? 1 : 0;
  } else {
    constexpr unsigned bits = sizeof(T) * 8;
    std::uint64_t u = 0;
    std::memcpy(&u, &x, sizeof(T));
    const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
    const std::uint64_t all = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return all;
      return (u & sign) != 0 ? (~u & all) : (u | sign);
    } else if constexpr (std::is_signed_v<T>) {
      return u ^ sign;
    } else {
      return u;
    }
  }
}

// Random values: every bit pattern, or few distinct ones (duplicates); floats with specials.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, bool few = false) {
  std::vector<T> xs(n);
  std::uint64_t state = seed * 7919 + n;
  for (std::size_t e = 0; e < n; ++e) {
    T x{};
    const std::uint64_t r = next(state);
    if constexpr (std::is_same_v<T, bool>) {
      x = (r & 1) != 0;
    } else if constexpr (std::is_floating_point_v<T>) {
      constexpr T inf = std::numeric_limits<T>::infinity();
      const T specials[] = {std::numeric_limits<T>::quiet_NaN(),
                            -std::numeric_limits<T>::quiet_NaN(),
                            T(0),
                            -T(0),
                            inf,
                            -inf,
                            std::numeric_limits<T>::denorm_min(),
                            -std::numeric_limits<T>::denorm_min(),
                            std::numeric_limits<T>::max(),
                            std::numeric_limits<T>::lowest()};
      if (r % 8 == 0) {
        x = specials[(r >> 8) % std::size(specials)];
      } else if (few) {
        x = static_cast<T>(static_cast<int>((r >> 8) % 21) - 10) / T(4);
      } else {
        x = (static_cast<T>((r >> 8) % 2000001) - T(1000000)) / T(3);
      }
    } else if (few) {
      x = static_cast<T>((r >> 5) % 13);
    } else {
      std::uint64_t bits = r ^ (next(state) << 40);
      std::memcpy(&x, &bits, sizeof(T));
    }
    xs[e] = x;
  }
  return xs;
}

template <class T>
Array to_device(const Queue& queue, const std::vector<T>& xs, std::vector<std::size_t> shape) {
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<std::byte> bytes(xs.size());
    for (std::size_t k = 0; k < xs.size(); ++k)
      bytes[k] = std::byte{xs[k] ? std::uint8_t{1} : std::uint8_t{0}};
    return Array::from_host(queue,
                            HostArray::from_bytes(bytes, std::move(shape), DType::boolean()));
  } else {
    return Array::from_host(queue, HostArray::from_values(xs, std::move(shape)));
  }
}

template <class T>
std::vector<T> to_host(const Queue& queue, const Array& array) {
  const HostArray host = array.get(queue);
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<T> out(host.size());
    const auto* bytes = static_cast<const std::uint8_t*>(static_cast<const void*>(host.data()));
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = bytes[k] != 0;
    return out;
  } else {
    return host.to_vector<T>();
  }
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Stable argsort of each row of `row` elements (indices within the row).
template <class T>
std::vector<std::int64_t> host_argsort(const std::vector<T>& xs, std::size_t row,
                                       bool descending = false) {
  std::vector<std::int64_t> out(xs.size());
  for (std::size_t start = 0; start < xs.size(); start += row) {
    auto first = out.begin() + static_cast<std::ptrdiff_t>(start);
    std::iota(first, first + static_cast<std::ptrdiff_t>(row), std::int64_t{0});
    std::stable_sort(first, first + static_cast<std::ptrdiff_t>(row),
                     [&](std::int64_t a, std::int64_t b) {
                       const auto ka = order_key<T>(xs[start + static_cast<std::size_t>(a)]);
                       const auto kb = order_key<T>(xs[start + static_cast<std::size_t>(b)]);
                       return descending ? ka > kb : ka < kb;
                     });
  }
  return out;
}

template <class T>
std::size_t count_wrong_sort(const std::vector<T>& xs, std::size_t row,
                             const std::vector<T>& sorted,
                             const std::vector<std::int64_t>& indices) {
  const auto expected = host_argsort(xs, row);
  std::size_t wrong = sorted.size() == xs.size() && indices.size() == xs.size() ? 0 : xs.size() + 1;
  for (std::size_t k = 0; wrong == 0 && k < xs.size(); ++k) {
    const std::size_t base = k / row * row;
    const auto source = xs[base + static_cast<std::size_t>(expected[k])];
    if (!same_bits(sorted[k], source)) ++wrong;
    if (indices[k] != expected[k]) ++wrong;
  }
  return wrong;
}

// sort and argsort of xs (shape `shape`, along the last axis) against the host.
template <class T>
void check_sorts(const Queue& queue, const std::vector<T>& xs, std::vector<std::size_t> shape) {
  const std::size_t row = shape.empty() ? 1 : shape.back();
  const Array x = to_device(queue, xs, shape);
  const Array sorted = sort(queue, x);
  const Array order = argsort(queue, x);
  EXPECT_EQ(sorted.dtype(), x.dtype());
  EXPECT_EQ(sorted.shape(), x.shape());
  EXPECT_EQ(order.dtype(), DType::int64());
  EXPECT_EQ(order.shape(), x.shape());
  if (xs.empty()) return;
  EXPECT_EQ(
      count_wrong_sort(xs, row, to_host<T>(queue, sorted), to_host<std::int64_t>(queue, order)),
      0U);
}

template <class T>
void check_dtype(const Queue& queue, std::initializer_list<std::size_t> sizes) {
  SCOPED_TRACE(dtype_of<T>().name());
  std::uint64_t seed = 1;
  for (const std::size_t n : sizes) {
    SCOPED_TRACE(n);
    check_sorts(queue, random_values<T>(n, ++seed), {n});
    check_sorts(queue, random_values<T>(n, ++seed, true), {n});
  }
}

const std::initializer_list<std::size_t> small_sizes{0, 1, 2, 3, 255, 256, 257, 513, 4097};

TEST_P(SortTest, EveryIntegerDtype) {
  check_dtype<std::int8_t>(queue(), small_sizes);
  check_dtype<std::uint8_t>(queue(), small_sizes);
  check_dtype<std::int16_t>(queue(), small_sizes);
  check_dtype<std::uint16_t>(queue(), small_sizes);
  check_dtype<std::int32_t>(queue(), small_sizes);
  check_dtype<std::uint32_t>(queue(), small_sizes);
  check_dtype<std::int64_t>(queue(), small_sizes);
  check_dtype<std::uint64_t>(queue(), small_sizes);
}

TEST_P(SortTest, BoolAsUint8) { check_dtype<bool>(queue(), {0, 1, 2, 1025}); }

TEST_P(SortTest, Floats) {
  check_dtype<float>(queue(), small_sizes);
  check_dtype<double>(queue(), small_sizes);
}

TEST_P(SortTest, LargeArrays) {
  check_dtype<float>(queue(), {65537, 100003});
  check_dtype<std::int32_t>(queue(), {100003});
  check_dtype<std::uint64_t>(queue(), {65535});
}

TEST_P(SortTest, FloatOrderAsNumpy) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  float other_nan = 0;
  const std::uint32_t payload = 0xffc00123U;  // negative, another payload
  std::memcpy(&other_nan, &payload, sizeof payload);
  const std::vector<float> xs{nan, 1.0F, -0.0F, other_nan, -inf, 0.0F, inf, -1.0F, -0.0F, nan};
  const auto order = to_host<std::int64_t>(queue(), argsort(queue(), to_device(queue(), xs, {10})));
  // -inf, -1, -0 (2), -0 (8), +0, 1, inf, then the NaNs in input order.
  EXPECT_EQ(order, (std::vector<std::int64_t>{4, 7, 2, 8, 5, 1, 6, 0, 3, 9}));
  const auto sorted = to_host<float>(queue(), sort(queue(), to_device(queue(), xs, {10})));
  EXPECT_TRUE(same_bits(sorted[8], other_nan));  // NaNs keep their bits
  EXPECT_TRUE(std::signbit(sorted[2]));
  EXPECT_FALSE(std::signbit(sorted[4]));
}

TEST_P(SortTest, RowsOfNdArrays) {
  const std::vector<std::size_t> shape{3, 4, 37};
  const auto xs = random_values<float>(3 * 4 * 37, 5);
  check_sorts(queue(), xs, shape);
  check_sorts(queue(), random_values<std::int16_t>(5 * 1300, 6, true), {5, 1300});
  check_sorts(queue(), random_values<std::int64_t>(0, 6), {4, 0});
  check_sorts(queue(), random_values<std::int64_t>(0, 6), {0, 4});
  // Along axis 0 and 1 (moved last and back), against the last-axis sort of the transpose.
  const Array x = to_device(queue(), xs, shape);
  for (const std::ptrdiff_t axis : {0, 1, -2, -3}) {
    SCOPED_TRACE(axis);
    const auto ax = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
    const auto got = to_host<float>(queue(), sort(queue(), x, axis));
    const auto got_order = to_host<std::int64_t>(queue(), argsort(queue(), x, axis));
    std::vector<std::size_t> stride{4 * 37, 37, 1};
    std::size_t wrong = 0;
    // Every line along `ax`: gather it, sort it on the host, compare.
    for (std::size_t a = 0; a < shape[(ax + 1) % 3]; ++a) {
      for (std::size_t b = 0; b < shape[(ax + 2) % 3]; ++b) {
        const std::size_t base = a * stride[(ax + 1) % 3] + b * stride[(ax + 2) % 3];
        std::vector<float> line(shape[ax]);
        for (std::size_t k = 0; k < shape[ax]; ++k) line[k] = xs[base + k * stride[ax]];
        const auto expected = host_argsort(line, line.size());
        for (std::size_t k = 0; k < shape[ax]; ++k) {
          const std::size_t at = base + k * stride[ax];
          wrong += got_order[at] == expected[k] ? 0 : 1;
          wrong += same_bits(got[at], line[static_cast<std::size_t>(expected[k])]) ? 0 : 1;
        }
      }
    }
    EXPECT_EQ(wrong, 0U);
  }
}

TEST_P(SortTest, Views) {
  const auto xs = random_values<std::int32_t>(6 * 50, 9, true);
  const Array x = to_device(queue(), xs, {6, 50});
  // Reversed rows, every other column from 3, and a row with an offset.
  const Array view = x.view({Slice(std::nullopt, std::nullopt, -1), Slice(3, std::nullopt, 2)});
  std::vector<std::int32_t> expected_input;
  for (std::size_t r = 0; r < 6; ++r) {
    for (std::size_t c = 3; c < 50; c += 2) expected_input.push_back(xs[(5 - r) * 50 + c]);
  }
  const auto sorted = to_host<std::int32_t>(queue(), sort(queue(), view));
  const auto order = to_host<std::int64_t>(queue(), argsort(queue(), view));
  EXPECT_EQ(count_wrong_sort(expected_input, 24, sorted, order), 0U);
  const Array row = x.view({4, Slice(1, 40)});
  const std::vector<std::int32_t> row_input(xs.begin() + 201, xs.begin() + 240);
  EXPECT_EQ(count_wrong_sort(row_input, 39, to_host<std::int32_t>(queue(), sort(queue(), row)),
                             to_host<std::int64_t>(queue(), argsort(queue(), row))),
            0U);
}

TEST_P(SortTest, SortByKeyMovesValues) {
  const std::size_t n = 3001;
  const auto keys = random_values<std::int32_t>(n, 11, true);
  const auto expected = host_argsort(keys, n);
  const Array k = to_device(queue(), keys, {n});
  // float64 values (8 bytes), int8 (1), and a 12-byte struct.
  const auto doubles = random_values<double>(n, 12);
  const auto bytes = random_values<std::int8_t>(n, 13);
  const auto pairs = sort_by_key(queue(), k, to_device(queue(), doubles, {n}));
  const auto got_keys = to_host<std::int32_t>(queue(), pairs.keys);
  const auto got_doubles = to_host<double>(queue(), pairs.values);
  const auto got_bytes =
      to_host<std::int8_t>(queue(), sort_by_key(queue(), k, to_device(queue(), bytes, {n})).values);
  const DType triple =
      DType::make_struct({{"a", DType::int32()}, {"b", DType::int32()}, {"c", DType::int32()}});
  ASSERT_EQ(triple.itemsize(), 12U);
  std::vector<std::int32_t> fields(3 * n);
  for (std::size_t e = 0; e < 3 * n; ++e) fields[e] = static_cast<std::int32_t>(e * 7 + 1);
  const Array structs = Array::from_host(
      queue(), HostArray::from_bytes(std::as_bytes(std::span(fields)), {n}, triple));
  const auto moved = sort_by_key(queue(), k, structs).values.get(queue());
  ASSERT_EQ(moved.dtype(), triple);
  const auto* got_fields = static_cast<const std::int32_t*>(static_cast<const void*>(moved.data()));
  std::size_t wrong = 0;
  for (std::size_t e = 0; e < n; ++e) {
    const auto from = static_cast<std::size_t>(expected[e]);
    wrong += got_keys[e] == keys[from] ? 0 : 1;
    wrong += same_bits(got_doubles[e], doubles[from]) ? 0 : 1;
    wrong += got_bytes[e] == bytes[from] ? 0 : 1;
    for (std::size_t f = 0; f < 3; ++f)
      wrong += got_fields[3 * e + f] == fields[3 * from + f] ? 0 : 1;
  }
  EXPECT_EQ(wrong, 0U);
  // Rows: each row's values follow its keys.
  const std::vector<std::int32_t> row_keys{3, 1, 2, 1, 9, 8, 7, 9};
  const std::vector<std::int32_t> row_values{0, 1, 2, 3, 4, 5, 6, 7};
  const auto rows = sort_by_key(queue(), to_device(queue(), row_keys, {2, 4}),
                                to_device(queue(), row_values, {2, 4}));
  EXPECT_EQ(to_host<std::int32_t>(queue(), rows.values),
            (std::vector<std::int32_t>{1, 3, 2, 0, 6, 5, 4, 7}));
}

// numpy's unique over the host values (equal_nan: NaNs one value; -0.0 == +0.0).
template <class T>
void check_unique(const Queue& queue, const std::vector<T>& xs) {
  SCOPED_TRACE(xs.size());
  const auto canonical = [](T x) {
    if constexpr (std::is_floating_point_v<T>) {
      if (x == T(0)) return order_key(T(0));
    }
    return order_key(x);
  };
  const auto order = host_argsort(xs, std::max<std::size_t>(xs.size(), 1));
  std::vector<T> values;
  std::vector<std::int64_t> index, counts, inverse(xs.size());
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const auto at = static_cast<std::size_t>(order[k]);
    if (k == 0 || canonical(xs[at]) != canonical(xs[static_cast<std::size_t>(order[k - 1])])) {
      values.push_back(xs[at]);
      index.push_back(order[k]);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[at] = static_cast<std::int64_t>(values.size() - 1);
  }
  const auto result = unique(queue, to_device(queue, xs, {xs.size()}),
                             {.return_index = true, .return_inverse = true, .return_counts = true});
  const auto got = to_host<T>(queue, result.values);
  ASSERT_EQ(got.size(), values.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < values.size(); ++k) wrong += same_bits(got[k], values[k]) ? 0 : 1;
  EXPECT_EQ(wrong, 0U);
  ASSERT_TRUE(result.index && result.inverse && result.counts);
  EXPECT_EQ(to_host<std::int64_t>(queue, *result.index), index);
  EXPECT_EQ(to_host<std::int64_t>(queue, *result.counts), counts);
  EXPECT_EQ(to_host<std::int64_t>(queue, *result.inverse), inverse);
  // Without the optional results: the same values, nothing else.
  const auto plain = unique(queue, to_device(queue, xs, {xs.size()}));
  EXPECT_FALSE(plain.index || plain.inverse || plain.counts);
  EXPECT_EQ(plain.values.size(), values.size());
}

TEST_P(SortTest, Unique) {
  for (const std::size_t n : {0, 1, 2, 257, 5000}) {
    check_unique(queue(), random_values<float>(n, 21, true));
    check_unique(queue(), random_values<std::int64_t>(n, 22, true));
    check_unique(queue(), random_values<std::uint8_t>(n, 23));
  }
  check_unique(queue(), random_values<double>(3000, 24, true));
  // NaNs collapse into one, -0.0 and +0.0 into one (the first sorted: -0.0).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto u =
      unique(queue(), to_device(queue(), std::vector<float>{nan, 0.0F, -nan, -0.0F, 2}, {5}),
             {.return_counts = true});
  const auto values = to_host<float>(queue(), u.values);
  ASSERT_EQ(values.size(), 3U);
  EXPECT_TRUE(values[0] == 0.0F && std::signbit(values[0]));
  EXPECT_EQ(values[1], 2.0F);
  EXPECT_TRUE(std::isnan(values[2]));
  EXPECT_EQ(to_host<std::int64_t>(queue(), *u.counts), (std::vector<std::int64_t>{2, 1, 2}));
  // The inverse has the input's shape.
  const auto two_d =
      unique(queue(), to_device(queue(), std::vector<std::int32_t>{5, 1, 5, 3, 1, 1}, {2, 3}),
             {.return_inverse = true});
  EXPECT_EQ(two_d.inverse->shape(), (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(to_host<std::int64_t>(queue(), *two_d.inverse),
            (std::vector<std::int64_t>{2, 0, 2, 1, 0, 0}));
}

template <class T>
std::vector<std::int64_t> host_search(const std::vector<T>& a, const std::vector<T>& v,
                                      bool right) {
  const auto key = [](T x) {
    if constexpr (std::is_floating_point_v<T>) {
      if (x == T(0)) return order_key(T(0));
    }
    return order_key(x);
  };
  std::vector<std::int64_t> out;
  for (const T x : v) {
    std::int64_t at = 0;
    for (const T y : a) at += (right ? key(y) <= key(x) : key(y) < key(x)) ? 1 : 0;
    out.push_back(at);
  }
  return out;
}

TEST_P(SortTest, Searchsorted) {
  auto a = random_values<float>(1000, 31, true);
  const Array sorted = sort(queue(), to_device(queue(), a, {1000}));
  a = to_host<float>(queue(), sorted);
  const auto v = random_values<float>(300, 32, true);
  for (const bool right : {false, true}) {
    SCOPED_TRACE(right);
    const Array found = searchsorted(queue(), sorted, to_device(queue(), v, {3, 100}),
                                     right ? Side::right : Side::left);
    EXPECT_EQ(found.shape(), (std::vector<std::size_t>{3, 100}));
    EXPECT_EQ(to_host<std::int64_t>(queue(), found), host_search(a, v, right));
  }
  const std::vector<std::int32_t> ints{1, 2, 2, 2, 5, 9};
  const std::vector<std::int32_t> probes{0, 1, 2, 3, 9, 10};
  const Array ia = to_device(queue(), ints, {6});
  EXPECT_EQ(
      to_host<std::int64_t>(queue(), searchsorted(queue(), ia, to_device(queue(), probes, {6}))),
      (std::vector<std::int64_t>{0, 0, 1, 4, 5, 6}));
  EXPECT_EQ(to_host<std::int64_t>(
                queue(), searchsorted(queue(), ia, to_device(queue(), probes, {6}), Side::right)),
            (std::vector<std::int64_t>{0, 1, 4, 4, 6, 6}));
  // An empty sorted array, no values, and a reversed view of a descending array.
  const Array none = to_device(queue(), std::vector<std::int32_t>{}, {0});
  EXPECT_EQ(
      to_host<std::int64_t>(queue(), searchsorted(queue(), none, to_device(queue(), probes, {6}))),
      (std::vector<std::int64_t>(6, 0)));
  EXPECT_EQ(searchsorted(queue(), ia, none).size(), 0U);
  const Array descending = to_device(queue(), std::vector<std::int32_t>{9, 5, 2, 2, 2, 1}, {6});
  EXPECT_EQ(
      to_host<std::int64_t>(
          queue(), searchsorted(queue(), descending.view({Slice(std::nullopt, std::nullopt, -1)}),
                                to_device(queue(), probes, {6}))),
      (std::vector<std::int64_t>{0, 0, 1, 4, 5, 6}));
}

TEST_P(SortTest, PartitionAndTopk) {
  const std::size_t rows = 4, row = 333;
  const auto xs = random_values<float>(rows * row, 41, true);
  const Array x = to_device(queue(), xs, {rows, row});
  for (const std::ptrdiff_t kth : {0, 100, -1}) {
    const auto got = to_host<float>(queue(), partition(queue(), x, kth));
    const auto k = static_cast<std::size_t>(kth < 0 ? kth + static_cast<std::ptrdiff_t>(row) : kth);
    for (std::size_t r = 0; r < rows; ++r) {
      const auto pivot = order_key(got[r * row + k]);
      const auto expected = host_argsort(xs, row);
      EXPECT_TRUE(same_bits(got[r * row + k],
                            xs[r * row + static_cast<std::size_t>(expected[r * row + k])]));
      for (std::size_t j = 0; j < row; ++j) {
        const auto key = order_key(got[r * row + j]);
        if (j < k) {
          EXPECT_LE(key, pivot);
        }
        if (j > k) {
          EXPECT_GE(key, pivot);
        }
      }
    }
  }
  for (const bool largest : {true, false}) {
    SCOPED_TRACE(largest);
    const std::size_t k = 17;
    const auto top = topk(queue(), x, k, largest);
    EXPECT_EQ(top.values.shape(), (std::vector<std::size_t>{rows, k}));
    const auto values = to_host<float>(queue(), top.values);
    const auto indices = to_host<std::int64_t>(queue(), top.indices);
    const auto expected = host_argsort(xs, row, largest);
    std::size_t wrong = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t j = 0; j < k; ++j) {
        wrong += indices[r * k + j] == expected[r * row + j] ? 0 : 1;
        wrong += same_bits(values[r * k + j],
                           xs[r * row + static_cast<std::size_t>(expected[r * row + j])])
                     ? 0
                     : 1;
      }
    }
    EXPECT_EQ(wrong, 0U);
  }
  EXPECT_EQ(topk(queue(), x, 0).values.size(), 0U);
}

TEST_P(SortTest, Misuse) {
  const Array floats = to_device(queue(), std::vector<float>{1, 2, 3, 4}, {2, 2});
  const Array half = Array::empty(queue(), {4}, DType::float16());
  const Array complex = Array::empty(queue(), {4}, DType::complex64());
  const Array scalar = to_device(queue(), std::vector<float>{1}, {});
  const auto contains = [](const std::string& message, const char* what) {
    return message.find(what) != std::string::npos;
  };
  EXPECT_TRUE(contains(logic_error_message([&] { sort(queue(), half); }), "float16"));
  EXPECT_TRUE(contains(logic_error_message([&] { argsort(queue(), complex); }), "complex64"));
  EXPECT_TRUE(contains(logic_error_message([&] { sort(queue(), scalar); }), "zero-dimensional"));
  EXPECT_TRUE(contains(logic_error_message([&] { sort(queue(), floats, 2); }), "'axis'"));
  EXPECT_TRUE(contains(logic_error_message([&] { sort(queue(), floats, -3); }), "'axis'"));
  EXPECT_TRUE(contains(logic_error_message([&] { partition(queue(), floats, 2); }), "'kth'"));
  EXPECT_TRUE(contains(logic_error_message([&] { partition(queue(), floats, -3); }), "'kth'"));
  EXPECT_TRUE(contains(logic_error_message([&] { topk(queue(), floats, 3); }), "'k'"));
  EXPECT_TRUE(contains(logic_error_message([&] { topk(queue(), scalar, 1); }), "zero-dimensional"));
  EXPECT_TRUE(contains(logic_error_message([&] {
                         sort_by_key(queue(), floats, Array::empty(queue(), {4}, DType::int32()));
                       }),
                       "'values'"));
  EXPECT_TRUE(
      contains(logic_error_message([&] { searchsorted(queue(), floats, floats); }), "'sorted_a'"));
  EXPECT_TRUE(contains(logic_error_message([&] { unique(queue(), half); }), "float16"));
}

// More than 2^31 int16 keys (two passes; 4 GiB an array): indices, tile numbers and offsets
// past 2^31. On GPUs with the memory (large_device.hpp; PLINTH_TEST_LARGE=1 forces it).
TEST_P(SortTest, BeyondTwoTo31Keys) {
  // The keys, the result and the other pass's buffer (4 GiB each), the tiles' counts and
  // offsets (1.5 GiB).
  if (!large_device(device(), std::size_t{14} << 30)) {
    GTEST_SKIP() << "needs 17.5 GiB of device memory and not PoCL";
  }
  const std::size_t n = (std::size_t{1} << 31) + (std::size_t{1} << 17) + 3;
  const auto keys = Array::empty(queue(), {n}, DType::int16());
  fill(queue(), keys, std::int16_t{7});
  const auto at = [](std::size_t k) { return static_cast<std::ptrdiff_t>(k); };
  const auto put = [&](std::size_t k, std::int16_t value) {
    keys.view({Slice(at(k), at(k + 1))})
        .set(queue(), HostArray::from_values(std::vector<std::int16_t>{value}));
  };
  put(n - 1, -5);
  put(n - 2, 300);
  put((std::size_t{1} << 31) + 1, -300);
  put(3, 8);
  const auto sorted = sort(queue(), keys);
  std::vector<std::int16_t> got;
  for (const std::size_t k :
       {std::size_t{0}, std::size_t{1}, std::size_t{2}, n / 2, n - 3, n - 2, n - 1}) {
    got.push_back(sorted.view({Slice(at(k), at(k + 1))}).get(queue()).to_vector<std::int16_t>()[0]);
  }
  EXPECT_EQ(got, (std::vector<std::int16_t>{-300, -5, 7, 7, 7, 8, 300}));
}

PLINTH_INSTANTIATE_DEVICE_TEST(SortTest);

using SortMultiTest = MultiDeviceTest;

// sort and argsort of a MultiArray split along its rows: each device sorts its rows; the
// result is the single-device one. Split along the last axis: refused.
TEST_P(SortMultiTest, RowsOfEachPart) {
  const auto devices = context().devices();
  const auto queues = MultiQueue::on_devices(devices);
  const std::size_t rows = 2 * devices.size() + 3, cols = 301;
  const auto xs = random_values<float>(rows * cols, 51, true);
  const auto x = MultiArray::from_host(queues, HostArray::from_values(xs, {rows, cols}));
  const auto sorted = sort(queues, x);
  const auto order = argsort(queues, x);
  EXPECT_EQ(sorted.shape(), x.shape());
  EXPECT_EQ(order.dtype(), DType::int64());
  EXPECT_EQ(count_wrong_sort(xs, cols, sorted.get(queues).to_vector<float>(),
                             order.get(queues).to_vector<std::int64_t>()),
            0U);
  const auto line = MultiArray::from_host(queues, HostArray::from_values(xs, {rows * cols}));
  EXPECT_NE(logic_error_message([&] { sort(queues, line); }).find("last axis"), std::string::npos);
}

PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(SortMultiTest);

}  // namespace
}  // namespace sort_test
}  // namespace plinth::conformance
