// Array names that reach an operation from outside it (algorithms/outside_uses.hpp): the
// preamble's #define directives and <%def> bodies and string render globals are rewritten
// for strided arrays and their other uses reported; the preamble's file-scope code is not.

#include "algorithms/outside_uses.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace plinth::detail {
namespace outside_uses_test {
namespace {

const std::vector<std::string> names{"y", "", "x"};  // arrays 0 and 2, a scalar
const std::vector<bool> x_strided{false, false, true};

TEST(OutsideUses, DefineDirectivesAreRewritten) {
  const auto result = rewrite_preamble(
      "#define LOAD x[i]\n"
      "  #  define LOAD2 \\\n"
      "    (x [ i ] + y[i])\n"
      "FUNCTION int f(int x) { return x; }\n",
      names, x_strided);
  EXPECT_EQ(result.text,
            "#define LOAD _elw_a2[_elw_o2]\n"
            "  #  define LOAD2 \\\n"
            "    (_elw_a2[_elw_o2] + y[i])\n"
            "FUNCTION int f(int x) { return x; }\n");
  EXPECT_EQ(result.raw_use, (std::vector<bool>{false, false, false}));
}

TEST(OutsideUses, DefBodiesAreRewritten) {
  const auto result = rewrite_preamble(
      "FUNCTION float g(GLOBAL_MEM const float *x) { return x[i]; }\n"
      "<%def name=\"load()\">x[i]</%def> <%def name=\"two()\">2 * x[i] + y[i]</%def>\n",
      names, x_strided);
  EXPECT_EQ(
      result.text,
      "FUNCTION float g(GLOBAL_MEM const float *x) { return x[i]; }\n"
      "<%def name=\"load()\">_elw_a2[_elw_o2]</%def> <%def name=\"two()\">2 * _elw_a2[_elw_o2] + "
      "y[i]</%def>\n");
  EXPECT_EQ(result.raw_use, (std::vector<bool>{false, false, false}));
}

TEST(OutsideUses, OtherUsesAreReportedWithWhere) {
  EXPECT_EQ(rewrite_preamble("#define AT(j) x[j]\n", names, {}).raw_use,
            (std::vector<bool>{false, false, true}));
  EXPECT_EQ(rewrite_preamble("<%def name=\"at(j)\">y[${j}]</%def>", names, {}).raw_use,
            (std::vector<bool>{true, false, false}));
  // A function-like macro's own parameters are not the arrays of their names; an
  // object-like macro's parenthesis is its text.
  EXPECT_EQ(rewrite_preamble("#define SQ(x, ab) ((x) * (x) + ab)\n", names, x_strided).raw_use,
            (std::vector<bool>{false, false, false}));
  EXPECT_EQ(rewrite_preamble("#define SQ(y) ((y) * x[i])\n", names, x_strided).text,
            "#define SQ(y) ((y) * _elw_a2[_elw_o2])\n");
  EXPECT_EQ(rewrite_preamble("#define SQ(y) ((y) * *x)\n", names, {}).raw_use,
            (std::vector<bool>{false, false, true}));
  EXPECT_EQ(rewrite_preamble("#define F (x)\n", names, {}).raw_use,
            (std::vector<bool>{false, false, true}));
  // An unclosed def counts to the end.
  EXPECT_EQ(rewrite_preamble("<%def name=\"f()\">*x", names, {}).raw_use,
            (std::vector<bool>{false, false, true}));
  // File-scope code, comments and other directives are no use.
  EXPECT_EQ(rewrite_preamble("#include <x>\n// #define A x\nint g(int x, int y) { return x; }\n",
                             names, {})
                .raw_use,
            (std::vector<bool>{false, false, false}));

  const RenderGlobals globals{{"load", "x[i]"}, {"bad", "*(y + i)"}, {"n", 3}};
  const auto where = outside_raw_uses("#define AT(j) x[j]\n", globals, names);
  EXPECT_EQ(where[0], "the render global 'bad'");
  EXPECT_EQ(where[1], "");
  EXPECT_EQ(where[2], "the preamble (a #define or <%def>)");
  EXPECT_EQ(outside_raw_uses("", globals, names)[2], "");

  const auto rewritten = rewrite_render_globals(globals, names, x_strided);
  EXPECT_EQ(rewritten.at("load").as_string(), "_elw_a2[_elw_o2]");
  EXPECT_EQ(rewritten.at("bad").as_string(), "*(y + i)");
  EXPECT_EQ(rewritten.at("n"), globals.at("n"));
}

}  // namespace
}  // namespace outside_uses_test
}  // namespace plinth::detail
