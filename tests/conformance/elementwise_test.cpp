// ElementwiseKernel: saxpy against the host, integers, complex numbers through the functions
// library, double precision where the device has it, odd and empty sizes, a range,
// non-contiguous views (negative strides, offsets), broadcasting, struct arrays, MultiArrays
// on every device at once, and misuse (LogicError naming the argument; CompileError with the
// generated source).

#include "fixture.hpp"

#include <plinth/elementwise.hpp>
#include <plinth/functions.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

namespace plinth::conformance {
namespace elementwise_test {
namespace {

using ElementwiseTest = DeviceTest;
using ElementwiseMultiDeviceTest = MultiDeviceTest;

const DType f32 = DType::float32(), f64 = DType::float64(), i32 = DType::int32(),
            c64 = DType::complex64();

ElementwiseKernel make_saxpy() {
  return ElementwiseKernel({ElementwiseArg::output("z", f32), ElementwiseArg::scalar("a", f32),
                            ElementwiseArg::input("x", f32), ElementwiseArg::input("y", f32)},
                           "z[i] = a * x[i] + y[i]", {.name = "saxpy"});
}

std::vector<float> ramp(std::size_t n, float scale, float shift) {
  std::vector<float> values(n);
  for (std::size_t k = 0; k < n; ++k) values[k] = static_cast<float>(k % 1000) * scale + shift;
  return values;
}

TEST_P(ElementwiseTest, SaxpyMatchesTheHostForOddSizes) {
  const auto saxpy = make_saxpy();
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000003}}) {
    SCOPED_TRACE(n);
    const auto xs = ramp(n, 0.25f, -3.0f), ys = ramp(n, -0.5f, 7.0f);
    const auto x = Array::from_host(queue(), HostArray::from_values(xs));
    const auto y = Array::from_host(queue(), HostArray::from_values(ys));
    const auto z = Array::empty(device(), {n}, f32);
    saxpy(queue(), z, 1.5f, x, y);
    const auto result = z.get(queue()).to_vector<float>();
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const float expected = 1.5f * xs[k] + ys[k];
      if (std::fabs(result[k] - expected) > 1e-6f * (1.0f + std::fabs(expected))) ++wrong;
    }
    EXPECT_EQ(wrong, 0u);
  }
  // One element runs one at a time; a million, aligned, as vectors of four: two programs,
  // and a second call of either size builds no other.
  EXPECT_EQ(saxpy.cached_programs(), 2u);
  // A double that float32 holds exactly is accepted, and an integer too.
  const auto x = Array::from_host(queue(), HostArray::from_values(std::vector<float>{1, 2}));
  const auto z = Array::empty(device(), {2}, f32);
  saxpy(queue(), z, 2.0, x, x);
  EXPECT_EQ(z.get(queue()).to_vector<float>(), (std::vector<float>{3, 6}));
  saxpy(queue(), z, 3, x, x);
  EXPECT_EQ(z.get(queue()).to_vector<float>(), (std::vector<float>{4, 8}));
}

TEST_P(ElementwiseTest, InputsAreRestrictOnlyWhereNothingWrittenSharesTheirMemory) {
  const ElementwiseKernel twice({ElementwiseArg::output("y", f32), ElementwiseArg::input("x", f32)},
                                "y[i] = 2.0f * x[i]", {.name = "twice"});
  const std::size_t n = 1001;  // the unrolled steps and the rest
  const auto xs = ramp(n, 1.0f, 0.0f);
  const auto a = Array::from_host(queue(), HostArray::from_values(xs));
  const auto b = Array::empty(device(), {n}, f32);
  // Separate arrays: the unrolled, restrict form.
  twice(queue(), b, a);
  EXPECT_NE(twice.program(queue(), std::vector<ElementwiseValue>{b, a}).source().find("restrict"),
            std::string::npos);
  // In place, and through a sub-region of the same allocation: the plain form, right too.
  twice(queue(), a, a);
  const auto region = a.base_buffer().get_sub_region(0, a.base_buffer().size());
  EXPECT_TRUE(region.overlaps(a.base_buffer()));
  const auto alias = Array::from_buffer(region, a.metadata());
  twice(queue(), alias, a);
  EXPECT_EQ(twice.cached_programs(), 2u);
  const auto result = a.get(queue()).to_vector<float>();
  const auto doubled = b.get(queue()).to_vector<float>();
  for (std::size_t k = 0; k < n; ++k) {
    ASSERT_EQ(doubled[k], 2.0f * xs[k]) << k;
    ASSERT_EQ(result[k], 4.0f * xs[k]) << k;
  }
}

TEST_P(ElementwiseTest, BufferOverlapsSeesRegionsOfOneAllocation) {
  const auto whole = Buffer::allocate(device(), 1024);
  const auto other = Buffer::allocate(device(), 1024);
  const auto low = whole.get_sub_region(0, 512), high = whole.get_sub_region(512, 512);
  const auto middle = whole.get_sub_region(256, 512);
  EXPECT_TRUE(whole.overlaps(whole));
  EXPECT_TRUE(whole.overlaps(low));
  EXPECT_TRUE(high.overlaps(whole));
  EXPECT_FALSE(low.overlaps(high));
  EXPECT_TRUE(middle.overlaps(low));
  EXPECT_TRUE(middle.overlaps(high));
  EXPECT_TRUE(middle.get_sub_region(256, 256).overlaps(high));
  EXPECT_FALSE(middle.get_sub_region(0, 256).overlaps(high));
  EXPECT_FALSE(whole.overlaps(other));
}

TEST_P(ElementwiseTest, EmptyArraysLaunchNothing) {
  const auto saxpy = make_saxpy();
  const auto x = Array::empty(device(), {0}, f32);
  const auto z = Array::empty(device(), {3, 0}, f32);
  const auto w = Array::empty(device(), {3, 0}, f32);
  EXPECT_NO_THROW(saxpy(queue(), x, 1.0f, x, x));
  EXPECT_NO_THROW(saxpy(queue(), z, 1.0f, w, x));
  EXPECT_NO_THROW(saxpy(queue(), ElementwiseRange{0, 0}, z, 1.0f, w, w));
  queue().synchronize();
  EXPECT_EQ(saxpy.cached_programs(), 0u);  // nothing compiled either
  // Still checked: a wrong dtype is refused for empty arrays too.
  const auto ints = Array::empty(device(), {0}, i32);
  EXPECT_NE(logic_error_message([&] { saxpy(queue(), x, 1.0f, ints, x); }).find("'x'"),
            std::string::npos);
}

TEST_P(ElementwiseTest, RangeRunsOnlyThoseIndices) {
  const auto saxpy = make_saxpy();
  const std::size_t n = 100;
  const auto x = Array::from_host(queue(), HostArray::from_values(std::vector<float>(n, 1.0f)));
  const auto z = Array::from_host(queue(), HostArray::from_values(std::vector<float>(n, -1.0f)));
  saxpy(queue(), ElementwiseRange{10, 37}, z, 2.0f, x, x);
  const auto result = z.get(queue()).to_vector<float>();
  for (std::size_t k = 0; k < n; ++k) {
    EXPECT_EQ(result[k], k >= 10 && k < 37 ? 3.0f : -1.0f) << k;
  }
  EXPECT_NE(logic_error_message([&] {
              saxpy(queue(), ElementwiseRange{5, 101}, z, 2.0f, x, x);
            }).find("range [5, 101)"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              saxpy(queue(), ElementwiseRange{7, 6}, z, 2.0f, x, x);
            }).find("range"),
            std::string::npos);
}

TEST_P(ElementwiseTest, Int32FollowsC) {
  ElementwiseKernel kernel(
      {ElementwiseArg::output("z", i32), ElementwiseArg::input("x", i32),
       ElementwiseArg::scalar("a", i32), ElementwiseArg::scalar("b", DType::int64())},
      "z[i] = x[i] * a / 3 + (int)(b % 1000) - (int)i", {.name = "ints"});
  const std::size_t n = 1001;
  std::vector<int> xs(n);
  for (std::size_t k = 0; k < n; ++k) xs[k] = static_cast<int>(k * 7919 % 2001) - 1000;
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto z = Array::empty(device(), {n}, i32);
  const std::int64_t b = 5000000123;
  kernel(queue(), z, x, -7, b);
  const auto result = z.get(queue()).to_vector<int>();
  for (std::size_t k = 0; k < n; ++k) {
    ASSERT_EQ(result[k], xs[k] * -7 / 3 + 123 - static_cast<int>(k)) << k;
  }
  // Scalars must be exact in the declared dtype.
  const auto message = logic_error_message([&] { kernel(queue(), z, x, 1.5, b); });
  EXPECT_NE(message.find("argument 'a'"), std::string::npos) << message;
  EXPECT_NE(message.find("int32"), std::string::npos) << message;
  EXPECT_NE(logic_error_message([&] {
              kernel(queue(), z, x, std::int64_t{1} << 40, b);
            }).find("argument 'a'"),
            std::string::npos);
  EXPECT_NE(logic_error_message([&] {
              kernel(queue(), z, x, 2u, std::complex<float>(1, 0));
            }).find("argument 'b'"),
            std::string::npos);
  kernel(queue(), z, x, 3.0, std::uint8_t{7});  // exact conversions are fine
  EXPECT_EQ(z.get(queue()).to_vector<int>()[1], xs[1] * 3 / 3 + 7 - 1);
}

TEST_P(ElementwiseTest, Complex64ThroughTheFunctionsLibrary) {
  ElementwiseKernel kernel({ElementwiseArg::output("z", c64), ElementwiseArg::input("x", c64),
                            ElementwiseArg::input("y", c64), ElementwiseArg::scalar("a", c64)},
                           "z[i] = ${add}(${mul}(x[i], y[i]), a)",
                           {.name = "cmul",
                            .render_globals = {{"mul", functions::mul({c64, c64})},
                                               {"add", functions::add({c64, c64})}}});
  const std::size_t n = 777;
  std::vector<std::complex<float>> xs(n), ys(n);
  for (std::size_t k = 0; k < n; ++k) {
    xs[k] = {static_cast<float>(k % 13) - 6.0f, 0.5f * static_cast<float>(k % 7)};
    ys[k] = {0.25f * static_cast<float>(k % 5), static_cast<float>(k % 3) - 1.0f};
  }
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  const auto y = Array::from_host(queue(), HostArray::from_values(ys));
  const auto z = Array::empty(device(), {n}, c64);
  const std::complex<float> a(0.5f, -2.0f);
  kernel(queue(), z, x, y, a);
  const auto result = z.get(queue()).to_vector<std::complex<float>>();
  for (std::size_t k = 0; k < n; ++k) {
    const auto expected = xs[k] * ys[k] + a;
    ASSERT_NEAR(result[k].real(), expected.real(), 1e-5f) << k;
    ASSERT_NEAR(result[k].imag(), expected.imag(), 1e-5f) << k;
  }
  // A real scalar for a complex argument is exact too.
  kernel(queue(), z, x, y, 2.0f);
  EXPECT_NEAR(z.get(queue()).to_vector<std::complex<float>>()[3].real(),
              (xs[3] * ys[3]).real() + 2.0f, 1e-5f);
}

TEST_P(ElementwiseTest, Float64WhereSupported) {
  ElementwiseKernel kernel({ElementwiseArg::inout("z", f64), ElementwiseArg::scalar("a", f64)},
                           "z[i] = z[i] * a + 1.0 / 3.0", {.name = "doubles"});
  const auto z = Array::from_host(queue(), HostArray::from_values(std::vector<double>{1, 2, 3}));
  if (!device().params().supports_double) {
    const auto message = logic_error_message([&] { kernel(queue(), z, 0.1); });
    EXPECT_NE(message.find("double precision"), std::string::npos) << message;
    GTEST_SKIP() << device().name() << " has no double precision (the call was refused)";
  }
  kernel(queue(), z, 0.1);
  const auto result = z.get(queue()).to_vector<double>();
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(result[k], static_cast<double>(k + 1) * 0.1 + 1.0 / 3.0, 1e-15);
  }
  // 0.1 is not a float32: refused for a float32 argument (see saxpy), fine here.
  const auto saxpy = make_saxpy();
  const auto f = Array::empty(device(), {3}, f32);
  const auto message = logic_error_message([&] { saxpy(queue(), f, 0.1, f, f); });
  EXPECT_NE(message.find("argument 'a'"), std::string::npos) << message;
  EXPECT_NE(message.find("0.1"), std::string::npos) << message;
}

TEST_P(ElementwiseTest, NonContiguousViewsWithNegativeStrides) {
  const auto saxpy = make_saxpy();
  // x: a (6, 7) array seen with its rows reversed and every other column: shape (6, 4).
  std::vector<float> xs(42), ys(24), zs(72, -1.0f);
  std::iota(xs.begin(), xs.end(), 0.0f);
  std::iota(ys.begin(), ys.end(), 100.0f);
  const auto x_base = Array::from_host(queue(), HostArray::from_values(xs, {6, 7}));
  const auto x =
      x_base.view({Slice(std::nullopt, std::nullopt, -1), Slice(std::nullopt, std::nullopt, 2)});
  const auto y = Array::from_host(queue(), HostArray::from_values(ys, {6, 4}));
  // z: rows 1..6 of an (8, 9) array, columns 8, 6, 4, 2 (a negative step and an offset).
  const auto z_base = Array::from_host(queue(), HostArray::from_values(zs, {8, 9}));
  const auto z = z_base.view({Slice(1, 7), Slice(8, 0, -2)});
  ASSERT_EQ(x.shape(), (std::vector<std::size_t>{6, 4}));
  ASSERT_EQ(z.shape(), (std::vector<std::size_t>{6, 4}));

  saxpy(queue(), z, 2.0f, x, y);
  const auto result = z_base.get(queue()).to_vector<float>();
  for (std::size_t r = 0; r < 8; ++r) {
    for (std::size_t c = 0; c < 9; ++c) {
      float expected = -1.0f;
      if (r >= 1 && r < 7 && c % 2 == 0 && c >= 2) {
        const std::size_t i = r - 1, j = (8 - c) / 2;
        expected = 2.0f * xs[(5 - i) * 7 + 2 * j] + ys[i * 4 + j];
      }
      EXPECT_EQ(result[r * 9 + c], expected) << r << ", " << c;
    }
  }
  // The strided arrays address their elements through offsets; y is a plain load.
  const std::vector<ElementwiseValue> values{z, 2.0f, x, y};
  const auto source = saxpy.program(queue(), values).source();
  EXPECT_NE(source.find("_elw_a2[_elw_o2]"), std::string::npos) << source;
  EXPECT_NE(source.find("_elw_a0[_elw_o0]"), std::string::npos) << source;
  EXPECT_NE(source.find("y[i]"), std::string::npos) << source;

  // A reversed 1-D view and a contiguous slice at an unaligned offset.
  const auto line = Array::from_host(queue(), HostArray::from_values(ramp(50, 1.0f, 0.0f)));
  const auto out = Array::from_host(queue(), HostArray::from_values(std::vector<float>(50, 0)));
  saxpy(queue(), out.view({Slice(3, 13)}), 1.0f,
        line.view({Slice(std::nullopt, std::nullopt, -1)}).view({Slice(0, 10)}),
        line.view({Slice(5, 15)}));
  const auto back = out.get(queue()).to_vector<float>();
  for (std::size_t k = 0; k < 10; ++k) {
    EXPECT_EQ(back[3 + k], static_cast<float>(49 - k) + static_cast<float>(5 + k)) << k;
  }
  EXPECT_EQ(back[2], 0.0f);
  EXPECT_EQ(back[13], 0.0f);
}

TEST_P(ElementwiseTest, BroadcastsRowsColumnsAndLowerRanks) {
  ElementwiseKernel kernel(
      {ElementwiseArg::output("z", f32), ElementwiseArg::input("row", f32),
       ElementwiseArg::input("column", f32), ElementwiseArg::input("line", f32)},
      "z[i] = row[i] + 10.0f * column[i] + 100.0f * line[i]", {.name = "broadcast"});
  const std::size_t m = 5, n = 6;
  const auto row = Array::from_host(queue(), HostArray::from_values(ramp(n, 1.0f, 0.0f), {1, n}));
  const auto column =
      Array::from_host(queue(), HostArray::from_values(ramp(m, 1.0f, 0.0f), {m, 1}));
  const auto line = Array::from_host(queue(), HostArray::from_values(ramp(n, -1.0f, 0.0f), {n}));
  const auto z = Array::empty(device(), {m, n}, f32);
  kernel(queue(), z, row, column, line);
  const auto result = z.get(queue()).to_vector<float>();
  for (std::size_t r = 0; r < m; ++r) {
    for (std::size_t c = 0; c < n; ++c) {
      EXPECT_EQ(result[r * n + c], static_cast<float>(c) + 10.0f * static_cast<float>(r) -
                                       100.0f * static_cast<float>(c))
          << r << ", " << c;
    }
  }
  // A shape that does not broadcast, and a written array that would be broadcast.
  const auto wrong = Array::empty(device(), {2, n}, f32);
  auto message = logic_error_message([&] { kernel(queue(), z, wrong, column, line); });
  EXPECT_NE(message.find("argument 'row'"), std::string::npos) << message;
  EXPECT_NE(message.find("(5, 6)"), std::string::npos) << message;
  const auto big = Array::empty(device(), {m, n}, f32);
  message = logic_error_message([&] { kernel(queue(), row, big, column, line); });
  EXPECT_NE(message.find("argument 'row'"), std::string::npos) << message;  // (5, 6) vs (1, 6)
  EXPECT_NE(message.find("(1, 6)"), std::string::npos) << message;
  ElementwiseKernel copy({ElementwiseArg::input("x", f32), ElementwiseArg::output("y", f32)},
                         "y[i] = x[i]", {.name = "copy"});
  message = logic_error_message([&] { copy(queue(), big, row); });
  EXPECT_NE(message.find("argument 'y'"), std::string::npos) << message;
  EXPECT_NE(message.find("written"), std::string::npos) << message;
}

TEST_P(ElementwiseTest, HigherRanksAndZeroDimensions) {
  const auto saxpy = make_saxpy();
  // (2, 3, 4) with the outermost dimension reversed and the innermost one stepped by -2 from
  // an (2, 3, 8) block; y is transposed from a (4, 3, 2) array.
  std::vector<float> xs(48), ys(24);
  std::iota(xs.begin(), xs.end(), 0.0f);
  std::iota(ys.begin(), ys.end(), 1000.0f);
  const auto x_base = Array::from_host(queue(), HostArray::from_values(xs, {2, 3, 8}));
  const auto x = x_base.view(
      {Slice(std::nullopt, std::nullopt, -1), Slice::all(), Slice(std::nullopt, std::nullopt, -2)});
  const auto y_base = Array::empty(device(), {2, 3, 4}, f32,
                                   std::vector<std::ptrdiff_t>{4, 8, 24});  // Fortran order
  y_base.set(queue(), HostArray::from_values(ys, {2, 3, 4}));
  const auto z = Array::empty(device(), {2, 3, 4}, f32);
  saxpy(queue(), z, -1.0f, x, y_base);
  const auto result = z.get(queue()).to_vector<float>();
  for (std::size_t a = 0; a < 2; ++a) {
    for (std::size_t b = 0; b < 3; ++b) {
      for (std::size_t c = 0; c < 4; ++c) {
        const float expected = -xs[((1 - a) * 3 + b) * 8 + (7 - 2 * c)] + ys[(a * 3 + b) * 4 + c];
        EXPECT_EQ(result[(a * 3 + b) * 4 + c], expected) << a << ", " << b << ", " << c;
      }
    }
  }
  // Zero dimensions: one element.
  const auto one = Array::from_host(queue(), HostArray::from_values(std::vector<float>{4.0f}, {}));
  const auto out = Array::empty(device(), {}, f32);
  saxpy(queue(), out, 0.5f, one, one);
  EXPECT_EQ(out.get(queue()).to_vector<float>(), std::vector<float>{6.0f});
}

TEST_P(ElementwiseTest, StructArraysAndMemberNames) {
  // A field named like an array argument is a member, not a use of the array.
  const auto pair = DType::make_struct({{"x", f32}, {"y", i32}});
  ElementwiseKernel kernel({ElementwiseArg::output("x", f32), ElementwiseArg::input("s", pair)},
                           "x[i] = s[i].x * (float)s[i].y", {.name = "fields"});
  struct Pair {
    float x;
    std::int32_t y;
  };
  std::vector<Pair> pairs{{1.5f, 2}, {-2.0f, 3}, {0.25f, -4}, {3.0f, 5}};
  const auto host = HostArray::from_bytes(std::as_bytes(std::span(pairs)), {4}, pair);
  const auto s = Array::from_host(queue(), host);
  const auto x = Array::empty(device(), {2}, f32);
  kernel(queue(), x, s.view({Slice(std::nullopt, std::nullopt, -2)}));  // elements 3 and 1
  EXPECT_EQ(x.get(queue()).to_vector<float>(), (std::vector<float>{15.0f, -6.0f}));
}

TEST_P(ElementwiseTest, MisuseIsALogicErrorNamingTheArgument) {
  const auto saxpy = make_saxpy();
  const auto x = Array::empty(device(), {8}, f32);
  const auto z = Array::empty(device(), {8}, f32);
  auto message = logic_error_message([&] { saxpy(queue(), z, 1.0f, x); });
  EXPECT_NE(message.find("takes 4 arguments (z, a, x, y), got 3"), std::string::npos) << message;
  const auto ints = Array::empty(device(), {8}, i32);
  message = logic_error_message([&] { saxpy(queue(), z, 1.0f, x, ints); });
  EXPECT_NE(message.find("argument 'y'"), std::string::npos) << message;
  EXPECT_NE(message.find("float32"), std::string::npos) << message;
  message = logic_error_message([&] { saxpy(queue(), z, x, x, x); });
  EXPECT_NE(message.find("argument 'a'"), std::string::npos) << message;
  message = logic_error_message([&] { saxpy(queue(), z, 1.0f, 2.0f, x); });
  EXPECT_NE(message.find("argument 'x'"), std::string::npos) << message;

  // An array of another context (here: of the same device).
  const auto other_context = Context::from_devices({GetParam()});
  const auto elsewhere = Array::empty(other_context.devices()[0], {8}, f32);
  message = logic_error_message([&] { saxpy(queue(), z, 1.0f, x, elsewhere); });
  EXPECT_NE(message.find("argument 'y'"), std::string::npos) << message;
  EXPECT_NE(message.find("device"), std::string::npos) << message;

  // An array used other than as name[i] must have the fast-path layout.
  ElementwiseKernel shift({ElementwiseArg::output("z", f32), ElementwiseArg::input("x", f32)},
                          "z[i] = (i + 1 < 8) ? x[i + 1] : 0.0f", {.name = "shift"});
  const auto wide = Array::empty(device(), {16}, f32);
  message = logic_error_message([&] { shift(queue(), z, wide.view({Slice(0, 16, 2)})); });
  EXPECT_NE(message.find("argument 'x'"), std::string::npos) << message;
  EXPECT_NE(message.find("x[i]"), std::string::npos) << message;
  shift(queue(), z, x);  // contiguous: fine

  // Declarations.
  const auto declare = [](std::vector<ElementwiseArg> args, ElementwiseOptions options = {}) {
    return logic_error_message([&] { ElementwiseKernel(args, "", options); });
  };
  EXPECT_NE(declare({ElementwiseArg::scalar("a", f32)}).find("no array argument"),
            std::string::npos);
  EXPECT_NE(
      declare({ElementwiseArg::input("x", f32), ElementwiseArg::input("x", f32)}).find("repeats"),
      std::string::npos);
  EXPECT_NE(declare({ElementwiseArg::input("i", f32)}).find("'i'"), std::string::npos);
  EXPECT_NE(declare({ElementwiseArg::input("2x", f32)}).find("identifier"), std::string::npos);
  EXPECT_NE(declare({ElementwiseArg::input("b", DType::boolean())}).find("argument 'b'"),
            std::string::npos);
  EXPECT_NE(declare({ElementwiseArg::input("h", DType::float16())}).find("argument 'h'"),
            std::string::npos);
  EXPECT_NE(declare({ElementwiseArg::input("x", f32)}, {.name = "not a name"}).find("identifier"),
            std::string::npos);
  EXPECT_NE(declare({ElementwiseArg::input("x", f32)}, {.render_globals = {{"_elw_p0", "1"}}})
                .find("reserved"),
            std::string::npos);

  // Everything still works.
  saxpy(queue(), z, 1.0f, x, x);
  queue().synchronize();
}

// Any C identifier names a kernel, even one the kernel dialect defines (a built-in function,
// a type, a keyword): the generated kernel function has a name of its own (issue 25).
TEST_P(ElementwiseTest, KernelsNamedLikeBuiltinsWork) {
  const std::vector<std::int32_t> xs{3, -1, 7, 0, 12};
  const auto x = Array::from_host(queue(), HostArray::from_values(xs));
  for (const char* name : {"sin", "dot", "max", "exp", "float", "kernel", "barrier"}) {
    SCOPED_TRACE(name);
    const ElementwiseKernel kernel(
        {ElementwiseArg::output("z", i32), ElementwiseArg::input("x", i32)}, "z[i] = x[i] * 2 + 1",
        {.name = name});
    EXPECT_EQ(kernel.name(), name);
    const auto z = Array::empty(device(), {xs.size()}, i32);
    kernel(queue(), z, x);
    EXPECT_EQ(z.get(queue()).to_vector<std::int32_t>(),
              (std::vector<std::int32_t>{7, -1, 15, 1, 25}));
  }
}

TEST_P(ElementwiseTest, CompileErrorShowsTheGeneratedSource) {
  ElementwiseKernel broken({ElementwiseArg::output("z", f32), ElementwiseArg::input("x", f32)},
                           "z[i] = x[i] + undeclared_name_42", {.name = "broken"});
  const auto z = Array::empty(device(), {4}, f32);
  try {
    broken(queue(), z, z);
    FAIL() << "no CompileError";
  } catch (const CompileError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("undeclared_name_42"), std::string::npos) << what;
    EXPECT_NE(what.find("// ElementwiseKernel 'broken': _elw_kernel_broken"), std::string::npos)
        << what;
    EXPECT_NE(what.find("KERNEL void _elw_kernel_broken("), std::string::npos) << what;
  }
  // The failure is not cached as a program, and a second call fails the same way.
  EXPECT_EQ(broken.cached_programs(), 0u);
  EXPECT_THROW(broken(queue(), z, z), CompileError);
}

TEST_P(ElementwiseTest, ConcurrentCallsFromSeveralThreads) {
  // One kernel object, a fresh cache, each thread with its own queue; both layouts at once.
  const auto saxpy = make_saxpy();
  const std::size_t n = 4099;
  const auto xs = ramp(2 * n, 1.0f, 0.0f);
  std::vector<std::string> failures(2);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      try {
        const Queue queue(device());
        const auto x = Array::from_host(queue, HostArray::from_values(xs));
        const auto z = Array::empty(device(), {n}, f32);
        for (int round = 0; round < 6; ++round) {
          const bool strided = (round + static_cast<int>(t)) % 2 == 1;
          const auto input = strided ? x.view({Slice(std::nullopt, std::nullopt, 2)})
                                     : x.view({Slice(0, static_cast<std::ptrdiff_t>(n))});
          saxpy(queue, z, static_cast<float>(round), input, input);
          const auto result = z.get(queue).to_vector<float>();
          for (std::size_t k = 0; k < n; ++k) {
            const float expected = static_cast<float>(round + 1) * xs[strided ? 2 * k : k];
            if (result[k] != expected) {
              failures[t] = "thread " + std::to_string(t) + ", round " + std::to_string(round) +
                            ", element " + std::to_string(k);
              return;
            }
          }
        }
      } catch (const std::exception& error) {
        failures[t] = error.what();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, std::vector<std::string>(2));
  EXPECT_EQ(saxpy.cached_programs(), 2u);  // the fast path and the strided one
}

TEST_P(ElementwiseMultiDeviceTest, RunsOnEachDevicesPart) {
  const auto devices = context().devices();
  auto queues = MultiQueue::on_devices(devices);
  const auto saxpy = make_saxpy();
  const std::size_t rows = 2 * devices.size() + 1, cols = 33;
  const auto xs = ramp(rows * cols, 0.5f, 1.0f), ys = ramp(rows * cols, 2.0f, -4.0f);
  const auto x = MultiArray::from_host(queues, HostArray::from_values(xs, {rows, cols}));
  const auto y = MultiArray::from_host(queues, HostArray::from_values(ys, {rows, cols}));
  const auto z = MultiArray::empty(devices, {rows, cols}, f32);
  saxpy(queues, z, 3.0f, x, y);
  queues.synchronize();
  const auto result = z.get(queues).to_vector<float>();
  for (std::size_t k = 0; k < rows * cols; ++k) {
    ASSERT_NEAR(result[k], 3.0f * xs[k] + ys[k], 1e-5f * (1.0f + std::fabs(result[k]))) << k;
  }
  // A MultiArray on a single queue is refused.
  const auto message = logic_error_message([&] { saxpy(queues.queues()[0], z, 3.0f, x, y); });
  EXPECT_NE(message.find("argument 'z'"), std::string::npos) << message;
}

}  // namespace

PLINTH_INSTANTIATE_DEVICE_TEST(ElementwiseTest);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(ElementwiseMultiDeviceTest);

}  // namespace elementwise_test
}  // namespace plinth::conformance
