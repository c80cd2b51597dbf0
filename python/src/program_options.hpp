#pragma once

// What Program, compile_for_target and StaticKernel share: their keyword arguments
// (ProgramOptions' members), the forms of their source, and device lists.

#include <plinth/context.hpp>
#include <plinth/program.hpp>
#include <plinth/template.hpp>

#include <nanobind/nanobind.h>

#include <string>
#include <variant>
#include <vector>

namespace plinth::python {

namespace nb = nanobind;

/// A program's source as Python gives it: text, a Template or a DefTemplate.
using PySource = std::variant<std::string, Template, DefTemplate>;
ProgramSource program_source(const PySource& source);

/// Devices as Python gives them: a Context (all its devices) or a list of its BoundDevices.
using PyDevices = std::variant<Context, std::vector<BoundDevice>>;
/// Throws LogicError for an empty list or devices of several contexts.
BoundMultiDevice multi_device(const PyDevices& devices);

/// ProgramOptions from its members, as the keyword arguments below pass them.
ProgramOptions program_options(bool no_prelude, bool fast_math,
                               const std::vector<std::string>& compiler_options, bool keep,
                               const std::vector<RenderValue>& render_args,
                               const RenderGlobals& render_globals,
                               const std::vector<ConstantArray>& constant_arrays);

}  // namespace plinth::python

/// The keyword arguments for ProgramOptions, in program_options()'s order (after `nb::kw_only()`).
#define PLINTH_PROGRAM_OPTION_ARGS                                                               \
  nanobind::arg("no_prelude") = false, nanobind::arg("fast_math") = false,                       \
  nanobind::arg("compiler_options") = std::vector<std::string>{}, nanobind::arg("keep") = false, \
  nanobind::arg("render_args") = std::vector<plinth::RenderValue>{},                             \
  nanobind::arg("render_globals") = plinth::RenderGlobals{},                                     \
  nanobind::arg("constant_arrays") = std::vector<plinth::ConstantArray> {}

#define PLINTH_PROGRAM_OPTION_DOC                                                             \
  "Keyword arguments (ProgramOptions): no_prelude (no backend prelude), fast_math, "          \
  "compiler_options (list of str), keep (keep the compiler's files), render_args (bound to "  \
  "a DefTemplate source's parameters), render_globals (dict of names for ${...} "             \
  "placeholders: ints, floats, strs, numpy dtypes (their C type), Snippets, Modules, lists, " \
  "dicts), constant_arrays (list of ConstantArray)."
