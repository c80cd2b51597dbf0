// plinth.API, plinth.Platform, plinth.Device and device selection.

#include <plinth/api.hpp>
#include <plinth/device.hpp>
#include <plinth/platform.hpp>

#include "bindings.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace plinth::python {

void bind_platforms(nb::module_& m) {
  nb::class_<API>(m, "API", "A loaded backend with at least one device.")
      .def_static("from_env", &API::from_env,
                  "The first ready API of PLINTH_API's list (or of all, in default order).")
      .def_static("all_available", &API::all_available, "Every ready API.")
      .def_prop_ro("shortcut", &API::shortcut, "The API's shortcut, e.g. 'opencl'.")
      .def_prop_ro("name", &API::name, "The display name, e.g. 'OpenCL'.")
      .def_prop_ro("platforms", &API::platforms, "The API's platforms.")
      .def("__eq__", [](const API& a, const API& b) { return a == b; })
      .def("__repr__", [](const API& a) { return "<plinth.API " + a.shortcut() + ">"; });
}

}  // namespace plinth::python
