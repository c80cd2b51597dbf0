#pragma once

// The array names that reach an ElementwiseKernel's operation (or a ReductionKernel's map)
// from outside it: a macro of the preamble, a `<%def>` of the preamble, or a string render
// global that the operation renders. Strided arrays are indexed there as in the operation
// (`name[i]` rewritten by rewrite_operation), and any other use of a strided array's name
// there is refused, so that no strided array is ever read as if it were contiguous.
// Exported for the unit tests (tests/core/algorithms/).

#include "algorithms/elementwise_codegen.hpp"

#include <plinth/export.hpp>
#include <plinth/template.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

/// `preamble` with rewrite_operation applied to the text that a macro or def call brings into
/// the operation: each `#define` directive (with its continuation lines) and each
/// `<%def ...>` body (up to its `</%def>`). The rest of the preamble is code at file scope,
/// where the kernel's arrays are not visible (a name there is something else, such as a
/// function's own parameter): it is copied as it is and counts as no use. raw_use is
/// rewrite_operation's for those parts. Throws nothing but std::bad_alloc.
PLINTH_EXPORT RewrittenOperation rewrite_preamble(std::string_view preamble,
                                                  std::span<const std::string> array_names,
                                                  const std::vector<bool>& strided);

/// `globals` with rewrite_operation applied to each string value (a top-level one: what
/// `${name}` pastes where it stands). Throws nothing but std::bad_alloc.
PLINTH_EXPORT RenderGlobals rewrite_render_globals(const RenderGlobals& globals,
                                                   std::span<const std::string> array_names,
                                                   const std::vector<bool>& strided);

/// Per argument (one per entry of `array_names`): where outside the operation its name is
/// used other than as `name[i]` in text that may reach the operation ("the preamble (a
/// #define or <%def>)", "the render global 'load'"), or empty if nowhere. Such an array
/// must not be strided. Throws nothing but std::bad_alloc.
PLINTH_EXPORT std::vector<std::string> outside_raw_uses(std::string_view preamble,
                                                        const RenderGlobals& globals,
                                                        std::span<const std::string> array_names);

}  // namespace plinth::detail
