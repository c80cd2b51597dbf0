#pragma once

#include <string>
#include <vector>

namespace plinth::detail {

/// Whether `name` passes include/exclude regex masks (case-insensitive search).
/// Throws LogicError naming the mask if one is not a valid regex.
bool passes_masks(const std::string& name, const std::vector<std::string>& include_masks,
                  const std::vector<std::string>& exclude_masks);

}  // namespace plinth::detail
