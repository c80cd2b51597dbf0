// The dialect's float16 conversions (docs/kernel-dialect.md, "float16 conversions"):
// plinth_half_to_float of every one of the 65536 bit patterns and back with
// plinth_float_to_half_rte; plinth_float_to_half_rte of float32 edge values (every tie between
// two float16 values and its neighbours, the range's ends, subnormals, inf, NaN) and of
// pseudo-random bit patterns; plinth_double_to_half_rte where the device has doubles, where a
// rounding through float32 would round twice. Against numpy's rounding (float16_reference.hpp).

#include "dialect_support.hpp"
#include "float16_reference.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace dialect_half_test {
namespace {

using namespace dialect;

constexpr const char* source = R"(
KERNEL void halves(GLOBAL_MEM const unsigned short *h, GLOBAL_MEM float *f,
                   GLOBAL_MEM unsigned short *back, unsigned int n)
{
    const unsigned int i = (unsigned int)get_global_id(0);
    if (i >= n) return;
    const float value = plinth_half_to_float(h[i]);
    f[i] = value;
    back[i] = plinth_float_to_half_rte(value);
}
KERNEL void floats(GLOBAL_MEM const float *f, GLOBAL_MEM unsigned short *h, unsigned int n)
{
    const unsigned int i = (unsigned int)get_global_id(0);
    if (i < n) h[i] = plinth_float_to_half_rte(f[i]);
}
)";

constexpr const char* double_source = R"(
KERNEL void doubles(GLOBAL_MEM const double *d, GLOBAL_MEM unsigned short *h, unsigned int n)
{
    const unsigned int i = (unsigned int)get_global_id(0);
    if (i < n) h[i] = plinth_double_to_half_rte(d[i]);
}
)";

class DialectHalfTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    doubles_ = device().params().supports_double;
    program_.emplace(context(), std::string(source) + (doubles_ ? double_source : ""));
  }
  // Runs kernel `name` over n work-items (rounded up to groups of 64).
  template <class... Args>
  void launch(const char* name, std::size_t n, const Args&... args) {
    const std::size_t local = std::min<std::size_t>(64, device().params().max_total_local_size);
    program_->kernel(name)(queue(), {(n + local - 1) / local * local}, {local}, args...,
                           static_cast<unsigned>(n));
  }
  bool doubles_ = false;
  std::optional<Program> program_;
};

std::string hex(std::uint32_t bits) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%x", bits);
  return text;
}

TEST_P(DialectHalfTest, EveryHalfToFloatAndBack) {
  std::vector<std::uint16_t> all(65536);
  for (std::uint32_t k = 0; k < all.size(); ++k) all[k] = static_cast<std::uint16_t>(k);
  const auto in = upload(queue(), all);
  auto f = upload(queue(), std::vector<float>(all.size()));
  auto back = upload(queue(), std::vector<std::uint16_t>(all.size()));
  launch("halves", all.size(), in, f, back);
  const auto floats = download<float>(queue(), f);
  const auto halves = download<std::uint16_t>(queue(), back);
  std::size_t wrong = 0;
  for (std::uint32_t k = 0; k < all.size(); ++k) {
    const auto h = static_cast<std::uint16_t>(k);
    if (half::is_nan(h)) {  // a NaN stays a NaN (its payload is the device's)
      if (!std::isnan(floats[k]) || !half::is_nan(halves[k])) {
        ADD_FAILURE() << "NaN " << hex(k) << " gave " << floats[k] << ", " << hex(halves[k]);
        ++wrong;
      }
      continue;
    }
    if (half::float_bits(floats[k]) != half::float_bits(half::to_float(h)) || halves[k] != h) {
      if (++wrong <= 8) {
        ADD_FAILURE() << hex(k) << " gave " << hex(half::float_bits(floats[k])) << " (expected "
                      << hex(half::float_bits(half::to_float(h))) << "), back " << hex(halves[k]);
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
}

// Every tie between consecutive float16 values (exact in float32), one float32 step either
// side of it, both signs; the ends of the range; pseudo-random bit patterns.
std::vector<float> float_edges() {
  std::vector<float> values;
  for (std::uint32_t h = 0; h < 0x7c00; ++h) {
    const double lo = half::to_float(static_cast<std::uint16_t>(h));
    const double hi = h + 1 == 0x7c00 ? 65536.0 : half::to_float(static_cast<std::uint16_t>(h + 1));
    const auto tie = static_cast<float>((lo + hi) / 2);  // exact
    for (const float v : {tie, std::nextafter(tie, 0.0f), std::nextafter(tie, 1e30f)}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  const float inf = std::numeric_limits<float>::infinity();
  for (const float v : {0.0f, 65504.0f, 65519.996f, 65520.0f, 1e10f, 3.4e38f, inf, 0x1p-24f,
                        0x1p-25f, 0x1.000002p-25f, 0x1p-26f, 0x1p-149f, 0x1p-14f, 1.0f / 3}) {
    values.push_back(v);
    values.push_back(-v);
  }
  values.push_back(std::numeric_limits<float>::quiet_NaN());
  Sequence random(7);
  for (int k = 0; k < 1 << 18; ++k)
    values.push_back(half::float_of(static_cast<std::uint32_t>(random.next())));
  return values;
}

TEST_P(DialectHalfTest, FloatToHalfRoundsToNearestEven) {
  const auto values = float_edges();
  const auto in = upload(queue(), values);
  auto out = upload(queue(), std::vector<std::uint16_t>(values.size()));
  launch("floats", values.size(), in, out);
  const auto got = download<std::uint16_t>(queue(), out);
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto expected = half::from_float(values[k]);
    const bool ok = half::is_nan(expected) ? half::is_nan(got[k]) : got[k] == expected;
    if (!ok && ++wrong <= 8) {
      ADD_FAILURE() << values[k] << " (" << hex(half::float_bits(values[k])) << ") gave "
                    << hex(got[k]) << ", expected " << hex(expected);
    }
  }
  EXPECT_EQ(wrong, 0u);
}

TEST_P(DialectHalfTest, DoubleToHalfRoundsOnce) {
  if (!doubles_) GTEST_SKIP() << device().name() << " has no doubles";
  // Each tie between float16 values, and the tie plus or minus a tiny amount that float32
  // drops (1 + 2^-11 + 2^-40 rounds to the tie in float32, then to 1; numpy gives 1 + 2^-10).
  std::vector<double> values;
  for (std::uint32_t h = 0; h < 0x7c00; h += 3) {
    const double lo = half::to_float(static_cast<std::uint16_t>(h));
    const double hi = h + 1 == 0x7c00 ? 65536.0 : half::to_float(static_cast<std::uint16_t>(h + 1));
    const double tie = (lo + hi) / 2;
    for (const double v : {tie, tie + tie * 0x1p-30, tie - tie * 0x1p-30}) {
      values.push_back(v);
      values.push_back(-v);
    }
  }
  for (const double v : {1e300, 1e-300, 65520.0, 65519.99999, 0.1, 0.0, -0.0,
                         std::numeric_limits<double>::infinity()})
    values.push_back(v);
  const auto in = upload(queue(), values);
  auto out = upload(queue(), std::vector<std::uint16_t>(values.size()));
  launch("doubles", values.size(), in, out);
  const auto got = download<std::uint16_t>(queue(), out);
  std::size_t wrong = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const auto expected = half::from_double(values[k]);
    if (got[k] != expected && ++wrong <= 8) {
      ADD_FAILURE() << values[k] << " gave " << hex(got[k]) << ", expected " << hex(expected);
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(half::from_double(1.0 + 0x1p-11 + 0x1p-40), 0x3c01);  // the reference itself
}

PLINTH_INSTANTIATE_DEVICE_TEST(DialectHalfTest);

}  // namespace
}  // namespace dialect_half_test
}  // namespace plinth::conformance
