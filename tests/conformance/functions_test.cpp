// functions: every factory, for every real, complex and (where meaningful) integer dtype
// combination, run on random inputs and compared with a long double host reference
// (relative error under 1e-6 in single precision, 1e-12 in double; integers exactly).
// One program per factory and precision holds a kernel per combination, to keep builds few.

#include "complex_exp_special_values.hpp"
#include "fixture.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/functions.hpp>

#include <fmt/format.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace plinth::conformance {
namespace functions_test {
namespace {

using Real = long double;
using Value = std::complex<Real>;
using Values = std::vector<Value>;

const DType i8 = DType::int8(), u8 = DType::uint8(), i16 = DType::int16(), u16 = DType::uint16(),
            i32 = DType::int32(), u32 = DType::uint32(), i64 = DType::int64(),
            u64 = DType::uint64(), f32 = DType::float32(), f64 = DType::float64(),
            c64 = DType::complex64(), c128 = DType::complex128();

// --- Host values of any scalar dtype ---

template <class T>
T read(const std::byte* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

template <class T>
void write(std::byte* bytes, T value) {
  std::memcpy(bytes, &value, sizeof(T));
}

Value load(const DType& dtype, const std::byte* p) {
  const auto size = dtype.itemsize();
  switch (dtype.kind()) {
    case DTypeKind::signed_integer:
      return Real(size == 1   ? read<std::int8_t>(p)
                  : size == 2 ? read<std::int16_t>(p)
                  : size == 4 ? read<std::int32_t>(p)
                              : read<std::int64_t>(p));
    case DTypeKind::unsigned_integer:
      return Real(size == 1   ? read<std::uint8_t>(p)
                  : size == 2 ? read<std::uint16_t>(p)
                  : size == 4 ? read<std::uint32_t>(p)
                              : read<std::uint64_t>(p));
    case DTypeKind::floating: return size == 4 ? Real(read<float>(p)) : Real(read<double>(p));
    case DTypeKind::complex:
      if (size == 8) return {read<float>(p), read<float>(p + 4)};
      return {read<double>(p), read<double>(p + 8)};
    default: throw std::logic_error("no host value for " + dtype.name());
  }
}

// Stores `v` (an integer value for integer dtypes) as `dtype`.
void store(const DType& dtype, std::byte* p, Value v) {
  const auto size = dtype.itemsize();
  const auto re = v.real();
  switch (dtype.kind()) {
    case DTypeKind::signed_integer:
      if (size == 1) write(p, static_cast<std::int8_t>(re));
      if (size == 2) write(p, static_cast<std::int16_t>(re));
      if (size == 4) write(p, static_cast<std::int32_t>(re));
      if (size == 8) write(p, static_cast<std::int64_t>(re));
      return;
    case DTypeKind::unsigned_integer:
      if (size == 1) write(p, static_cast<std::uint8_t>(re));
      if (size == 2) write(p, static_cast<std::uint16_t>(re));
      if (size == 4) write(p, static_cast<std::uint32_t>(re));
      if (size == 8) write(p, static_cast<std::uint64_t>(re));
      return;
    case DTypeKind::floating:
      if (size == 4) write(p, static_cast<float>(re));
      if (size == 8) write(p, static_cast<double>(re));
      return;
    case DTypeKind::complex:
      if (size == 8)
        write(p, std::complex<float>(static_cast<float>(re), static_cast<float>(v.imag())));
      if (size == 16)
        write(p, std::complex<double>(static_cast<double>(re), static_cast<double>(v.imag())));
      return;
    default: throw std::logic_error("no host value for " + dtype.name());
  }
}

// --- Cases ---

// Where an input's random values come from: integers uniformly in [lo, hi], reals and both
// parts of complex numbers uniformly in [lo, hi).
struct Range {
  Real lo;
  Real hi;
  bool nonzero = false;
};

Range default_range(const DType& dtype) {
  if (dtype.kind() == DTypeKind::signed_integer) return {-100, 100};
  if (dtype.kind() == DTypeKind::unsigned_integer) return {0, 100};
  return {-1, 1};
}

struct Case {
  std::string label;
  Module module;
  std::vector<DType> inputs;  // the function's parameter types
  DType out;
  std::function<Value(const Values&)> reference;  // exact result for exact inputs
  std::vector<Range> ranges;                      // per input
  // Errors are measured against max(|reference|, scale(inputs)) (0: exact comparison).
  Real tolerance = 0;
  std::function<Real(const Values&)> scale = nullptr;
};

bool is_single(const DType& dtype) {
  return dtype == DType::float32() || dtype == DType::complex64();
}

// Single precision anywhere limits the result to single precision; integers are exact.
Real tolerance_for(const std::vector<DType>& inputs, const DType& out) {
  bool all_integer = is_integer(out), single = is_single(out);
  for (const auto& dtype : inputs) {
    all_integer = all_integer && is_integer(dtype);
    single = single || is_single(dtype);
  }
  if (all_integer) return 0;
  return single ? 1e-6L : 1e-12L;
}

bool needs_double(const Case& c) {
  if (is_double(c.out)) return true;
  for (const auto& dtype : c.inputs)
    if (is_double(dtype)) return true;
  return false;
}

std::string label(const char* name, const std::vector<DType>& inputs, const DType& out) {
  std::string text = std::string(name) + "(";
  for (std::size_t i = 0; i < inputs.size(); ++i) text += (i ? ", " : "") + inputs[i].name();
  return text + ") -> " + out.name();
}

// The value as the output dtype holds it: the real part for a real or integer dtype.
Value as_output(Value v, const DType& out) { return is_complex(out) ? v : Value(v.real()); }

Case make_case(const char* name, Module module, std::vector<DType> inputs, DType out,
               std::function<Value(const Values&)> reference) {
  std::vector<Range> ranges;
  for (const auto& dtype : inputs) ranges.push_back(default_range(dtype));
  const auto tolerance = tolerance_for(inputs, out);
  return Case{label(name, inputs, out), std::move(module), std::move(inputs), std::move(out),
              std::move(reference),     std::move(ranges), tolerance};
}

DType promoted_result(const std::vector<DType>& dtypes) {
  auto type = result_type(std::span<const DType>(dtypes));
  if (type.itemsize() < 4 && type.kind() == DTypeKind::signed_integer) return DType::int32();
  if (type.itemsize() < 4 && type.kind() == DTypeKind::unsigned_integer) return DType::uint32();
  return type;
}

// --- The factories' cases ---

Case add_or_mul_case(bool is_mul, std::vector<DType> in, std::optional<DType> out_dtype = {}) {
  const auto out = out_dtype ? *out_dtype : promoted_result(in);
  auto module = is_mul ? functions::mul(in, out_dtype) : functions::add(in, out_dtype);
  auto c = make_case(is_mul ? "mul" : "add", module, in, out, [is_mul](const Values& v) {
    Value result = is_mul ? Value(1) : Value(0);
    for (const auto& x : v) result = is_mul ? result * x : result + x;
    return result;
  });
  // A sum may cancel: measure against the sum of magnitudes (a product's parts likewise).
  c.scale = [is_mul](const Values& v) {
    Real scale = is_mul ? 1 : 0;
    for (const auto& x : v) scale = is_mul ? scale * std::abs(x) : scale + std::abs(x);
    return scale;
  };
  return c;
}

std::vector<Case> add_or_mul_cases(bool is_mul) {
  std::vector<Case> cases;
  const std::vector<DType> floats{f32, f64, c64, c128};
  for (const auto& a : floats)
    for (const auto& b : floats) cases.push_back(add_or_mul_case(is_mul, {a, b}));
  for (auto in : std::vector<std::vector<DType>>{{c64, f32, c64},
                                                 {f32, c64, f32},
                                                 {c128, f64, c128},
                                                 {c64, c128, f32},
                                                 {f64, f32, f32},
                                                 {i32, i32},
                                                 {i8, i8},
                                                 {u8, i8},
                                                 {i64, i32},
                                                 {u32, u32},
                                                 {u64, u64},
                                                 {i16, i32, i8},
                                                 {i32, f32},
                                                 {i64, c64},
                                                 {c64}})
    cases.push_back(add_or_mul_case(is_mul, in));
  cases.push_back(add_or_mul_case(is_mul, {i32, f32}, f32));
  cases.push_back(add_or_mul_case(is_mul, {i32, c64}, c64));
  cases.push_back(add_or_mul_case(is_mul, {f32, f32}, c64));
  cases.push_back(add_or_mul_case(is_mul, {c64, c64}, f32));
  cases.push_back(add_or_mul_case(is_mul, {f64, f64}, f32));
  cases.push_back(add_or_mul_case(is_mul, {c128, c128}, c64));
  cases.push_back(add_or_mul_case(is_mul, {i32, i32}, f64));
  cases.push_back(add_or_mul_case(is_mul, {c64}, c128));
  return cases;
}

std::vector<Case> div_cases() {
  std::vector<Case> cases;
  const auto add = [&](const DType& a, const DType& b, std::optional<DType> out_dtype = {}) {
    const auto out = out_dtype ? *out_dtype : promoted_result({a, b});
    const bool integer = is_integer(a) && is_integer(b);
    auto c =
        make_case("div", functions::div(a, b, out_dtype), {a, b}, out, [integer](const Values& v) {
          if (integer) return Value(std::trunc(v[0].real() / v[1].real()));
          return v[0] / v[1];
        });
    c.ranges[1].nonzero = true;
    c.scale = [](const Values& v) { return std::abs(v[0]) / std::abs(v[1]); };
    cases.push_back(std::move(c));
  };
  const std::vector<DType> floats{f32, f64, c64, c128};
  for (const auto& a : floats)
    for (const auto& b : floats) add(a, b);
  add(i32, i32);
  add(i64, i32);
  add(u32, u32);
  add(i8, i16);
  add(i32, f32);
  add(i32, f32, f32);
  add(i32, i32, f32);
  add(c64, c64, c128);
  add(c64, f32, f32);
  add(f32, c64, c64);
  return cases;
}

std::vector<Case> cast_cases() {
  std::vector<Case> cases;
  for (const auto& in : {i8, u8, i32, u64, f32, f64, c64, c128}) {
    for (const auto& out : {i16, u32, i64, f32, f64, c64, c128}) {
      if (is_complex(in) && !is_complex(out)) continue;
      const bool to_integer = is_integer(out);
      auto c =
          make_case("cast", functions::cast(in, out), {in}, out, [to_integer](const Values& v) {
            return to_integer ? Value(std::trunc(v[0].real())) : v[0];
          });
      if (to_integer) c.tolerance = 0;  // truncation of exact values is exact
      if (!is_integer(in) && to_integer) c.ranges[0] = {-100, 100};
      if (out.kind() == DTypeKind::unsigned_integer) c.ranges[0].lo = 0;
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

std::vector<Case> conj_cases() {
  std::vector<Case> cases;
  for (const auto& dtype : {f32, f64, c64, c128, i32, i16})
    cases.push_back(make_case("conj", functions::conj(dtype), {dtype}, dtype,
                              [](const Values& v) { return std::conj(v[0]); }));
  return cases;
}

std::vector<Case> norm_cases() {
  std::vector<Case> cases;
  for (const auto& dtype : {f32, f64, c64, c128, i32, i8, u16}) {
    const auto out = is_complex(dtype) ? real_for(dtype) : dtype;
    auto c = make_case("norm", functions::norm(dtype), {dtype}, out,
                       [](const Values& v) { return Value(std::norm(v[0])); });
    if (is_integer(dtype))
      c.ranges[0] = Range{dtype.kind() == DTypeKind::signed_integer ? Real(-11) : Real(0), 11};
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<Case> exp_cases() {
  std::vector<Case> cases;
  for (const auto& dtype : {f32, f64, c64, c128}) {
    auto c = make_case("exp", functions::exp(dtype), {dtype}, dtype,
                       [](const Values& v) { return std::exp(v[0]); });
    c.ranges[0] = {-3, 3};
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<Case> polar_unit_cases() {
  std::vector<Case> cases;
  for (const auto& dtype : {f32, f64}) {
    auto c = make_case("polar_unit", functions::polar_unit(dtype), {dtype}, complex_for(dtype),
                       [](const Values& v) { return std::polar(Real(1), v[0].real()); });
    c.ranges[0] = {-4, 4};
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<Case> polar_cases() {
  std::vector<Case> cases;
  for (const auto& dtype : {f32, f64}) {
    auto c =
        make_case("polar", functions::polar(dtype), {dtype, dtype}, complex_for(dtype),
                  [](const Values& v) { return v[0].real() * std::polar(Real(1), v[1].real()); });
    c.ranges = {{-2, 2}, {-4, 4}};
    cases.push_back(std::move(c));
  }
  return cases;
}

// grunnur's pow: the base converted to the output type; 0^e = 0 unless e = 0.
Value pow_reference(Value base, const Value& exponent, bool integer_exponent, const DType& out) {
  const Real e = exponent.real();
  if (base == Value(0) && e != 0) return 0;
  if (integer_exponent) {
    Value power = 1;
    for (Real i = 0; i < std::abs(e); ++i) power *= base;
    if (e >= 0) return power;
    if (is_integer(out)) return std::trunc(1 / power.real());  // C's integer division
    return Value(1) / power;
  }
  if (!is_complex(out)) return std::pow(base.real(), e);
  const Real angle = std::atan2(base.imag(), base.real());
  return std::pow(std::norm(base), e / 2) * std::polar(Real(1), angle * e);
}

std::vector<Case> pow_cases() {
  std::vector<Case> cases;
  // `exponent` is the type the function takes (a real exponent takes the output's precision).
  const auto add = [&](const DType& base, const DType& exponent, std::optional<DType> out_dtype,
                       Range base_range, Range exponent_range,
                       std::optional<DType> requested_exponent = std::nullopt) {
    const auto out = out_dtype ? *out_dtype : base;
    const bool integer_exponent = is_integer(exponent);
    auto c =
        make_case("pow", functions::pow(base, requested_exponent.value_or(exponent), out_dtype),
                  {base, exponent}, out, [integer_exponent, out](const Values& v) {
                    const Value b = is_complex(out) ? v[0] : Value(v[0].real());
                    return pow_reference(b, v[1], integer_exponent, out);
                  });
    c.ranges = {base_range, exponent_range};
    if (requested_exponent) c.label += " (exponent " + requested_exponent->name() + " requested)";
    cases.push_back(std::move(c));
  };
  const Range positive{0.1L, 2}, any{-2, 2}, real_exponent{-1.5L, 1.5L}, int_exponent{-4, 4};
  add(f32, f32, {}, positive, {-3, 3});
  add(f64, f64, {}, positive, {-3, 3});
  add(f32, i32, {}, any, int_exponent);
  add(f64, i32, {}, any, int_exponent);
  add(f64, i64, {}, any, int_exponent);
  add(c64, i32, {}, any, int_exponent);
  add(c128, i32, {}, any, int_exponent);
  add(c64, u32, {}, any, {0, 6});
  add(c64, f32, {}, any, real_exponent);
  add(c128, f64, {}, any, real_exponent);
  add(c64, f32, {}, any, real_exponent, f64);  // narrowed to float32, as grunnur
  add(i32, i32, {}, {-10, 10}, {-3, 6});
  add(i64, i16, {}, {-10, 10}, {-3, 6});
  add(u32, u32, {}, {0, 10}, {0, 6});
  add(i32, f32, f32, {1, 10}, {-2, 2});
  add(i32, i32, f64, {-10, 10}, {-3, 6});
  add(f32, i32, c64, any, int_exponent);
  add(f32, f32, c64, any, real_exponent);
  add(i32, f64, c128, {-10, 10}, real_exponent);
  return cases;
}

// --- Running ---

class FunctionsTest : public DeviceTest {
 protected:
  // Builds one program with a kernel per case, runs each on random inputs and compares.
  void run_cases(const std::vector<Case>& all, bool doubles, const ProgramOptions& base = {}) {
    std::vector<const Case*> cases;
    for (const auto& c : all)
      if (needs_double(c) == doubles) cases.push_back(&c);
    ASSERT_FALSE(cases.empty());

    std::string source;
    ProgramOptions options = base;
    for (std::size_t k = 0; k < cases.size(); ++k) {
      const auto& c = *cases[k];
      std::string params = fmt::format("GLOBAL_MEM {}* out", ctype(c.out).as_string());
      std::string args;
      for (std::size_t j = 0; j < c.inputs.size(); ++j) {
        params += fmt::format(", GLOBAL_MEM const {}* in{}", ctype(c.inputs[j]).as_string(), j);
        args += fmt::format("{}in{}[i]", j ? ", " : "", j);
      }
      source += fmt::format(
          "// {}\nKERNEL void case{}({})\n{{\n    const SIZE_T i = get_global_id(0);\n"
          "    out[i] = ${{f{}}}({});\n}}\n\n",
          c.label, k, params, k, args);
      options.render_globals.insert_or_assign(fmt::format("f{}", k), c.module);
    }
    const Program program(context(), source, options);

    constexpr std::size_t n = 256;
    for (std::size_t k = 0; k < cases.size(); ++k) {
      SCOPED_TRACE(cases[k]->label);
      check(*cases[k], program.kernel(fmt::format("case{}", k)), n);
    }
  }

 private:
  void check(const Case& c, const Kernel& kernel, std::size_t n) {
    std::mt19937_64 rng(std::hash<std::string>{}(c.label));
    std::vector<std::vector<std::byte>> host;
    std::vector<Buffer> buffers;
    buffers.push_back(Buffer::allocate(device(), n * c.out.itemsize()));
    for (std::size_t j = 0; j < c.inputs.size(); ++j) {
      const auto& dtype = c.inputs[j];
      const auto& range = c.ranges[j];
      std::vector<std::byte> bytes(n * dtype.itemsize());
      for (std::size_t i = 0; i < n; ++i) {
        Value v;
        do {
          if (is_integer(dtype)) {
            v = Real(std::uniform_int_distribution<std::int64_t>(
                static_cast<std::int64_t>(range.lo), static_cast<std::int64_t>(range.hi))(rng));
          } else {
            std::uniform_real_distribution<double> uniform(static_cast<double>(range.lo),
                                                           static_cast<double>(range.hi));
            const double re = uniform(rng);
            v = Value(re, is_complex(dtype) ? uniform(rng) : 0.0);
          }
        } while (range.nonzero && v == Value(0));
        store(dtype, bytes.data() + i * dtype.itemsize(), v);
      }
      buffers.push_back(Buffer::allocate(device(), bytes.size()));
      buffers.back().set(queue(), bytes);
      host.push_back(std::move(bytes));
    }
    std::vector<KernelArg> args(buffers.begin(), buffers.end());
    kernel.prepare({n}).launch(queue(), args);
    std::vector<std::byte> result(n * c.out.itemsize());
    buffers.front().get(queue(), result);

    int failures = 0;
    Real worst = 0;
    for (std::size_t i = 0; i < n && failures < 5; ++i) {
      Values inputs;
      for (std::size_t j = 0; j < c.inputs.size(); ++j)
        inputs.push_back(load(c.inputs[j], host[j].data() + i * c.inputs[j].itemsize()));
      const Value expected = as_output(c.reference(inputs), c.out);
      const Value actual = load(c.out, result.data() + i * c.out.itemsize());
      const Real error = std::abs(actual - expected);
      const Real scale = std::max(std::abs(expected), c.scale ? c.scale(inputs) : Real(0));
      const bool ok = c.tolerance == 0 ? error == 0 : error <= c.tolerance * scale;
      if (scale > 0) worst = std::max(worst, error / scale);
      if (!ok) {
        ++failures;
        std::string text;
        for (const auto& x : inputs)
          text += fmt::format(" ({:.20g}, {:.20g})", static_cast<double>(x.real()),
                              static_cast<double>(x.imag()));
        ADD_FAILURE() << c.label << " element " << i << ": inputs" << text << "; got ("
                      << static_cast<double>(actual.real()) << ", "
                      << static_cast<double>(actual.imag()) << "), expected ("
                      << static_cast<double>(expected.real()) << ", "
                      << static_cast<double>(expected.imag()) << "), relative error "
                      << static_cast<double>(error / scale) << " > "
                      << static_cast<double>(c.tolerance);
      }
    }
    RecordProperty(c.label, fmt::format("{:.3g}", static_cast<double>(worst)));
  }
};

// A test per factory in single precision (and integers), and one in double precision that
// skips on a device without it.
#define PLINTH_FUNCTION_TEST(factory, cases)                                                 \
  TEST_P(FunctionsTest, factory) { run_cases(cases, false); }                                \
  TEST_P(FunctionsTest, factory##Double) {                                                   \
    if (!device().params().supports_double)                                                  \
      GTEST_SKIP() << device().name() << " has no double precision: float64 and complex128 " \
                   << "cases of " #factory " skipped";                                       \
    run_cases(cases, true);                                                                  \
  }

PLINTH_FUNCTION_TEST(Add, add_or_mul_cases(false))
PLINTH_FUNCTION_TEST(Mul, add_or_mul_cases(true))
PLINTH_FUNCTION_TEST(Div, div_cases())
PLINTH_FUNCTION_TEST(Cast, cast_cases())
PLINTH_FUNCTION_TEST(Conj, conj_cases())
PLINTH_FUNCTION_TEST(Norm, norm_cases())
PLINTH_FUNCTION_TEST(Exp, exp_cases())
PLINTH_FUNCTION_TEST(PolarUnit, polar_unit_cases())
PLINTH_FUNCTION_TEST(Polar, polar_cases())
PLINTH_FUNCTION_TEST(Pow, pow_cases())

// The fast-math branch of polar_unit (PLINTH_FAST_MATH): the backend's fast intrinsics are
// accurate to about 1e-6 absolute for |theta| <= 4.
TEST_P(FunctionsTest, PolarUnitFastMath) {
  auto cases = polar_unit_cases();
  for (auto& c : cases) c.tolerance = 1e-5L;
  ProgramOptions options;
  options.fast_math = true;
  run_cases(cases, false, options);
}

// The special values of C99 Annex G for cexp (inf + 0i is inf + 0i, NaN + 0i is NaN + 0i,
// ...), in single and (where the device has it) double precision, and the host's std::exp
// agreeing with the table where the host follows Annex G.
TEST_P(FunctionsTest, ExpSpecialValuesOfAnnexG) {
  const auto cases = complex_exp_special_cases();
  for (const auto& c : cases) {
    if (!annex_g_equal(std::exp(c.z), c, 1e-15)) {
      const auto host = std::exp(c.z);
      std::cout << "note: the host's std::exp(" << c.z << ") gives " << host << ", not Annex G's\n";
    }
  }
  std::vector<DType> dtypes{c64};
  if (device().params().supports_double) dtypes.push_back(c128);
  for (const auto& dtype : dtypes) {
    SCOPED_TRACE(dtype.name());
    ProgramOptions options;
    options.render_globals.insert_or_assign("exp", functions::exp(dtype));
    const Program program(
        context(),
        fmt::format(
            "KERNEL void exp_values(GLOBAL_MEM {0}* out, GLOBAL_MEM const {0}* in)\n"
            "{{\n    const SIZE_T i = get_global_id(0);\n    out[i] = ${{exp}}(in[i]);\n}}\n",
            ctype(dtype).as_string()),
        options);
    const std::size_t n = cases.size();
    std::vector<std::byte> input(n * dtype.itemsize()), output(input.size());
    for (std::size_t k = 0; k < n; ++k)
      store(dtype, input.data() + k * dtype.itemsize(), cases[k].z);
    auto in = Buffer::allocate(device(), input.size());
    auto out = Buffer::allocate(device(), output.size());
    in.set(queue(), input);
    std::vector<KernelArg> args{out, in};
    program.kernel("exp_values").prepare({n}).launch(queue(), args);
    out.get(queue(), output);
    for (std::size_t k = 0; k < n; ++k) {
      const auto got = load(dtype, output.data() + k * dtype.itemsize());
      const std::complex<double> value(static_cast<double>(got.real()),
                                       static_cast<double>(got.imag()));
      EXPECT_TRUE(annex_g_equal(value, cases[k], dtype == c64 ? 1e-6 : 1e-15))
          << "exp" << cases[k].z << " gave " << value << ", Annex G: " << cases[k].expected;
    }
  }
}

PLINTH_INSTANTIATE_DEVICE_TEST(FunctionsTest);

}  // namespace
}  // namespace functions_test
}  // namespace plinth::conformance
