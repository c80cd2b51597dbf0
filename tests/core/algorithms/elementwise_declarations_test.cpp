// parse_elementwise_args: PyCUDA's C argument lists read into ElementwiseArgs.

#include <plinth/elementwise_args.hpp>
#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <string>

namespace plinth {
namespace elementwise_declarations_test {
namespace {

using Kind = ElementwiseArg::Kind;

TEST(ElementwiseDeclarations, ScalarsInputsAndWrittenArrays) {
  const auto args = parse_elementwise_args(
      "float a, float *x, const float* y,  GLOBAL_MEM unsigned int *restrict n, long k, "
      "plinth_complex64 z[], const double *__restrict__ d,");
  ASSERT_EQ(args.size(), 7u);
  EXPECT_EQ(args[0].name(), "a");
  EXPECT_EQ(args[0].kind(), Kind::scalar);
  EXPECT_EQ(args[0].dtype(), DType::float32());
  EXPECT_EQ(args[1].name(), "x");
  EXPECT_EQ(args[1].kind(), Kind::inout);
  EXPECT_EQ(args[2].name(), "y");
  EXPECT_EQ(args[2].kind(), Kind::input);
  EXPECT_EQ(args[3].name(), "n");
  EXPECT_EQ(args[3].dtype(), DType::uint32());
  EXPECT_EQ(args[3].kind(), Kind::inout);
  EXPECT_EQ(args[4].dtype(), DType::int64());
  EXPECT_EQ(args[4].kind(), Kind::scalar);
  EXPECT_EQ(args[5].dtype(), DType::complex64());
  EXPECT_EQ(args[5].kind(), Kind::inout);
  EXPECT_EQ(args[6].dtype(), DType::float64());
  EXPECT_EQ(args[6].kind(), Kind::input);
}

TEST(ElementwiseDeclarations, PointerKindAndSpellings) {
  const auto outputs = parse_elementwise_args("int *out, const int *in", Kind::output);
  EXPECT_EQ(outputs[0].kind(), Kind::output);
  EXPECT_EQ(outputs[1].kind(), Kind::input);
  const auto inputs = parse_elementwise_args("int *x", Kind::input);
  EXPECT_EQ(inputs[0].kind(), Kind::input);
  EXPECT_EQ(parse_elementwise_args("signed char c")[0].dtype(), DType::int8());
  EXPECT_EQ(parse_elementwise_args("unsigned long long c")[0].dtype(), DType::uint64());
  EXPECT_EQ(parse_elementwise_args("unsigned c")[0].dtype(), DType::uint32());
  EXPECT_EQ(parse_elementwise_args("size_t c")[0].dtype(), DType::uint64());
  EXPECT_EQ(parse_elementwise_args("int64_t c")[0].dtype(), DType::int64());
  EXPECT_TRUE(parse_elementwise_args("").empty());
  EXPECT_TRUE(parse_elementwise_args("  ,  ").empty());
}

TEST(ElementwiseDeclarations, BadDeclarationsAreNamed) {
  const auto expect_error = [](const std::string& text, const std::string& needle) {
    try {
      parse_elementwise_args(text);
      ADD_FAILURE() << text << ": accepted";
    } catch (const LogicError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error("float a, quux *x", "'quux *x'");
  expect_error("float a, quux *x", "type 'quux'");
  expect_error("float **x", "more than one '*'");
  expect_error("float", "needs a type and a name");
  expect_error("float *", "needs a type and a name");
  expect_error("float x = 1", "'='");
  EXPECT_THROW(parse_elementwise_args("float *x", Kind::scalar), LogicError);
}

}  // namespace
}  // namespace elementwise_declarations_test
}  // namespace plinth
