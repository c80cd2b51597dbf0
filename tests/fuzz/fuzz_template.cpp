// Fuzzes the template parser (Template::from_string, which Template::from_file reads a file
// into; Snippet/Module::from_string) and the renderer (render_source): placeholders, literals,
// paths, calls, snippets, modules, callable bodies.
//
// Input: up to three parts separated by NUL bytes: the template text, the source of a Snippet
// bound to the global `usnip`, the source of a Module bound to `umod`. The template's top
// level and each of its defs are rendered with a fixed set of globals of every kind.

#include "fuzz_common.hpp"

#include <plinth/errors.hpp>
#include <plinth/module.hpp>
#include <plinth/render.hpp>
#include <plinth/template.hpp>

#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using plinth::Module;
using plinth::RenderGlobals;
using plinth::RenderValue;
using plinth::Snippet;
using plinth::Template;

RenderGlobals base_globals() {
  RenderGlobals globals{
      {"i", 42},
      {"neg", -7},
      {"big", std::numeric_limits<std::uint64_t>::max()},
      {"d", 0.1},
      {"nan", std::numeric_limits<double>::quiet_NaN()},
      {"inf", std::numeric_limits<double>::infinity()},
      {"s", "text"},
      {"t", true},
      {"none", RenderValue()},
      {"l", RenderValue::List{1, "two", RenderValue::List{3}, RenderValue::Map{{"k", 4}}}},
      {"m", RenderValue::Map{{"a", 1},
                             {"b", "x"},
                             {"l", RenderValue::List{5, 6}},
                             {"m", RenderValue::Map{{"c", 7}}}}},
  };
  globals.emplace("mod", Module::from_string("int ${prefix}x;", "mod"));
  globals.emplace(
      "mod2", Module::from_string(R"~(<%def name="mod2(prefix, a)">int ${prefix}${a};</%def>)~"));
  globals.emplace("f2", Snippet::from_string(R"~(<%def name="f2(a, b)">${a} + ${b}</%def>)~"));
  globals.emplace("uses_mod", Snippet::from_string("${mod}x", "uses_mod", globals));
  globals.emplace(
      "thrower", Snippet::from_callable([]() -> std::string { throw std::runtime_error("thrown"); },
                                        {}, "thrower"));
  globals.emplace("echo", Snippet::from_callable([](const RenderValue& x) { return x.to_string(); },
                                                 {"x"}, "echo"));
  return globals;
}

const RenderGlobals& globals_once() {
  static const RenderGlobals globals = base_globals();
  return globals;
}

// Arguments for a def's parameters, taken from the globals in turn.
std::vector<RenderValue> args_for(std::size_t count, const RenderGlobals& globals,
                                  std::size_t seed) {
  std::vector<RenderValue> all;
  for (const auto& entry : globals) all.push_back(entry.second);
  std::vector<RenderValue> args;
  for (std::size_t i = 0; i < count; ++i) args.push_back(all[(seed + i * 7) % all.size()]);
  return args;
}

void render_all(const Template& tmpl, const RenderGlobals& globals) {
  // A top level without placeholders renders as itself.
  const auto& body = tmpl.body().text();
  try {
    const auto out = plinth::render_source(tmpl, {}, globals);
    if (body.find("${") == std::string::npos) PLINTH_FUZZ_CHECK(out == body);
  } catch (const plinth::Error&) {
    PLINTH_FUZZ_CHECK(body.find("${") != std::string::npos);
  }
  std::size_t seed = 0;
  for (const auto& name : tmpl.def_names()) {
    if (++seed > 2) break;  // each render may take up to max_render_size's work
    const auto def = tmpl.get_def(name);
    try {
      plinth::render_source(def, args_for(def.parameters().size(), globals, seed), globals);
    } catch (const plinth::Error&) {
    }
    try {  // the wrong argument count is an error, never a crash
      plinth::render_source(def, args_for(def.parameters().size() + 1, globals, seed), globals);
      PLINTH_FUZZ_CHECK(false);
    } catch (const plinth::Error&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  plinth_fuzz::Reader reader(data, size);
  std::string_view parts[3];
  plinth_fuzz::split_at_nul(reader.rest(), parts);

  RenderGlobals globals = globals_once();
  try {
    globals.emplace("usnip", Snippet::from_string(std::string(parts[1]), "usnip", globals));
  } catch (const plinth::Error&) {
  }
  try {
    globals.emplace("umod", Module::from_string(std::string(parts[2]), "umod", globals));
  } catch (const plinth::Error&) {
  }

  try {
    const auto tmpl = Template::from_string(std::string(parts[0]), "fuzz");
    render_all(tmpl, globals);
  } catch (const plinth::Error&) {
  }
  // The same text as a standalone Snippet (one <%def> block or a body).
  try {
    plinth::render_source(Snippet::from_string(std::string(parts[0]), "whole", globals));
  } catch (const plinth::Error&) {
  }
  return 0;
}
