// plinth.Queue, plinth.MultiQueue and plinth.Event.

#include <plinth/queue.hpp>

#include "bindings.hpp"

namespace plinth::python {

void bind_queues(nb::module_& m) {
  nb::class_<Queue>(m, "Queue", "An in-order queue of work on one device.")
      .def(nb::init<const BoundDevice&>(), nb::arg("device"), "A new queue on `device`.")
      .def_prop_ro("device", &Queue::device)
      .def("synchronize", &Queue::synchronize, nb::call_guard<nb::gil_scoped_release>(),
           "Blocks until all work enqueued so far is done.")
      .def("__eq__", [](const Queue& a, const Queue& b) { return a == b; });
}

}  // namespace plinth::python
