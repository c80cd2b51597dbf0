// plinth.Array: shape, dtype, strides, transfers, conversions to Python and numpy.

#include <plinth/array.hpp>
#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/buffer.hpp>
#include <plinth/errors.hpp>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>

namespace plinth::python {
namespace {

using namespace nb::literals;

/// Iterates over the rows of an array (numpy's iteration over the first axis), as views.
struct ArrayRows {
  PyArray array;
  std::size_t next = 0;
};

HostArray get_blocking(const PyArray& a, const std::optional<Queue>& queue) {
  nb::gil_scoped_release release;
  return a.array.get(a.queue_or_default(queue));
}

/// The array as a numpy array (a copy), checked to have one element (for item(), float()...).
nb::object single_element(const PyArray& a, const char* what) {
  if (a.array.size() != 1) {
    throw LogicError(std::string("only an array of one element can be converted to ") + what +
                     " (this one has shape " +
                     nb::cast<std::string>(nb::repr(nb::tuple(nb::cast(a.array.shape())))) + ")");
  }
  // One element as a 0-d numpy array (numpy 2.4 converts only those to Python scalars).
  return to_numpy(get_blocking(a, std::nullopt)).attr("reshape")(nb::tuple());
}

/// Copies `value` (a numpy array, anything numpy.asarray() takes, or an Array) into `a`,
/// blocking: they have the same shape.
void set_from(const PyArray& a, nb::handle value, const std::optional<Queue>& queue) {
  const Queue& q = a.queue_or_default(queue);
  if (const auto src = array_or_expression(value)) {
    nb::gil_scoped_release release;
    a.array.set(q, src->array);
    return;
  }
  nb::object converted;
  const HostArray host = host_view(value, converted, false, a.array.dtype());
  nb::gil_scoped_release release;
  a.array.set(q, host, /*no_async=*/true);
}

std::string array_repr(const PyArray& a) {
  // numpy's repr of the elements, "array(" replaced by "plinth.Array(" and the continuation
  // lines indented to match.
  auto text = nb::cast<std::string>(nb::repr(to_numpy(get_blocking(a, std::nullopt))));
  const std::string numpy_prefix = "array(", prefix = "plinth.Array(";
  if (text.rfind(numpy_prefix, 0) != 0) return prefix + text + ")";
  std::string result = prefix;
  for (std::size_t i = numpy_prefix.size(); i < text.size(); ++i) {
    result += text[i];
    if (text[i] == '\n') {
      std::size_t spaces = 0;
      while (i + 1 + spaces < text.size() && spaces < numpy_prefix.size() &&
             text[i + 1 + spaces] == ' ') {
        ++spaces;
      }
      if (spaces == numpy_prefix.size()) {
        result += std::string(prefix.size(), ' ');
        i += spaces;
      }
    }
  }
  return result;
}

}  // namespace

void bind_arrays(nb::module_& m) {
  nb::class_<ArrayRows>(m, "_ArrayRows", "An iterator over an Array's rows (views).")
      .def(
          "__iter__", [](nb::handle self) { return nb::borrow(self); }, "The iterator itself.")
      .def("__next__", [](ArrayRows& rows) {
        if (rows.next >= rows.array.array.shape()[0]) throw nb::stop_iteration();
        const Index index(rows.next++);
        return PyArray{rows.array.array.view(std::span<const Index>(&index, 1)), rows.array.queue};
      });

  nb::class_<PyArray> array(
      m, "Array",
      "An array on one device (numpy-like: shape, dtype, strides in bytes), with a default "
      "queue (`queue`) that its operations use when none is given. Views (indexing, `T`) share "
      "its memory and keep it alive. Made by plinth.empty(), zeros(), to_device()... or "
      "Array.from_buffer().");
  array
      .def_prop_ro(
          "shape", [](const PyArray& a) { return nb::tuple(nb::cast(a.array.shape())); },
          "The extents, as a tuple.")
      .def_prop_ro(
          "dtype", [](const PyArray& a) { return a.array.dtype(); }, "The numpy dtype.")
      .def_prop_ro(
          "strides", [](const PyArray& a) { return nb::tuple(nb::cast(a.array.strides())); },
          "The strides in bytes, as numpy's (negative for reversed views).")
      .def_prop_ro(
          "ndim", [](const PyArray& a) { return a.array.ndim(); }, "The number of dimensions.")
      .def_prop_ro(
          "size", [](const PyArray& a) { return a.array.size(); }, "The number of elements.")
      .def_prop_ro(
          "nbytes", [](const PyArray& a) { return a.array.nbytes(); }, "size * itemsize.")
      .def_prop_ro(
          "itemsize", [](const PyArray& a) { return a.array.dtype().itemsize(); },
          "Bytes per element.")
      .def_prop_ro(
          "is_c_contiguous", [](const PyArray& a) { return a.array.is_c_contiguous(); },
          "numpy's flags.c_contiguous: the elements lie in C order without gaps.")
      .def_prop_ro(
          "is_f_contiguous", [](const PyArray& a) { return a.array.is_f_contiguous(); },
          "numpy's flags.f_contiguous: the elements lie in Fortran order without gaps.")
      .def_prop_ro(
          "T",
          [](const PyArray& a) {
            return PyArray{transposed_view(a.array), a.queue};
          },
          "The view with the axes reversed (numpy's T), sharing the memory.")
      .def_prop_ro(
          "queue", [](const PyArray& a) { return a.queue; },
          "The default queue: what operations on the array use when given none.")
      .def(
          "with_queue",
          [](const PyArray& a, const Queue& queue) {
            if (!(queue.device() == a.array.device())) {
              throw LogicError("the queue is on device '" + queue.device().name() +
                               "', the array on '" + a.array.device().name() + "'");
            }
            return PyArray{a.array, queue};
          },
          nb::arg("queue"),
          "The same array (sharing its memory) with another default queue, of the same "
          "device. Raises LogicError for a queue of another device.")
      .def_prop_ro(
          "device", [](const PyArray& a) { return a.array.device(); }, "The array's device.")
      .def_prop_ro(
          "context", [](const PyArray& a) { return a.array.device().context(); },
          "The context of the array's device.")
      .def_prop_ro(
          "ptr", [](const PyArray& a) { return a.array.first_element_buffer().native_handle(); },
          "The native handle of the first element's memory, as an int: on CUDA, HIP and Level "
          "Zero the device pointer of the first element (the base buffer's pointer + "
          "first_element_offset); on OpenCL the cl_mem of the sub-buffer starting at the first "
          "element (the base buffer's own cl_mem when the offset is 0), or 0 where the offset "
          "is not a multiple of the device's address alignment, so that OpenCL has no such "
          "sub-buffer (then use base_buffer and first_element_offset).")
      .def_prop_ro(
          "base_buffer", [](const PyArray& a) { return a.array.base_buffer(); },
          "The Buffer covering the array's whole memory (shared with its views).")
      .def_prop_ro(
          "first_element_offset", [](const PyArray& a) { return a.array.first_element_offset(); },
          "Byte offset of the first element in base_buffer.")
      .def_static(
          "from_buffer",
          [](const Buffer& buffer, const ShapeArg& shape, const DType& dtype,
             std::optional<std::vector<std::ptrdiff_t>> strides, std::size_t offset,
             const Queue& queue) {
            if (!(queue.device() == buffer.device())) {
              throw LogicError("the queue is on device '" + queue.device().name() +
                               "', the buffer on '" + buffer.device().name() + "'");
            }
            const ArrayMetadata metadata(shape.shape(), dtype, std::move(strides), offset,
                                         buffer.size());
            return PyArray{Array::from_buffer(buffer, metadata), queue};
          },
          nb::arg("buffer"), nb::arg("shape"), nb::arg("dtype"), nb::arg("strides") = nb::none(),
          nb::arg("offset") = 0, nb::kw_only(), nb::arg("queue"),
          "An Array of `shape` and `dtype` (strides in bytes, default C order; its first "
          "element `offset` bytes into the buffer) over the memory of `buffer` (shared, not "
          "copied), with default queue `queue`. Raises LogicError if an element lies beyond "
          "the buffer or the queue is on another device.")
      .def(
          "get",
          [](const PyArray& a, const std::optional<Queue>& queue, nb::handle out, bool async) {
            const Queue& q = a.queue_or_default(queue);
            if (out.is_none()) {
              HostArray host = [&] {
                nb::gil_scoped_release release;
                return a.array.get(q, async);
              }();
              return to_numpy(host);
            }
            if (!nb::isinstance(out, numpy().attr("ndarray"))) {
              throw nb::type_error("out must be a numpy.ndarray");
            }
            nb::object converted;
            const HostArray host = host_view(out, converted, true);
            {
              nb::gil_scoped_release release;
              a.array.get(q, host, async);
            }
            return nb::borrow(out);
          },
          nb::arg("queue") = nb::none(), nb::arg("out") = nb::none(), nb::arg("async_") = false,
          "A copy of the elements: into a new C-order numpy array, or into `out` (a numpy array "
          "of the same shape and dtype, any layout), which is returned. Blocks until the copy is "
          "done, unless `async_` (then the result is valid after queue.synchronize(), and `out` "
          "must be kept alive and untouched until then; only contiguous arrays copy "
          "asynchronously). Raises LogicError for an `out` of another shape or dtype, or a "
          "queue of another device.")
      .def(
          "set",
          [](const PyArray& a, nb::handle value, const std::optional<Queue>& queue) {
            set_from(a, value, queue);
          },
          nb::arg("value"), nb::arg("queue") = nb::none(),
          "Copies `value` (an Array of the same context, a numpy array, or anything "
          "numpy.asarray() takes, converted to the array's dtype as numpy converts) of the "
          "array's shape into the array. A host value is copied before it returns (blocking); "
          "an Array is copied in queue order. Raises LogicError for another shape or dtype.")
      .def(
          "item",
          [](const PyArray& a) { return single_element(a, "a Python scalar").attr("item")(); },
          "The one element as a Python scalar (numpy's item()). Raises LogicError if the array "
          "has another size than 1.")
      .def(
          "__float__",
          [](const PyArray& a) { return nb::float_(single_element(a, "a Python float")); },
          "float(a) of an array of one element. Raises LogicError for another size.")
      .def(
          "__int__", [](const PyArray& a) { return nb::int_(single_element(a, "a Python int")); },
          "int(a) of an array of one element. Raises LogicError for another size.")
      .def(
          "__index__",
          [](const PyArray& a) {
            const DTypeKind kind = a.array.dtype().kind();
            if (a.array.ndim() != 0 ||
                (kind != DTypeKind::signed_integer && kind != DTypeKind::unsigned_integer)) {
              throw nb::type_error("only integer scalar arrays can be converted to a scalar index");
            }
            return nb::int_(single_element(a, "an index"));
          },
          "operator.index(a) of a zero-dimensional integer array (as numpy's). Raises "
          "TypeError for others.")
      .def(
          "__complex__",
          [](const PyArray& a) {
            return nb::module_::import_("builtins")
                .attr("complex")(single_element(a, "a Python complex"));
          },
          "complex(a) of an array of one element. Raises LogicError for another size.")
      .def(
          "__bool__",
          [](const PyArray& a) {
            if (a.array.size() != 1) {
              throw LogicError(a.array.size() == 0
                                   ? "the truth value of an empty array is ambiguous"
                                   : "the truth value of an array with more than one element "
                                     "is ambiguous (use any() or all())");
            }
            const int truth = PyObject_IsTrue(single_element(a, "a bool").ptr());
            if (truth < 0) throw nb::python_error();
            return truth == 1;
          },
          "The truth of the one element (reads it back). Raises LogicError (a ValueError, as "
          "numpy's) for other sizes.")
      .def(
          "__len__",
          [](const PyArray& a) {
            if (a.array.ndim() == 0) throw nb::type_error("len() of unsized object");
            return a.array.shape()[0];
          },
          "The first extent. Raises TypeError for a zero-dimensional array.")
      .def(
          "__iter__",
          [](const PyArray& a) {
            if (a.array.ndim() == 0) throw nb::type_error("iteration over a 0-d array");
            return ArrayRows{a, 0};
          },
          "Iterates over the first axis, as views (numpy's iteration).")
      .def("__repr__", &array_repr,
           "numpy's repr of the elements (read back, blocking), as plinth.Array(...).")
      .def(
          "__str__", [](const PyArray& a) { return nb::str(to_numpy(get_blocking(a, {}))); },
          "numpy's str of the elements (read back, blocking).")
      .def(
          "__array__",
          [](const PyArray& a, nb::handle dtype, nb::handle copy) {
            if (!copy.is_none() && !nb::cast<bool>(copy)) {
              throw LogicError(
                  "a plinth.Array cannot be viewed by numpy without a copy (its elements are in "
                  "device memory): use copy=None or True, or get()");
            }
            nb::object result = to_numpy(get_blocking(a, std::nullopt));
            if (!dtype.is_none()) result = result.attr("astype")(dtype, "copy"_a = false);
            return result;
          },
          nb::arg("dtype") = nb::none(), nb::arg("copy") = nb::none(),
          "numpy's conversion (numpy.asarray(a)): get(), converted to `dtype` if given. Raises "
          "LogicError (a ValueError) for copy=False: device memory cannot be viewed.")
      .def(
          "copy",
          [](const PyArray& a, const std::optional<Queue>& queue) {
            const Queue& q = a.queue_or_default(queue);
            nb::gil_scoped_release release;
            return PyArray{copy(q, a.array), q};
          },
          nb::arg("queue") = nb::none(),
          "A new C-order array with a copy of the elements, made on `queue` (asynchronous).")
      .def(
          "__copy__",
          [](const PyArray& a) {
            nb::gil_scoped_release release;
            return PyArray{copy(a.queue, a.array), a.queue};
          },
          "copy.copy(a): a.copy() (device memory is copied, as numpy's).")
      .def(
          "__deepcopy__",
          [](const PyArray& a, nb::handle) {
            nb::gil_scoped_release release;
            return PyArray{copy(a.queue, a.array), a.queue};
          },
          nb::arg("memo"), "copy.deepcopy(a): a.copy().")
      .def(
          "minimum_subregion",
          [](const PyArray& a) {
            return PyArray{a.array.minimum_subregion(), a.queue};
          },
          "The same array over the smallest region of base_buffer that holds its elements (no "
          "copy): e.g. for a library that takes a buffer. Raises BackendError if the backend "
          "cannot make the region.")
      .def(
          "record_queue",
          [](const PyArray& a, const std::optional<Queue>& queue) {
            a.array.record_queue(a.queue_or_default(queue));
          },
          nb::arg("queue") = nb::none(),
          "Notes that `queue` uses the array's memory in work plinth does not enqueue itself "
          "(its pointer passed to another library), so a pool block is reused only after it.");
  // numpy defers to plinth's operators (x + array gives a plinth result, not an object array).
  array.attr("__array_ufunc__") = nb::none();
  array.attr("__array_priority__") = 1000;

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
