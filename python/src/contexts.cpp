// plinth.Context, plinth.BoundDevice and plinth.MemoryInfo.

#include <plinth/context.hpp>

#include "bindings.hpp"
#include "selection_args.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace plinth::python {

namespace {

std::vector<BoundDevice> device_list(const BoundMultiDevice& devices) {
  return std::vector<BoundDevice>(devices.begin(), devices.end());
}

std::size_t context_hash(const Context& context) { return std::hash<Context>{}(context); }

std::string context_id(const Context& context) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%zx", context_hash(context));
  return text;
}

std::string context_repr(const Context& context) {
  std::string names;
  for (const auto& device : context.unbound_devices()) {
    names += (names.empty() ? "" : ", ") + device.full_name();
  }
  return "<plinth.Context " + context_id(context) + " " + context.api().shortcut() + " on [" +
         names + "]>";
}

}  // namespace

void bind_contexts(nb::module_& m) {
  nb::class_<MemoryInfo>(m, "MemoryInfo", "A device's global memory in bytes: total and free.")
      .def_ro("total", &MemoryInfo::total, "All of the device's global memory.")
      .def_ro("free", &MemoryInfo::free,
              "What is free now, for any process; None where the backend cannot tell.")
      .def(
          "__iter__",
          [](const MemoryInfo& info) {
            return nb::iter(
                nb::make_tuple(info.free ? nb::cast(*info.free) : nb::none(), info.total));
          },
          "Unpacks as (free, total), as PyCUDA's mem_get_info().")
      .def("__repr__", [](const MemoryInfo& info) {
        return "plinth.MemoryInfo(total=" + std::to_string(info.total) +
               ", free=" + (info.free ? std::to_string(*info.free) : std::string("None")) + ")";
      });

  nb::class_<Context>(m, "Context",
                      "Devices of one platform that share memory and programs. Objects made "
                      "in a context (queues, buffers, arrays) keep it alive.")
      .def_static("from_devices", &Context::from_devices, nb::arg("devices"),
                  "A context on `devices` (Device objects: at least one, all of one platform, "
                  "no repeats). Raises LogicError otherwise, BackendError if the API refuses.")
      .def_static(
          "from_criteria",
          [](const API& api, bool interactive, std::optional<std::size_t> devices_num,
             const Masks& device_include, const Masks& device_exclude, bool unique_only,
             bool exclude_pure_parallel, const Masks& platform_include,
             const Masks& platform_exclude) {
            const DeviceFilter devices =
                device_filter(device_include, device_exclude, unique_only, exclude_pure_parallel);
            const PlatformFilter platforms = platform_filter(platform_include, platform_exclude);
            nb::gil_scoped_release release;  // interactive: reads stdin
            return Context::from_criteria(api, interactive, devices_num, devices, platforms);
          },
          nb::arg("api"), nb::arg("interactive") = false, nb::arg("devices_num") = 1,
          PLINTH_PY_FILTER_ARGS,
          "Chooses `devices_num` devices of one platform (all of the first matching platform's "
          "when None) as plinth.select_devices() does, or as PLINTH_DEVICE says when no filter "
          "is given and it has a term for `api`, and makes a context on "
          "them. " PLINTH_PY_FILTER_DOC)
      .def_static("from_backend_devices", &Context::from_backend_devices, nb::arg("api"),
                  nb::arg("handles"),
                  "A context on the devices of `api` with these native handles (ints: "
                  "cl_device_id, CUdevice, ...). Raises LogicError if one is not a device of "
                  "`api`.")
      .def_static("from_backend_context", &Context::from_backend_context, nb::arg("handle"),
                  nb::arg("devices"), nb::arg("take_ownership") = false,
                  "Wraps an existing native context (cl_context, CUcontext, ... as an int) that "
                  "covers `devices`; with `take_ownership` plinth releases it with the last "
                  "handle.")
      .def_prop_ro("api", &Context::api, "The API of the context's devices.")
      .def_prop_ro("platform", &Context::platform, "The platform of the context's devices.")
      .def_prop_ro(
          "devices", [](const Context& c) { return device_list(c.devices()); },
          "The context's devices, bound to it (a list of BoundDevice).")
      .def_prop_ro("unbound_devices", &Context::unbound_devices,
                   "The devices (Device objects), in context order.")
      .def("activate", &Context::activate,
           "Makes the context current on this thread where the API has that notion (CUDA).")
      .def("deactivate", &Context::deactivate, "Undoes activate(); a no-op outside CUDA.")
      .def(
          "__enter__",
          [](const Context& c) {
            c.activate();
            return c;
          },
          "activate(), for a `with` block.")
      .def(
          "__exit__", [](const Context& c, nb::handle, nb::handle, nb::handle) { c.deactivate(); },
          nb::arg("exc_type").none(), nb::arg("exc_value").none(), nb::arg("traceback").none(),
          "deactivate().")
      .def_prop_ro(
          "handle", [](const Context& c) { return c.native_handle(0); },
          "The native context (cl_context, CUcontext, ...) of device 0, as an int.")
      .def("native_handle", &Context::native_handle, nb::arg("index") = 0,
           "The native context of device `index` (CUDA contexts are per device), as an int. "
           "Raises LogicError if out of range.")
      .def(
          "__eq__", [](const Context& a, const Context& b) { return a == b; }, nb::is_operator())
      .def("__hash__", &context_hash)
      .def("__repr__", &context_repr);

  nb::class_<BoundDevice>(m, "BoundDevice",
                          "A device of a context: where memory is allocated and kernels run.")
      .def_prop_ro("context", &BoundDevice::context, "The device's context.")
      .def_prop_ro("index", &BoundDevice::index, "The index of this device in its context.")
      .def_prop_ro("name", &BoundDevice::name, "The device's name.")
      .def_prop_ro("device", &BoundDevice::device, "The unbound Device.")
      .def_prop_ro("params", &BoundDevice::params, "The device's DeviceParameters.")
      .def_prop_ro("features", &BoundDevice::features, "The device's DeviceFeatures.")
      .def("memory_info", &BoundDevice::memory_info, nb::call_guard<nb::gil_scoped_release>(),
           "The device's global memory now (a MemoryInfo: total, and free or None where the "
           "backend cannot tell). Raises BackendError.")
      .def(
          "__eq__", [](const BoundDevice& a, const BoundDevice& b) { return a == b; },
          nb::is_operator())
      .def("__hash__",
           [](const BoundDevice& d) { return context_hash(d.context()) * 31 + d.index(); })
      .def("__repr__", [](const BoundDevice& d) {
        return "<plinth.BoundDevice " + std::to_string(d.index()) + " (" + d.device().full_name() +
               ") of context " + context_id(d.context()) + ">";
      });
}

}  // namespace plinth::python
