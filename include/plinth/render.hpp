#pragma once

/// Rendering a template to the final kernel source (grunnur's render_with_modules).
///
///     auto add = Module::from_string(
///         "FUNCTION int ${prefix}(int a, int b) { return a + b; }", "add");
///     auto kernel = Template::from_string(R"~(<%def name="body(n)">
///     KERNEL void k(GLOBAL_MEM int* x) { x[0] = ${add}(x[0], ${n}); }
///     </%def>)~").get_def("body");
///     std::string source = render_source(kernel, {4}, {{"add", add}});
///     // FUNCTION int _mod_add_0_(int a, int b) { return a + b; }
///     // KERNEL void k(GLOBAL_MEM int* x) { x[0] = _mod_add_0_(x[0], 4); }
///
/// The result is the text of every Module used, each on its own lines, in the order they
/// finished rendering — depth first, in order of first use, so a module comes before every
/// module and def that uses it — followed by the rendered def. Each module's text is followed
/// by a newline unless it ends with one. Prefixes are numbered from 0 in each render, in the
/// order modules are first used; modules of the same name get distinct numbers.

#include <plinth/export.hpp>
#include <plinth/module.hpp>
#include <plinth/template.hpp>

#include <string>
#include <vector>

namespace plinth {

/// Renders `def` with `args` bound to its parameters and `globals` to other names.
/// Throws RenderError naming the def (and where it comes from), the placeholder and its line,
/// the parameters and globals in scope, and the cause: a wrong argument count, an unknown
/// name or field, a value that cannot be rendered or called, a placeholder syntax error, a
/// module that uses itself, or an exception thrown by a callable body (its message). An error
/// inside a Snippet or Module adds a `called from` line for each placeholder that led there.
PLINTH_EXPORT std::string render_source(const DefTemplate& def,
                                        const std::vector<RenderValue>& args = {},
                                        const RenderGlobals& globals = {});
/// Renders the top-level text of `tmpl` (args must be empty: it has no parameters).
PLINTH_EXPORT std::string render_source(const Template& tmpl,
                                        const std::vector<RenderValue>& args = {},
                                        const RenderGlobals& globals = {});
/// Renders `source` as Template::from_string(source, "<source>") would be rendered: its defs
/// are available to its top-level text.
PLINTH_EXPORT std::string render_source(const std::string& source,
                                        const std::vector<RenderValue>& args = {},
                                        const RenderGlobals& globals = {});
/// Renders `snippet` with `args`, using its own globals.
PLINTH_EXPORT std::string render_source(const Snippet& snippet,
                                        const std::vector<RenderValue>& args = {});

}  // namespace plinth
