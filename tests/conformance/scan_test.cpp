// ScanKernel and cumsum against host scans: every integer dtype, float32 and float64 (where
// the device has doubles), complex64 and complex128 through the functions library, a
// non-commutative operator (affine maps composed in order), max-scans, inclusive and
// exclusive, sizes around the work-group and tile sizes up to 10^6 + 3, empty arrays, views
// with negative strides, in place, and misuse (LogicError naming the argument; CompileError
// with the generated source).

#include "fixture.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/functions.hpp>
#include <plinth/scan.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace scan_test {
namespace {

using ScanTest = DeviceTest;

const DType f32 = DType::float32(), f64 = DType::float64(), i32 = DType::int32(),
            i64 = DType::int64(), c64 = DType::complex64(), c128 = DType::complex128();

// Sizes around the usual work-group size (256) and tile (4096 for 4-byte elements), several
// tiles per group, and more than a million.
const std::vector<std::size_t> sizes{1,    7,    255,  256,   257,   2047,  2048,   2049,
                                     4095, 4096, 4097, 12287, 65537, 99991, 1000003};
const std::vector<std::size_t> small_sizes{1, 7, 255, 256, 257, 2049, 4097, 70001};

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
std::vector<T> device_scan(const Queue& queue, const ScanKernel& scan, const std::vector<T>& xs) {
  const auto x = Array::from_host(queue, HostArray::from_values(xs));
  const auto y = Array::empty(queue.device(), {xs.size()}, dtype_of<T>());
  scan(queue, x, y);
  return y.get(queue).template to_vector<T>();
}

// Counts the elements that differ (exactly).
template <class T>
std::size_t mismatches(const std::vector<T>& got, const std::vector<T>& expected) {
  if (got.size() != expected.size()) return std::max(got.size(), expected.size());
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < got.size(); ++k) wrong += got[k] == expected[k] ? 0 : 1;
  return wrong;
}

// Xor-scans (any width, no overflow) of every integer dtype, inclusive and exclusive.
template <class T>
void check_xor(const Queue& queue, const std::vector<std::size_t>& ns) {
  SCOPED_TRACE(dtype_of<T>().name());
  const ScanKernel inclusive(dtype_of<T>(), "a ^ b", "0", ScanKind::inclusive, {.name = "xor_in"});
  const ScanKernel exclusive(dtype_of<T>(), "a ^ b", "0", ScanKind::exclusive, {.name = "xor_ex"});
  const auto op = [](T a, T b) { return static_cast<T>(a ^ b); };
  std::uint64_t state = 42;
  for (const auto n : ns) {
    SCOPED_TRACE(n);
    std::vector<T> xs(n);
    for (auto& x : xs) x = static_cast<T>(next(state));
    EXPECT_EQ(mismatches(device_scan(queue, inclusive, xs), host_scan(xs, op, T(0), false)), 0u);
    EXPECT_EQ(mismatches(device_scan(queue, exclusive, xs), host_scan(xs, op, T(0), true)), 0u);
  }
}

TEST_P(ScanTest, XorScansEveryIntegerDtype) {
  check_xor<std::int8_t>(queue(), small_sizes);
  check_xor<std::uint8_t>(queue(), small_sizes);
  check_xor<std::int16_t>(queue(), small_sizes);
  check_xor<std::uint16_t>(queue(), small_sizes);
  check_xor<std::int32_t>(queue(), sizes);
  check_xor<std::uint32_t>(queue(), small_sizes);
  check_xor<std::int64_t>(queue(), small_sizes);
  check_xor<std::uint64_t>(queue(), small_sizes);
}

TEST_P(ScanTest, SumsOfInt32Int64AndUint32) {
  const ScanKernel sum32(i32, "a + b", "0");
  const ScanKernel sum64(i64, "a + b", "0", ScanKind::exclusive);
  const ScanKernel sumu(DType::uint32(), "a + b", "0");  // wraps around, as on the host
  std::uint64_t state = 7;
  for (const auto n : sizes) {
    SCOPED_TRACE(n);
    std::vector<std::int32_t> xs(n);
    std::vector<std::int64_t> ls(n);
    std::vector<std::uint32_t> us(n);
    for (std::size_t k = 0; k < n; ++k) {
      xs[k] = static_cast<std::int32_t>(next(state) % 201) - 100;
      ls[k] = (static_cast<std::int64_t>(next(state) % (1u << 20)) - (1 << 19)) << 20;
      us[k] = static_cast<std::uint32_t>(next(state)) * 977u;
    }
    EXPECT_EQ(mismatches(device_scan(queue(), sum32, xs),
                         host_scan(xs, std::plus<std::int32_t>(), 0, false)),
              0u);
    EXPECT_EQ(mismatches(device_scan(queue(), sum64, ls),
                         host_scan(ls, std::plus<std::int64_t>(), std::int64_t{0}, true)),
              0u);
    EXPECT_EQ(mismatches(device_scan(queue(), sumu, us),
                         host_scan(us, std::plus<std::uint32_t>(), 0u, false)),
              0u);
  }
  // Empty arrays launch nothing and compile nothing.
  const ScanKernel fresh(i32, "a + b", "0");
  const auto empty = Array::empty(device(), {0}, i32);
  fresh(queue(), empty, empty);
  EXPECT_EQ(fresh.cached_programs(), 0u);
  EXPECT_EQ(sum32.cached_programs(), 1u);
}

// Any C identifier names a scan, even one the kernel dialect defines: the generated kernel
// functions have names of their own.
TEST_P(ScanTest, KernelsNamedLikeBuiltinsWork) {
  const std::vector<std::int32_t> xs{3, -1, 7, 0, 12};
  for (const char* name : {"sin", "dot", "max", "exp", "float", "kernel", "barrier"}) {
    SCOPED_TRACE(name);
    const ScanKernel scan(i32, "a + b", "0", ScanKind::inclusive, {.name = name});
    EXPECT_EQ(scan.name(), name);
    EXPECT_EQ(device_scan(queue(), scan, xs), (std::vector<std::int32_t>{3, 2, 9, 9, 21}));
  }
}

TEST_P(ScanTest, MaxScansKeepTheRunningMaximum) {
  const ScanKernel max_int(i32, "a > b ? a : b", "-2147483647 - 1", ScanKind::inclusive,
                           {.name = "max_int"});
  const ScanKernel max_float(f32, "fmax(a, b)", "-3.402823466e+38f", ScanKind::exclusive,
                             {.name = "max_float"});
  std::uint64_t state = 3;
  for (const auto n : {std::size_t{1}, std::size_t{7}, std::size_t{4097}, std::size_t{1000003}}) {
    SCOPED_TRACE(n);
    std::vector<std::int32_t> xs(n);
    std::vector<float> fs(n);
    for (std::size_t k = 0; k < n; ++k) {
      xs[k] = static_cast<std::int32_t>(next(state)) - (1 << 30);
      fs[k] = static_cast<float>(next(state) % 100000) - 50000.0f;
    }
    const auto imax = [](std::int32_t a, std::int32_t b) { return a > b ? a : b; };
    const auto fmax = [](float a, float b) { return std::fmax(a, b); };
    EXPECT_EQ(mismatches(device_scan(queue(), max_int, xs),
                         host_scan(xs, imax, std::numeric_limits<std::int32_t>::min(), false)),
              0u);
    EXPECT_EQ(mismatches(device_scan(queue(), max_float, fs),
                         host_scan(fs, fmax, -std::numeric_limits<float>::max(), true)),
              0u);
  }
}

TEST_P(ScanTest, Float32AndFloat64Sums) {
  const ScanKernel sum(f32, "a + b", "0.0f");
  std::uint64_t state = 11;
  for (const auto n : sizes) {
    SCOPED_TRACE(n);
    std::vector<float> xs(n);
    for (auto& x : xs) x = static_cast<float>(next(state) % 1000) / 256.0f - 1.5f;
    const auto got = device_scan(queue(), sum, xs);
    std::vector<double> exact(n);
    double carry = 0;
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < n; ++k) {
      carry += xs[k];
      // Rounding grows with the number of additions and their magnitudes.
      const double tolerance = 1e-5 * (1.0 + std::fabs(carry)) + 1e-6 * static_cast<double>(k);
      wrong += std::fabs(static_cast<double>(got[k]) - carry) <= tolerance ? 0 : 1;
    }
    EXPECT_EQ(wrong, 0u);
  }

  const ScanKernel sum64(f64, "a + b", "0.0", ScanKind::exclusive);
  if (!device().params().supports_double) {
    const auto x = Array::empty(device(), {4}, f64);
    const auto message = logic_error_message([&] { sum64(queue(), x, x); });
    EXPECT_NE(message.find("double precision"), std::string::npos) << message;
    GTEST_SKIP() << device().name() << " has no double precision (the call was refused)";
  }
  for (const auto n : {std::size_t{7}, std::size_t{1000003}}) {
    std::vector<double> xs(n);
    for (auto& x : xs) x = static_cast<double>(next(state) % 1000) / 3.0 - 100.0;
    const auto got = device_scan(queue(), sum64, xs);
    double carry = 0;
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < n; ++k) {
      wrong += std::fabs(got[k] - carry) <= 1e-9 * (1.0 + std::fabs(carry)) ? 0 : 1;
      carry += xs[k];
    }
    EXPECT_EQ(wrong, 0u) << n;
  }
}

template <class R>
void check_complex(const Queue& queue, const DType& dtype) {
  SCOPED_TRACE(dtype.name());
  const ScanKernel sum(dtype, "${add}(a, b)", c_constant(0, dtype), ScanKind::inclusive,
                       {.render_globals = {{"add", functions::add({dtype, dtype})}}});
  std::uint64_t state = 5;
  for (const auto n : {std::size_t{1}, std::size_t{257}, std::size_t{100003}}) {
    SCOPED_TRACE(n);
    std::vector<std::complex<R>> xs(n);
    for (auto& x : xs) {
      x = {static_cast<R>(next(state) % 64) / R(8) - R(4),
           static_cast<R>(next(state) % 64) / R(16) - R(2)};
    }
    const auto got = device_scan(queue, sum, xs);
    std::complex<R> carry = 0;
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < n; ++k) {
      carry += xs[k];  // exact: the parts are multiples of 1/16 well within the mantissa
      wrong += got[k] == carry ? 0 : 1;
    }
    EXPECT_EQ(wrong, 0u);
  }
}

TEST_P(ScanTest, ComplexThroughTheFunctionsLibrary) {
  check_complex<float>(queue(), c64);
  if (!device().params().supports_double) {
    GTEST_SKIP() << device().name() << " has no double precision (complex128 not checked)";
  }
  check_complex<double>(queue(), c128);
}

// An affine map x -> m * x + c (mod 2^32); composing "a then b" is not commutative.
struct Affine {
  std::uint32_t m;
  std::uint32_t c;
  bool operator==(const Affine&) const = default;
};

TEST_P(ScanTest, NonCommutativeOperatorKeepsTheOrder) {
  const auto affine = DType::make_struct({{"m", DType::uint32()}, {"c", DType::uint32()}});
  const std::string preamble = R"(
FUNCTION ${affine} compose(${affine} a, ${affine} b)
{
    ${affine} r;
    r.m = b.m * a.m;
    r.c = b.m * a.c + b.c;
    return r;
}
)";
  const auto compose = [](Affine a, Affine b) { return Affine{b.m * a.m, b.m * a.c + b.c}; };
  for (const auto kind : {ScanKind::inclusive, ScanKind::exclusive}) {
    const ScanKernel scan(
        affine, "compose(a, b)", "{1, 0}", kind,
        {.name = "affine", .preamble = preamble, .render_globals = {{"affine", ctype(affine)}}});
    std::uint64_t state = 9;
    for (const auto n : {std::size_t{1}, std::size_t{7}, std::size_t{2049}, std::size_t{300007}}) {
      SCOPED_TRACE(n);
      std::vector<Affine> xs(n);
      for (auto& x : xs) {
        x = {static_cast<std::uint32_t>(next(state)) | 1u, static_cast<std::uint32_t>(next(state))};
      }
      const auto x = Array::from_host(
          queue(), HostArray::from_bytes(std::as_bytes(std::span(xs)), {n}, affine));
      const auto y = Array::empty(device(), {n}, affine);
      scan(queue(), x, y);
      std::vector<Affine> got(n);
      const auto host = y.get(queue());
      ASSERT_EQ(host.nbytes(), n * sizeof(Affine));
      std::memcpy(got.data(), host.block().data(), host.nbytes());
      const auto expected = host_scan(xs, compose, Affine{1, 0}, kind == ScanKind::exclusive);
      EXPECT_EQ(mismatches(got, expected), 0u);
    }
  }
}

TEST_P(ScanTest, ViewsWithNegativeStridesAndInPlace) {
  const ScanKernel sum(i32, "a + b", "0");
  // A (300, 41) array seen with its rows reversed and every other column: shape (300, 21).
  std::vector<std::int32_t> base(300 * 41);
  for (std::size_t k = 0; k < base.size(); ++k) base[k] = static_cast<std::int32_t>(k % 97) - 40;
  const auto x_base = Array::from_host(queue(), HostArray::from_values(base, {300, 41}));
  const auto x =
      x_base.view({Slice(std::nullopt, std::nullopt, -1), Slice(std::nullopt, std::nullopt, 2)});
  ASSERT_EQ(x.shape(), (std::vector<std::size_t>{300, 21}));
  std::vector<std::int32_t> flat;
  for (std::size_t r = 0; r < 300; ++r) {
    for (std::size_t c = 0; c < 41; c += 2) flat.push_back(base[(299 - r) * 41 + c]);
  }
  const auto expected = host_scan(flat, std::plus<std::int32_t>(), 0, false);

  // Into a 1-D output, and into a 2-D output of another shape with as many elements.
  const auto y = Array::empty(device(), {flat.size()}, i32);
  sum(queue(), x, y);
  EXPECT_EQ(mismatches(y.get(queue()).to_vector<std::int32_t>(), expected), 0u);
  const auto y2 = Array::empty(device(), {21, 300}, i32);
  sum(queue(), x, y2);
  EXPECT_EQ(mismatches(y2.get(queue()).to_vector<std::int32_t>(), expected), 0u);
  // The input is untouched.
  EXPECT_EQ(mismatches(x_base.get(queue()).to_vector<std::int32_t>(), base), 0u);

  // In place.
  const auto z = Array::from_host(queue(), HostArray::from_values(flat));
  sum(queue(), z);
  EXPECT_EQ(mismatches(z.get(queue()).to_vector<std::int32_t>(), expected), 0u);

  // In place, exclusive.
  const ScanKernel exclusive(i32, "a + b", "0", ScanKind::exclusive);
  const auto e = Array::from_host(queue(), HostArray::from_values(flat));
  exclusive(queue(), e);
  EXPECT_EQ(mismatches(e.get(queue()).to_vector<std::int32_t>(),
                       host_scan(flat, std::plus<std::int32_t>(), 0, true)),
            0u);

  // The input a reversed view of the output's own elements: read before anything is written.
  std::vector<std::int32_t> line(5000);
  for (std::size_t k = 0; k < line.size(); ++k) line[k] = static_cast<std::int32_t>(k % 13) - 6;
  const auto w = Array::from_host(queue(), HostArray::from_values(line));
  sum(queue(), w.view({Slice(std::nullopt, std::nullopt, -1)}), w);
  const std::vector<std::int32_t> reversed(line.rbegin(), line.rend());
  EXPECT_EQ(mismatches(w.get(queue()).to_vector<std::int32_t>(),
                       host_scan(reversed, std::plus<std::int32_t>(), 0, false)),
            0u);
  // A contiguous slice at an offset into a slice at another offset of the same array.
  const auto v = Array::from_host(queue(), HostArray::from_values(line));
  sum(queue(), v.view({Slice(100, 3100)}), v.view({Slice(1000, 4000)}));
  const auto back = v.get(queue()).to_vector<std::int32_t>();
  const auto slice_scan =
      host_scan(std::vector<std::int32_t>(line.begin() + 100, line.begin() + 3100),
                std::plus<std::int32_t>(), 0, false);
  EXPECT_EQ(
      mismatches(std::vector<std::int32_t>(back.begin() + 1000, back.begin() + 4000), slice_scan),
      0u);
  EXPECT_EQ(back[999], line[999]);
  EXPECT_EQ(back[4000], line[4000]);
}

// Input and output views of one buffer that overlap without being the same array: an int32
// input and an int64 output starting at the same byte (not in place: the output's elements
// are wider), and same-dtype views shifted by one element either way. Each must give the
// host scan of the input as it was before the call.
TEST_P(ScanTest, OverlappingInputAndOutputOfOneBuffer) {
  const std::size_t n = 20000;
  std::vector<std::int32_t> values(n);
  std::uint64_t state = 7;
  for (auto& v : values) v = static_cast<std::int32_t>(next(state) % 2001) - 1000;
  const auto wide_sum = [](std::int64_t a, std::int64_t b) { return a + b; };
  const std::vector<std::int64_t> wide(values.begin(), values.end());

  // int32 input and int64 output from byte 0 of one allocation (the output needs twice the
  // bytes: the input covers the first half of it).
  const ScanKernel widening(i64, "a + b", "0", ScanKind::inclusive,
                            {.name = "widening", .input_dtype = i32});
  const auto buffer = Buffer::allocate(device(), n * sizeof(std::int64_t));
  const auto input = Array::from_buffer(buffer, ArrayMetadata({n}, i32));
  const auto output = Array::from_buffer(buffer, ArrayMetadata({n}, i64));
  input.set(queue(), HostArray::from_values(values), true);
  widening(queue(), input, output);
  EXPECT_EQ(mismatches(output.get(queue()).to_vector<std::int64_t>(),
                       host_scan(wide, wide_sum, std::int64_t{0}, false)),
            0u);
  // The same, exclusive, with the int64 output one element after the input's start.
  const ScanKernel widening_exclusive(i64, "a + b", "0", ScanKind::exclusive,
                                      {.name = "widening_ex", .input_dtype = i32});
  const auto later = Array::from_buffer(buffer, ArrayMetadata({n - 1}, i64, std::nullopt, 8));
  const auto input_head = Array::from_buffer(buffer, ArrayMetadata({n - 1}, i32));
  input_head.set(
      queue(), HostArray::from_values(std::vector<std::int32_t>(values.begin(), values.end() - 1)),
      true);
  widening_exclusive(queue(), input_head, later);
  EXPECT_EQ(mismatches(later.get(queue()).to_vector<std::int64_t>(),
                       host_scan(std::vector<std::int64_t>(wide.begin(), wide.end() - 1), wide_sum,
                                 std::int64_t{0}, true)),
            0u);

  // Same dtype, shifted by one element forward and backward, in sub-regions of one buffer.
  const ScanKernel sum(i32, "a + b", "0");
  const auto plus = std::plus<std::int32_t>();
  const auto head = std::vector<std::int32_t>(values.begin(), values.end() - 1);
  for (const bool forward : {true, false}) {
    SCOPED_TRACE(forward ? "output one element after the input" : "output one element before");
    const auto all = Array::from_host(queue(), HostArray::from_values(values));
    const auto first = Array::from_buffer(all.base_buffer(), ArrayMetadata({n - 1}, i32));
    const auto second =
        Array::from_buffer(all.base_buffer(), ArrayMetadata({n - 1}, i32, std::nullopt, 4));
    const auto& in = forward ? first : second;
    const auto& out = forward ? second : first;
    sum(queue(), in, out);
    const auto expected =
        host_scan(forward ? head : std::vector<std::int32_t>(values.begin() + 1, values.end()),
                  plus, 0, false);
    EXPECT_EQ(mismatches(out.get(queue()).to_vector<std::int32_t>(), expected), 0u);
  }
}

TEST_P(ScanTest, CumsumFollowsNumpyDtypes) {
  EXPECT_EQ(cumsum_dtype(i32), i64);
  EXPECT_EQ(cumsum_dtype(DType::int8()), i64);
  EXPECT_EQ(cumsum_dtype(DType::uint16()), DType::uint64());
  EXPECT_EQ(cumsum_dtype(f32), f32);
  EXPECT_EQ(cumsum_dtype(c64), c64);
  EXPECT_NE(
      logic_error_message([] { static_cast<void>(cumsum_dtype(DType::boolean())); }).find("bool"),
      std::string::npos);

  // int32 values whose sums overflow int32: cumsum accumulates in int64.
  const std::size_t n = 7 * 14287;
  std::vector<std::int32_t> xs(n);
  for (std::size_t k = 0; k < n; ++k) xs[k] = 2000000000 - static_cast<std::int32_t>(k % 7);
  const auto x = Array::from_host(queue(), HostArray::from_values(xs, {7, n / 7}));
  const auto sums = cumsum(queue(), x);
  EXPECT_EQ(sums.dtype(), i64);
  EXPECT_EQ(sums.shape(), std::vector<std::size_t>{n});
  const auto got = sums.get(queue()).to_vector<std::int64_t>();
  std::int64_t carry = 0;
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < n; ++k) {
    carry += xs[k];
    wrong += got[k] == carry ? 0 : 1;
  }
  EXPECT_EQ(wrong, 0u);

  // uint8 to uint64, a reversed view; complex64 stays complex64.
  std::vector<std::uint8_t> bytes(1000);
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<std::uint8_t>(k * 7);
  const auto b = Array::from_host(queue(), HostArray::from_values(bytes));
  const auto bsums = cumsum(queue(), b.view({Slice(std::nullopt, std::nullopt, -1)}))
                         .get(queue())
                         .to_vector<std::uint64_t>();
  std::uint64_t total = 0;
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    total += bytes[bytes.size() - 1 - k];
    ASSERT_EQ(bsums[k], total) << k;
  }
  const std::vector<std::complex<float>> cs{{1, 2}, {3, -1}, {0.5f, 0.5f}};
  const auto csums = cumsum(queue(), Array::from_host(queue(), HostArray::from_values(cs)));
  EXPECT_EQ(csums.dtype(), c64);
  EXPECT_EQ(csums.get(queue()).to_vector<std::complex<float>>(),
            (std::vector<std::complex<float>>{{1, 2}, {4, 1}, {4.5f, 1.5f}}));
}

TEST_P(ScanTest, MisuseIsALogicErrorNamingTheArgument) {
  const ScanKernel sum(i32, "a + b", "0");
  const auto x = Array::empty(device(), {8}, i32);
  const auto floats = Array::empty(device(), {8}, f32);
  auto message = logic_error_message([&] { sum(queue(), floats, x); });
  EXPECT_NE(message.find("argument 'input'"), std::string::npos) << message;
  EXPECT_NE(message.find("float32"), std::string::npos) << message;
  message = logic_error_message([&] { sum(queue(), x, floats); });
  EXPECT_NE(message.find("argument 'output'"), std::string::npos) << message;
  message = logic_error_message([&] { sum(queue(), x, Array::empty(device(), {9}, i32)); });
  EXPECT_NE(message.find("argument 'output'"), std::string::npos) << message;
  EXPECT_NE(message.find("9 elements"), std::string::npos) << message;
  const auto wide = Array::empty(device(), {16}, i32);
  message = logic_error_message([&] { sum(queue(), x, wide.view({Slice(0, 16, 2)})); });
  EXPECT_NE(message.find("argument 'output'"), std::string::npos) << message;
  EXPECT_NE(message.find("contiguous"), std::string::npos) << message;
  const auto other_context = Context::from_devices({GetParam()});
  const auto elsewhere = Array::empty(other_context.devices()[0], {8}, i32);
  message = logic_error_message([&] { sum(queue(), elsewhere, x); });
  EXPECT_NE(message.find("argument 'input'"), std::string::npos) << message;
  EXPECT_NE(message.find("device"), std::string::npos) << message;

  // Declarations.
  const auto declare = [](const DType& dtype, std::string expression, std::string neutral,
                          ScanOptions options = {}) {
    return logic_error_message(
        [&] { ScanKernel(dtype, expression, neutral, ScanKind::inclusive, options); });
  };
  EXPECT_NE(declare(DType::boolean(), "a + b", "0").find("bool"), std::string::npos);
  EXPECT_NE(declare(DType::float16(), "a + b", "0").find("float16"), std::string::npos);
  EXPECT_NE(declare(i32, " ", "0").find("expression"), std::string::npos);
  EXPECT_NE(declare(i32, "a + b", "").find("neutral"), std::string::npos);
  EXPECT_NE(declare(i32, "a + b", "0", {.name = "not a name"}).find("identifier"),
            std::string::npos);
  EXPECT_NE(
      declare(i32, "a + b", "0", {.render_globals = {{"_scan_type", "int"}}}).find("reserved"),
      std::string::npos);
  EXPECT_NE(declare(c64, "a", "0", {.input_dtype = f32}).find("convert"), std::string::npos);

  // Everything still works.
  sum(queue(), x, x);
  queue().synchronize();
}

TEST_P(ScanTest, CompileErrorShowsTheGeneratedSource) {
  const ScanKernel broken(f32, "a + undeclared_name_42", "0.0f", ScanKind::inclusive,
                          {.name = "broken"});
  const auto x = Array::empty(device(), {4}, f32);
  try {
    broken(queue(), x, x);
    FAIL() << "no CompileError";
  } catch (const CompileError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("undeclared_name_42"), std::string::npos) << what;
    EXPECT_NE(what.find("KERNEL void _scan_kernel_broken_final("), std::string::npos) << what;
    EXPECT_NE(what.find("// ScanKernel 'broken': _scan_kernel_broken_reduce"), std::string::npos)
        << what;
  }
  EXPECT_EQ(broken.cached_programs(), 0u);
  EXPECT_THROW(broken(queue(), x, x), CompileError);
  // The program of a working kernel shows the three stages.
  const ScanKernel sum(f32, "a + b", "0.0f");
  const auto source = sum.program(queue()).source();
  for (const char* kernel : {"scan_reduce(", "scan_groups(", "scan_final("}) {
    EXPECT_NE(source.find(kernel), std::string::npos) << kernel;
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(ScanTest);

}  // namespace
}  // namespace scan_test
}  // namespace plinth::conformance
