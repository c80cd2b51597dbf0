#pragma once

// The PLINTH_DEVICE grammar (DESIGN.md, "Environment"), parsed apart from any API so that it
// can be unit-tested and fuzzed: terms "[!]api:dev[,dev...]" separated by ';'.

#include <plinth/export.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::detail {

/// One device selector of a term.
struct DeviceSelector {
  enum class Kind {
    any,             ///< "*"
    cpu,             ///< "cpu"
    gpu,             ///< "gpu"
    index,           ///< "N": device N of the API's first platform
    platform_index,  ///< "P.N"
    name,            ///< "~text": the device name contains text, case-insensitively
  };
  Kind kind = Kind::any;
  std::size_t platform = 0;  ///< for index (always 0) and platform_index
  std::size_t device = 0;    ///< for index and platform_index
  std::string text;          ///< for name: the text after '~', lower-cased
};

/// One term: "[!]api:sel[,sel...]".
struct DeviceSpecTerm {
  bool discard = false;
  std::string api;  ///< a shortcut (letters, digits, '_') or "*"
  std::vector<DeviceSelector> selectors;
  std::string text;  ///< the term as written, for messages
};

/// Parses a PLINTH_DEVICE value. Every term must be well formed: an empty term (";;"), a
/// second '!', an api that is not a shortcut or '*', an unknown selector or a number that does
/// not fit in std::size_t is a LogicError naming the term and the problem. Whether the api
/// names a known backend is for the caller to decide. Any thread may call it.
PLINTH_EXPORT std::vector<DeviceSpecTerm> parse_device_spec(std::string_view spec);

}  // namespace plinth::detail
