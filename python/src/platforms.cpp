// plinth.API, plinth.Platform, plinth.Device and device selection.

#include <plinth/api.hpp>
#include <plinth/device.hpp>
#include <plinth/platform.hpp>
#include <plinth/selection.hpp>

#include "bindings.hpp"
#include "selection_args.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <functional>
#include <string>

namespace plinth::python {

namespace {

std::size_t api_hash(const API& api) { return std::hash<API>{}(api); }

std::size_t platform_hash(const Platform& platform) {
  return api_hash(platform.api()) * 31 + platform.index();
}

std::string platform_label(const Platform& platform) {
  return platform.api().shortcut() + ":" + std::to_string(platform.index());
}

nb::tuple sizes_tuple(const std::vector<std::size_t>& sizes) { return nb::tuple(nb::cast(sizes)); }

}  // namespace

void bind_platforms(nb::module_& m) {
  nb::class_<APIID>(m, "APIID", "Identifies an API by its shortcut ('cuda', 'opencl', ...).")
      .def(
          "__init__",
          [](APIID* self, std::string shortcut) { new (self) APIID{std::move(shortcut)}; },
          nb::arg("shortcut"), "The id of the API with this shortcut.")
      .def_rw("shortcut", &APIID::shortcut, "The API's shortcut, e.g. 'opencl'.")
      .def(
          "__eq__", [](const APIID& a, const APIID& b) { return a == b; }, nb::is_operator())
      .def("__hash__", [](const APIID& a) { return std::hash<std::string>{}(a.shortcut); })
      .def("__repr__", [](const APIID& a) { return "plinth.APIID('" + a.shortcut + "')"; });
  nb::implicitly_convertible<std::string, APIID>();

  m.def("all_api_ids", &all_api_ids,
        "The ids of every backend plugin found (whatever its state), in default preference "
        "order: cuda, hip, level_zero, opencl, then others alphabetically.");

  nb::class_<API>(m, "API", "A loaded, initialised backend with at least one device.")
      .def_static("from_env", &API::from_env,
                  "The default API: the first ready one of PLINTH_API's list, or the first ready "
                  "API in default order. Raises PluginError (listing every candidate and its "
                  "state) if there is none or PLINTH_API names an unavailable one.")
      .def_static("all_available", &API::all_available, "Every ready API, in default order.")
      .def_static("all_by_shortcut", &API::all_by_shortcut, nb::arg("shortcut") = nb::none(),
                  "With a shortcut: a list of that API (PluginError if it is not ready); "
                  "without: all_available().")
      .def_static("from_api_id", &API::from_api_id, nb::arg("api_id"),
                  "The API with this id (an APIID or a shortcut string). Raises PluginError "
                  "naming its state if it is not ready.")
      .def_prop_ro("id", &API::id, "The API's id.")
      .def_prop_ro("shortcut", &API::shortcut, "The API's shortcut, e.g. 'opencl'.")
      .def_prop_ro("name", &API::name, "The display name, e.g. 'OpenCL'.")
      .def_prop_ro("abi_minor", &API::abi_minor, "The SDK ABI minor version of the plugin.")
      .def_prop_ro("platforms", &API::platforms, "The API's platforms (CUDA and HIP have one).")
      .def(
          "__eq__", [](const API& a, const API& b) { return a == b; }, nb::is_operator())
      .def("__hash__", &api_hash)
      .def("__repr__", [](const API& a) { return "<plinth.API " + a.shortcut() + ">"; });

  nb::class_<Platform>(m, "Platform",
                       "A platform of an API (an OpenCL platform, a Level Zero "
                       "driver; CUDA and HIP have one).")
      .def_static(
          "all",
          [](const API& api, const Masks& include_masks, const Masks& exclude_masks) {
            return Platform::all_filtered(api, platform_filter(include_masks, exclude_masks));
          },
          nb::arg("api"), nb::kw_only(), nb::arg("include_masks") = nb::none(),
          nb::arg("exclude_masks") = nb::none(),
          "The platforms of `api` whose names match any of `include_masks` (all if none) and "
          "none of `exclude_masks` (regular expressions searched case-sensitively). Raises "
          "LogicError naming an invalid mask.")
      .def_static("from_index", &Platform::from_index, nb::arg("api"), nb::arg("index"),
                  "Platform `index` of `api`. Raises LogicError if out of range.")
      .def_static("from_backend_platform", &Platform::from_backend_platform, nb::arg("api"),
                  nb::arg("handle"),
                  "The platform of `api` whose native handle (cl_platform_id, ...; 0 for APIs "
                  "without platforms) is `handle`. Raises LogicError if none has it.")
      .def_prop_ro("api", &Platform::api, "The platform's API.")
      .def_prop_ro("index", &Platform::index, "The platform's index in its API.")
      .def_prop_ro("name", &Platform::name, "The name, as the driver reports it.")
      .def_prop_ro("vendor", &Platform::vendor, "The vendor, as the driver reports it.")
      .def_prop_ro("version", &Platform::version, "The version, as the driver reports it.")
      .def_prop_ro("devices", &Platform::devices, "The platform's devices.")
      .def_prop_ro("handle", &Platform::native_handle,
                   "The native handle (cl_platform_id, ze_driver_handle_t) as an int; 0 where "
                   "the API has no platforms (CUDA, HIP).")
      .def(
          "__eq__", [](const Platform& a, const Platform& b) { return a == b; }, nb::is_operator())
      .def("__hash__", &platform_hash)
      .def("__repr__", [](const Platform& p) {
        return "<plinth.Platform " + platform_label(p) + " '" + p.name() + "'>";
      });

  nb::enum_<DeviceType>(m, "DeviceType", "What kind of processor a device is.")
      .value("cpu", DeviceType::cpu)
      .value("gpu", DeviceType::gpu)
      .value("accelerator", DeviceType::accelerator)
      .value("other", DeviceType::other);

  nb::class_<DeviceParameters>(m, "DeviceParameters",
                               "A device's properties, in the same units on every backend "
                               "(read-only).")
      .def_ro("type", &DeviceParameters::type, "A DeviceType.")
      .def_ro("compute_units", &DeviceParameters::compute_units, "Multiprocessors / compute units.")
      .def_ro("local_mem_banks", &DeviceParameters::local_mem_banks,
              "Banks of local (shared) memory.")
      .def_ro("local_mem_size", &DeviceParameters::local_mem_size,
              "Bytes of local memory per group.")
      .def_prop_ro(
          "max_local_sizes",
          [](const DeviceParameters& p) { return sizes_tuple(p.max_local_sizes); },
          "The largest group size per dimension (3 entries).")
      .def_prop_ro(
          "max_num_groups", [](const DeviceParameters& p) { return sizes_tuple(p.max_num_groups); },
          "The most groups per dimension (3 entries).")
      .def_ro("max_total_local_size", &DeviceParameters::max_total_local_size,
              "Work items per group, in total.")
      .def_ro("warp_size", &DeviceParameters::warp_size, "SIMD width (warp, wavefront, sub-group).")
      .def_ro("global_mem_size", &DeviceParameters::global_mem_size, "Bytes of global memory.")
      .def_ro("address_alignment", &DeviceParameters::address_alignment,
              "Bytes a sub-buffer's origin must be aligned to.")
      .def_ro("supports_double", &DeviceParameters::supports_double,
              "Double-precision arithmetic in kernels.")
      .def_ro("compute_capability", &DeviceParameters::compute_capability,
              "E.g. '9.0' on CUDA; empty where meaningless.")
      .def_ro("driver_version", &DeviceParameters::driver_version,
              "The vendor driver's version string.")
      .def("__repr__", [](const DeviceParameters& p) {
        return std::string("<plinth.DeviceParameters ") + to_string(p.type) +
               ", compute_units=" + std::to_string(p.compute_units) +
               ", global_mem_size=" + std::to_string(p.global_mem_size) +
               ", max_total_local_size=" + std::to_string(p.max_total_local_size) + ">";
      });

  nb::class_<DeviceFeatures>(m, "DeviceFeatures",
                             "What a device's kernels may use of the dialect's atomics, fences "
                             "and sub-groups (read-only; docs/kernel-dialect.md).")
      .def_ro("atomics", &DeviceFeatures::atomics, "The dialect's atomics and fences exist.")
      .def_ro("int64_atomics", &DeviceFeatures::int64_atomics, "long/ulong atomics.")
      .def_ro("double_atomics", &DeviceFeatures::double_atomics, "double atomics.")
      .def_ro("native_float_atomic_add", &DeviceFeatures::native_float_atomic_add,
              "Float atomic add is one hardware operation.")
      .def_ro("native_double_atomic_add", &DeviceFeatures::native_double_atomic_add,
              "Double atomic add is one hardware operation.")
      .def_ro("device_scope_acquire_release", &DeviceFeatures::device_scope_acquire_release,
              "Device-scope acquire/release fences, loads and stores.")
      .def_ro("native_sub_groups", &DeviceFeatures::native_sub_groups,
              "Sub-groups are the hardware's.")
      .def_prop_ro(
          "sub_group_sizes", [](const DeviceFeatures& f) { return sizes_tuple(f.sub_group_sizes); },
          "The sub-group sizes the device may use, ascending.")
      .def_ro("sub_group_independent_forward_progress",
              &DeviceFeatures::sub_group_independent_forward_progress,
              "Work-items of one sub-group may wait on each other.")
      .def("__repr__", [](const DeviceFeatures& f) {
        return std::string("<plinth.DeviceFeatures atomics=") + (f.atomics ? "True" : "False") +
               ", int64_atomics=" + (f.int64_atomics ? "True" : "False") +
               ", native_sub_groups=" + (f.native_sub_groups ? "True" : "False") + ">";
      });

  nb::class_<Device>(m, "Device", "A device of a platform (not bound to a context).")
      .def_static(
          "all",
          [](const Platform& platform, const Masks& include_masks, const Masks& exclude_masks,
             bool unique_only, bool exclude_pure_parallel) {
            return Device::all_filtered(
                platform,
                device_filter(include_masks, exclude_masks, unique_only, exclude_pure_parallel));
          },
          nb::arg("platform"), nb::kw_only(), nb::arg("include_masks") = nb::none(),
          nb::arg("exclude_masks") = nb::none(), nb::arg("unique_only") = false,
          nb::arg("exclude_pure_parallel") = false,
          "The devices of `platform` that pass the filter: names matching any of "
          "`include_masks` (all if none) and none of `exclude_masks` (regular expressions), the "
          "first of equal names with `unique_only`, no pure-parallel devices with "
          "`exclude_pure_parallel`. Raises LogicError naming an invalid mask.")
      .def_static("from_index", &Device::from_index, nb::arg("platform"), nb::arg("index"),
                  "Device `index` of `platform`. Raises LogicError if out of range.")
      .def_static("from_backend_device", &Device::from_backend_device, nb::arg("api"),
                  nb::arg("handle"),
                  "The device of `api` whose native handle (cl_device_id, CUdevice, ...) is "
                  "`handle`. Raises LogicError if none has it.")
      .def_prop_ro("platform", &Device::platform, "The device's platform.")
      .def_prop_ro("api", &Device::api, "The device's API.")
      .def_prop_ro("index", &Device::index, "The device's index in its platform.")
      .def_prop_ro("name", &Device::name, "The name, as the vendor reports it.")
      .def_prop_ro("full_name", &Device::full_name,
                   "'<api>:<platform>.<device> <name>', e.g. 'opencl:0.1 pthread-haswell'.")
      .def_prop_ro("params", &Device::params, "The device's DeviceParameters.")
      .def_prop_ro("features", &Device::features, "The device's DeviceFeatures.")
      .def_prop_ro("handle", &Device::native_handle,
                   "The native handle (cl_device_id, CUdevice, ...) as an int.")
      .def_prop_ro("compiler_identity", &Device::compiler_identity,
                   "What besides source and options decides the compiler's output (e.g. "
                   "'NVRTC 13.0; sm_90'); empty when the backend does not say.")
      .def(
          "__eq__", [](const Device& a, const Device& b) { return a == b; }, nb::is_operator())
      .def("__hash__", [](const Device& d) { return platform_hash(d.platform()) * 31 + d.index(); })
      .def("__repr__", [](const Device& d) { return "<plinth.Device " + d.full_name() + ">"; });

  m.def(
      "platforms_and_devices_by_mask",
      [](const API& api, std::optional<std::size_t> quantity, const Masks& device_include,
         const Masks& device_exclude, bool unique_only, bool exclude_pure_parallel,
         const Masks& platform_include, const Masks& platform_exclude) {
        return platforms_and_devices_by_mask(
            api, quantity,
            device_filter(device_include, device_exclude, unique_only, exclude_pure_parallel),
            platform_filter(platform_include, platform_exclude));
      },
      nb::arg("api"), nb::arg("quantity") = 1, PLINTH_PY_FILTER_ARGS,
      "For each platform of `api` passing the platform filters, a (platform, devices) pair of "
      "the devices passing the device filters; platforms with fewer than `quantity` such "
      "devices (or none, when quantity is None) are left out. " PLINTH_PY_FILTER_DOC);

  m.def(
      "select_devices",
      [](const API& api, bool interactive, std::optional<std::size_t> quantity,
         const Masks& device_include, const Masks& device_exclude, bool unique_only,
         bool exclude_pure_parallel, const Masks& platform_include, const Masks& platform_exclude) {
        const DeviceFilter devices =
            device_filter(device_include, device_exclude, unique_only, exclude_pure_parallel);
        const PlatformFilter platforms = platform_filter(platform_include, platform_exclude);
        nb::gil_scoped_release release;  // interactive: reads stdin
        return select_devices(api, interactive, quantity, devices, platforms);
      },
      nb::arg("api"), nb::arg("interactive") = false, nb::arg("quantity") = 1,
      PLINTH_PY_FILTER_ARGS,
      "Chooses `quantity` devices of one platform (all of the first matching platform's when "
      "None): the first ones, or, with `interactive`, as the user answers on stdin. Raises "
      "LogicError if nothing matches (naming the filters and what was "
      "there). " PLINTH_PY_FILTER_DOC);

  m.def("devices_from_env", &devices_from_env, nb::arg("api"),
        "The devices that PLINTH_DEVICE selects among `api`'s, or None when it is unset or "
        "has no term for `api`. Raises LogicError on a malformed value or when its terms "
        "match no device.");
  m.def("devices_from_spec", &devices_from_spec, nb::arg("api"), nb::arg("spec"),
        "As devices_from_env(), with `spec` as PLINTH_DEVICE's value (e.g. 'opencl:0,1', "
        "'*:cpu', '!opencl:~pocl').");
}

}  // namespace plinth::python
