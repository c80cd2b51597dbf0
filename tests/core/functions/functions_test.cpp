// functions: the rendered text of a few factories and the misuse they reject (the
// conformance suite runs every factory on every device).

#include <plinth/errors.hpp>
#include <plinth/functions.hpp>
#include <plinth/render.hpp>

#include <gtest/gtest.h>

#include <string>

namespace plinth {
namespace functions_test {
namespace {

std::string render(const Module& module) { return render_source("${f}", {}, {{"f", module}}); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Functions, MulOfComplexNumbers) {
  EXPECT_EQ(render(functions::mul({DType::complex64(), DType::complex64()})),
            "FUNCTION plinth_complex64 _mod_mul_0_(plinth_complex64 a0, plinth_complex64 a1)\n"
            "{\n"
            "    plinth_complex64 t0;\n"
            "    t0.x = a0.x * a1.x - a0.y * a1.y;\n"
            "    t0.y = a0.x * a1.y + a0.y * a1.x;\n"
            "    return t0;\n"
            "}\n"
            "_mod_mul_0_");
}

TEST(Functions, OperandsAreConvertedToTheOperationType) {
  // numpy: int32 * float32 is float64, so both are converted before the product.
  const auto text = render(functions::mul({DType::int32(), DType::float32()}));
  EXPECT_TRUE(contains(text, "FUNCTION double _mod_mul_0_(int a0, float a1)")) << text;
  EXPECT_TRUE(contains(text, "const double t0 = (double)a0 * (double)a1;")) << text;
  // ...but in single precision when the output is not double.
  const auto single = render(functions::mul({DType::int32(), DType::float32()}, DType::float32()));
  EXPECT_TRUE(contains(single, "const float t0 = (float)a0 * a1;")) << single;
  EXPECT_FALSE(contains(single, "double")) << single;
  // The last operand first, as grunnur.
  const auto three =
      render(functions::add({DType::float32(), DType::complex64(), DType::float32()}));
  EXPECT_TRUE(contains(three, "t1.x = a1.x + a2;")) << three;
  EXPECT_TRUE(contains(three, "t0.x = a0 + t1.x;")) << three;
  EXPECT_TRUE(contains(three, "t0.y = t1.y;")) << three;
}

TEST(Functions, ComplexResultForARealOutputKeepsTheRealPart) {
  const auto text =
      render(functions::mul({DType::complex64(), DType::complex64()}, DType::float32()));
  EXPECT_TRUE(contains(text, "return t0.x;")) << text;
  const auto div = render(functions::div(DType::complex64(), DType::float32(), DType::float32()));
  EXPECT_TRUE(contains(div, "return t.x;")) << div;
}

TEST(Functions, CastConvertsPartByPart) {
  const auto text = render(functions::cast(DType::complex64(), DType::complex128()));
  EXPECT_TRUE(contains(text, "result.x = (double)x.x;")) << text;
  EXPECT_TRUE(contains(text, "result.y = (double)x.y;")) << text;
  const auto real = render(functions::cast(DType::int32(), DType::complex64()));
  EXPECT_TRUE(contains(real, "result.x = (float)x;")) << real;
  EXPECT_TRUE(contains(real, "result.y = 0;")) << real;
  EXPECT_THROW(functions::cast(DType::complex64(), DType::float32()), LogicError);
  EXPECT_NO_THROW(functions::cast(DType::boolean(), DType::int32()));
}

TEST(Functions, PolarUnitTestsTheMacroThePreludeDefines) {
  const auto text = render(functions::polar_unit(DType::float32()));
  EXPECT_TRUE(contains(text, "#if defined(PLINTH_FAST_MATH)")) << text;
  EXPECT_TRUE(contains(text, "native_sin(theta)")) << text;
  EXPECT_TRUE(contains(text, "__sincosf(theta, &s, &c)")) << text;
  EXPECT_FALSE(contains(text, "COMPILE_FAST_MATH")) << text;
  // No fast intrinsics in double precision.
  EXPECT_FALSE(contains(render(functions::polar_unit(DType::float64())), "native_")) << text;
}

TEST(Functions, ModulesUseTheirDependencies) {
  const auto text = render(functions::pow(DType::complex64(), DType::int32()));
  EXPECT_TRUE(contains(text, "_mod_mul_")) << text;
  EXPECT_TRUE(contains(text, "_mod_div_")) << text;
  EXPECT_TRUE(contains(text, "const plinth_complex64 one = COMPLEX_CTR(float2)(1.0f, 0.0f);"))
      << text;
  const auto exp = render(functions::exp(DType::complex128()));
  EXPECT_TRUE(contains(exp, "_mod_polar_unit_1_(a.y)")) << exp;
  EXPECT_FALSE(contains(exp, "float ")) << exp;
}

TEST(Functions, SinglePrecisionNeverMentionsDouble) {
  const auto f = DType::float32(), c = DType::complex64();
  for (const auto& module :
       {functions::add({f, c}), functions::mul({c, f, c}), functions::div(f, c),
        functions::cast(f, c), functions::conj(c), functions::norm(c), functions::exp(c),
        functions::polar(f), functions::pow(c, DType::int32()), functions::pow(c, f),
        functions::pow(DType::int32(), f, f)})
    EXPECT_FALSE(contains(render(module), "double")) << render(module);
}

TEST(Functions, MisuseIsALogicError) {
  const auto s = DType::make_struct({{"a", DType::int32()}});
  EXPECT_THROW(functions::add({}), LogicError);
  EXPECT_THROW(functions::add({s, s}), LogicError);
  EXPECT_THROW(functions::mul({DType::float16()}), LogicError);
  EXPECT_THROW(functions::mul({DType::boolean(), DType::boolean()}), LogicError);
  EXPECT_THROW(functions::exp(DType::int32()), LogicError);
  EXPECT_THROW(functions::polar_unit(DType::complex64()), LogicError);
  EXPECT_THROW(functions::polar(DType::int32()), LogicError);
  EXPECT_THROW(functions::pow(DType::complex64()), LogicError);  // complex exponent
  EXPECT_THROW(functions::pow(DType::int32(), DType::float32()), LogicError);
  EXPECT_THROW(functions::pow(DType::complex64(), DType::int32(), DType::float32()), LogicError);
  EXPECT_NO_THROW(functions::pow(DType::int32(), DType::float32(), DType::float32()));
  EXPECT_NO_THROW(functions::pow(DType::int32(), DType::int32()));
}

}  // namespace
}  // namespace functions_test
}  // namespace plinth
