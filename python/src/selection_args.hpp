#pragma once

// The device and platform filters of include/plinth/selection.hpp as Python keyword
// arguments (grunnur's names): device_include_masks, device_exclude_masks,
// unique_devices_only, exclude_pure_parallel, platform_include_masks, platform_exclude_masks.

#include <plinth/device.hpp>
#include <plinth/platform.hpp>

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

namespace plinth::python {

namespace nb = nanobind;

using Masks = std::optional<std::vector<std::string>>;

inline DeviceFilter device_filter(const Masks& include, const Masks& exclude, bool unique_only,
                                  bool exclude_pure_parallel) {
  return DeviceFilter{include.value_or(std::vector<std::string>{}),
                      exclude.value_or(std::vector<std::string>{}), unique_only,
                      exclude_pure_parallel};
}

inline PlatformFilter platform_filter(const Masks& include, const Masks& exclude) {
  return PlatformFilter{include.value_or(std::vector<std::string>{}),
                        exclude.value_or(std::vector<std::string>{})};
}

/// The six filter keyword arguments, after nb::kw_only(), in the order of the lambdas'
/// parameters: (device_include_masks, device_exclude_masks, unique_devices_only,
/// exclude_pure_parallel, platform_include_masks, platform_exclude_masks).
#define PLINTH_PY_FILTER_ARGS                                                                      \
  nb::kw_only(), nb::arg("device_include_masks") = nb::none(),                                     \
                 nb::arg("device_exclude_masks") = nb::none(),                                     \
                 nb::arg("unique_devices_only") = false, nb::arg("exclude_pure_parallel") = false, \
                 nb::arg("platform_include_masks") = nb::none(),                                   \
                 nb::arg("platform_exclude_masks") = nb::none()

#define PLINTH_PY_FILTER_DOC                                                                \
  "Filters (keywords): device_include_masks / device_exclude_masks (lists of regular "      \
  "expressions searched case-sensitively in device names), unique_devices_only (the first " \
  "of devices with equal names on a platform), exclude_pure_parallel (drop devices with "   \
  "max_total_local_size 1), platform_include_masks / platform_exclude_masks (on platform "  \
  "names). An invalid mask is a LogicError naming it."

}  // namespace plinth::python
