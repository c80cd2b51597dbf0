#pragma once

#include <plinth/device.hpp>
#include <plinth/export.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plinth {

/// For each platform of `api` passing `platform_filter`, the devices passing `device_filter`;
/// platforms with fewer than `quantity` such devices (or none, when quantity is unset) are
/// left out. Masks are regular expressions searched case-sensitively (PlatformFilter).
/// Throws LogicError naming the mask if one is not a valid regular expression, even when no
/// platform or device would be matched against it.
PLINTH_EXPORT std::vector<std::pair<Platform, std::vector<Device>>> platforms_and_devices_by_mask(
    const API& api, std::optional<std::size_t> quantity = 1, const DeviceFilter& device_filter = {},
    const PlatformFilter& platform_filter = {});

/// Chooses `quantity` devices of one platform (all of the first matching platform's devices
/// when unset). Interactive: lists the candidates on stdout and reads the choice from stdin
/// (only when there is a choice): a platform's number, then the devices' numbers separated by
/// commas; an empty answer takes the default shown in brackets (the first ones), and an answer
/// with anything else in it, a number out of range, a repeat or the wrong count is refused
/// with the reason ("Exactly 2 devices must be selected") and asked again. Otherwise takes
/// the first. Throws LogicError if nothing matches, naming the filters and what was there,
/// when stdin ends before an answer, or for an invalid mask (platforms_and_devices_by_mask). Call
/// it from one thread at a time when interactive.
PLINTH_EXPORT std::vector<Device> select_devices(const API& api, bool interactive = false,
                                                 std::optional<std::size_t> quantity = 1,
                                                 const DeviceFilter& device_filter = {},
                                                 const PlatformFilter& platform_filter = {});

/// The devices that PLINTH_DEVICE selects among `api`'s (DESIGN.md, "Environment"), or
/// nullopt when PLINTH_DEVICE is unset or has no term for `api`. Throws LogicError on a
/// malformed value or when its terms match no device.
PLINTH_EXPORT std::optional<std::vector<Device>> devices_from_env(const API& api);

/// Parses and applies a PLINTH_DEVICE-style specification to `api`'s devices (as
/// devices_from_env, with an explicit value).
PLINTH_EXPORT std::optional<std::vector<Device>> devices_from_spec(const API& api,
                                                                   const std::string& spec);

}  // namespace plinth
