// plinth.empty, zeros, ones, full, arange, linspace, eye, the *_like forms and asarray.

#include <plinth/allocator.hpp>
#include <plinth/array.hpp>
#include <plinth/array_creation.hpp>
#include <plinth/array_expression.hpp>
#include <plinth/errors.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/splay.hpp>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

namespace plinth::python {
namespace {

/// A scalar argument (fill value, arange and linspace bounds): a Python scalar, or a numpy
/// scalar (its value; its dtype is returned in `numpy_dtype` for the functions that default to
/// it).
detail::ScalarValue scalar_argument(nb::handle value, const char* name,
                                    std::optional<DType>* numpy_dtype = nullptr) {
  if (auto scalar = python_scalar(value)) return *scalar;
  if (is_numpy_scalar(value)) {
    if (numpy_dtype) *numpy_dtype = dtype_from_python(value.attr("dtype"));
    return numpy_scalar_value(value);
  }
  throw nb::type_error((std::string(name) + " must be a Python or numpy scalar, not " +
                        nb::cast<std::string>(nb::repr(nb::handle(value.type()))))
                           .c_str());
}

}  // namespace

void bind_array_creation(nb::module_& m) {
  m.def(
      "empty",
      [](const Queue& queue, const ShapeArg& shape, const DType& dtype, const std::string& order,
         std::optional<std::vector<std::ptrdiff_t>> strides, std::optional<std::size_t> offset,
         std::optional<Allocator> allocator) {
        std::vector<std::size_t> extents = shape.shape();
        const Order o = order_from_python(order);
        if (!strides && o == Order::F) {
          strides = ArrayMetadata::default_strides(extents, dtype.itemsize(), Order::F);
        }
        const Allocator alloc = allocator ? *allocator : Allocator{};
        nb::gil_scoped_release release;
        return PyArray{
            Array::empty(queue, std::move(extents), dtype, std::move(strides), offset, alloc),
            queue};
      },
      nb::arg("queue"), nb::arg("shape"), nb::arg("dtype").sig("numpy.float64") = DType::float64(),
      nb::arg("order") = "C", nb::arg("strides") = nb::none(), nb::arg("offset") = nb::none(),
      nb::arg("allocator") = nb::none(),
      "A new array of `shape` (an int or a tuple) and `dtype` with undefined contents, its "
      "memory for `queue` (its default queue). Laid out in `order` ('C' or 'F'), or with "
      "`strides` (bytes, may be negative); `offset` places the first element that many bytes "
      "into the allocation (e.g. to align a view's first element for OpenCL). `allocator`: a "
      "callable (device, size) -> Buffer (default: the context's memory pool). Raises "
      "LogicError for bad strides or offsets, OutOfMemoryError.");
  m.def(
      "zeros",
      [](const Queue& queue, const ShapeArg& shape, const DType& dtype, const std::string& order) {
        std::vector<std::size_t> extents = shape.shape();
        const Order o = order_from_python(order);
        nb::gil_scoped_release release;
        return PyArray{zeros(queue, std::move(extents), dtype, o), queue};
      },
      nb::arg("queue"), nb::arg("shape"), nb::arg("dtype").sig("numpy.float64") = DType::float64(),
      nb::arg("order") = "C",
      "A new array of `shape` and `dtype` in `order`, every element 0, filled on `queue` "
      "(asynchronous). Raises LogicError for a struct dtype.");
  m.def(
      "zeros",
      [](const MultiQueue& queues, const ShapeArg& shape, const DType& dtype,
         const std::shared_ptr<BaseSplay>& splay) {
        std::vector<std::size_t> extents = shape.shape();
        nb::gil_scoped_release release;
        return zeros(queues, std::move(extents), dtype, splay);
      },
      nb::arg("queues"), nb::arg("shape"), nb::arg("dtype").sig("numpy.float64") = DType::float64(),
      nb::arg("splay") = nb::none(),
      "A new MultiArray of `shape` split among the devices of `queues` (a MultiQueue) by "
      "`splay` (EqualSplay when None), every element 0, each part filled on its device's "
      "queue. Raises as MultiArray.empty() and for a struct dtype.");
  m.def(
      "ones",
      [](const Queue& queue, const ShapeArg& shape, const DType& dtype, const std::string& order) {
        std::vector<std::size_t> extents = shape.shape();
        const Order o = order_from_python(order);
        nb::gil_scoped_release release;
        return PyArray{ones(queue, std::move(extents), dtype, o), queue};
      },
      nb::arg("queue"), nb::arg("shape"), nb::arg("dtype").sig("numpy.float64") = DType::float64(),
      nb::arg("order") = "C", "As zeros(), every element 1 (True for bool).");
  m.def(
      "full",
      [](const Queue& queue, const ShapeArg& shape, nb::handle fill_value,
         std::optional<DType> dtype, const std::string& order) {
        std::vector<std::size_t> extents = shape.shape();
        std::optional<DType> numpy_dtype;
        const auto value = scalar_argument(fill_value, "fill_value", &numpy_dtype);
        if (!dtype) dtype = numpy_dtype;
        // numpy's type of a Python int beyond int64 is uint64.
        if (!dtype && std::holds_alternative<std::uint64_t>(value)) dtype = DType::uint64();
        const Order o = order_from_python(order);
        nb::gil_scoped_release release;
        return PyArray{detail::full(queue, std::move(extents), value, dtype, o), queue};
      },
      nb::arg("queue"), nb::arg("shape"), nb::arg("fill_value"), nb::arg("dtype") = nb::none(),
      nb::arg("order") = "C",
      "A new array of `shape`, every element `fill_value` (a Python or numpy scalar) converted "
      "to `dtype` (default: numpy's type of the value: bool, int64, float64, complex128, or a "
      "numpy scalar's dtype). Raises LogicError for a value that does not fit the dtype, a "
      "complex value with a real dtype, float16 or struct dtypes.");
  m.def(
      "full",
      [](const MultiQueue& queues, const ShapeArg& shape, nb::handle fill_value,
         std::optional<DType> dtype, const std::shared_ptr<BaseSplay>& splay) {
        std::vector<std::size_t> extents = shape.shape();
        std::optional<DType> numpy_dtype;
        const auto value = scalar_argument(fill_value, "fill_value", &numpy_dtype);
        if (!dtype) dtype = numpy_dtype;
        if (!dtype && std::holds_alternative<std::uint64_t>(value)) dtype = DType::uint64();
        nb::gil_scoped_release release;
        return detail::full(queues, std::move(extents), value, dtype, splay);
      },
      nb::arg("queues"), nb::arg("shape"), nb::arg("fill_value"), nb::arg("dtype") = nb::none(),
      nb::arg("splay") = nb::none(),
      "A new MultiArray of `shape` split among the devices of `queues` by `splay` "
      "(EqualSplay when None), every element `fill_value` converted to `dtype` (default as "
      "full() on a Queue). Raises as full() and MultiArray.empty().");
  m.def(
      "empty_like",
      [](const PyArray& like, std::optional<DType> dtype, std::optional<std::string> order,
         const std::optional<Queue>& queue) {
        const Queue& q = like.queue_or_default(queue);
        const auto o = like_order_from_python(order);
        nb::gil_scoped_release release;
        return PyArray{empty_like(q, like.array, dtype, o), q};
      },
      nb::arg("array"), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(),
      nb::arg("queue") = nb::none(),
      "A new array of `array`'s shape, of `dtype` (default `array`'s), undefined contents, on "
      "`queue` (default `array.queue`; `array` may be on another device). `order`: 'C', 'F', "
      "or 'K'/'A'/None to keep `array`'s (F when it is F- and not C-contiguous).");
  m.def(
      "zeros_like",
      [](const PyArray& like, std::optional<DType> dtype, std::optional<std::string> order,
         const std::optional<Queue>& queue) {
        const Queue& q = like.queue_or_default(queue);
        const auto o = like_order_from_python(order);
        nb::gil_scoped_release release;
        return PyArray{zeros_like(q, like.array, dtype, o), q};
      },
      nb::arg("array"), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(),
      nb::arg("queue") = nb::none(), "As empty_like(), every element 0.");
  m.def(
      "ones_like",
      [](const PyArray& like, std::optional<DType> dtype, std::optional<std::string> order,
         const std::optional<Queue>& queue) {
        const Queue& q = like.queue_or_default(queue);
        const auto o = like_order_from_python(order);
        nb::gil_scoped_release release;
        return PyArray{ones_like(q, like.array, dtype, o), q};
      },
      nb::arg("array"), nb::arg("dtype") = nb::none(), nb::arg("order") = nb::none(),
      nb::arg("queue") = nb::none(), "As empty_like(), every element 1.");
  m.def(
      "full_like",
      [](const PyArray& like, nb::handle fill_value, std::optional<DType> dtype,
         std::optional<std::string> order, const std::optional<Queue>& queue) {
        const Queue& q = like.queue_or_default(queue);
        const auto value = scalar_argument(fill_value, "fill_value");
        const auto o = like_order_from_python(order);
        nb::gil_scoped_release release;
        return PyArray{
            detail::full(q, like.array.shape(), value, dtype.value_or(like.array.dtype()),
                         o.value_or(detail::like_order(like.array))),
            q};
      },
      nb::arg("array"), nb::arg("fill_value"), nb::arg("dtype") = nb::none(),
      nb::arg("order") = nb::none(), nb::arg("queue") = nb::none(),
      "As empty_like(), every element `fill_value` converted to the dtype (`array`'s unless "
      "given). Raises as full().");
  m.def(
      "arange",
      [](const Queue& queue, nb::handle start, nb::handle stop, nb::handle step,
         const std::optional<DType>& dtype) {
        if (stop.is_none()) std::swap(start, stop);  // arange(stop)
        const detail::ScalarValue first = start.is_none() ? detail::ScalarValue(std::int64_t{0})
                                                          : scalar_argument(start, "start");
        const detail::ScalarValue last = scalar_argument(stop, "stop");
        const detail::ScalarValue increment =
            step.is_none() ? detail::ScalarValue(std::int64_t{1}) : scalar_argument(step, "step");
        nb::gil_scoped_release release;
        return PyArray{detail::arange(queue, first, last, increment, dtype), queue};
      },
      nb::arg("queue"), nb::arg("start"), nb::arg("stop") = nb::none(),
      nb::arg("step") = nb::none(), nb::arg("dtype") = nb::none(),
      "numpy's arange: arange(queue, stop) or arange(queue, start, stop, step), with numpy's "
      "values and default dtype (int64 for integer arguments, float64 otherwise; numpy "
      "scalars count as their values). Integer dtypes, float32 and float64. Raises LogicError "
      "for a step of 0, complex arguments, an unsupported dtype, a start that does not fit "
      "the dtype.");
  m.def(
      "linspace",
      [](const Queue& queue, nb::handle start, nb::handle stop, std::size_t num, bool endpoint,
         const std::optional<DType>& dtype) {
        const auto first = scalar_argument(start, "start");
        const auto last = scalar_argument(stop, "stop");
        nb::gil_scoped_release release;
        return PyArray{detail::linspace(queue, first, last, num, endpoint, dtype), queue};
      },
      nb::arg("queue"), nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50,
      nb::arg("endpoint") = true, nb::arg("dtype") = nb::none(),
      "numpy's linspace: `num` values from `start` to `stop` (included when `endpoint`), "
      "numpy's values bit for bit (computed in float64; float32 on a device without doubles). "
      "Raises LogicError for complex arguments or an unsupported dtype.");
  m.def(
      "eye",
      [](const Queue& queue, std::size_t n, std::optional<std::size_t> m_, std::ptrdiff_t k,
         const DType& dtype, const std::string& order) {
        const Order o = order_from_python(order);
        nb::gil_scoped_release release;
        return PyArray{eye(queue, n, m_, k, dtype, o), queue};
      },
      nb::arg("queue"), nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0,
      nb::arg("dtype").sig("numpy.float64") = DType::float64(), nb::arg("order") = "C",
      "numpy's eye: an N x M array (M = N by default) with ones on diagonal `k` (positive "
      "above the main one) and zeros elsewhere.");
  m.def(
      "asarray",
      [](const Queue& queue, nb::handle object, const std::optional<DType>& dtype) {
        if (const auto given = array_or_expression(object)) {
          const PyArray& a = *given;
          if (!dtype || *dtype == a.array.dtype()) return a;
          nb::gil_scoped_release release;
          return PyArray{astype(queue, a.array, *dtype), queue};
        }
        nb::object converted;
        const HostArray host = host_view(object, converted, false, dtype);
        nb::gil_scoped_release release;
        return PyArray{Array::from_host(queue, host), queue};
      },
      nb::arg("queue"), nb::arg("array"), nb::arg("dtype") = nb::none(),
      "`array` itself if it is a plinth Array (or expression, evaluated) of `dtype` (or no "
      "dtype is given), converted on `queue` into a new array if its dtype differs; else as "
      "to_device(): a copy of a numpy array or anything numpy.asarray() takes, on `queue`'s "
      "device. Raises LogicError for an Array on another device than the queue's (when it "
      "must be converted).");
}

}  // namespace plinth::python
