// plinth.Queue, plinth.MultiQueue, plinth.Event and plinth.elapsed_ms.

#include <plinth/event.hpp>
#include <plinth/ipc.hpp>
#include <plinth/queue.hpp>

#include "bindings.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace plinth::python {

namespace {

std::string hex(std::uintptr_t value) {
  char text[2 + 2 * sizeof(value) + 1];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

std::string device_label(const BoundDevice& device) {
  return std::to_string(device.index()) + " (" + device.device().full_name() + ")";
}

}  // namespace

void bind_queues(nb::module_& m) {
  nb::class_<Event>(m, "Event",
                    "A point in a queue's work (Queue.record_event()): wait for it, order "
                    "another queue of the same context after it (Queue.wait_for()), or time "
                    "the work between two events (plinth.elapsed_ms()). Interprocess events "
                    "(create_interprocess(), from_ipc_handle()) order work across processes.")
      .def_static("create_interprocess", &Event::create_interprocess, nb::arg("device"),
                  "A new interprocess event on `device` (a BoundDevice), not yet recorded "
                  "(Queue.record() records it). Raises LogicError where the backend has no "
                  "interprocess events (OpenCL; see plinth.ipc_support()).")
      .def_static("from_ipc_handle", &Event::from_ipc_handle, nb::arg("device"), nb::arg("handle"),
                  "Opens on `device` the interprocess event that `handle` (an IpcEventHandle "
                  "of another process's ipc_handle()) names. Raises LogicError for a handle of "
                  "another API or a backend without interprocess events, BackendError when the "
                  "vendor refuses the handle.")
      .def("ipc_handle", &Event::ipc_handle,
           "The IpcEventHandle other processes open this event with. Raises LogicError for an "
           "event that is not interprocess or that was opened from a handle.")
      .def_prop_ro("interprocess", &Event::interprocess,
                   "True for events from create_interprocess() and from_ipc_handle().")
      .def("wait", &Event::wait, nb::call_guard<nb::gil_scoped_release>(),
           "Blocks (the GIL released) until the work recorded before this event is done.")
      .def("synchronize", &Event::wait, nb::call_guard<nb::gil_scoped_release>(),
           "The same as wait().")
      .def_prop_ro("handle", &Event::native_handle,
                   "The native event (cl_event, CUevent, ...) as an int; valid while this "
                   "Event lives.")
      .def_prop_ro("device", &Event::device, "The BoundDevice of the queue that recorded it.")
      .def("__repr__", [](const Event& e) {
        return std::string("<plinth.Event ") + (e.interprocess() ? "interprocess " : "") +
               "on device " + device_label(e.device()) + ">";
      });

  m.def("elapsed_ms", &elapsed_ms, nb::arg("start"), nb::arg("end"),
        nb::call_guard<nb::gil_scoped_release>(),
        "Milliseconds of device time between two events of one device (waits for `end`, the "
        "GIL released). Raises LogicError for events of different devices or interprocess "
        "ones; BackendError if the backend cannot time them.");

  nb::class_<Queue>(m, "Queue",
                    "An in-order queue of work on one device. One thread at a time may enqueue "
                    "work on a queue.")
      .def(nb::init<const BoundDevice&>(), nb::arg("device"),
           "A new queue on `device` (a BoundDevice).")
      .def_static("from_backend_queue", &Queue::from_backend_queue, nb::arg("device"),
                  nb::arg("handle"), nb::arg("take_ownership") = false,
                  "Wraps a native queue (cl_command_queue, CUstream, ... as an int) of "
                  "`device`; with `take_ownership` plinth releases it with the last handle.")
      .def_prop_ro("device", &Queue::device, "The BoundDevice the queue runs on.")
      .def_prop_ro(
          "context", [](const Queue& q) { return q.device().context(); }, "The device's context.")
      .def("synchronize", &Queue::synchronize, nb::call_guard<nb::gil_scoped_release>(),
           "Blocks (the GIL released) until all work enqueued so far is done. Raises "
           "BackendError.")
      .def("record_event", &Queue::record_event,
           "An Event marking the current end of this queue's work.")
      .def("wait_for", &Queue::wait_for, nb::arg("event"),
           "Makes work enqueued later wait for `event` (from any queue of the same context). "
           "Raises LogicError for an event of another context.")
      .def("record", &Queue::record, nb::arg("event"),
           "Records the interprocess `event` (Event.create_interprocess() on this queue's "
           "device) at the current end of this queue's work. Raises LogicError for an event "
           "that is not interprocess, was opened from a handle, or is of another device.")
      .def_prop_ro("handle", &Queue::native_handle,
                   "The native queue (cl_command_queue, CUstream, ...) as an int.")
      .def(
          "__eq__", [](const Queue& a, const Queue& b) { return a == b; }, nb::is_operator())
      .def("__hash__", [](const Queue& q) { return std::hash<Queue>{}(q); })
      .def("__repr__", [](const Queue& q) {
        return "<plinth.Queue " + hex(q.native_handle()) + " on device " +
               device_label(q.device()) + ">";
      });

  nb::class_<MultiQueue>(m, "MultiQueue", "One queue on each of several devices of a context.")
      .def(nb::init<std::vector<Queue>>(), nb::arg("queues"),
           "Takes queues of distinct devices of one context. Raises LogicError otherwise.")
      .def_static(
          "on_devices",
          [](const std::vector<BoundDevice>& devices) {
            return MultiQueue::on_devices(detail::Access::make<BoundMultiDevice>(devices));
          },
          nb::arg("devices"),
          "A new queue on each of `devices` (BoundDevices of one context). Raises LogicError "
          "for an empty list or devices of several contexts.")
      .def_prop_ro("queues", &MultiQueue::queues, "The queues, in order.")
      .def_prop_ro(
          "devices",
          [](const MultiQueue& q) {
            const BoundMultiDevice devices = q.devices();
            return std::vector<BoundDevice>(devices.begin(), devices.end());
          },
          "The queues' devices, in order.")
      .def(
          "__getitem__", [](const MultiQueue& q, const BoundDevice& device) { return q[device]; },
          nb::arg("device"),
          "The queue on `device`. Raises LogicError if this MultiQueue has none on it.")
      .def("__len__", [](const MultiQueue& q) { return q.queues().size(); })
      .def(
          "__iter__", [](const MultiQueue& q) { return nb::iter(nb::cast(q.queues())); },
          "Iterates over the queues.")
      .def("synchronize", &MultiQueue::synchronize, nb::call_guard<nb::gil_scoped_release>(),
           "Synchronizes every queue (the GIL released).")
      .def("__repr__", [](const MultiQueue& q) {
        std::string devices;
        for (const auto& queue : q.queues()) {
          devices += (devices.empty() ? "" : ", ") + device_label(queue.device());
        }
        return "<plinth.MultiQueue on devices [" + devices + "]>";
      });
}

}  // namespace plinth::python
