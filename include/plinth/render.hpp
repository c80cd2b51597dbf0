#pragma once

/// \file
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
///
/// Rendering takes time linear in the size of the sources and of the result; only a Module
/// used with many distinct argument lists costs more: each use compares its arguments with
/// those of that Module's earlier calls. Snippets and Modules nest at most max_render_depth
/// deep.

#include <plinth/export.hpp>
#include <plinth/module.hpp>
#include <plinth/template.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace plinth {

/// How deep Snippets and Modules may nest in one render, counting the def given to
/// render_source as the first level (rendering recurses once per level). Deeper nesting, such
/// as a def that uses itself, is a RenderError that names this limit.
inline constexpr std::size_t max_render_depth = 100;

/// How much text one render may produce, counting the result and the text of every Snippet
/// and def rendered on the way (so a source nested N deep counts about N times), and 256
/// bytes for each Snippet or def rendered (so at most 65536 of them). Beyond it, as with defs
/// that each use the next one twice (exponential growth), is a RenderError.
inline constexpr std::size_t max_render_size = std::size_t{16} << 20;

/// Renders `def` with `args` bound to its parameters and `globals` to other names.
/// Throws RenderError naming the def (and where it comes from), the placeholder and its line,
/// the parameters and globals in scope, and the cause: a wrong argument count, an unknown
/// name or field, a value that cannot be rendered or called, a placeholder syntax error, a
/// number (a literal or a list index) that does not fit in its type, a module that uses
/// itself, Snippets and Modules nested deeper than max_render_depth, a render that produces
/// more than max_render_size bytes, or an exception thrown
/// by a callable body (its message). An error inside a Snippet or Module adds a `called from`
/// line for each placeholder that led there.
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
