// plinth.Array: shape, dtype, strides, transfers.

#include <plinth/array.hpp>
#include <plinth/errors.hpp>

#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace plinth::python {

void bind_arrays(nb::module_& m) {
  nb::class_<PyArray>(m, "Array",
                      "An array on one device, with a default queue (`queue`) that its "
                      "operations use when none is given.")
      .def_prop_ro(
          "shape", [](const PyArray& a) { return nb::tuple(nb::cast(a.array.shape())); },
          "The extents, as a tuple.")
      .def_prop_ro(
          "dtype", [](const PyArray& a) { return a.array.dtype(); }, "The numpy dtype.")
      .def_prop_ro(
          "strides", [](const PyArray& a) { return nb::tuple(nb::cast(a.array.strides())); },
          "The strides in bytes, as numpy's.")
      .def_prop_ro("ndim", [](const PyArray& a) { return a.array.ndim(); })
      .def_prop_ro("size", [](const PyArray& a) { return a.array.size(); })
      .def_prop_ro("nbytes", [](const PyArray& a) { return a.array.nbytes(); })
      .def_prop_ro(
          "queue", [](const PyArray& a) { return a.queue; }, "The default queue.")
      .def_prop_ro(
          "device", [](const PyArray& a) { return a.array.device(); }, "The array's device.")
      .def(
          "get",
          [](const PyArray& a, const std::optional<Queue>& queue) {
            HostArray host = [&] {
              nb::gil_scoped_release release;
              return a.array.get(a.queue_or_default(queue));
            }();
            return to_numpy(host);
          },
          nb::arg("queue") = nb::none(),
          "A copy of the elements as a new C-order numpy array (blocks until it is done).");

  m.def(
      "to_device",
      [](const Queue& queue, nb::handle object, const std::optional<DType>& dtype) {
        nb::object converted;
        const HostArray host = host_view(object, converted, false, dtype);
        nb::gil_scoped_release release;
        return PyArray{Array::from_host(queue, host), queue};
      },
      nb::arg("queue"), nb::arg("array"), nb::arg("dtype") = nb::none(),
      "A new C-order Array on `queue`'s device with a copy of `array` (a numpy array, or "
      "anything numpy.asarray() takes), converted to `dtype` if given. Returns once the copy "
      "is done.");
}

}  // namespace plinth::python
