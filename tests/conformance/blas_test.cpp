// <plinth/blas.hpp> against host references computed in complex<double>: gemm for every
// dtype and combination of transposes at odd sizes (1, 17, 255, 1000), operands in C order,
// Fortran order, strided and reversed views, beta = 0 not reading C (filled with NaN),
// batched gemm with a broadcast batch, gemv and ger in every form, matmul's numpy rules
// (1-D operands, broadcast stacks, promotion, out, an out overlapping an operand), the
// errors, and batched gemm on every device of a platform.

#include "../core/error_message.hpp"
#include "fixture.hpp"

#include <plinth/array_creation.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/blas.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::conformance {
namespace blas_test {
namespace {

/// Sets PLINTH_BLAS for its lifetime, then restores what it was.
class ScopedBlasEngine {
 public:
  explicit ScopedBlasEngine(const char* engine) {
    if (const char* old = std::getenv("PLINTH_BLAS")) old_ = old;
    ::setenv("PLINTH_BLAS", engine, 1);
  }
  ~ScopedBlasEngine() {
    if (old_) {
      ::setenv("PLINTH_BLAS", old_->c_str(), 1);
    } else {
      ::unsetenv("PLINTH_BLAS");
    }
  }
  ScopedBlasEngine(const ScopedBlasEngine&) = delete;
  ScopedBlasEngine& operator=(const ScopedBlasEngine&) = delete;

 private:
  std::optional<std::string> old_;
};

/// The engines products run on for `api`: plinth's kernels, and the vendor's BLAS library
/// where blas_support() finds one.
std::vector<const char*> engines_of(const API& api) {
  std::vector<const char*> engines{"plinth"};
  if (blas_support(api).library) engines.push_back("library");
  return engines;
}

std::vector<DType> dtypes_of(const BoundDevice& device);

/// Each test runs its body once per engine (PLINTH_BLAS set for each): both paths where both
/// exist.
class BlasTest : public DeviceTest {
 protected:
  /// Runs `body` under each engine; with `library_on_cpu` false, a CPU device's library is
  /// left out (a test whose products the other tests' already cover there).
  template <class Body>
  void for_each_engine(Body&& body, bool library_on_cpu = true) {
    for (const char* engine : engines_of(device().context().api())) {
      library_ = std::string_view(engine) == "library";
      if (library_ && !library_on_cpu && device().params().type == DeviceType::cpu) continue;
      SCOPED_TRACE(std::string("PLINTH_BLAS=") + engine);
      const ScopedBlasEngine use(engine);
      body();
    }
    library_ = false;
  }

  /// The dtypes a test multiplies: every one the device computes, but on a CPU device through
  /// the library at most `most` of float32 and complex128 (complex64 without doubles):
  /// CLBlast compiles each routine for each dtype on first use, 10 to 25 s a program on PoCL,
  /// which is CI's time. plinth's declarations of the other two are checked against
  /// CLBlast's header, and GPUs run all four.
  std::vector<DType> engine_dtypes(std::size_t most = 2) const {
    auto dtypes = dtypes_of(device());
    if (library_ && device().params().type == DeviceType::cpu) {
      const bool doubles = dtypes.size() == 4;
      dtypes = {DType::float32(), doubles ? DType::complex128() : DType::complex64()};
      if (dtypes.size() > most)
        dtypes.erase(dtypes.begin() + static_cast<std::ptrdiff_t>(most), dtypes.end());
    }
    return dtypes;
  }

 private:
  bool library_ = false;
};

class BlasMultiDeviceTest : public MultiDeviceTest {
 protected:
  template <class Body>
  void for_each_engine(Body&& body) {
    for (const char* engine : engines_of(context().api())) {
      SCOPED_TRACE(std::string("PLINTH_BLAS=") + engine);
      const ScopedBlasEngine use(engine);
      body();
    }
  }
};
using Shape = std::vector<std::size_t>;
using Value = std::complex<double>;

/// A host matrix (or stack, or vector) in C order, as complex<double>.
struct HostMatrix {
  Shape shape;
  std::vector<Value> values;

  Value at(std::size_t r, std::size_t c) const { return values[r * shape[1] + c]; }
};

bool complex_dtype(const DType& dtype) {
  return dtype == DType::complex64() || dtype == DType::complex128();
}

std::vector<DType> dtypes_of(const BoundDevice& device) {
  std::vector<DType> dtypes{DType::float32(), DType::complex64()};
  if (device.params().supports_double) {
    dtypes.push_back(DType::float64());
    dtypes.push_back(DType::complex128());
  }
  return dtypes;
}

HostMatrix random_matrix(Shape shape, const DType& dtype, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> small(-8, 8);
  std::size_t size = 1;
  for (const auto extent : shape) size *= extent;
  HostMatrix m{std::move(shape), std::vector<Value>(size)};
  // Quarters: exact in every dtype, so only the order of the additions may differ.
  for (auto& v : m.values) {
    v = {small(generator) / 4.0, complex_dtype(dtype) ? small(generator) / 4.0 : 0.0};
  }
  return m;
}

/// `m` uploaded as `dtype`, C order.
Array upload(const Queue& queue, const HostMatrix& m, const DType& dtype) {
  if (dtype == DType::float32()) {
    std::vector<float> v;
    for (const auto& x : m.values) v.push_back(static_cast<float>(x.real()));
    return Array::from_host(queue, HostArray::from_values(v, m.shape));
  }
  if (dtype == DType::float64()) {
    std::vector<double> v;
    for (const auto& x : m.values) v.push_back(x.real());
    return Array::from_host(queue, HostArray::from_values(v, m.shape));
  }
  if (dtype == DType::complex64()) {
    std::vector<std::complex<float>> v;
    for (const auto& x : m.values) v.emplace_back(x);
    return Array::from_host(queue, HostArray::from_values(v, m.shape));
  }
  return Array::from_host(queue, HostArray::from_values(m.values, m.shape));
}

/// `array`'s elements in C order, as complex<double>.
std::vector<Value> download(const Queue& queue, const Array& array) {
  const auto host = copy(queue, array).get(queue);
  std::vector<Value> values;
  const auto& dtype = array.dtype();
  if (dtype == DType::float32()) {
    for (const auto v : host.to_vector<float>()) values.emplace_back(v);
  } else if (dtype == DType::float64()) {
    for (const auto v : host.to_vector<double>()) values.emplace_back(v);
  } else if (dtype == DType::complex64()) {
    for (const auto v : host.to_vector<std::complex<float>>()) values.emplace_back(v);
  } else {
    values = host.to_vector<Value>();
  }
  return values;
}

/// How a matrix operand lies in memory (its elements are the same in every layout).
enum class Layout { c_order, f_order, strided, reversed };

std::string layout_name(Layout layout) {
  switch (layout) {
    case Layout::c_order: return "C";
    case Layout::f_order: return "F";
    case Layout::strided: return "strided";
    case Layout::reversed: return "reversed";
  }
  return "?";
}

/// The 2-D matrix `m` on the device in `layout`.
Array device_matrix(const Queue& queue, const HostMatrix& m, const DType& dtype, Layout layout) {
  const std::size_t rows = m.shape[0], cols = m.shape[1];
  switch (layout) {
    case Layout::c_order: return upload(queue, m, dtype);
    case Layout::f_order: {
      HostMatrix t{{cols, rows}, std::vector<Value>(rows * cols)};
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) t.values[c * rows + r] = m.at(r, c);
      }
      return transposed_view(upload(queue, t, dtype));
    }
    case Layout::strided: {
      // Every other column of a wider matrix, from the second row of a taller one.
      HostMatrix wide{{rows + 1, 2 * cols}, std::vector<Value>((rows + 1) * 2 * cols, Value(99))};
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) wide.values[(r + 1) * 2 * cols + 2 * c] = m.at(r, c);
      }
      return upload(queue, wide, dtype)
          .view({Slice(1, std::nullopt), Slice(std::nullopt, std::nullopt, 2)});
    }
    case Layout::reversed: {
      HostMatrix flipped{m.shape, std::vector<Value>(rows * cols)};
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c)
          flipped.values[(rows - 1 - r) * cols + c] = m.at(r, c);
      }
      return upload(queue, flipped, dtype).view({Slice(std::nullopt, std::nullopt, -1)});
    }
  }
  return upload(queue, m, dtype);
}

/// op(m) on the host.
HostMatrix op(const HostMatrix& m, Transpose t) {
  if (t == Transpose::none) return m;
  const std::size_t rows = m.shape[0], cols = m.shape[1];
  HostMatrix r{{cols, rows}, std::vector<Value>(rows * cols)};
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      const auto v = m.at(i, j);
      r.values[j * rows + i] = t == Transpose::conjugate_transpose ? std::conj(v) : v;
    }
  }
  return r;
}

/// alpha a b + beta c on the host (c may be empty when beta is 0).
HostMatrix reference_gemm(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c,
                          Value alpha, Value beta) {
  const std::size_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  HostMatrix r{{m, n}, std::vector<Value>(m * n)};
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      Value sum = 0;
      for (std::size_t p = 0; p < k; ++p) sum += a.at(i, p) * b.at(p, j);
      r.values[i * n + j] = alpha * sum + (beta == 0.0 ? Value(0) : beta * c.at(i, j));
    }
  }
  return r;
}

/// How many of `got` differ from `want` by more than the dtype's rounding of a sum of
/// `terms` products of quarters (exact in float64; float32 rounds each partial sum).
std::size_t wrong_values(const std::vector<Value>& got, const std::vector<Value>& want,
                         const DType& dtype, std::size_t terms) {
  if (got.size() != want.size()) return std::max(got.size(), want.size());
  const bool single = dtype == DType::float32() || dtype == DType::complex64();
  const double tolerance = single ? 1e-5 * static_cast<double>(terms + 1) * 64 : 1e-9;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(std::abs(got[i] - want[i]) <= tolerance * (1 + std::abs(want[i])))) ++wrong;
  }
  return wrong;
}

Value alpha_for(const DType& dtype) { return complex_dtype(dtype) ? Value(1.5, -0.5) : Value(1.5); }
Value beta_for(const DType& dtype) { return complex_dtype(dtype) ? Value(0.5, 0.25) : Value(-0.5); }

/// An array of `shape` of `dtype` whose every element is NaN (beta = 0 must not read it).
Array nan_array(const Queue& queue, const Shape& shape, const DType& dtype) {
  return full(queue, shape, std::numeric_limits<double>::quiet_NaN(), dtype);
}

void check_gemm(const Queue& queue, const DType& dtype, std::size_t m, std::size_t n, std::size_t k,
                Transpose ta, Transpose tb, Layout la, Layout lb, Layout lc, unsigned seed) {
  SCOPED_TRACE(fmt::format("{} m={} n={} k={} trans {} {} layouts {} {} {}", dtype.name(), m, n, k,
                           static_cast<int>(ta), static_cast<int>(tb), layout_name(la),
                           layout_name(lb), layout_name(lc)));
  // The stored operands are op^-1 of the logical ones: A stored k x m when transposed.
  const auto stored_a =
      random_matrix(ta == Transpose::none ? Shape{m, k} : Shape{k, m}, dtype, seed);
  const auto stored_b =
      random_matrix(tb == Transpose::none ? Shape{k, n} : Shape{n, k}, dtype, seed + 1);
  const auto c0 = random_matrix({m, n}, dtype, seed + 2);
  const auto a = device_matrix(queue, stored_a, dtype, la);
  const auto b = device_matrix(queue, stored_b, dtype, lb);
  const auto alpha = alpha_for(dtype), beta = beta_for(dtype);

  const auto c = device_matrix(queue, c0, dtype, lc);
  const GemmOptions options{alpha, beta, ta, tb};
  gemm(queue, a, b, c, options);
  const auto want = reference_gemm(op(stored_a, ta), op(stored_b, tb), c0, alpha, beta);
  EXPECT_EQ(wrong_values(download(queue, c), want.values, dtype, k), 0u) << "with beta";

  // beta = 0 writes C without reading it: NaN stays out.
  const auto fresh = nan_array(queue, {m, n}, dtype);
  gemm(queue, a, b, fresh, {alpha, 0.0, ta, tb});
  const auto want0 = reference_gemm(op(stored_a, ta), op(stored_b, tb), c0, alpha, 0.0);
  EXPECT_EQ(wrong_values(download(queue, fresh), want0.values, dtype, k), 0u) << "beta = 0";
}

TEST_P(BlasTest, GemmOfEveryDtypeAndTransposeMatchesTheHost) {
  for_each_engine([&] {
    const std::vector<Transpose> ops{Transpose::none, Transpose::transpose,
                                     Transpose::conjugate_transpose};
    unsigned seed = 1;
    for (const auto& dtype : engine_dtypes()) {
      for (const auto ta : ops) {
        for (const auto tb : ops) {
          check_gemm(queue(), dtype, 17, 33, 19, ta, tb, Layout::c_order, Layout::c_order,
                     Layout::c_order, seed += 3);
        }
      }
    }
  });
}

TEST_P(BlasTest, GemmOfOddSizesMatchesTheHost) {
  for_each_engine([&] {
    struct Size {
      std::size_t m, n, k;
    };
    const std::vector<Size> sizes{{1, 1, 1},     {1, 17, 1},    {17, 1, 255}, {255, 17, 1},
                                  {17, 255, 17}, {1000, 3, 17}, {3, 1000, 5}, {2, 3, 1000},
                                  {130, 129, 9}, {4, 5, 0}};
    unsigned seed = 100;
    for (const auto& dtype : engine_dtypes()) {
      for (const auto& s : sizes) {
        check_gemm(queue(), dtype, s.m, s.n, s.k, Transpose::none, Transpose::none, Layout::c_order,
                   Layout::c_order, Layout::c_order, seed += 3);
      }
    }
  });
}

TEST_P(BlasTest, GemmReadsAndWritesEveryLayout) {
  for_each_engine([&] {
    const std::vector<Layout> layouts{Layout::c_order, Layout::f_order, Layout::strided,
                                      Layout::reversed};
    unsigned seed = 200;
    const auto dtypes = engine_dtypes();
    const bool has_complex64 =
        std::find(dtypes.begin(), dtypes.end(), DType::complex64()) != dtypes.end();
    const auto complex_dtype = has_complex64 ? DType::complex64() : DType::complex128();
    for (const auto& dtype : {DType::float32(), complex_dtype}) {
      for (const auto la : layouts) {
        for (const auto lb : layouts) {
          for (const auto lc : layouts) {
            check_gemm(
                queue(), dtype, 21, 13, 11, Transpose::none,
                dtype == complex_dtype ? Transpose::conjugate_transpose : Transpose::transpose, la,
                lb, lc, seed += 3);
          }
        }
      }
    }
  });
}

TEST_P(BlasTest, BatchedGemmMultipliesEveryMatrixAndBroadcastsAStrideOfZero) {
  for_each_engine([&] {
    for (const auto& dtype : engine_dtypes(1)) {
      SCOPED_TRACE(dtype.name());
      const std::size_t batch = 5, m = 7, n = 9, k = 6;
      const auto ha = random_matrix({batch, m, k}, dtype, 1);
      const auto hb = random_matrix({1, k, n}, dtype, 2);
      const auto a = upload(queue(), ha, dtype);
      const auto b = broadcast_to(upload(queue(), hb, dtype), {batch, k, n});
      const auto c = gemm_batched(queue(), a, b, std::nullopt, {.alpha = 2.0});
      ASSERT_EQ(c.shape(), (Shape{batch, m, n}));
      const auto got = download(queue(), c);
      std::vector<Value> want;
      for (std::size_t i = 0; i < batch; ++i) {
        HostMatrix ai{{m, k},
                      {ha.values.begin() + static_cast<std::ptrdiff_t>(i * m * k),
                       ha.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * m * k)}};
        HostMatrix b0{{k, n}, hb.values};
        const auto r = reference_gemm(ai, b0, {}, 2.0, 0.0);
        want.insert(want.end(), r.values.begin(), r.values.end());
      }
      EXPECT_EQ(wrong_values(got, want, dtype, k), 0u);

      // Transposed operands of a stack, into a given output with beta.
      const auto ht = random_matrix({batch, k, m}, dtype, 3);
      const auto out0 = random_matrix({batch, m, n}, dtype, 4);
      const auto out = upload(queue(), out0, dtype);
      gemm_batched(queue(), upload(queue(), ht, dtype), b, out,
                   {.alpha = 1.0, .beta = 1.0, .trans_a = Transpose::transpose});
      want.clear();
      for (std::size_t i = 0; i < batch; ++i) {
        HostMatrix ti{{k, m},
                      {ht.values.begin() + static_cast<std::ptrdiff_t>(i * m * k),
                       ht.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * m * k)}};
        HostMatrix ci{{m, n},
                      {out0.values.begin() + static_cast<std::ptrdiff_t>(i * m * n),
                       out0.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * m * n)}};
        const auto r = reference_gemm(op(ti, Transpose::transpose), HostMatrix{{k, n}, hb.values},
                                      ci, 1.0, 1.0);
        want.insert(want.end(), r.values.begin(), r.values.end());
      }
      EXPECT_EQ(wrong_values(download(queue(), out), want, dtype, k), 0u);
    }
  });
}

TEST_P(BlasTest, GemvOfEveryDtypeTransposeAndSizeMatchesTheHost) {
  for_each_engine([&] {
    const std::vector<std::pair<std::size_t, std::size_t>> sizes{{1, 1},    {17, 1},    {1, 255},
                                                                 {255, 17}, {1000, 33}, {33, 1000}};
    unsigned seed = 300;
    for (const auto& dtype : engine_dtypes()) {
      for (const auto t : {Transpose::none, Transpose::transpose, Transpose::conjugate_transpose}) {
        for (const auto& [rows, cols] : sizes) {
          SCOPED_TRACE(
              fmt::format("{} {}x{} trans {}", dtype.name(), rows, cols, static_cast<int>(t)));
          const auto ha = random_matrix({rows, cols}, dtype, seed++);
          const auto opa = op(ha, t);
          const std::size_t m = opa.shape[0], k = opa.shape[1];
          const auto hx = random_matrix({k, 1}, dtype, seed++);
          const auto hy = random_matrix({m, 1}, dtype, seed++);
          const auto a =
              device_matrix(queue(), ha, dtype, seed % 2 ? Layout::c_order : Layout::f_order);
          // x strided (every other element), y given as a column of a matrix.
          const auto x = device_matrix(queue(), hx, dtype, Layout::strided).view({Slice::all(), 0});
          const auto y = device_matrix(queue(), hy, dtype, Layout::c_order).view({Slice::all(), 0});
          const auto alpha = alpha_for(dtype), beta = beta_for(dtype);
          gemv(queue(), a, x, y, {alpha, beta, t});
          const auto want = reference_gemm(opa, hx, hy, alpha, beta);
          EXPECT_EQ(wrong_values(download(queue(), y), want.values, dtype, k), 0u) << "with beta";
          const auto y0 = gemv(queue(), a, x, std::nullopt, {.alpha = alpha, .trans = t});
          const auto want0 = reference_gemm(opa, hx, hy, alpha, 0.0);
          EXPECT_EQ(wrong_values(download(queue(), y0), want0.values, dtype, k), 0u) << "new y";
        }
      }
    }
  });
}

TEST_P(BlasTest, GerAddsTheOuterProductInPlaceOrIntoANewMatrix) {
  for_each_engine([&] {
    unsigned seed = 400;
    for (const auto& dtype : engine_dtypes()) {
      for (const bool conjugate : {false, true}) {
        SCOPED_TRACE(fmt::format("{} conjugate_y {}", dtype.name(), conjugate));
        const std::size_t m = 17, n = 255;
        const auto hx = random_matrix({m, 1}, dtype, seed++);
        const auto hy = random_matrix({1, n}, dtype, seed++);
        const auto ha = random_matrix({m, n}, dtype, seed++);
        const auto x = upload(queue(), hx, dtype).view({Slice::all(), 0});
        const auto y = upload(queue(), hy, dtype).view({0});
        const auto a = device_matrix(queue(), ha, dtype, Layout::f_order);
        const auto alpha = alpha_for(dtype);
        ger(queue(), x, y, a, {alpha, conjugate});
        std::vector<Value> want(m * n), want_new(m * n);
        for (std::size_t i = 0; i < m; ++i) {
          for (std::size_t j = 0; j < n; ++j) {
            const auto yj = conjugate ? std::conj(hy.values[j]) : hy.values[j];
            want_new[i * n + j] = alpha * hx.values[i] * yj;
            want[i * n + j] = ha.at(i, j) + want_new[i * n + j];
          }
        }
        EXPECT_EQ(wrong_values(download(queue(), a), want, dtype, 1), 0u);
        const auto fresh = ger(queue(), x, y, std::nullopt, {alpha, conjugate});
        ASSERT_EQ(fresh.shape(), (Shape{m, n}));
        EXPECT_EQ(fresh.dtype(), dtype);
        EXPECT_EQ(wrong_values(download(queue(), fresh), want_new, dtype, 1), 0u);
      }
    }
  });
}

TEST_P(BlasTest, MatmulFollowsNumpysRules) {
  for_each_engine(
      [&] {
        const auto f32 = DType::float32();
        const auto a = random_matrix({4, 3}, f32, 1);
        const auto b = random_matrix({3, 5}, f32, 2);
        const auto v3 = random_matrix({3}, f32, 3);
        const auto v4 = random_matrix({4}, f32, 4);
        const auto da = upload(queue(), a, f32), db = upload(queue(), b, f32);
        const auto dv3 = upload(queue(), v3, f32), dv4 = upload(queue(), v4, f32);

        // 2-D @ 2-D.
        auto r = matmul(queue(), da, db);
        ASSERT_EQ(r.shape(), (Shape{4, 5}));
        EXPECT_EQ(
            wrong_values(download(queue(), r), reference_gemm(a, b, {}, 1.0, 0.0).values, f32, 3),
            0u);
        // 2-D @ 1-D: (4, 3) @ (3) is (4).
        r = matmul(queue(), da, dv3);
        ASSERT_EQ(r.shape(), Shape{4});
        EXPECT_EQ(
            wrong_values(download(queue(), r),
                         reference_gemm(a, HostMatrix{{3, 1}, v3.values}, {}, 1.0, 0.0).values, f32,
                         3),
            0u);
        // 1-D @ 2-D: (4) @ (4, 3) is (3).
        r = matmul(queue(), dv4, da);
        ASSERT_EQ(r.shape(), Shape{3});
        EXPECT_EQ(
            wrong_values(download(queue(), r),
                         reference_gemm(HostMatrix{{1, 4}, v4.values}, a, {}, 1.0, 0.0).values, f32,
                         4),
            0u);
        // 1-D @ 1-D: the inner product, shape ().
        r = matmul(queue(), dv3, dv3);
        ASSERT_EQ(r.shape(), Shape{});
        Value dot = 0;
        for (const auto& v : v3.values) dot += v * v;
        EXPECT_EQ(wrong_values(download(queue(), r), {dot}, f32, 3), 0u);

        // Stacks broadcast: (2, 1, 4, 3) @ (3, 3, 5) is (2, 3, 4, 5); float32 @ float64 is float64.
        const auto sa = random_matrix({2, 1, 4, 3}, f32, 5);
        const auto sb = random_matrix({3, 3, 5}, DType::float64(), 6);
        if (device().params().supports_double) {
          r = matmul(queue(), upload(queue(), sa, f32), upload(queue(), sb, DType::float64()));
          ASSERT_EQ(r.shape(), (Shape{2, 3, 4, 5}));
          EXPECT_EQ(r.dtype(), DType::float64());
          std::vector<Value> want;
          for (std::size_t i = 0; i < 2; ++i) {
            for (std::size_t j = 0; j < 3; ++j) {
              HostMatrix ai{{4, 3},
                            {sa.values.begin() + static_cast<std::ptrdiff_t>(i * 12),
                             sa.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * 12)}};
              HostMatrix bj{{3, 5},
                            {sb.values.begin() + static_cast<std::ptrdiff_t>(j * 15),
                             sb.values.begin() + static_cast<std::ptrdiff_t>((j + 1) * 15)}};
              const auto p = reference_gemm(ai, bj, {}, 1.0, 0.0);
              want.insert(want.end(), p.values.begin(), p.values.end());
            }
          }
          EXPECT_EQ(wrong_values(download(queue(), r), want, DType::float64(), 3), 0u);
        }
        // A stack @ a vector: (2, 1, 4, 3) @ (3) is (2, 1, 4).
        r = matmul(queue(), upload(queue(), sa, f32), dv3);
        ASSERT_EQ(r.shape(), (Shape{2, 1, 4}));

        // Into `out`, also when `out` is an operand (a square matrix squared in place).
        const auto sq = random_matrix({6, 6}, f32, 7);
        const auto dsq = upload(queue(), sq, f32);
        matmul(queue(), dsq, dsq, dsq);
        EXPECT_EQ(wrong_values(download(queue(), dsq), reference_gemm(sq, sq, {}, 1.0, 0.0).values,
                               f32, 6),
                  0u);
      },
      /*library_on_cpu=*/false);
}

TEST_P(BlasTest, AnOutputOverlappingAnInputGetsTheProductOfTheOldValues) {
  for_each_engine([&] {
    const auto f32 = DType::float32();
    const auto h = random_matrix({8, 8}, f32, 9);
    const auto a = upload(queue(), h, f32);
    // c = a a^T + c where c is a itself.
    gemm(queue(), a, a, a, {.alpha = 1.0, .beta = 1.0, .trans_b = Transpose::transpose});
    EXPECT_EQ(
        wrong_values(download(queue(), a),
                     reference_gemm(h, op(h, Transpose::transpose), h, 1.0, 1.0).values, f32, 8),
        0u);
    // y = a x where y is a's first column.
    const auto b = upload(queue(), h, f32);
    const auto column = b.view({Slice::all(), 0});
    const auto hx = random_matrix({8, 1}, f32, 10);
    gemv(queue(), b, upload(queue(), hx, f32).view({Slice::all(), 0}), column);
    const auto want = reference_gemm(h, hx, {}, 1.0, 0.0);
    const auto got = download(queue(), column);
    EXPECT_EQ(wrong_values(got, want.values, f32, 8), 0u);
  });
}

TEST_P(BlasTest, BadArgumentsAreRefusedNamingTheProblem) {
  for_each_engine([&] {
    const auto f32 = DType::float32();
    const auto a = zeros(queue(), {4, 3}, f32);
    const auto b = zeros(queue(), {4, 5}, f32);
    const auto v = zeros(queue(), {3}, f32);
    EXPECT_CONTAINS(logic_error_message([&] { gemm(queue(), a, b); }), "inner dimensions differ");
    EXPECT_CONTAINS(logic_error_message([&] {
                      gemm(queue(), a, zeros(queue(), {3, 5}, DType::float64()));
                    }),
                    "'b' is float64 but 'a' is float32");
    EXPECT_CONTAINS(logic_error_message([&] {
                      gemm(queue(), zeros(queue(), {2, 2}, DType::int32()),
                           zeros(queue(), {2, 2}, DType::int32()));
                    }),
                    "dtype int32 is not supported");
    EXPECT_CONTAINS(logic_error_message([&] { gemm(queue(), a, v); }),
                    "argument 'b' has 1 dimensions, not 2");
    EXPECT_CONTAINS(logic_error_message([&] {
                      gemm(queue(), a, zeros(queue(), {3, 5}, f32), std::nullopt, {.beta = 1.0});
                    }),
                    "needs an output 'c'");
    EXPECT_CONTAINS(
        logic_error_message([&] {
          gemm(queue(), a, zeros(queue(), {3, 5}, f32), std::nullopt, {.alpha = Value(0, 1)});
        }),
        "has an imaginary part");
    EXPECT_CONTAINS(logic_error_message([&] {
                      gemm(queue(), a, zeros(queue(), {3, 5}, f32), zeros(queue(), {5, 4}, f32));
                    }),
                    "argument 'c' has shape (5, 4), the product has (4, 5)");
    EXPECT_CONTAINS(logic_error_message([&] { gemv(queue(), a, zeros(queue(), {4}, f32)); }),
                    "but x has 4 elements");
    EXPECT_CONTAINS(logic_error_message([&] { ger(queue(), v, v, a); }),
                    "argument 'a' has shape (4, 3)");
    EXPECT_CONTAINS(
        logic_error_message([&] {
          gemm_batched(queue(), zeros(queue(), {2, 2, 2}, f32), zeros(queue(), {3, 2, 2}, f32));
        }),
        "a holds 2 matrices and b 3");
    EXPECT_CONTAINS(logic_error_message([&] { matmul(queue(), a, b); }),
                    "a's last dimension has 3 elements but b's second to last has 4");
    EXPECT_CONTAINS(logic_error_message([&] { matmul(queue(), zeros(queue(), {}, f32), a); }),
                    "argument 'a' is 0-D");
    EXPECT_CONTAINS(
        logic_error_message([&] {
          matmul(queue(), zeros(queue(), {2, 4, 3}, f32), zeros(queue(), {3, 3, 5}, f32));
        }),
        "do not broadcast");
    EXPECT_CONTAINS(logic_error_message([&] {
                      matmul(queue(), zeros(queue(), {2, 2}, DType::int32()),
                             zeros(queue(), {2, 2}, DType::int32()));
                    }),
                    "dtype int32 is not supported");
  });
}

TEST_P(BlasTest, PlinthBlasChoosesTheEngineOrSaysWhatItTakes) {
  const auto support = blas_support(device().context().api());
  EXPECT_FALSE(support.description.empty());
  const auto a = zeros(queue(), {4, 4}, DType::float32());
  {
    const ScopedBlasEngine use("cublas");
    EXPECT_CONTAINS(logic_error_message([&] { gemm(queue(), a, a); }),
                    "PLINTH_BLAS is 'cublas': it takes 'library'");
  }
  if (!support.library) {
    const ScopedBlasEngine use("library");
    EXPECT_CONTAINS(logic_error_message([&] { gemm(queue(), a, a); }),
                    "PLINTH_BLAS=library, but the");
    EXPECT_CONTAINS(logic_error_message([&] { gemm(queue(), a, a); }), support.description);
  }
  // An empty product needs no engine: it runs on plinth's kernels whatever PLINTH_BLAS says.
  const ScopedBlasEngine use("library");
  const auto c = gemm(queue(), zeros(queue(), {3, 0}, DType::float32()),
                      zeros(queue(), {0, 2}, DType::float32()));
  EXPECT_EQ(c.shape(), (Shape{3, 2}));
}

TEST_P(BlasMultiDeviceTest, BatchedGemmRunsEveryDevicesPartOfTheStack) {
  for_each_engine([&] {
    const auto devices = context().devices();
    const auto queues = MultiQueue::on_devices(devices);
    const auto f32 = DType::float32();
    const std::size_t batch = 2 * devices.size() + 1, m = 9, n = 7, k = 5;
    const auto ha = random_matrix({batch, m, k}, f32, 1);
    const auto hb = random_matrix({batch, k, n}, f32, 2);
    const auto to_host = [&](const HostMatrix& h) {
      std::vector<float> v;
      for (const auto& x : h.values) v.push_back(static_cast<float>(x.real()));
      return HostArray::from_values(v, h.shape);
    };
    const auto a = MultiArray::from_host(queues, to_host(ha));
    const auto b = MultiArray::from_host(queues, to_host(hb));
    const auto c = gemm_batched(queues, a, b);
    ASSERT_EQ(c.shape(), (Shape{batch, m, n}));
    const auto host = c.get(queues).to_vector<float>();
    std::vector<Value> got(host.begin(), host.end()), want;
    for (std::size_t i = 0; i < batch; ++i) {
      HostMatrix ai{{m, k},
                    {ha.values.begin() + static_cast<std::ptrdiff_t>(i * m * k),
                     ha.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * m * k)}};
      HostMatrix bi{{k, n},
                    {hb.values.begin() + static_cast<std::ptrdiff_t>(i * k * n),
                     hb.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * k * n)}};
      const auto r = reference_gemm(ai, bi, {}, 1.0, 0.0);
      want.insert(want.end(), r.values.begin(), r.values.end());
    }
    EXPECT_EQ(wrong_values(got, want, f32, k), 0u);
    // A c split otherwise is refused.
    const auto clone = MultiArray::from_host(queues, to_host(random_matrix({batch, m, n}, f32, 3)),
                                             std::make_shared<CloneSplay>());
    EXPECT_CONTAINS(logic_error_message([&] { gemm_batched(queues, a, b, clone); }),
                    "are not split along axis 0 alike");
    // A c of the wrong shape is refused before any device's part runs.
    const auto wrong = MultiArray::from_host(queues, to_host(random_matrix({batch, n, m}, f32, 4)));
    EXPECT_CONTAINS(logic_error_message([&] { gemm_batched(queues, a, b, wrong); }),
                    "argument 'c' has shape");
  });
}

PLINTH_INSTANTIATE_DEVICE_TEST(BlasTest);
PLINTH_INSTANTIATE_MULTI_DEVICE_TEST(BlasMultiDeviceTest);

}  // namespace
}  // namespace blas_test
}  // namespace plinth::conformance
