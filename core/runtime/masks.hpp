#pragma once

#include <plinth/export.hpp>

#include <string>
#include <vector>

namespace plinth::detail {

/// Whether `name` passes include/exclude masks (PlatformFilter, DeviceFilter): it matches one
/// of `include_masks` (or there are none) and none of `exclude_masks`. A mask is an
/// ECMAScript regular expression searched in the name, case-sensitively, as Python's
/// `re.search(mask, name)` does in grunnur. Every mask is checked, even those the answer does
/// not need. `what` names the filter in messages ("platform", "device").
/// Throws LogicError naming the mask if one is not a valid regular expression (or is too
/// complex to match); never std::regex_error.
PLINTH_EXPORT bool passes_masks(const std::string& name,
                                const std::vector<std::string>& include_masks,
                                const std::vector<std::string>& exclude_masks,
                                const char* what = "name");

}  // namespace plinth::detail
