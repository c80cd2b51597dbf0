#include "error_message.hpp"

#include <plinth/errors.hpp>
#include <plinth/render.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace user {

// A user object that carries a Module, found through the to_render_value() hook.
struct Accessor {
  std::string ctype;
  plinth::Module load;
};

plinth::RenderValue to_render_value(const Accessor& accessor) {
  return plinth::RenderValue::Map{{"ctype", accessor.ctype}, {"load", accessor.load}};
}

}  // namespace user

namespace plinth {
namespace template_test {
namespace {

static_assert(RenderConvertible<user::Accessor>);
static_assert(!RenderConvertible<int>);

// Runs `render` and returns the RenderError's message (fails if nothing is thrown).
template <class F>
std::string render_error_of(F render) {
  try {
    render();
  } catch (const RenderError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no RenderError";
  return {};
}

// ---- Snippets ----

TEST(Snippet, RendersInPlaceWithoutArguments) {
  const auto sum = Snippet::from_string("a + b", "sum");
  EXPECT_EQ(render_source("x = ${s};", {}, {{"s", sum}}), "x = a + b;");
  EXPECT_EQ(render_source(sum), "a + b");
}

TEST(Snippet, RendersInPlaceWithArguments) {
  const auto mul = Snippet::from_string(R"~(<%def name="mul(a, b)">(${a} * ${b})</%def>)~");
  EXPECT_EQ(mul.name(), "mul");
  EXPECT_EQ(mul.def().parameters(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(
      render_source("y = ${mul(x, 2)} + ${mul(\"z\", 1.5)};", {}, {{"mul", mul}, {"x", "in[i]"}}),
      "y = (in[i] * 2) + (z * 1.5);");
}

// grunnur's tutorial writes ${add('x')}: single-quoted literals render as double-quoted ones
// (before: "expected a name or a literal").
TEST(Snippet, SingleQuotedStringLiteralsAreStrings) {
  const auto add = Snippet::from_string(R"~(<%def name="add(a)">(${a} + 1)</%def>)~");
  EXPECT_EQ(
      render_source("${add('x')} ${add('a\\'b')} ${add('}')} ${add(\"q\")}", {}, {{"add", add}}),
      "(x + 1) (a'b + 1) (} + 1) (q + 1)");
  EXPECT_THROW(render_source("${add('x)}", {}, {{"add", add}}), RenderError);
}

TEST(Snippet, FromCallableDecidesTheText) {
  const auto to_float = Snippet::from_callable(
      [](const RenderValue& ctype, const RenderValue&) -> std::string {
        return ctype.as_string() == "float" ? "${x}" : "(float)${x}";
      },
      {"ctype", "x"}, "to_float");
  EXPECT_EQ(render_source(R"(${f("float", v)} ${f("int", v)})", {}, {{"f", to_float}, {"v", "a"}}),
            "a (float)a");
}

TEST(Snippet, UsesItsOwnGlobals) {
  const auto snippet = Snippet::from_string("${n}", "n_is", {{"n", 7}});
  EXPECT_EQ(render_source("${n} ${s}", {}, {{"n", 1}, {"s", snippet}}), "1 7");
}

// ---- Modules ----

TEST(Module, UsedTwiceRendersOnce) {
  const auto id = Module::from_string("int ${prefix}f(int x) { return x; }", "id");
  const Module copy = id;  // a copy is the same module
  EXPECT_EQ(render_source("a = ${m}f(1);\nb = ${m}f(2);\nc = ${m2}f(3);\n", {},
                          {{"m", id}, {"m2", copy}}),
            "int _mod_id_0_f(int x) { return x; }\n"
            "a = _mod_id_0_f(1);\n"
            "b = _mod_id_0_f(2);\n"
            "c = _mod_id_0_f(3);\n");
}

TEST(Module, NestedThreeDeepRenderDepthFirst) {
  const auto c = Module::from_string("// c ${prefix}", "c");
  const auto b = Module::from_string("// b ${prefix} uses ${c}", "b", {{"c", c}});
  const auto a =
      Module::from_string("// a ${prefix} uses ${b} and ${c}", "a", {{"b", b}, {"c", c}});
  EXPECT_EQ(render_source("main uses ${a} and ${c}", {}, {{"a", a}, {"c", c}}),
            "// c _mod_c_2_\n"
            "// b _mod_b_1_ uses _mod_c_2_\n"
            "// a _mod_a_0_ uses _mod_b_1_ and _mod_c_2_\n"
            "main uses _mod_a_0_ and _mod_c_2_");
}

TEST(Module, SameNameGetsDistinctPrefixes) {
  const auto first = Module::from_string("int ${prefix}x;", "helper");
  const auto second = Module::from_string("int ${prefix}x;", "helper");
  EXPECT_EQ(render_source("${p}x = ${q}x;", {}, {{"p", first}, {"q", second}}),
            "int _mod_helper_0_x;\n"
            "int _mod_helper_1_x;\n"
            "_mod_helper_0_x = _mod_helper_1_x;");
}

TEST(Module, RendersOncePerDistinctArguments) {
  const auto vec =
      Module::from_string(R"~(<%def name="vec(prefix, n)">typedef float ${prefix}[${n}];</%def>)~");
  EXPECT_EQ(
      render_source("${v(2)} a; ${v(3)} b; ${v(2)} c; ${v(n)} d;", {}, {{"v", vec}, {"n", 3}}),
      "typedef float _mod_vec_0_[2];\n"
      "typedef float _mod_vec_1_[3];\n"
      "_mod_vec_0_ a; _mod_vec_1_ b; _mod_vec_0_ c; _mod_vec_1_ d;");
}

TEST(Module, FromCallableReceivesThePrefix) {
  const auto size = Module::from_callable(
      [](const RenderValue& prefix, const RenderValue& n) {
        return "#define " + prefix.as_string() + "N " + n.to_string();
      },
      {"prefix", "n"}, "size");
  EXPECT_EQ(render_source("int a[${size(8)}N];", {}, {{"size", size}}),
            "#define _mod_size_0_N 8\nint a[_mod_size_0_N];");
}

TEST(Module, InsideUserObjectFoundThroughHook) {
  const user::Accessor accessor{
      "float", Module::from_string("float ${prefix}(const float* p) { return *p; }", "load")};
  const auto use = Snippet::from_string(R"~(<%def name="use(acc)">${acc.load}(q)</%def>)~");
  EXPECT_EQ(render_source("${acc.ctype} x = ${acc.load}(p) + ${use(acc)};", {},
                          {{"acc", accessor}, {"use", use}}),
            "float _mod_load_0_(const float* p) { return *p; }\n"
            "float x = _mod_load_0_(p) + _mod_load_0_(q);");
}

TEST(Module, ModulesAsArgumentsOfADef) {
  const auto zero = Module::from_string("#define ${prefix} 0", "zero");
  const auto def = DefTemplate::from_string("k", "x = ${m};", {"m"});
  EXPECT_EQ(render_source(def, {zero}), "#define _mod_zero_0_ 0\nx = _mod_zero_0_;");
}

// ---- Templates ----

std::filesystem::path data_file(const char* name) {
  return std::filesystem::path(PLINTH_TEST_DATA_DIR) / name;
}

TEST(Template, FromFileWithSeveralDefs) {
  const auto path = data_file("template_defs.cl");
  const auto tmpl = Template::from_file(path);
  EXPECT_EQ(tmpl.name(), path.string());
  EXPECT_EQ(tmpl.def_names(), (std::vector<std::string>{"add", "scale", "kernel"}));
  EXPECT_EQ(tmpl.get_def("scale").parameters(), (std::vector<std::string>{"x", "factor"}));
  EXPECT_EQ(render_source(tmpl.get_def("add"), {"p", 2}), "p + 2");
  EXPECT_EQ(render_source(tmpl.get_def("kernel"), {4}, {{"factor", 2.5}}),
            "KERNEL void k(GLOBAL_MEM float* y)\n"
            "{\n"
            "    y[0] = 4 + 1;\n"
            "    y[1] = y[0] * 2.5;\n"
            "}\n");
  EXPECT_EQ(render_source(tmpl), "// top level: 1 + 2\n");
}

TEST(Template, FromStringDefBodies) {
  const auto tmpl = Template::from_string(
      "<%def name='one()'>\n  1\n  </%def>\n<%def name=\"two\">2</%def>text ${one}${two}");
  EXPECT_EQ(tmpl.get_def("one").text(), "  1\n");
  EXPECT_EQ(tmpl.get_def("two").parameters(), std::vector<std::string>{});
  EXPECT_EQ(render_source(tmpl), "text   1\n2");
  EXPECT_EQ(render_source(std::string("<%def name=\"f(x)\">[${x}]</%def>${f(1)}")), "[1]");
}

TEST(Template, Literals) {
  EXPECT_EQ(render_source(R"(${"${"}x} ${ 12 } ${-1.5e3} ${"a\"b"})"), "${x} 12 -1500.0 a\"b");
}

TEST(Template, SubscriptsIndexListsAsPythonWritesThem) {
  const RenderGlobals globals{
      {"params", RenderValue::Map{{"sizes", RenderValue::List{1024, 512, 64}},
                                  {"nested", RenderValue::List{RenderValue::List{7, 8}}}}}};
  EXPECT_EQ(render_source("${params.sizes[0]} ${params.sizes[ 2 ]} ${params.sizes.1}", {}, globals),
            "1024 64 512");
  EXPECT_EQ(render_source("${params.nested[0][1]}", {}, globals), "8");
  EXPECT_THROW(render_source("${params.sizes[3]}", {}, globals), RenderError);
  EXPECT_THROW(render_source("${params.sizes[x]}", {}, globals), RenderError);
  EXPECT_THROW(render_source("${params.sizes[1}", {}, globals), RenderError);
  EXPECT_THROW(render_source("${params[0]}", {}, globals), RenderError);  // a map
}

TEST(Template, HeaderExamplesHold) {
  // module.hpp
  auto mul =
      Module::from_string("FUNCTION float ${prefix}(float a, float b) { return a * b; }", "mul");
  auto twice =
      Snippet::from_string(R"~(<%def name="twice(x)">${mul}(${x}, 2)</%def>)~", "", {{"mul", mul}});
  EXPECT_EQ(render_source("y = ${twice(x)};", {}, {{"twice", twice}, {"x", "x"}}),
            "FUNCTION float _mod_mul_0_(float a, float b) { return a * b; }\n"
            "y = _mod_mul_0_(x, 2);");
  // render.hpp
  auto add = Module::from_string("FUNCTION int ${prefix}(int a, int b) { return a + b; }", "add");
  auto kernel = Template::from_string(R"~(<%def name="body(n)">
KERNEL void k(GLOBAL_MEM int* x) { x[0] = ${add}(x[0], ${n}); }
</%def>)~")
                    .get_def("body");
  EXPECT_EQ(render_source(kernel, {4}, {{"add", add}}),
            "FUNCTION int _mod_add_0_(int a, int b) { return a + b; }\n"
            "KERNEL void k(GLOBAL_MEM int* x) { x[0] = _mod_add_0_(x[0], 4); }\n");
  // template.hpp
  auto load = DefTemplate::from_callable(
      "load", {"ctype", "ptr"}, [](const RenderValue& ctype, const RenderValue&) -> std::string {
        return ctype.as_string() == "float" ? "${ptr}[0]" : "(${ctype})${ptr}[0]";
      });
  EXPECT_EQ(render_source(load, {"float", "p"}), "p[0]");
  EXPECT_EQ(render_source(load, {"int", "p"}), "(int)p[0]");
}

// ---- Scale ----

// Runs `work` on a thread whose stack is 1 MiB (an eighth of the usual 8 MiB), whatever the
// environment's limit: a recursion as deep as the chains below overflows it, in every build.
template <class F>
void on_small_stack(F work) {
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, std::size_t{1} << 20), 0);
  pthread_t thread;
  const auto run = [](void* f) -> void* {
    (*static_cast<F*>(f))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, run, &work), 0);
  EXPECT_EQ(pthread_join(thread, nullptr), 0);
  EXPECT_EQ(pthread_attr_destroy(&attributes), 0);
}

// Deep enough that releasing (or comparing) a chain by recursion overflows the small stack,
// shallow enough to stay fast under the sanitizers.
constexpr std::size_t deep = 50'000;

// A chain of `depth` Modules, each using the one before it; returns the last.
Module module_chain(std::size_t depth) {
  const auto first = DefTemplate::from_string("link", "int ${prefix}v = 0;", {"prefix"});
  const auto next = DefTemplate::from_string("link", "int ${prefix}v = ${prev}v;", {"prefix"});
  Module module(first);
  for (std::size_t i = 1; i < depth; ++i) module = Module(next, {{"prev", module}});
  return module;
}

TEST(Module, DeepChainIsReleasedWithoutRecursion) {
  auto module = module_chain(deep);
  on_small_stack([&] { module = Module::from_string("", "m"); });  // releases the chain
  EXPECT_EQ(module.name(), "m");
}

TEST(Snippet, DeepChainsAreReleasedWithoutRecursion) {
  const auto def = DefTemplate::from_string("s", "(${prev})");
  Snippet through_globals = Snippet::from_string("x", "s");
  Snippet through_callables = through_globals;  // what callable bodies hold
  for (std::size_t i = 1; i < deep; ++i) {
    through_globals = Snippet(def, {{"prev", through_globals}});
    through_callables =
        Snippet::from_callable([prev = through_callables] { return prev.name(); }, {}, "s");
  }
  on_small_stack([&] {
    through_globals = Snippet(def);
    through_callables = Snippet(def);
  });
}

TEST(RenderValue, DeepListsAndMapsAreReleasedWithoutRecursion) {
  RenderValue list = RenderValue::List{};
  RenderValue map = RenderValue::Map{};
  for (std::size_t i = 1; i < deep; ++i) {
    list = RenderValue::List{1, list};
    map = RenderValue::Map{{"next", map}};
  }
  on_small_stack([&] {
    list = RenderValue();
    map = RenderValue();
  });
}

TEST(RenderValue, DeepListsCompareWithoutRecursion) {
  RenderValue a = RenderValue::List{};
  RenderValue b = RenderValue::List{};
  RenderValue c = RenderValue::List{};
  for (std::size_t i = 1; i < deep; ++i) {
    a = RenderValue::List{1, a};
    b = RenderValue::List{1, b};
    c = RenderValue::List{1, RenderValue::Map{{"k", c}}};
  }
  on_small_stack([&] {
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    EXPECT_NE(RenderValue(RenderValue::List{a, 1}), RenderValue(RenderValue::List{b, 2}));
    a = b = c = RenderValue();
  });
}

TEST(RenderError, DeepModuleChainNamesTheDepthLimit) {
  // Modules and Snippets nest at most 100 deep: the top level and 99 below it (rendering
  // recurses, and stays well within the small stack).
  static_assert(max_render_depth == 100);
  const auto chain = module_chain(deep);
  const auto just_deep_enough = module_chain(max_render_depth - 1);
  on_small_stack([&] {
    const auto rendered = render_source("x = ${m}v;", {}, {{"m", just_deep_enough}});
    EXPECT_TRUE(
        rendered.starts_with("int _mod_link_98_v = 0;\n"
                             "int _mod_link_97_v = _mod_link_98_v;\n"))
        << rendered.substr(0, 100);
    EXPECT_TRUE(rendered.ends_with("int _mod_link_0_v = _mod_link_1_v;\nx = _mod_link_0_v;"));

    const auto what = render_error_of([&] { render_source("x = ${m}v;", {}, {{"m", chain}}); });
    EXPECT_CONTAINS(what,
                    "cannot render link(prefix): snippets and modules nest more than 100 deep "
                    "(the limit; does a def use itself?)");
    EXPECT_CONTAINS(what, "called from the top level of '<source>' at ${m} (line 1)");
  });
}

// `count` placeholders on lines of 4, of several kinds, and what they render to.
std::pair<std::string, std::string> many_placeholders(std::size_t count) {
  std::string source;
  std::string expected;
  for (std::size_t i = 0; i < count; ++i) {
    switch (i % 4) {
      case 0:
        source += "a[${i}] = ";
        expected += "a[7] = ";
        break;
      case 1:
        source += "${l.1} + ";
        expected += "two + ";
        break;
      case 2:
        source += "${twice(i)} + ";
        expected += "(7 * 2) + ";
        break;
      default: source += "${m}x;\n"; expected += "_mod_m_0_x;\n";
    }
  }
  return {source, "int _mod_m_0_x;\n" + expected};
}

TEST(Template, ManyPlaceholdersRenderInOrder) {
  // (Counting lines from the start for each placeholder took minutes for this.)
  constexpr std::size_t count = 100'000;
  const auto [source, expected] = many_placeholders(count);
  const RenderGlobals globals{{"i", 7},
                              {"l", RenderValue::List{1, "two"}},
                              {"m", Module::from_string("int ${prefix}x;", "m")}};
  const auto tmpl = "<%def name=\"twice(x)\">(${x} * 2)</%def>" + source;
  const auto rendered = render_source(tmpl, {}, globals);
  EXPECT_EQ(rendered.size(), expected.size());
  EXPECT_TRUE(rendered == expected);  // (not EXPECT_EQ: no 2 MB diff on failure)

  // Line numbers are still right at the end.
  std::string lines;
  for (std::size_t i = 0; i < count; ++i) lines += i % 4 == 3 ? "${i}\n" : "${i} ";
  const auto what = render_error_of([&] { render_source(lines + "${nope}", {}, globals); });
  EXPECT_CONTAINS(what, fmt::format("at ${{nope}} (line {})", count / 4 + 1));
}

TEST(Template, ManyDefsAndModules) {
  constexpr std::size_t count = 10'000;
  std::string tmpl;
  std::string source;
  std::string expected;
  RenderGlobals globals;
  for (std::size_t i = 0; i < count; ++i) {
    tmpl += fmt::format("<%def name=\"f{0}()\">{0}</%def>", i);
    source += fmt::format("${{f{}}} ${{m{}}}\n", i, i);
    globals.emplace(fmt::format("m{}", i), Module::from_string("", "m"));
    expected += fmt::format("{} _mod_m_{}_\n", i, i);
  }
  const auto rendered = render_source(tmpl + source, {}, globals);
  EXPECT_TRUE(rendered == std::string(count, '\n') + expected);
}

// ---- RenderValue ----

TEST(RenderValue, NumbersReadBackExactlyInC) {
  EXPECT_EQ(RenderValue(3).to_string(), "3");
  EXPECT_EQ(RenderValue(-7L).to_string(), "-7");
  EXPECT_EQ(RenderValue(std::numeric_limits<std::uint64_t>::max()).to_string(),
            "18446744073709551615");
  EXPECT_EQ(RenderValue(1.0).to_string(), "1.0");
  EXPECT_EQ(RenderValue(-0.0).to_string(), "-0.0");
  EXPECT_EQ(RenderValue(0.1).to_string(), "0.1");
  EXPECT_EQ(RenderValue(1e100).to_string(), "1e+100");
  EXPECT_EQ(RenderValue(0.1f).to_string(), "0.10000000149011612");
  EXPECT_EQ(RenderValue(true).to_string(), "true");
  for (const double x : {M_PI, 1.0 / 3.0, 6.02214076e23, 5e-324, 1.7976931348623157e308})
    EXPECT_EQ(std::strtod(RenderValue(x).to_string().c_str(), nullptr), x);
}

TEST(RenderValue, KindsAccessAndEquality) {
  const RenderValue list = RenderValue::List{1, "a"};
  EXPECT_TRUE(list.is_list());
  EXPECT_EQ(list[1].as_string(), "a");
  EXPECT_EQ(list, (RenderValue::List{1, "a"}));
  EXPECT_NE(RenderValue(1), RenderValue(1.0));
  EXPECT_EQ(RenderValue(2u).as_int(), 2);
  EXPECT_THROW(RenderValue("x").as_int(), LogicError);
  EXPECT_THROW((void)list[2], LogicError);
  const auto a = Module::from_string("${prefix}", "m");
  const auto b = Module::from_string("${prefix}", "m");
  EXPECT_EQ(RenderValue(a), RenderValue(a));
  EXPECT_NE(RenderValue(a), RenderValue(b));
  EXPECT_EQ(
      render_source("${l.1}${m.k.0}", {}, {{"l", list}, {"m", RenderValue::Map{{"k", list}}}}),
      "a1");
}

TEST(RenderValue, BadDefinitionsAreLogicErrors) {
  EXPECT_THROW(DefTemplate::from_string("bad name", ""), LogicError);
  EXPECT_THROW(DefTemplate::from_string("f", "", {"a", "a"}), LogicError);
  EXPECT_THROW(Snippet::from_callable([](const RenderValue&) { return ""; }, {}), LogicError);
  EXPECT_THROW(Module(DefTemplate::from_string("m", "")), LogicError);
}

// ---- RenderError ----

TEST(RenderError, UnknownName) {
  const auto def =
      Template::from_string("<%def name=\"k(a)\">\nx = ${a};\ny = ${b};</%def>", "kernels.cl")
          .get_def("k");
  const auto what = render_error_of([&] { render_source(def, {1}, {{"g1", 1}, {"g2", 2}}); });
  EXPECT_CONTAINS(what, "cannot render k(a) in 'kernels.cl': unknown name 'b'");
  EXPECT_CONTAINS(what, "at ${b} (line 2)");
  EXPECT_CONTAINS(what, "parameters: a");
  EXPECT_CONTAINS(what, "globals: g1, g2");
}

TEST(RenderError, UnknownNameInArgument) {
  const auto s = Snippet::from_string(R"~(<%def name="s(x)">${x}</%def>)~");
  const auto what = render_error_of([&] { render_source("${s(zz)}", {}, {{"s", s}}); });
  EXPECT_CONTAINS(what, "the top level of '<source>': unknown name 'zz'");
  EXPECT_CONTAINS(what, "at ${s(zz)} (line 1)");
  EXPECT_CONTAINS(what, "globals: s");
}

TEST(RenderError, UnknownField) {
  const user::Accessor accessor{"float", Module::from_string("", "load")};
  const auto what = render_error_of([&] { render_source("${acc.nope}", {}, {{"acc", accessor}}); });
  EXPECT_CONTAINS(what, "'acc' has no field 'nope'; its fields: ctype, load");
  EXPECT_CONTAINS(what, "at ${acc.nope}");
  const auto list = render_error_of([&] {
    render_source("${l.3}", {}, {{"l", RenderValue::List{1}}});
  });
  EXPECT_CONTAINS(list, "'l' has 1 element, so no element 3");
  const auto scalar = render_error_of([&] { render_source("${n.x}", {}, {{"n", 1}}); });
  EXPECT_CONTAINS(scalar, "'n' is a integer, which has no field 'x'");
}

TEST(RenderError, WrongArgumentCount) {
  const auto mul = Snippet::from_string(R"~(<%def name="mul(a, b)">${a}*${b}</%def>)~");
  const auto snippet = render_error_of([&] { render_source("${mul(1)}", {}, {{"mul", mul}}); });
  EXPECT_CONTAINS(snippet, "Snippet 'mul' takes 2 arguments, but got 1");
  EXPECT_CONTAINS(snippet, "at ${mul(1)}");

  const auto vec = Module::from_string(R"~(<%def name="vec(prefix, n)">${n}</%def>)~");
  const auto module = render_error_of([&] { render_source("${v}", {}, {{"v", vec}}); });
  EXPECT_CONTAINS(module, "Module 'vec' takes 1 argument after its prefix, but got 0");
  EXPECT_CONTAINS(module, "at ${v}");

  const auto top = render_error_of([&] {
    render_source(DefTemplate::from_string("k", "", {"a", "b"}), {1});
  });
  EXPECT_CONTAINS(top, "cannot render k(a, b): it takes 2 arguments, but got 1");
}

TEST(RenderError, CallableThrew) {
  const auto ctype = Snippet::from_callable(
      [](const RenderValue& dtype) -> std::string {
        throw std::invalid_argument("no C type for " + dtype.as_string());
      },
      {"dtype"}, "ctype");
  const auto what = render_error_of([&] {
    render_source("x\n${ct(\"f128\")} y;", {}, {{"ct", ctype}});
  });
  EXPECT_CONTAINS(what, "cannot render ctype(dtype): its callable threw: no C type for f128");
  EXPECT_CONTAINS(what, "called from the top level of '<source>' at ${ct(\"f128\")} (line 2)");
}

TEST(RenderError, NotCallableOrNotText) {
  const auto call = render_error_of([&] { render_source("${x(1)}", {}, {{"x", "str"}}); });
  EXPECT_CONTAINS(call, "a string cannot be called (only a Snippet or a Module)");
  EXPECT_CONTAINS(call, "at ${x(1)}");
  const auto list = render_error_of([&] {
    render_source("${l}", {}, {{"l", RenderValue::List{}}});
  });
  EXPECT_CONTAINS(list, "a list cannot be rendered as text");
  const auto inf = render_error_of([&] {
    render_source("${x}", {}, {{"x", std::numeric_limits<double>::infinity()}});
  });
  EXPECT_CONTAINS(inf, "the double inf has no C literal");
}

TEST(RenderError, PlaceholderSyntax) {
  const auto what = render_error_of([&] { render_source("ok\n${a b} c", {}, {{"a", 1}}); });
  EXPECT_CONTAINS(what, "placeholder syntax: expected '}'");
  EXPECT_CONTAINS(what, "at ${a b} (line 2)");
  EXPECT_CONTAINS(render_error_of([&] { render_source("${f(1,"); }), "at ${f(1,");
  EXPECT_CONTAINS(render_error_of([&] { render_source("${\"x}"); }), "unterminated string");
}

TEST(RenderError, NumbersThatDoNotFit) {
  const RenderGlobals globals{{"l", RenderValue::List{1, 2}},
                              {"f", Snippet::from_string(R"~(<%def name="f(x)">${x}</%def>)~")}};
  const auto index =
      render_error_of([&] { render_source("x\n${l.99999999999999999999999}", {}, globals); });
  EXPECT_CONTAINS(index, "the index 99999999999999999999999 of 'l' does not fit");
  EXPECT_CONTAINS(index, "at ${l.99999999999999999999999} (line 2)");

  const auto literal = render_error_of([&] { render_source("${99999999999999999999999}"); });
  EXPECT_CONTAINS(literal, "the integer 99999999999999999999999 does not fit in 64 bits");
  EXPECT_CONTAINS(literal, "at ${99999999999999999999999} (line 1)");

  const auto argument =
      render_error_of([&] { render_source("${f(-99999999999999999999999)}", {}, globals); });
  EXPECT_CONTAINS(argument, "the integer -99999999999999999999999 does not fit in 64 bits");
  EXPECT_CONTAINS(argument, "at ${f(-99999999999999999999999)} (line 1)");

  const auto huge = render_error_of([&] { render_source("${f(1e999)}", {}, globals); });
  EXPECT_CONTAINS(huge, "the number 1e999 does not fit in a double");
  EXPECT_CONTAINS(huge, "at ${f(1e999)} (line 1)");

  EXPECT_CONTAINS(render_error_of([&] { render_source("${-inf}"); }), "malformed number");
}

TEST(Template, IntegerLiteralsSpanInt64AndUint64) {
  EXPECT_EQ(render_source("${-9223372036854775808} ${18446744073709551615} ${l.00001}", {},
                          {{"l", RenderValue::List{1, 2}}}),
            "-9223372036854775808 18446744073709551615 2");
  EXPECT_CONTAINS(render_error_of([&] { render_source("${18446744073709551616}"); }),
                  "does not fit in 64 bits");
}

TEST(RenderError, ModuleUsesItself) {
  const auto self = Module::from_string(R"~(<%def name="self(prefix, me)">${me(me)}</%def>)~");
  const auto what = render_error_of([&] { render_source("${s(s)}", {}, {{"s", self}}); });
  EXPECT_CONTAINS(what, "cannot render self(prefix, me): module 'self' uses itself");
  EXPECT_CONTAINS(what, "at ${me(me)}");
  EXPECT_CONTAINS(what, "called from the top level of '<source>' at ${s(s)}");
}

TEST(RenderError, DefThatUsesItself) {
  const auto tmpl = Template::from_string("<%def name=\"f()\">${f}</%def>", "loop.cl");
  const auto what = render_error_of([&] { render_source(tmpl.get_def("f")); });
  EXPECT_CONTAINS(what,
                  "cannot render f() in 'loop.cl': snippets and modules nest more than 100 deep");
  EXPECT_CONTAINS(what, "called from f() in 'loop.cl' at ${f} (line 1)");
}

TEST(RenderError, ErrorInNestedModuleNamesTheChain) {
  const auto inner = Module::from_string("${missing}", "inner");
  const auto outer = Module::from_string("${in}", "outer", {{"in", inner}});
  const auto what = render_error_of([&] { render_source("${out}", {}, {{"out", outer}}); });
  EXPECT_CONTAINS(what, "cannot render inner(prefix): unknown name 'missing'");
  EXPECT_CONTAINS(what, "called from outer(prefix) at ${in} (line 1)");
  EXPECT_CONTAINS(what, "called from the top level of '<source>' at ${out} (line 1)");
}

TEST(RenderError, MalformedTemplates) {
  const auto tmpl = Template::from_string("<%def name=\"a()\"></%def>", "t.cl");
  EXPECT_CONTAINS(render_error_of([&] { tmpl.get_def("nope"); }),
                  "template 't.cl' has no def 'nope'; its defs: a");
  EXPECT_CONTAINS(
      render_error_of([&] { Template::from_string("\n<%def name=\"f(a,\">x</%def>", "t.cl"); }),
      "template 't.cl', line 2: 'f(a,' is not a def signature");
  EXPECT_CONTAINS(render_error_of([&] { Template::from_string("<%def name=\"f()\">x", "t.cl"); }),
                  "template 't.cl', line 1: <%def name=\"f()\"> has no </%def>");
  EXPECT_CONTAINS(render_error_of([&] {
                    Template::from_string("<%def name=\"f\"></%def><%def name=\"f\"></%def>");
                  }),
                  "def 'f' is defined twice");
  EXPECT_CONTAINS(render_error_of([&] {
                    Template::from_string("<%def name=\"f\">\n<%def name=\"g\"></%def></%def>");
                  }),
                  "line 2: defs do not nest");
  EXPECT_CONTAINS(render_error_of([&] { Template::from_file(data_file("no_such_file.cl")); }),
                  "cannot read the template file");
}

}  // namespace
}  // namespace template_test
}  // namespace plinth

namespace plinth {
namespace template_test {
namespace {

// Before: a moved-from Snippet, Module, Template or DefTemplate held a null pointer, and a
// moved-from RenderValue could hold a Snippet alternative without its object: rendering
// either was a SIGSEGV.
TEST(TemplateHandles, MovedFromHandlesStayUsable) {
  auto snippet = Snippet::from_string("a + b", "sum");
  Snippet snippet_target(std::move(snippet));
  snippet_target = std::move(snippet);  // NOLINT(bugprone-use-after-move): the point
  EXPECT_EQ(render_source("${s}", {}, {{"s", snippet}}), "a + b");  // NOLINT

  auto module = Module::from_string(R"~(<%def name="m(prefix)">int ${prefix}x;</%def>)~");
  Module module_target(std::move(module));
  EXPECT_EQ(render_source("${m}", {}, {{"m", module}}),
            render_source("${m}", {}, {{"m", module_target}}));  // NOLINT

  auto tmpl = Template::from_string(R"~(<%def name="f(x)">[${x}]</%def>)~");
  Template template_target(std::move(tmpl));
  EXPECT_EQ(tmpl.def_names(), std::vector<std::string>{"f"});  // NOLINT
  auto def = tmpl.get_def("f");
  DefTemplate def_target(std::move(def));
  EXPECT_EQ(render_source(def, {1}), "[1]");  // NOLINT

  RenderValue value = snippet_target;
  RenderValue value_target(std::move(value));
  EXPECT_EQ(render_source("${v}", {}, {{"v", value_target}}), "a + b");
  EXPECT_THROW(render_source("${v}", {}, {{"v", value}}), RenderError);  // NOLINT: nothing
}

}  // namespace
}  // namespace template_test
}  // namespace plinth

namespace plinth {
namespace template_test {
namespace {

// Found by tests/fuzz (template/regress-exponential-expansion): 35 defs that each use the next
// twice would render 2^34 copies; the depth limit does not stop that, the size limit does.
TEST(RenderError, ExponentialExpansionHitsTheSizeLimit) {
  std::string text;
  constexpr int levels = 35;
  for (int i = 0; i < levels - 1; ++i) {
    text += fmt::format(R"~(<%def name="d{0}()">${{d{1}}}${{d{1}}}</%def>)~", i, i + 1);
  }
  text += fmt::format(R"~(<%def name="d{}()">xxxxxxxx</%def>${{d0}})~", levels - 1);
  const auto tmpl = Template::from_string(text, "exponential");
  try {
    render_source(tmpl.body());
    FAIL() << "rendered 2^34 copies";
  } catch (const RenderError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 16777216 bytes"), std::string::npos)
        << e.what();
  }
  // Fourteen doublings (128 KiB of text, 2^15 renders) are fine.
  EXPECT_EQ(render_source(tmpl.get_def("d20")).size(), std::size_t{8} << 14);
}

}  // namespace
}  // namespace template_test
}  // namespace plinth
