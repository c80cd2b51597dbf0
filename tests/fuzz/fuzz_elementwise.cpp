// Fuzzes the scanner that rewrites an ElementwiseKernel's operation for strided arrays:
// plinth::detail::rewrite_operation (core/algorithms/elementwise_codegen.hpp), and the same
// text as a preamble through rewrite_preamble (core/algorithms/outside_uses.hpp: its #define
// directives and <%def> bodies). Input: one byte choosing which of four array names are
// declared and strided, then the text. Invariants, for both: one raw_use flag per argument,
// never set for a scalar; with no strided array the text is unchanged; with strided arrays,
// every rewrite replaces `name[i]` (4 characters at least) by `_elw_a<k>[_elw_o<k>]` (16),
// so the text grows at most 4 times.

#include "fuzz_common.hpp"

#include "algorithms/elementwise_codegen.hpp"
#include "algorithms/outside_uses.hpp"

#include <array>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  plinth_fuzz::Reader in(data, size);
  const std::uint8_t choice = in.byte();
  static const std::array<std::string, 4> candidates{"x", "y", "ab", "i2"};
  std::vector<std::string> names;
  std::vector<bool> strided;
  bool any_strided = false;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const bool declared = (choice >> k) & 1;
    names.push_back(declared ? candidates[k] : std::string());  // empty: a scalar
    strided.push_back(declared && ((choice >> (k + 4)) & 1));
    any_strided = any_strided || strided.back();
  }
  const std::string_view operation = in.rest();
  const auto check = [&](const plinth::detail::RewrittenOperation& rewritten) {
    PLINTH_FUZZ_CHECK(rewritten.raw_use.size() == names.size());
    for (std::size_t k = 0; k < names.size(); ++k) {
      PLINTH_FUZZ_CHECK(!names[k].empty() || !rewritten.raw_use[k]);
    }
    if (!any_strided) PLINTH_FUZZ_CHECK(rewritten.text == operation);
    // Each rewrite turns at least "x[i]" (4 characters) into "_elw_aK[_elw_oK]" (16).
    PLINTH_FUZZ_CHECK(rewritten.text.size() <= operation.size() * 4 + 1);
  };
  check(plinth::detail::rewrite_operation(operation, names, strided));
  check(plinth::detail::rewrite_preamble(operation, names, strided));
  return 0;
}
