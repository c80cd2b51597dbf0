// plinth.Communicator, plinth.CommunicatorId, plinth.ReduceOp and collectives_support.

#include <plinth/collectives.hpp>

#include "bindings.hpp"
#include "py_array.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <functional>
#include <span>
#include <string>

namespace plinth::python {

namespace {

nb::bytes id_bytes(const CommunicatorId& id) {
  return nb::bytes(reinterpret_cast<const char*>(id.bytes().data()), id.bytes().size());
}

const Array& unwrap(const PyArray& array) { return array.array; }
const MultiArray& unwrap(const MultiArray& array) { return array; }

/// The collectives taking `T` (plinth.Array or plinth.MultiArray) arguments.
template <class T>
void bind_collective_forms(nb::class_<Communicator>& c, const char* what) {
  const std::string doc_suffix = std::string(" (") + what + " form.)";
  c.def(
       "all_reduce",
       [](const Communicator& comm, const T& array, ReduceOp op) {
         nb::gil_scoped_release release;
         comm.all_reduce(unwrap(array), op);
       },
       nb::arg("array"), nb::arg("op"),
       ("In place: every rank's `array` gets the reduction of every rank's." + doc_suffix).c_str())
      .def(
          "all_reduce",
          [](const Communicator& comm, const T& src, const T* dst, ReduceOp op) {
            nb::gil_scoped_release release;
            comm.all_reduce(unwrap(src), dst ? unwrap(*dst) : unwrap(src), op);
          },
          nb::arg("src"), nb::arg("dst") = nb::none(), nb::arg("op") = ReduceOp::sum,
          ("Every rank's `dst` (`src` when None) gets the reduction by `op` of every rank's "
           "`src` (same dtype and size on every rank)." +
           doc_suffix)
              .c_str())
      .def(
          "reduce",
          [](const Communicator& comm, const T& src, const T* dst, ReduceOp op, std::size_t root) {
            nb::gil_scoped_release release;
            comm.reduce(unwrap(src), dst ? unwrap(*dst) : unwrap(src), op, root);
          },
          nb::arg("src"), nb::arg("dst") = nb::none(), nb::arg("op") = ReduceOp::sum,
          nb::arg("root") = 0,
          ("Rank `root`'s `dst` (`src` when None) gets the reduction of every rank's `src`; "
           "other ranks' `dst` is not written." +
           doc_suffix)
              .c_str())
      .def(
          "broadcast",
          [](const Communicator& comm, const T& array, std::size_t root) {
            nb::gil_scoped_release release;
            comm.broadcast(unwrap(array), root);
          },
          nb::arg("array"), nb::arg("root"),
          ("In place: every rank's `array` gets rank `root`'s." + doc_suffix).c_str())
      .def(
          "broadcast",
          [](const Communicator& comm, const T& src, const T* dst, std::size_t root) {
            nb::gil_scoped_release release;
            comm.broadcast(unwrap(src), dst ? unwrap(*dst) : unwrap(src), root);
          },
          nb::arg("src"), nb::arg("dst") = nb::none(), nb::arg("root") = 0,
          ("Every rank's `dst` (`src` when None) gets rank `root`'s `src`." + doc_suffix).c_str())
      .def(
          "all_gather",
          [](const Communicator& comm, const T& src, const T& dst) {
            nb::gil_scoped_release release;
            comm.all_gather(unwrap(src), unwrap(dst));
          },
          nb::arg("src"), nb::arg("dst"),
          ("Every rank's `dst` (size times the elements of a `src`) gets every rank's `src`, "
           "in rank order; they must not overlap." +
           doc_suffix)
              .c_str())
      .def(
          "reduce_scatter",
          [](const Communicator& comm, const T& src, const T& dst, ReduceOp op) {
            nb::gil_scoped_release release;
            comm.reduce_scatter(unwrap(src), unwrap(dst), op);
          },
          nb::arg("src"), nb::arg("dst"), nb::arg("op") = ReduceOp::sum,
          ("Rank r's `dst` gets part r of the reduction of every rank's `src` (size times "
           "the elements of a `dst`); they must not overlap." +
           doc_suffix)
              .c_str());
}

}  // namespace

void bind_collectives(nb::module_& m) {
  nb::enum_<ReduceOp>(m, "ReduceOp",
                      "How a reduction combines the ranks' elements (avg: the sum divided by "
                      "the number of ranks, in the element type).")
      .value("sum", ReduceOp::sum)
      .value("prod", ReduceOp::prod)
      .value("min", ReduceOp::min)
      .value("max", ReduceOp::max)
      .value("avg", ReduceOp::avg);

  nb::class_<CollectivesSupport>(m, "CollectivesSupport",
                                 "Whether an API has a collectives library, and which, or why "
                                 "not.")
      .def_ro("library", &CollectivesSupport::library,
              "Multi-process communicators (Communicator.join()) are possible.")
      .def_ro("description", &CollectivesSupport::description,
              "The library and its version ('NCCL 2.28.3'), or why there is none.")
      .def("__repr__", [](const CollectivesSupport& s) {
        return std::string("plinth.CollectivesSupport(library=") + (s.library ? "True" : "False") +
               ", description='" + s.description + "')";
      });
  m.def("collectives_support", &collectives_support, nb::arg("api"),
        "A CollectivesSupport for `api`. Never raises.");

  nb::class_<CommunicatorId>(m, "CommunicatorId",
                             "Names one communicator across processes: one rank creates it, "
                             "sends str(id) (or its bytes and api_shortcut) to the others, and "
                             "every rank passes it to Communicator.join().")
      .def_static("create", &CommunicatorId::create, nb::arg("api"),
                  nb::call_guard<nb::gil_scoped_release>(),
                  "A new id from `api`'s collectives library. Raises LogicError if the API has "
                  "none (saying why), BackendError if the library fails.")
      .def_static("from_string", &CommunicatorId::from_string, nb::arg("text"),
                  "Reads str()'s text. Raises LogicError for text that is not an id.")
      .def_static(
          "from_bytes",
          [](std::string_view api, nb::bytes data) {
            return CommunicatorId::from_bytes(api,
                                              std::as_bytes(std::span(data.c_str(), data.size())));
          },
          nb::arg("api_shortcut"), nb::arg("data"),
          "An id from the `bytes` and `api_shortcut` of one create() made. Raises LogicError "
          "for an empty or oversized (over 4096 bytes) id.")
      .def("to_string", &CommunicatorId::to_string, "'<api shortcut>:<the id's bytes in hex>'.")
      .def("__str__", &CommunicatorId::to_string)
      .def_prop_ro("api_shortcut", &CommunicatorId::api_shortcut,
                   "The shortcut of the API that created the id.")
      .def_prop_ro("bytes", &id_bytes, "The library's id itself, as bytes.")
      .def("__bytes__", &id_bytes)
      .def(
          "__eq__", [](const CommunicatorId& a, const CommunicatorId& b) { return a == b; },
          nb::is_operator())
      .def("__hash__",
           [](const CommunicatorId& id) { return std::hash<std::string>{}(id.to_string()); })
      .def("__repr__", [](const CommunicatorId& id) {
        return "plinth.CommunicatorId.from_string('" + id.to_string() + "')";
      });

  nb::class_<Communicator> communicator(
      m, "Communicator",
      "A group of ranks, one device each, that run collectives together (NCCL's semantics). "
      "Collectives are enqueued on the ranks' queues and return without waiting: results are "
      "there for later work on those queues and on the host after they are synchronized; keep "
      "the arrays until then. Every rank makes the same calls in the same order. With one "
      "rank per queue of a MultiQueue the arguments are MultiArrays (one part per rank); with "
      "one rank in this process (join(), or a MultiQueue of one queue) they are Arrays.");
  communicator
      .def(nb::init<const MultiQueue&>(), nb::arg("queues"),
           nb::call_guard<nb::gil_scoped_release>(),
           "One rank per queue of `queues` (a MultiQueue), numbered in its order. Raises "
           "LogicError for repeated devices, BackendError if the library fails.")
      .def_static("join", &Communicator::join, nb::arg("queue"), nb::arg("id"),
                  nb::arg("rank_count"), nb::arg("rank"), nb::call_guard<nb::gil_scoped_release>(),
                  "Joins the communicator `id` as rank `rank` of `rank_count` on `queue`'s "
                  "device; blocks (the GIL released) until every rank has joined. Raises "
                  "LogicError if the backend has no collectives library (saying why), for rank "
                  ">= rank_count or an id of another API; BackendError.")
      .def_prop_ro("size", &Communicator::size, "The number of ranks, in every process.")
      .def("__len__", &Communicator::size)
      .def_prop_ro("ranks", &Communicator::ranks,
                   "This process's ranks: rank i runs on queues.queues[i].")
      .def_prop_ro("queues", &Communicator::queues, "The MultiQueue of this process's ranks.")
      .def_prop_ro("engine", &Communicator::engine,
                   "What runs the collectives: 'NCCL 2.28.3', or 'plinth copies and kernels'.")
      .def("__repr__", [](const Communicator& c) {
        return "<plinth.Communicator " + std::to_string(c.ranks().size()) + " of " +
               std::to_string(c.size()) + " ranks here, " + c.engine() + ">";
      });
  bind_collective_forms<PyArray>(communicator, "Array");
  bind_collective_forms<MultiArray>(communicator, "MultiArray");
}

}  // namespace plinth::python
