// ScanKernel's two algorithms (the single-pass decoupled look-back where the device has
// device-scope acquire/release, the three-pass scan everywhere) against host scans: sizes 0,
// 1, 2^k +- 1 up to a thousand tiles (many groups looking back), int32, int64, float32,
// float64, complex64 and a struct with a non-commutative operator, inclusive, exclusive and in
// place; forcing the single pass where the device lacks it; scans along one axis of 2-D and
// 3-D views (negative strides, gaps, few long rows and many short ones); cumprod.

#include "fixture.hpp"
#include "large_device.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/dtype_c.hpp>
#include <plinth/functions.hpp>
#include <plinth/scan.hpp>

#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace scan_single_pass_test {
namespace {

using ScanSinglePassTest = DeviceTest;

const DType i32 = DType::int32(), i64 = DType::int64();

// 0, 1, 2^k +- 1 around the work-group (256) and the tile (4096 int32), and 2^20 + 1: 257
// tiles of int32, a thousand of 16-byte elements.
const std::vector<std::size_t> sizes{0,    1,    2,     255,   257,     4095,   4097,
                                     8191, 8193, 65535, 65537, 1048575, 1048577};

std::uint64_t next(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 33;
}

template <class T, class Op>
std::vector<T> host_scan(const std::vector<T>& xs, Op op, T neutral, bool exclusive) {
  std::vector<T> out(xs.size());
  T carry = neutral;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    if (exclusive) {
      out[k] = carry;
      carry = op(carry, xs[k]);
    } else {
      carry = op(carry, xs[k]);
      out[k] = carry;
    }
  }
  return out;
}

template <class T>
std::size_t mismatches(const std::vector<T>& got, const std::vector<T>& expected) {
  if (got.size() != expected.size()) return std::max(got.size(), expected.size()) + 1;
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < got.size(); ++k) wrong += got[k] == expected[k] ? 0 : 1;
  return wrong;
}

template <class T>
std::vector<T> to_vector_of(const HostArray& host) {
  std::vector<T> out(host.nbytes() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), host.block().data(), host.nbytes());
  return out;
}

template <class T>
Array upload(const Queue& queue, const std::vector<T>& xs, const DType& dtype) {
  return Array::from_host(queue,
                          HostArray::from_bytes(std::as_bytes(std::span(xs)), {xs.size()}, dtype));
}

bool has_single_pass(const BoundDevice& device) {
  return device.features().atomics && device.features().device_scope_acquire_release;
}

// The algorithms this device runs.
std::vector<ScanAlgorithm> algorithms(const BoundDevice& device) {
  if (has_single_pass(device)) return {ScanAlgorithm::single_pass, ScanAlgorithm::three_pass};
  return {ScanAlgorithm::three_pass};
}

const char* name_of(ScanAlgorithm algorithm) {
  switch (algorithm) {
    case ScanAlgorithm::automatic: return "automatic";
    case ScanAlgorithm::single_pass: return "single_pass";
    case ScanAlgorithm::three_pass: return "three_pass";
  }
  return "?";
}

// Scans `xs` with `scan` (out of place, then in place where the dtypes allow) and compares
// with the host.
template <class T, class Op>
void check(const Queue& queue, const ScanKernel& scan, const DType& dtype, Op op, T neutral,
           std::uint64_t seed, T (*make)(std::uint64_t&)) {
  const bool exclusive = scan.kind() == ScanKind::exclusive;
  std::uint64_t state = seed;
  for (const auto n : sizes) {
    SCOPED_TRACE(n);
    std::vector<T> xs(n);
    for (auto& x : xs) x = make(state);
    const auto expected = host_scan(xs, op, neutral, exclusive);
    const auto x = upload(queue, xs, dtype);
    const auto y = Array::empty(queue.device(), {n}, dtype);
    scan(queue, x, y);
    EXPECT_EQ(mismatches(to_vector_of<T>(y.get(queue)), expected), 0u);
    scan(queue, x);  // in place
    EXPECT_EQ(mismatches(to_vector_of<T>(x.get(queue)), expected), 0u);
  }
}

struct Affine {  // x -> m * x + c (mod 2^32): composing is not commutative
  std::uint32_t m;
  std::uint32_t c;
  bool operator==(const Affine&) const = default;
};

TEST_P(ScanSinglePassTest, BothAlgorithmsMatchTheHost) {
  const auto affine = DType::make_struct({{"m", DType::uint32()}, {"c", DType::uint32()}});
  const std::string compose = R"(
FUNCTION ${affine} compose(${affine} a, ${affine} b)
{
    ${affine} r;
    r.m = b.m * a.m;
    r.c = b.m * a.c + b.c;
    return r;
}
)";
  const auto c64 = DType::complex64();
  for (const auto algorithm : algorithms(device())) {
    SCOPED_TRACE(name_of(algorithm));
    const ScanOptions options{.algorithm = algorithm};
    for (const auto kind : {ScanKind::inclusive, ScanKind::exclusive}) {
      SCOPED_TRACE(kind == ScanKind::inclusive ? "inclusive" : "exclusive");
      check<std::int32_t>(
          queue(), ScanKernel(i32, "a + b", "0", kind, options), i32, std::plus<std::int32_t>(), 0,
          1, [](std::uint64_t& s) { return static_cast<std::int32_t>(next(s) % 2001) - 1000; });
      check<std::int64_t>(queue(), ScanKernel(i64, "a + b", "0", kind, options), i64,
                          std::plus<std::int64_t>(), 0, 2, [](std::uint64_t& s) {
                            return static_cast<std::int64_t>(next(s) % (1u << 24)) << 20;
                          });
      // Integers in float: exact in any order of addition.
      check<float>(queue(), ScanKernel(DType::float32(), "a + b", "0", kind, options),
                   DType::float32(), std::plus<float>(), 0.0f, 3,
                   [](std::uint64_t& s) { return static_cast<float>(next(s) % 9) - 4.0f; });
      if (device().params().supports_double) {
        check<double>(queue(), ScanKernel(DType::float64(), "a + b", "0", kind, options),
                      DType::float64(), std::plus<double>(), 0.0, 4, [](std::uint64_t& s) {
                        return static_cast<double>(next(s) % 4001) - 2000.0;
                      });
      }
      ScanOptions complex_options = options;
      complex_options.render_globals = {{"add", functions::add({c64, c64})}};
      check<std::complex<float>>(
          queue(), ScanKernel(c64, "${add}(a, b)", c_constant(0, c64), kind, complex_options), c64,
          std::plus<std::complex<float>>(), std::complex<float>(0), 5, [](std::uint64_t& s) {
            return std::complex<float>(static_cast<float>(next(s) % 16) - 8.0f,
                                       static_cast<float>(next(s) % 8) - 4.0f);
          });
      ScanOptions affine_options = options;
      affine_options.name = "affine";
      affine_options.preamble = compose;
      affine_options.render_globals = {{"affine", ctype(affine)}};
      check<Affine>(
          queue(), ScanKernel(affine, "compose(a, b)", "{1, 0}", kind, affine_options), affine,
          [](Affine a, Affine b) {
            return Affine{b.m * a.m, b.m * a.c + b.c};
          },
          Affine{1, 0}, 6,
          [](std::uint64_t& s) {
            return Affine{static_cast<std::uint32_t>(next(s)) | 1u,
                          static_cast<std::uint32_t>(next(s))};
          });
    }
  }
}

// Repeated calls on one queue reuse the statuses (zeroed again for each call), and calls of
// different sizes follow each other without a synchronisation.
TEST_P(ScanSinglePassTest, BackToBackCallsOnOneQueue) {
  const ScanKernel sum(i64, "a + b", "0", ScanKind::inclusive, {.input_dtype = i32});
  std::vector<Array> outputs;
  std::vector<std::vector<std::int64_t>> expected;
  std::uint64_t state = 11;
  for (const std::size_t n : {300001u, 5000u, 300001u, 1u, 70000u, 300001u}) {
    std::vector<std::int32_t> xs(n);
    for (auto& x : xs) x = static_cast<std::int32_t>(next(state) % 1000);
    std::vector<std::int64_t> wide(xs.begin(), xs.end());
    expected.push_back(host_scan(wide, std::plus<std::int64_t>(), std::int64_t{0}, false));
    outputs.push_back(Array::empty(queue(), {n}, i64));
    sum(queue(), Array::from_host(queue(), HostArray::from_values(xs)), outputs.back());
  }
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(mismatches(outputs[k].get(queue()).to_vector<std::int64_t>(), expected[k]), 0u);
  }
}

TEST_P(ScanSinglePassTest, AlgorithmChoiceIsPerDevice) {
  const ScanKernel forced(i32, "a + b", "0", ScanKind::inclusive,
                          {.name = "forced", .algorithm = ScanAlgorithm::single_pass});
  const ScanKernel three(i32, "a + b", "0", ScanKind::inclusive,
                         {.name = "three", .algorithm = ScanAlgorithm::three_pass});
  const ScanKernel automatic(i32, "a + b", "0", ScanKind::inclusive, {.name = "automatic"});
  EXPECT_EQ(three.program(queue()).source().find("_single("), std::string::npos);
  const auto x = Array::from_host(queue(), HostArray::from_values(std::vector<std::int32_t>{1, 2}));
  if (!has_single_pass(device())) {
    // Forcing the single pass where the device lacks it: a LogicError naming the device and
    // the feature, before anything is enqueued.
    try {
      forced(queue(), x, x);
      ADD_FAILURE() << "no LogicError";
    } catch (const LogicError& error) {
      const std::string what = error.what();
      EXPECT_NE(what.find(device().name()), std::string::npos) << what;
      EXPECT_TRUE(what.find("device_scope_acquire_release") != std::string::npos ||
                  what.find("atomics") != std::string::npos)
          << what;
    }
    EXPECT_EQ(automatic.program(queue()).source().find("_single("), std::string::npos);
  } else {
    EXPECT_NE(forced.program(queue()).source().find("_single("), std::string::npos);
    // Automatic takes the faster three passes (scan.hpp, "Algorithm").
    EXPECT_EQ(automatic.program(queue()).source().find("_single("), std::string::npos);
    forced(queue(), x);
    EXPECT_EQ(x.get(queue()).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 3}));
  }
}

// The host scan of a C-order array of `shape` along `axis`.
template <class T, class Op>
std::vector<T> host_axis_scan(const std::vector<T>& xs, const std::vector<std::size_t>& shape,
                              std::size_t axis, Op op, T neutral, bool exclusive) {
  std::size_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= shape[d];
  for (std::size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const std::size_t length = shape[axis];
  std::vector<T> out(xs.size());
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < inner; ++i) {
      T carry = neutral;
      for (std::size_t j = 0; j < length; ++j) {
        const std::size_t k = (o * length + j) * inner + i;
        if (exclusive) {
          out[k] = carry;
          carry = op(carry, xs[k]);
        } else {
          carry = op(carry, xs[k]);
          out[k] = carry;
        }
      }
    }
  }
  return out;
}

TEST_P(ScanSinglePassTest, AxisScansOfViews) {
  // A (7, 60, 130) int32 array, and a view of it with a reversed first axis, every other
  // row and every third column backwards: shape (7, 30, 44).
  const std::vector<std::size_t> shape{7, 60, 130};
  std::vector<std::int32_t> base(7 * 60 * 130);
  std::uint64_t state = 3;
  for (auto& v : base) v = static_cast<std::int32_t>(next(state) % 201) - 100;
  const auto whole = Array::from_host(queue(), HostArray::from_values(base, shape));
  const auto view = whole.view({Slice(std::nullopt, std::nullopt, -1), Slice(1, std::nullopt, 2),
                                Slice(std::nullopt, std::nullopt, -3)});
  ASSERT_EQ(view.shape(), (std::vector<std::size_t>{7, 30, 44}));
  for (const auto& array : {whole, view}) {
    const auto xs = array.get(queue()).to_vector<std::int32_t>();
    const std::vector<std::int64_t> wide(xs.begin(), xs.end());
    for (int axis = -3; axis < 3; ++axis) {
      SCOPED_TRACE(axis);
      const auto along = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
      const auto sums = cumsum(queue(), array, axis);
      EXPECT_EQ(sums.shape(), array.shape());
      EXPECT_EQ(sums.dtype(), i64);
      EXPECT_EQ(mismatches(sums.get(queue()).to_vector<std::int64_t>(),
                           host_axis_scan(wide, array.shape(), along, std::plus<std::int64_t>(),
                                          std::int64_t{0}, false)),
                0u);
    }
  }
  // Exclusive running maxima along each axis, with both algorithms.
  const auto xs = view.get(queue()).to_vector<std::int32_t>();
  const auto max = [](std::int32_t a, std::int32_t b) { return a > b ? a : b; };
  for (const auto algorithm : algorithms(device())) {
    SCOPED_TRACE(name_of(algorithm));
    const ScanKernel running_max(i32, "max(a, b)", "-2147483647 - 1", ScanKind::exclusive,
                                 {.name = "running_max", .algorithm = algorithm});
    for (std::size_t axis = 0; axis < 3; ++axis) {
      SCOPED_TRACE(axis);
      const auto out = Array::empty(queue(), view.shape(), i32);
      running_max(queue(), view, out, static_cast<int>(axis));
      EXPECT_EQ(mismatches(out.get(queue()).to_vector<std::int32_t>(),
                           host_axis_scan(xs, view.shape(), axis, max, INT32_MIN, true)),
                0u);
    }
  }
}

TEST_P(ScanSinglePassTest, AxisScansOfFewLongRowsAndManyShortOnes) {
  const ScanKernel sum(i32, "a + b", "0");
  std::uint64_t state = 8;
  for (const auto& shape : {std::vector<std::size_t>{3, 100003},
                            {2000, 50},
                            {1, 9000},
                            {9000, 1},
                            {5, 0},
                            {40, 3, 4097}}) {
    SCOPED_TRACE(shape.size() == 2 ? shape[0] * 1000000 + shape[1] : shape[2]);
    std::size_t n = 1;
    for (const auto e : shape) n *= e;
    std::vector<std::int32_t> xs(n);
    for (auto& x : xs) x = static_cast<std::int32_t>(next(state) % 21) - 10;
    const auto x = Array::from_host(queue(), HostArray::from_values(xs, shape));
    const auto y = Array::empty(queue(), shape, i32);
    sum(queue(), x, y, -1);
    EXPECT_EQ(mismatches(
                  y.get(queue()).to_vector<std::int32_t>(),
                  host_axis_scan(xs, shape, shape.size() - 1, std::plus<std::int32_t>(), 0, false)),
              0u);
    sum(queue(), x, x, 0);  // in place along the first axis
    EXPECT_EQ(mismatches(x.get(queue()).to_vector<std::int32_t>(),
                         host_axis_scan(xs, shape, 0, std::plus<std::int32_t>(), 0, false)),
              0u);
  }
}

TEST_P(ScanSinglePassTest, CumprodFollowsNumpy) {
  // int32 -> int64: mostly +-1, a 2 now and then, a 0 late.
  const std::size_t n = 100003;
  std::vector<std::int32_t> xs(n);
  std::uint64_t state = 17;
  for (auto& x : xs) {
    const auto r = next(state) % 4096;
    x = r == 0 ? 2 : (r % 2 == 0 ? 1 : -1);
  }
  xs[90000] = 0;
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto products = cumprod(queue(), x);
  EXPECT_EQ(products.dtype(), i64);
  const std::vector<std::int64_t> wide(xs.begin(), xs.end());
  EXPECT_EQ(mismatches(products.get(queue()).to_vector<std::int64_t>(),
                       host_scan(wide, std::multiplies<std::int64_t>(), std::int64_t{1}, false)),
            0u);
  EXPECT_EQ(cumprod(queue(), Array::empty(queue(), {0}, DType::uint8())).dtype(), DType::uint64());
  // float32 stays float32; along an axis of a 2-D array (powers of two: exact).
  const std::vector<std::size_t> shape{30, 40};
  std::vector<float> fs(30 * 40);
  for (auto& f : fs) {
    const auto r = next(state) % 4;
    f = r == 0 ? 2.0f : r == 1 ? 0.5f : r == 2 ? -1.0f : 1.0f;
  }
  const auto f = Array::from_host(queue(), HostArray::from_values(fs, shape));
  for (const int axis : {0, 1, -1}) {
    const auto p = cumprod(queue(), f, axis);
    EXPECT_EQ(p.dtype(), DType::float32());
    EXPECT_EQ(mismatches(p.get(queue()).to_vector<float>(),
                         host_axis_scan(fs, shape, axis == 0 ? 0 : 1, std::multiplies<float>(),
                                        1.0f, false)),
              0u);
  }
  // complex64: powers of i and of 2 (exact).
  std::vector<std::complex<float>> zs(5000);
  for (auto& z : zs) {
    const auto r = next(state) % 6;
    z = r == 0
            ? std::complex<float>(0, 1)
            : (r == 1 ? std::complex<float>(0, -1) : std::complex<float>(r == 2 ? 2.0f : 0.5f, 0));
  }
  const auto z = upload(queue(), zs, DType::complex64());
  EXPECT_EQ(mismatches(to_vector_of<std::complex<float>>(cumprod(queue(), z).get(queue())),
                       host_scan(zs, std::multiplies<std::complex<float>>(), std::complex<float>(1),
                                 false)),
            0u);
  EXPECT_THROW(cumprod(queue(), Array::empty(queue(), {3}, DType::boolean())), LogicError);
}

TEST_P(ScanSinglePassTest, AxisMisuseIsALogicError) {
  const auto x = Array::empty(queue(), {4, 5}, i32);
  for (const int axis : {2, -3, 100}) {
    try {
      static_cast<void>(cumsum(queue(), x, axis));
      ADD_FAILURE() << "no LogicError for axis " << axis;
    } catch (const LogicError& error) {
      EXPECT_NE(std::string(error.what()).find("axis"), std::string::npos) << error.what();
    }
    EXPECT_THROW(static_cast<void>(cumprod(queue(), x, axis)), LogicError);
  }
  const auto scalar = Array::empty(queue(), {}, i32);
  EXPECT_THROW(static_cast<void>(cumsum(queue(), scalar, 0)), LogicError);
  const ScanKernel sum(i32, "a + b", "0");
  EXPECT_THROW(sum(queue(), x, x, 2), LogicError);
  try {
    sum(queue(), x, Array::empty(queue(), {5, 4}, i32), 0);
    ADD_FAILURE() << "no LogicError for an output of another shape";
  } catch (const LogicError& error) {
    EXPECT_NE(std::string(error.what()).find("'output'"), std::string::npos) << error.what();
  }
}

// More than 2^32 elements (uint8, in place: 4 GiB): tile numbers, offsets and indices past
// 32 bits. Ones with three markers, so that an element read or written at its index modulo
// 2^32 (or a carry from the wrong tile) shows at the checked places.
TEST_P(ScanSinglePassTest, MoreThan2To32Elements) {
  if (!large_device(device(), std::size_t{5} << 30)) {
    GTEST_SKIP() << "needs 6.25 GiB of device memory and not PoCL";
  }
  const DType u8 = DType::uint8();
  const std::size_t n = (std::size_t{1} << 32) + (std::size_t{1} << 17) + 3;
  const std::size_t marks[] = {3, (std::size_t{1} << 32) - 7, (std::size_t{1} << 32) + 100};
  const std::uint8_t adds[] = {1, 2, 3};  // a marker holds 1 + its add
  // The host's inclusive sum at k, modulo 256.
  const auto expected = [&](std::size_t k) {
    std::size_t sum = k + 1;
    for (std::size_t m = 0; m < 3; ++m) sum += k >= marks[m] ? adds[m] : 0;
    return static_cast<int>(sum % 256);
  };
  const std::size_t checked[] = {0,
                                 2,
                                 3,
                                 4,
                                 4096,
                                 (std::size_t{1} << 31) + 1,
                                 (std::size_t{1} << 32) - 8,
                                 (std::size_t{1} << 32) - 7,
                                 (std::size_t{1} << 32) - 1,
                                 std::size_t{1} << 32,
                                 (std::size_t{1} << 32) + 99,
                                 (std::size_t{1} << 32) + 100,
                                 (std::size_t{1} << 32) + 4097,
                                 n - 1};
  for (const auto algorithm : algorithms(device())) {
    SCOPED_TRACE(name_of(algorithm));
    const ScanKernel sum(u8, "a + b", "0", ScanKind::inclusive,
                         {.name = "big_sum", .algorithm = algorithm});
    const auto big = Array::empty(queue(), {n}, u8);
    fill(queue(), big, std::uint8_t{1});
    for (std::size_t m = 0; m < 3; ++m) {
      const auto at = static_cast<std::ptrdiff_t>(marks[m]);
      big.view({Slice(at, at + 1)})
          .set(queue(), HostArray::from_values(
                            std::vector<std::uint8_t>{static_cast<std::uint8_t>(1 + adds[m])}));
    }
    sum(queue(), big);
    for (const auto k : checked) {
      const auto at = static_cast<std::ptrdiff_t>(k);
      const auto got = big.view({Slice(at, at + 1)}).get(queue()).to_vector<std::uint8_t>();
      ASSERT_EQ(got.size(), 1u);
      EXPECT_EQ(static_cast<int>(got[0]), expected(k)) << "at " << k;
    }
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(ScanSinglePassTest);

}  // namespace
}  // namespace scan_single_pass_test
}  // namespace plinth::conformance
