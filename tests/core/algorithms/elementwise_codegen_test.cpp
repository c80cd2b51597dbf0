// ElementwiseKernel's code generation without a device: rewriting `name[i]` in operations,
// merging layouts, the kernel source for a signature, and exact scalar conversion.

#include "algorithms/elementwise_codegen.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace plinth::detail {
namespace elementwise_codegen_test {
namespace {

const DType f32 = DType::float32(), f64 = DType::float64(), i32 = DType::int32();

RewrittenOperation rewrite(const std::string& operation, std::vector<bool> strided = {}) {
  static const std::vector<std::string> names{"z", "", "x"};  // arrays 0 and 2, a scalar
  if (strided.empty()) strided.assign(names.size(), false);
  return rewrite_operation(operation, names, strided);
}

TEST(ElementwiseRewrite, StridedArraysGetTheirOffsets) {
  const auto result = rewrite("z[i] = a * x[i] + x [ i ]", {true, false, true});
  EXPECT_EQ(result.text, "_elw_a0[_elw_o0] = a * _elw_a2[_elw_o2] + _elw_a2[_elw_o2]");
  EXPECT_EQ(result.raw_use, (std::vector<bool>{false, false, false}));
}

TEST(ElementwiseRewrite, FastPathArraysAreLeftAlone) {
  const auto op = "z[i] = x[ i ] * 2";
  const auto result = rewrite(op, {false, false, true});
  EXPECT_EQ(result.text, "z[i] = _elw_a2[_elw_o2] * 2");
  EXPECT_EQ(rewrite(op).text, op);
}

TEST(ElementwiseRewrite, OtherUsesAreRawUses) {
  EXPECT_EQ(rewrite("z[i] = x[i + 1]").raw_use, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(rewrite("z[i] = x[ii]").raw_use, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(rewrite("z[i] = *x").raw_use, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(rewrite("*(z + i) = x[i]").raw_use, (std::vector<bool>{true, false, false}));
  // Raw uses are never rewritten.
  EXPECT_EQ(rewrite("z[i] = x[0]", {true, false, true}).text, "_elw_a0[_elw_o0] = x[0]");
}

TEST(ElementwiseRewrite, IgnoresMembersCommentsLiteralsNumbersAndPlaceholders) {
  const auto op =
      "z[i] = s.x + p->z + 1e5 + 0x1fz + 2.5e-3x /* x[0] */ + ${f(x)}(x[i]) // z\n"
      "; printf(\"x %d\", 'x'); zx[i] = xz[i];";
  const auto result = rewrite(op, {true, false, true});
  EXPECT_EQ(result.raw_use, (std::vector<bool>{false, false, false}));
  EXPECT_EQ(result.text,
            "_elw_a0[_elw_o0] = s.x + p->z + 1e5 + 0x1fz + 2.5e-3x /* x[0] */ + "
            "${f(x)}(_elw_a2[_elw_o2]) // z\n"
            "; printf(\"x %d\", 'x'); zx[i] = xz[i];");
  // Unterminated comments, literals and placeholders end the text without harm.
  EXPECT_EQ(rewrite("z[i] = 1; /* x").raw_use, (std::vector<bool>{false, false, false}));
  EXPECT_EQ(rewrite("z[i] = \"x").raw_use, (std::vector<bool>{false, false, false}));
  EXPECT_EQ(rewrite("z[i] = ${x").raw_use, (std::vector<bool>{false, false, false}));
  EXPECT_EQ(rewrite("x").raw_use, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(rewrite("x[").raw_use, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(rewrite("x[i").raw_use, (std::vector<bool>{false, false, true}));
  EXPECT_EQ(rewrite("").text, "");
}

std::vector<AlignedStrides> arrays(std::vector<AlignedStrides> list) { return list; }

TEST(ElementwiseMergeLayout, NoStridedArrayNeedsNoLayout) {
  const std::vector<std::size_t> shape{3, 4};
  const auto merged = merge_layout(shape, arrays({std::nullopt, std::nullopt}));
  EXPECT_TRUE(merged.shape.empty());
}

TEST(ElementwiseMergeLayout, MergesWhatEveryStridedArrayStepsThroughAsOne) {
  const std::vector<std::size_t> shape{2, 3, 4};
  // Every other element of a C-order array: one dimension of stride 2.
  auto merged = merge_layout(shape, arrays({std::vector<std::int64_t>{24, 8, 2}, std::nullopt}));
  EXPECT_EQ(merged.shape, (std::vector<std::size_t>{24}));
  EXPECT_EQ(merged.strides[0], (std::vector<std::int64_t>{2}));
  EXPECT_TRUE(merged.strides[1].empty());
  // The outermost dimension reversed: the inner two merge, the outer stays apart.
  merged = merge_layout(shape, arrays({std::vector<std::int64_t>{-12, 4, 1}}));
  EXPECT_EQ(merged.shape, (std::vector<std::size_t>{2, 12}));
  EXPECT_EQ(merged.strides[0], (std::vector<std::int64_t>{-12, 1}));
  // Reversed rows: nothing merges.
  merged = merge_layout(shape, arrays({std::vector<std::int64_t>{12, -4, 1}}));
  EXPECT_EQ(merged.shape, shape);
  // A broadcast row against a strided transposed array: nothing merges.
  merged = merge_layout(
      shape, arrays({std::vector<std::int64_t>{0, 0, 1}, std::vector<std::int64_t>{1, 2, 6}}));
  EXPECT_EQ(merged.shape, shape);
  EXPECT_EQ(merged.strides[0], (std::vector<std::int64_t>{0, 0, 1}));
  EXPECT_EQ(merged.strides[1], (std::vector<std::int64_t>{1, 2, 6}));
}

TEST(ElementwiseMergeLayout, DropsExtentsOfOne) {
  std::vector<std::size_t> shape{1, 5, 1};
  auto merged = merge_layout(shape, arrays({std::vector<std::int64_t>{7, -3, 9}}));
  EXPECT_EQ(merged.shape, (std::vector<std::size_t>{5}));
  EXPECT_EQ(merged.strides[0], (std::vector<std::int64_t>{-3}));
  shape = {1, 1};
  merged = merge_layout(shape, arrays({std::vector<std::int64_t>{0, 0}}));
  EXPECT_EQ(merged.shape, (std::vector<std::size_t>{1}));
  EXPECT_EQ(merged.strides[0], (std::vector<std::int64_t>{0}));
  merged = merge_layout({}, arrays({std::vector<std::int64_t>{}}));  // zero dimensions
  EXPECT_EQ(merged.shape, (std::vector<std::size_t>{1}));
}

// Generated kernel functions have names of their own, so that a kernel may be named like
// anything the dialect defines (issue 25); the source's first line names both.
TEST(ElementwiseSource, KernelFunctionNamesAreReserved) {
  EXPECT_EQ(generated_kernel_name(elementwise_reserved_prefix, "dot"), "_elw_kernel_dot");
  EXPECT_EQ(generated_kernel_name("_red_", "float"), "_red_kernel_float");
  EXPECT_EQ(generated_kernel_comment("ElementwiseKernel", "sin", "_elw_kernel_sin"),
            "// ElementwiseKernel 'sin': _elw_kernel_sin\n");
}

TEST(ElementwiseSource, FastPathHasNoOffsetsAndSixtyFourBitIndices) {
  const std::vector<ElementwiseArg> args{ElementwiseArg::output("z", f32),
                                         ElementwiseArg::scalar("a", DType::complex64()),
                                         ElementwiseArg::input("x", f64)};
  const auto source =
      elementwise_source(args, "z[i] = x[i]", "#define PRE 1", "name", {{false, false, false}, 0});
  EXPECT_EQ(source.find("#define PRE 1"), 0u);
  EXPECT_NE(source.find("KERNEL void name("), std::string::npos);
  EXPECT_NE(source.find("GLOBAL_MEM float *_elw_p0"), std::string::npos);
  EXPECT_NE(source.find("plinth_complex64 a"), std::string::npos);
  EXPECT_NE(source.find("GLOBAL_MEM const double *_elw_p2"), std::string::npos);
  EXPECT_NE(source.find("unsigned long _elw_begin"), std::string::npos);
  EXPECT_NE(source.find("for (VSIZE_T i = "), std::string::npos);
  EXPECT_EQ(source.find("_elw_o"), std::string::npos);
  EXPECT_EQ(source.find("_elw_n1"), std::string::npos);
}

TEST(ElementwiseSource, StridedArraysGetShapeAndStrideParameters) {
  const std::vector<ElementwiseArg> args{ElementwiseArg::output("z", f32),
                                         ElementwiseArg::input("x", f32)};
  const auto source =
      elementwise_source(args, "z[i] = _elw_a1[_elw_o1]", "", "k", {{false, true}, 2});
  EXPECT_NE(source.find("unsigned long _elw_n1"), std::string::npos);
  EXPECT_EQ(source.find("_elw_n2"), std::string::npos);
  EXPECT_NE(source.find("long _elw_s1_0"), std::string::npos);
  EXPECT_NE(source.find("long _elw_s1_1"), std::string::npos);
  EXPECT_EQ(source.find("_elw_s0_"), std::string::npos);
  EXPECT_NE(source.find("long _elw_o1 = 0;"), std::string::npos);
  // The strided array has no variable of its own name: a use that was not rewritten fails
  // to compile instead of reading it as a contiguous array.
  EXPECT_NE(source.find("GLOBAL_MEM const float *const _elw_a1 = _elw_p1 + _elw_b1;"),
            std::string::npos);
  EXPECT_EQ(source.find("*const x ="), std::string::npos);
  EXPECT_NE(source.find("GLOBAL_MEM float *const z = _elw_p0 + _elw_b0;"), std::string::npos);
  // A struct's type is a placeholder bound at build time.
  const auto pair = DType::make_struct({{"a", f32}});
  EXPECT_EQ(elementwise_type_text(ElementwiseArg::input("s", pair), 3), "${_elw_type3}");
  EXPECT_THROW(elementwise_type_text(ElementwiseArg::input("h", DType::float16()), 0), LogicError);
}

template <class T>
std::optional<T> converted(const ElementwiseValue& value, const DType& dtype) {
  const auto bytes = convert_scalar(detail::Access::impl(value), dtype);
  if (!bytes) return std::nullopt;
  EXPECT_EQ(bytes->size, sizeof(T));
  T result;
  std::memcpy(&result, bytes->bytes.data(), sizeof(T));
  return result;
}

TEST(ElementwiseScalars, ExactConversionsOnly) {
  EXPECT_EQ(converted<float>(2, f32), 2.0f);
  EXPECT_EQ(converted<float>(0.5, f32), 0.5f);
  EXPECT_EQ(converted<float>(0.1f, f32), 0.1f);
  EXPECT_FALSE(converted<float>(0.1, f32));
  EXPECT_FALSE(converted<float>(16777217, f32));
  EXPECT_FALSE(converted<float>(1e300, f32));
  EXPECT_EQ(converted<float>(std::numeric_limits<double>::infinity(), f32),
            std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(*converted<float>(std::nan(""), f32)));
  EXPECT_EQ(converted<double>(0.1, f64), 0.1);
  EXPECT_FALSE(converted<double>(std::numeric_limits<std::int64_t>::max(), f64));
  EXPECT_FALSE(converted<double>(std::numeric_limits<std::uint64_t>::max(), f64));
  EXPECT_EQ(converted<double>(std::int64_t{1} << 62, f64), 4611686018427387904.0);

  EXPECT_EQ(converted<std::int32_t>(-5, i32), -5);
  EXPECT_EQ(converted<std::int32_t>(7.0, i32), 7);
  EXPECT_FALSE(converted<std::int32_t>(7.5, i32));
  EXPECT_FALSE(converted<std::int32_t>(std::int64_t{1} << 31, i32));
  EXPECT_EQ(converted<std::int32_t>(-(std::int64_t{1} << 31), i32),
            std::numeric_limits<int>::min());
  EXPECT_FALSE(converted<std::uint8_t>(-1, DType::uint8()));
  EXPECT_EQ(converted<std::uint8_t>(255u, DType::uint8()), 255);
  EXPECT_FALSE(converted<std::uint8_t>(256, DType::uint8()));
  EXPECT_EQ(converted<std::uint64_t>(std::numeric_limits<std::uint64_t>::max(), DType::uint64()),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_FALSE(converted<std::int64_t>(std::numeric_limits<std::uint64_t>::max(), DType::int64()));
  EXPECT_FALSE(converted<std::int64_t>(9223372036854775808.0, DType::int64()));
  EXPECT_EQ(converted<std::int64_t>(-9223372036854775808.0, DType::int64()),
            std::numeric_limits<std::int64_t>::min());
  EXPECT_FALSE(converted<std::int32_t>(std::numeric_limits<double>::infinity(), i32));
  EXPECT_FALSE(converted<std::int32_t>(true, i32));
  EXPECT_FALSE(converted<std::int32_t>(std::complex<float>(1, 0), i32));
  EXPECT_FALSE(converted<float>(std::complex<double>(1, 0), f32));

  using C64 = std::complex<float>;
  EXPECT_EQ(converted<C64>(C64(1, -2), DType::complex64()), C64(1, -2));
  EXPECT_EQ(converted<C64>(3, DType::complex64()), C64(3, 0));
  EXPECT_FALSE(converted<C64>(std::complex<double>(0.1, 0), DType::complex64()));
  EXPECT_FALSE(converted<C64>(std::complex<double>(0.1, 0.2), DType::complex64()));
  EXPECT_FALSE(converted<C64>(std::complex<double>(0.5, 0.2), DType::complex64()));
  EXPECT_EQ(converted<C64>(std::complex<double>(0.1f, -0.2f), DType::complex64()),
            C64(0.1f, -0.2f));
  EXPECT_FALSE(converted<C64>(std::complex<double>(1e300, 0), DType::complex64()));
  EXPECT_EQ(converted<std::complex<double>>(std::complex<double>(0.1, 0.2), DType::complex128()),
            std::complex<double>(0.1, 0.2));
  EXPECT_EQ(converted<bool>(true, DType::boolean()), true);
  EXPECT_FALSE(converted<bool>(1, DType::boolean()));
  EXPECT_FALSE(converted<std::uint16_t>(1.0, DType::float16()));
}

}  // namespace
}  // namespace elementwise_codegen_test
}  // namespace plinth::detail
