// DTypes in kernel source: C type names, struct declarations, constants and field paths, as
// rendered text (the conformance suite compiles and runs them).

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>
#include <plinth/render.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace plinth {
namespace dtype_c_test {
namespace {

// Renders `${t}` with t bound to `value`: the module text, then the placeholder's.
std::string render(const RenderValue& value, const std::string& text = "${t} v;") {
  return render_source(text, {}, {{"t", value}});
}

TEST(CType, ScalarNames) {
  EXPECT_EQ(ctype(DType::boolean()).as_string(), "bool");
  EXPECT_EQ(ctype(DType::int8()).as_string(), "signed char");
  EXPECT_EQ(ctype(DType::uint8()).as_string(), "unsigned char");
  EXPECT_EQ(ctype(DType::int16()).as_string(), "short");
  EXPECT_EQ(ctype(DType::uint16()).as_string(), "unsigned short");
  EXPECT_EQ(ctype(DType::int32()).as_string(), "int");
  EXPECT_EQ(ctype(DType::uint32()).as_string(), "unsigned int");
  EXPECT_EQ(ctype(DType::int64()).as_string(), "long");
  EXPECT_EQ(ctype(DType::uint64()).as_string(), "unsigned long");
  EXPECT_EQ(ctype(DType::float32()).as_string(), "float");
  EXPECT_EQ(ctype(DType::float64()).as_string(), "double");
  EXPECT_EQ(ctype(DType::complex64()).as_string(), "plinth_complex64");
  EXPECT_EQ(ctype(DType::complex128()).as_string(), "plinth_complex128");
}

TEST(CType, Float16HasNoPortableType) {
  EXPECT_THROW(ctype(DType::float16()), LogicError);
  // The error names the dialect's conversions (docs/kernel-dialect.md).
  try {
    static_cast<void>(ctype(DType::float16()));
  } catch (const LogicError& error) {
    EXPECT_NE(std::string(error.what()).find("plinth_half_to_float"), std::string::npos);
  }
  const auto s = DType::make_struct({{"h", DType::float16()}});
  EXPECT_THROW(ctype(s), LogicError);
}

TEST(CType, StructIsAModuleNamingTheTypedef) {
  const auto point = DType::make_struct({{"x", DType::float32()}, {"y", DType::int32()}});
  const auto value = ctype(point);
  ASSERT_TRUE(value.is_module());
  EXPECT_EQ(render(value),
            "typedef struct _mod_struct_0__\n{\n    float x;\n    int y;\n} _mod_struct_0_;\n"
            "_mod_struct_0_ v;");
}

TEST(CTypeStruct, NestedAndArrayFields) {
  const auto inner = DType::make_struct({{"a", DType::int16()}, {"b", DType::complex64()}});
  const auto outer = DType::make_struct({
      {"x", DType::int8()},
      {"inner", inner},
      {"w", DType::float32(), {3}},
      {"m", inner, {2, 2}},
  });
  EXPECT_EQ(render(ctype_struct(outer)),
            "typedef struct _mod_struct_1__\n{\n    short a;\n    plinth_complex64 b;\n"
            "} _mod_struct_1_;\n"
            "typedef struct _mod_struct_0__\n{\n    signed char x;\n    _mod_struct_1_ inner;\n"
            "    float w[3];\n    _mod_struct_1_ m[2][2];\n} _mod_struct_0_;\n"
            "_mod_struct_0_ v;");
}

TEST(CTypeStruct, ExplicitOffsetsGetAlign) {
  // y at 8 needs ALIGN(8) (C would put it at 4); z at 32 needs ALIGN(16) (C: 20).
  const auto s = DType::make_struct(
      {{"x", DType::int32()}, {"y", DType::int32(), {3}, 8}, {"z", DType::float32(), {}, 32}},
      StructLayout{.alignment = 16});
  EXPECT_EQ(s.itemsize(), 48u);
  EXPECT_EQ(render(ctype_struct(s), "${t}"),
            "typedef struct _mod_struct_0__\n{\n    int x;\n    int ALIGN(8) y[3];\n"
            "    float ALIGN(16) z;\n} _mod_struct_0_;\n_mod_struct_0_");
}

TEST(CTypeStruct, RaisedAlignmentAndItemsize) {
  const auto aligned = DType::make_struct({{"x", DType::float32()}, {"y", DType::float32()}},
                                          StructLayout{.alignment = 16});
  EXPECT_EQ(render(ctype_struct(aligned), "${t}"),
            "typedef struct _mod_struct_0__\n{\n    float x;\n    float y;\n"
            "} ALIGN(16) _mod_struct_0_;\n_mod_struct_0_");
  // An itemsize beyond the alignment's rounding: a trailing char array, after every field.
  const auto padded = DType::make_struct(
      {{"x", DType::float32()}, {"y", DType::float32()}, {"z", DType::float32()}},
      StructLayout{.itemsize = 16});
  EXPECT_EQ(render(ctype_struct(padded), "${t}"),
            "typedef struct _mod_struct_0__\n{\n    float x;\n    float y;\n    float z;\n"
            "    char _mod_struct_0_padding[4];\n} _mod_struct_0_;\n_mod_struct_0_");
}

TEST(CTypeStruct, IgnoreAlignmentDeclaresPlainFields) {
  const auto s = DType::make_struct({{"x", DType::int32()}, {"y", DType::int32(), {}, 8}},
                                    StructLayout{.alignment = 16});
  EXPECT_EQ(render(ctype_struct(s, true), "${t}"),
            "typedef struct _mod_struct_0__\n{\n    int x;\n    int y;\n} "
            "_mod_struct_0_;\n_mod_struct_0_");
}

TEST(CTypeStruct, LayoutsCNeedsPaddingForAreRejected) {
  // An int at 12, 8 bytes after the end of x: ALIGN(4) puts it at 4, ALIGN(8) cannot reach 12.
  const auto gap = DType::make_struct({{"x", DType::int32()}, {"y", DType::int32(), {}, 12}});
  try {
    ctype_struct(gap);
    FAIL() << "no error";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("'y'"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(ctype_struct(gap, true));
  // y at 16 needs ALIGN(16), which gives the C struct alignment 16 and so itemsize 32: the
  // DType's 20 cannot be reproduced.
  const auto low = DType::make_struct({{"x", DType::int32()}, {"y", DType::int32(), {}, 16}});
  try {
    ctype_struct(low);
    FAIL() << "no error";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of 16 and at least 32, not 20"),
              std::string::npos)
        << e.what();
  }
  // A nested struct whose C alignment (16) its offset in the outer struct does not respect.
  const auto implied = DType::make_struct({{"x", DType::int32()}, {"y", DType::int32(), {}, 16}},
                                          StructLayout{.itemsize = 32});
  const auto outer = DType::make_struct({{"a", DType::int32()}, {"s", implied, {}, 4}});
  try {
    ctype_struct(outer);
    FAIL() << "no error";
  } catch (const LogicError& e) {
    EXPECT_NE(std::string(e.what()).find("'s'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("alignment 16"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ctype_struct(DType::int32()), LogicError);
}

// Before: a field alignment above the DType's was refused ("give the struct
// StructLayout::alignment = 16"); grunnur's _align infers it from the offsets.
TEST(CTypeStruct, InfersTheAlignmentTheOffsetsImply) {
  const auto s = DType::make_struct(
      {{"x", DType::int8()}, {"y", DType::int16(), {}, 4}, {"z", DType::int32(), {}, 16}},
      StructLayout{.itemsize = 32});
  EXPECT_EQ(s.alignment(), 4u);
  EXPECT_EQ(render(ctype_struct(s), "${t}"),
            "typedef struct _mod_struct_0__\n{\n    signed char x;\n    short ALIGN(4) y;\n"
            "    int ALIGN(16) z;\n} _mod_struct_0_;\n_mod_struct_0_");
  // A larger itemsize (a multiple of 16) is padded; nested, the struct sits at multiples of 16.
  const auto padded = DType::make_struct({{"x", DType::int8()}, {"z", DType::int32(), {}, 16}},
                                         StructLayout{.itemsize = 48});
  EXPECT_EQ(render(ctype_struct(padded), "${t}"),
            "typedef struct _mod_struct_0__\n{\n    signed char x;\n    int ALIGN(16) z;\n"
            "    char _mod_struct_0_padding[16];\n} _mod_struct_0_;\n_mod_struct_0_");
  const auto outer = DType::make_struct({{"a", DType::int32()}, {"s", s, {}, 16}});
  EXPECT_EQ(render(ctype_struct(outer), "${t}"),
            "typedef struct _mod_struct_1__\n{\n    signed char x;\n    short ALIGN(4) y;\n"
            "    int ALIGN(16) z;\n} _mod_struct_1_;\n"
            "typedef struct _mod_struct_0__\n{\n    int a;\n    _mod_struct_1_ s;\n"
            "} _mod_struct_0_;\n_mod_struct_0_");
}

TEST(CTypeStruct, EqualDTypesGiveOneModule) {
  const auto make = [] {
    return DType::make_struct({{"a", DType::int32()}, {"b", DType::float64()}});
  };
  const auto first = ctype_struct(make());
  const auto second = ctype_struct(make());
  EXPECT_EQ(first, second);
  EXPECT_EQ(ctype(make()).as_module(), first);
  EXPECT_NE(ctype_struct(make(), true), first);
  // A nested struct used twice is declared once.
  const auto outer = DType::make_struct({{"p", make()}, {"q", make()}});
  const auto text = render(ctype(outer));
  EXPECT_EQ(text.find("typedef struct _mod_struct_1__"),
            text.rfind("typedef struct _mod_struct_1__"));
  EXPECT_EQ(text.find("typedef struct _mod_struct_2__"), std::string::npos) << text;
  const auto two = render_source("${t} v; ${u} w;", {}, {{"t", ctype(outer)}, {"u", first}});
  EXPECT_NE(two.find("_mod_struct_1_ w;"), std::string::npos) << two;
  EXPECT_EQ(two.find("typedef struct _mod_struct_2__"), std::string::npos) << two;
}

TEST(Align, GivesTheCLayout) {
  const auto inner = DType::make_struct({{"a", DType::int8()}, {"b", DType::int32(), {}, 8}},
                                        StructLayout{.itemsize = 32});
  const auto outer = DType::make_struct({{"x", DType::int8()}, {"in", inner, {}, 32}},
                                        StructLayout{.alignment = 32});
  const auto aligned = align(outer);
  EXPECT_EQ(aligned.field("in").offset, 4u);
  EXPECT_EQ(aligned.field("in").dtype.field("b").offset, 4u);
  EXPECT_EQ(aligned.field("in").dtype.itemsize(), 8u);
  EXPECT_EQ(aligned.itemsize(), 12u);
  EXPECT_EQ(aligned.alignment(), 4u);
  EXPECT_EQ(align(DType::float32()), DType::float32());
}

template <class T>
std::string constant(T value) {
  return c_constant(std::as_bytes(std::span<const T>(&value, 1)), dtype_of<T>());
}

TEST(CConstant, Integers) {
  EXPECT_EQ(c_constant(std::int8_t{-5}), "-5");
  EXPECT_EQ(c_constant(std::uint8_t{200}), "200u");
  EXPECT_EQ(c_constant(std::int16_t{-300}), "-300");
  EXPECT_EQ(c_constant(std::uint16_t{60000}), "60000u");
  EXPECT_EQ(c_constant(std::int32_t{123}), "123");
  EXPECT_EQ(c_constant(std::uint32_t{4000000000u}), "4000000000u");
  EXPECT_EQ(c_constant(std::int64_t{-7}), "-7L");
  EXPECT_EQ(c_constant(std::uint64_t{7}), "7UL");
  EXPECT_EQ(c_constant(std::numeric_limits<std::int32_t>::min()), "(-2147483647 - 1)");
  EXPECT_EQ(c_constant(std::numeric_limits<std::int64_t>::min()), "(-9223372036854775807L - 1L)");
  EXPECT_EQ(c_constant(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615UL");
  EXPECT_EQ(c_constant(true), "true");
  EXPECT_EQ(constant(false), "false");
  EXPECT_EQ(constant(std::int64_t{-7}), "-7L");
}

TEST(CConstant, FloatsRoundTripExactly) {
  EXPECT_EQ(c_constant(1.0f), "1.0f");
  EXPECT_EQ(c_constant(0.1f), "0.1f");
  EXPECT_EQ(c_constant(-2.5f), "-2.5f");
  EXPECT_EQ(c_constant(1e30f), "1e+30f");
  EXPECT_EQ(c_constant(1.0), "1.0");
  EXPECT_EQ(c_constant(0.1), "0.1");
  EXPECT_EQ(c_constant(1e100), "1e+100");
  EXPECT_EQ(c_constant(-0.0), "-0.0");
  EXPECT_EQ(c_constant(5e-324), "5e-324");
  // Random values read back to the same bits.
  std::mt19937_64 rng(1);
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    if (!std::isfinite(d)) continue;
    const auto text = c_constant(d);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), d) << text;
    const auto f = static_cast<float>(d * 1e-290);
    if (!std::isfinite(f)) continue;
    auto ftext = c_constant(f);
    ASSERT_EQ(ftext.back(), 'f');
    ftext.pop_back();
    EXPECT_EQ(std::strtof(ftext.c_str(), nullptr), f) << ftext;
  }
}

TEST(CConstant, NonFiniteValuesAreRejected) {
  EXPECT_THROW(c_constant(std::numeric_limits<float>::infinity()), LogicError);
  EXPECT_THROW(c_constant(std::nan("")), LogicError);
  EXPECT_THROW(c_constant(1e300, DType::float32()), LogicError);
}

// Before: complex values were written as initialisers, `{1.0f, -2.0f}`, which are no
// expression (`x = {1.0f, 2.0f} + y` does not compile); grunnur writes its constructor form.
TEST(CConstant, ComplexIsGrunnursConstructorExpression) {
  EXPECT_EQ(c_constant(std::complex<float>(1, -2)), "COMPLEX_CTR(float2)(1.0f, -2.0f)");
  EXPECT_EQ(c_constant(std::complex<float>(1, 2)), "COMPLEX_CTR(float2)(1.0f, 2.0f)");
  EXPECT_EQ(c_constant(std::complex<double>(0.1, 3)), "COMPLEX_CTR(double2)(0.1, 3.0)");
  EXPECT_EQ(constant(std::complex<double>(0.5, -0.25)), "COMPLEX_CTR(double2)(0.5, -0.25)");
  EXPECT_EQ(constant(std::complex<float>(0.5f, 1.5f)), "COMPLEX_CTR(float2)(0.5f, 1.5f)");
}

TEST(CConstant, ConvertsToTheGivenDType) {
  EXPECT_EQ(c_constant(1, DType::complex64()), "COMPLEX_CTR(float2)(1.0f, 0.0f)");
  EXPECT_EQ(c_constant(2.5, DType::float32()), "2.5f");
  EXPECT_EQ(c_constant(3, DType::float64()), "3.0");
  EXPECT_EQ(c_constant(3.0, DType::int64()), "3L");
  EXPECT_EQ(c_constant(-1, DType::int8()), "-1");
  EXPECT_EQ(c_constant(1, DType::boolean()), "true");
  EXPECT_EQ(c_constant(std::complex<float>(1, 2), DType::complex128()),
            "COMPLEX_CTR(double2)(1.0, 2.0)");
  EXPECT_EQ(c_constant(2.5, DType::complex128()), "COMPLEX_CTR(double2)(2.5, 0.0)");
  EXPECT_THROW(c_constant(300, DType::int8()), LogicError);
  EXPECT_THROW(c_constant(-1, DType::uint32()), LogicError);
  EXPECT_THROW(c_constant(2.5, DType::int32()), LogicError);
  EXPECT_THROW(c_constant(std::complex<double>(1, 2), DType::float64()), LogicError);
  EXPECT_THROW(c_constant(1, DType::float16()), LogicError);
  EXPECT_THROW(c_constant(1, DType::make_struct({{"a", DType::int32()}})), LogicError);
}

TEST(CConstant, StructsAreInitialisers) {
  const auto inner = DType::make_struct({{"a", DType::int16()}, {"b", DType::complex64()}});
  const auto outer = DType::make_struct({
      {"x", DType::uint8()},
      {"in", inner},
      {"w", DType::float32(), {2, 2}},
      {"d", DType::float64()},
  });
  std::vector<std::byte> bytes(outer.itemsize());
  const auto put = [&](std::size_t offset, auto value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
  };
  put(0, std::uint8_t{7});
  put(outer.field("in").offset, std::int16_t{-3});
  put(outer.field("in").offset + 8, std::complex<float>(0.5f, 1.5f));
  for (int i = 0; i < 4; ++i) put(outer.field("w").offset + 4 * i, static_cast<float>(i) + 0.25f);
  put(outer.field("d").offset, 0.1);
  EXPECT_EQ(c_constant(bytes, outer),
            "{7u, {-3, {0.5f, 1.5f}}, {{0.25f, 1.25f}, {2.25f, 3.25f}}, 0.1}");
  EXPECT_THROW(c_constant(std::span(bytes).first(4), outer), LogicError);
}

TEST(ComplexCtr, BuildsFromParts) {
  const auto ctr = complex_ctr(DType::complex64());
  EXPECT_EQ(ctr, complex_ctr(DType::complex64()));
  EXPECT_EQ(render(ctr, "${t}(1.0f, 2.0f)"),
            "FUNCTION plinth_complex64 _mod_complex_ctr_0_(float re, float im)\n{\n"
            "    plinth_complex64 result;\n    result.x = re;\n    result.y = im;\n"
            "    return result;\n}\n_mod_complex_ctr_0_(1.0f, 2.0f)");
  EXPECT_NE(render(complex_ctr(DType::complex128())).find("double re, double im"),
            std::string::npos);
  EXPECT_THROW(complex_ctr(DType::float32()), LogicError);
}

DType nested() {
  const auto inner = DType::make_struct({{"a", DType::int16()}, {"c", DType::float32(), {2}}});
  return DType::make_struct({{"x", DType::int32()}, {"in", inner, {2}}, {"z", DType::uint8()}});
}

TEST(FlattenDType, ListsEveryScalarWithPathAndOffset) {
  const auto flat = flatten_dtype(nested());
  std::vector<std::string> paths;
  std::vector<std::size_t> offsets;
  for (const auto& f : flat) {
    paths.push_back(c_path(f.path));
    offsets.push_back(f.offset);
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"x", "in[0].a", "in[0].c[0]", "in[0].c[1]", "in[1].a",
                                             "in[1].c[0]", "in[1].c[1]", "z"}));
  EXPECT_EQ(offsets, (std::vector<std::size_t>{0, 4, 8, 12, 16, 20, 24, 28}));
  EXPECT_EQ(flat[2].dtype, DType::float32());
  EXPECT_EQ(flat[2].path, (FieldPath{"in", std::size_t{0}, "c", std::size_t{0}}));
  const auto scalar = flatten_dtype(DType::float64());
  ASSERT_EQ(scalar.size(), 1u);
  EXPECT_TRUE(scalar[0].path.empty());
  EXPECT_EQ(c_path({}), "");
}

// grunnur's c_path drops the leading dot (its templates write `res.${dtypes.c_path(path)}`);
// a path starting at an index keeps the bracket (grunnur's `res[1:]` would cut it).
TEST(CPath, WritesGrunnursFormWithoutALeadingDot) {
  EXPECT_EQ(c_path({"a"}), "a");
  EXPECT_EQ(c_path({"b", "c", std::size_t{1}}), "b.c[1]");
  EXPECT_EQ(c_path({"m", std::size_t{1}, std::size_t{0}, "x"}), "m[1][0].x");
  EXPECT_EQ(c_path({std::size_t{2}, "x"}), "[2].x");
}

TEST(FieldAt, LocatesPartsAndRejectsBadPaths) {
  const auto dtype = nested();
  const auto whole = field_at(dtype, {"in"});
  EXPECT_EQ(whole.shape, std::vector<std::size_t>{2});
  EXPECT_EQ(whole.offset, 4u);
  const auto part = field_at(dtype, {"in", std::size_t{1}, "c"});
  EXPECT_EQ(part.name, "in[1].c");
  EXPECT_EQ(part.dtype, DType::float32());
  EXPECT_EQ(part.shape, std::vector<std::size_t>{2});
  EXPECT_EQ(part.offset, 20u);
  EXPECT_THROW(field_at(dtype, {"nope"}), LogicError);
  EXPECT_THROW(field_at(dtype, {"in", "a"}), LogicError);
  EXPECT_THROW(field_at(dtype, {"in", std::size_t{2}}), LogicError);
  EXPECT_THROW(field_at(dtype, {"x", std::size_t{0}}), LogicError);
  EXPECT_THROW(field_at(dtype, {"x", "y"}), LogicError);
}

TEST(ExtractField, GathersAFieldOfEveryElement) {
  const auto dtype = nested();
  std::vector<std::byte> data(3 * dtype.itemsize());
  for (std::size_t i = 0; i < 3; ++i) {
    const auto base = i * dtype.itemsize();
    const std::int32_t x = static_cast<std::int32_t>(10 * i);
    std::memcpy(data.data() + base, &x, 4);
    const float c[2] = {static_cast<float>(i) + 0.5f, static_cast<float>(i) - 0.5f};
    std::memcpy(data.data() + base + 20, c, 8);
  }
  EXPECT_EQ(extract_field<std::int32_t>(data, dtype, {"x"}),
            (std::vector<std::int32_t>{0, 10, 20}));
  EXPECT_EQ(extract_field<float>(data, dtype, {"in", std::size_t{1}, "c", std::size_t{1}}),
            (std::vector<float>{-0.5f, 0.5f, 1.5f}));
  EXPECT_EQ(extract_field<float>(data, dtype, {"in", std::size_t{1}, "c"}),
            (std::vector<float>{0.5f, -0.5f, 1.5f, 0.5f, 2.5f, 1.5f}));
  EXPECT_EQ(extract_field(data, dtype, {"in"}).size(), 3 * 24u);
  EXPECT_THROW(extract_field<double>(data, dtype, {"x"}), LogicError);
  EXPECT_THROW(extract_field(std::span(data).first(5), dtype, {"x"}), LogicError);
}

}  // namespace
}  // namespace dtype_c_test
}  // namespace plinth
