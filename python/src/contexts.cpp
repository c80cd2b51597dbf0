// plinth.Context and plinth.BoundDevice.

#include <plinth/context.hpp>

#include "bindings.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <vector>

namespace plinth::python {

void bind_contexts(nb::module_& m) {
  nb::class_<Context>(m, "Context", "Devices of one platform that share memory and programs.")
      .def_static(
          "from_criteria",
          [](const API& api, std::optional<std::size_t> devices_num) {
            return Context::from_criteria(api, false, devices_num);
          },
          nb::arg("api"), nb::arg("devices_num") = 1,
          "Chooses devices (PLINTH_DEVICE honoured) and makes a context on them.")
      .def_prop_ro(
          "devices",
          [](const Context& c) {
            const BoundMultiDevice devices = c.devices();
            return std::vector<BoundDevice>(devices.begin(), devices.end());
          },
          "The context's devices, bound to it.")
      .def("__eq__", [](const Context& a, const Context& b) { return a == b; });

  nb::class_<BoundDevice>(m, "BoundDevice", "A device of a context.")
      .def_prop_ro("context", &BoundDevice::context)
      .def_prop_ro("index", &BoundDevice::index)
      .def_prop_ro("name", &BoundDevice::name)
      .def("__eq__", [](const BoundDevice& a, const BoundDevice& b) { return a == b; });
}

}  // namespace plinth::python
