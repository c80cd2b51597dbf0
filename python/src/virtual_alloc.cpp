// The virtual allocation managers (grunnur's virtual_alloc): plinth.TrivialManager,
// plinth.ZeroOffsetManager and plinth.VirtualAllocationStatistics.

#include <plinth/errors.hpp>
#include <plinth/virtual_alloc.hpp>

#include "bindings.hpp"
#include "py_array.hpp"

#include <nanobind/stl/function.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>

#include <string>

namespace plinth::python {

namespace {

/// A Buffer, an Array, a MultiArray, or a list or tuple of these (nested), or None.
VirtualDependencies dependencies_from_python(nb::handle object) {
  if (object.is_none()) return {};
  if (nb::isinstance<Buffer>(object)) return VirtualDependencies(nb::cast<const Buffer&>(object));
  if (nb::isinstance<PyArray>(object)) {
    return VirtualDependencies(nb::cast<const PyArray&>(object).array);
  }
  if (nb::isinstance<MultiArray>(object)) {
    return VirtualDependencies(nb::cast<const MultiArray&>(object));
  }
  if (nb::isinstance<nb::list>(object) || nb::isinstance<nb::tuple>(object)) {
    VirtualDependencies dependencies;
    for (const nb::handle item : object) dependencies.add(dependencies_from_python(item));
    return dependencies;
  }
  throw nb::type_error(
      ("a virtual dependency is a Buffer, an Array, a MultiArray or a list of them, not " +
       std::string(nb::type_name(object.type()).c_str()))
          .c_str());
}

}  // namespace

void bind_virtual_alloc(nb::module_& m) {
  nb::class_<VirtualAllocationStatistics>(
      m, "VirtualAllocationStatistics",
      "How much memory a manager's virtual buffers use: the real allocations it holds and the "
      "live virtual buffers, with counts, total bytes and how many there are of each size.")
      .def_ro("real_size_total", &VirtualAllocationStatistics::real_size_total,
              "Total bytes of the real allocations.")
      .def_ro("real_num", &VirtualAllocationStatistics::real_num, "Number of real allocations.")
      .def_ro("real_sizes", &VirtualAllocationStatistics::real_sizes,
              "Size in bytes -> number of real allocations of that size (a dict).")
      .def_ro("virtual_size_total", &VirtualAllocationStatistics::virtual_size_total,
              "Total bytes of the live virtual buffers.")
      .def_ro("virtual_num", &VirtualAllocationStatistics::virtual_num,
              "Number of live virtual buffers.")
      .def_ro("virtual_sizes", &VirtualAllocationStatistics::virtual_sizes,
              "Size in bytes -> number of virtual buffers of that size (a dict).")
      .def(
          "__eq__",
          [](const VirtualAllocationStatistics& a, const VirtualAllocationStatistics& b) {
            return a == b;
          },
          nb::is_operator())
      .def("__str__", &VirtualAllocationStatistics::to_string)
      .def("__repr__", &VirtualAllocationStatistics::to_string);

  nb::class_<VirtualManager>(
      m, "VirtualManager",
      "What the virtual allocation managers have in common (grunnur's virtual_alloc): they "
      "hand out virtual buffers, ordinary Buffers whose real memory the manager may share "
      "among buffers that do not depend on each other. Writing a virtual buffer never "
      "changes its dependencies; buffers that do not depend on each other may share memory.")
      .def(
          "allocator",
          [](const VirtualManager& manager, nb::handle dependencies) {
            return manager.allocator(dependencies_from_python(dependencies));
          },
          nb::arg("dependencies") = nb::none(),
          "An allocator, a callable (device, size) -> Buffer (for MultiArray.empty and the "
          "array-making functions' `allocator`, or to call directly), whose buffers are new "
          "virtual buffers sharing no memory with `dependencies` (a Buffer, Array or "
          "MultiArray of this manager, or a nested list of them). Raises LogicError naming "
          "the first dependency that is not a live virtual buffer of this manager; the "
          "allocator raises LogicError for another device or size 0.")
      .def(
          "pack",
          [](const VirtualManager& manager, const Queue& queue, nb::handle keep) {
            const VirtualDependencies kept = dependencies_from_python(keep);
            nb::gil_scoped_release release;
            manager.pack(queue, kept);
          },
          nb::arg("queue"), nb::arg("keep") = nb::none(),
          "Re-packs the live virtual buffers into fewer, smaller real allocations, moving "
          "their data on `queue` and synchronizing it (the GIL released); Buffers and Arrays "
          "on them stay valid. The buffers in `keep` keep their contents. Call it only when "
          "nothing else uses the virtual buffers. Raises LogicError for a queue of another "
          "device or a `keep` that is not this manager's.")
      .def("statistics", &VirtualManager::statistics, "A VirtualAllocationStatistics snapshot.")
      .def_prop_ro("device", &VirtualManager::device, "The manager's BoundDevice.")
      .def("__repr__", [](const VirtualManager& manager) {
        return "<plinth.VirtualManager on device " + manager.device().device().full_name() + ": " +
               manager.statistics().to_string() + ">";
      });

  nb::class_<TrivialManager, VirtualManager>(
      m, "TrivialManager",
      "A manager that gives every virtual buffer real memory of its own (for debugging).")
      .def(nb::init<const BoundDevice&>(), nb::arg("device"), "A manager on `device`.")
      .def("__repr__", [](const TrivialManager& manager) {
        return "<plinth.TrivialManager on device " + manager.device().device().full_name() + ": " +
               manager.statistics().to_string() + ">";
      });

  nb::class_<ZeroOffsetManager, VirtualManager>(
      m, "ZeroOffsetManager",
      "A manager that lets virtual buffers without a dependency between them share real "
      "allocations (each at offset 0), and packs them into as few bytes as it finds.")
      .def(nb::init<const BoundDevice&>(), nb::arg("device"), "A manager on `device`.")
      .def("__repr__", [](const ZeroOffsetManager& manager) {
        return "<plinth.ZeroOffsetManager on device " + manager.device().device().full_name() +
               ": " + manager.statistics().to_string() + ">";
      });
}

}  // namespace plinth::python
