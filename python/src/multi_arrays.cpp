// plinth.MultiArray (an array divided among the devices of a context) and the splays.

#include <plinth/multi_array.hpp>
#include <plinth/splay.hpp>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "py_array.hpp"

#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <vector>

namespace plinth::python {

namespace {

std::vector<BoundDevice> device_list(const BoundMultiDevice& devices) {
  return std::vector<BoundDevice>(devices.begin(), devices.end());
}

}  // namespace

void bind_multi_arrays(nb::module_& m) {
  nb::class_<BaseSplay>(m, "BaseSplay",
                        "How a MultiArray divides an array among devices (grunnur's splays).");
  nb::class_<EqualSplay, BaseSplay>(m, "EqualSplay",
                                    "Consecutive blocks of rows, as equal as they can be (the "
                                    "default).")
      .def(nb::init<>())
      .def("__repr__", [](const EqualSplay&) { return "plinth.EqualSplay()"; });
  nb::class_<CloneSplay, BaseSplay>(m, "CloneSplay", "The whole array on every device.")
      .def(nb::init<>())
      .def("__repr__", [](const CloneSplay&) { return "plinth.CloneSplay()"; });

  nb::class_<MultiArray>(m, "MultiArray",
                         "An array divided among several devices of one context: one Array "
                         "per device holding the part its splay gives it.")
      .def_static(
          "empty",
          [](const std::vector<BoundDevice>& devices, const ShapeArg& shape, const DType& dtype,
             const std::shared_ptr<BaseSplay>& splay, const std::optional<Allocator>& allocator) {
            return MultiArray::empty(detail::Access::make<BoundMultiDevice>(devices), shape.shape(),
                                     dtype, allocator.value_or(Allocator{}), splay);
          },
          nb::arg("devices"), nb::arg("shape"), nb::arg("dtype"), nb::arg("splay") = nb::none(),
          nb::arg("allocator") = nb::none(),
          "A new array of `shape` and `dtype` split among `devices` (BoundDevices of one "
          "context) by `splay` (EqualSplay when None), each part allocated by `allocator` (a "
          "callable (device, size) -> Buffer; Buffer.allocate when None); contents undefined. "
          "Raises LogicError if the splay cannot split `shape` among the devices.")
      .def_static(
          "from_host",
          [](const MultiQueue& queues, nb::handle host, const std::shared_ptr<BaseSplay>& splay,
             const std::optional<DType>& dtype) {
            nb::object converted;
            const HostArray view = host_view(host, converted, false, dtype);
            nb::gil_scoped_release release;
            return MultiArray::from_host(queues, view, splay);
          },
          nb::arg("queues"), nb::arg("array"), nb::arg("splay") = nb::none(),
          nb::arg("dtype") = nb::none(),
          "A new array on the devices of `queues` (a MultiQueue) with a copy of `array` (a "
          "numpy array or anything numpy.asarray() takes), split by `splay`. Returns once the "
          "copies are done.")
      .def(
          "get",
          [](const MultiArray& a, const MultiQueue& queues) {
            HostArray host = [&] {
              nb::gil_scoped_release release;
              return a.get(queues);
            }();
            return to_numpy(host);
          },
          nb::arg("queues"),
          "A copy of the whole array as a new numpy array, each part through its device's "
          "queue of `queues`; blocks until done. Raises LogicError if `queues` lacks a device.")
      .def(
          "set",
          [](const MultiArray& a, const MultiQueue& queues, nb::handle src) {
            if (nb::isinstance<MultiArray>(src)) {
              const MultiArray& source = nb::cast<const MultiArray&>(src);
              nb::gil_scoped_release release;
              a.set(queues, source);
              return;
            }
            nb::object converted;
            const HostArray view = host_view(src, converted, false, a.dtype());
            nb::gil_scoped_release release;
            a.set(queues, view, true);
          },
          nb::arg("queues"), nb::arg("src"),
          "Copies `src` into the parts: a host array of the whole shape (blocking until the "
          "data have left it), or another MultiArray on the same devices (part by part, "
          "asynchronously). Raises LogicError on a shape or dtype mismatch or if `queues` lacks "
          "a device.")
      .def(
          "resplay",
          [](const MultiArray& a, const MultiQueue& queues,
             const std::shared_ptr<BaseSplay>& splay) {
            nb::gil_scoped_release release;
            return a.resplay(queues, splay);
          },
          nb::arg("queues"), nb::arg("splay"),
          "A new array on the same devices with the same elements, split by `splay`, copied "
          "on the devices in the order of `queues`' work.")
      .def(
          "part",
          [](const MultiArray& a, const Queue& queue) { return PyArray(a[queue.device()], queue); },
          nb::arg("queue"),
          "The part on `queue`'s device, as an Array whose default queue is `queue`. Raises "
          "LogicError if the array has no part there.")
      .def_prop_ro(
          "devices", [](const MultiArray& a) { return device_list(a.devices()); },
          "The devices, in the order of the splay's parts.")
      .def_prop_ro(
          "shape", [](const MultiArray& a) { return nb::tuple(nb::cast(a.shape())); },
          "The whole array's shape.")
      .def_prop_ro("dtype", &MultiArray::dtype, "The numpy dtype.")
      .def_prop_ro(
          "shapes",
          [](const MultiArray& a) {
            nb::list shapes;
            for (const auto& device : a.devices()) {
              shapes.append(nb::tuple(nb::cast(a.shapes()[device])));
            }
            return shapes;
          },
          "Each device's part's shape, in the devices' order.")
      .def("__repr__", [](const MultiArray& a) {
        const std::string shape = nb::repr(nb::tuple(nb::cast(a.shape()))).c_str();
        return "<plinth.MultiArray shape=" + shape + " dtype=" + a.dtype().name() + " on " +
               std::to_string(a.devices().size()) + " devices>";
      });
}

}  // namespace plinth::python
