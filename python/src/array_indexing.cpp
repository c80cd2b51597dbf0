// plinth.Array's __getitem__ and __setitem__: numpy's basic indexing as views (Array::view),
// integer arrays and masks as copies (gather) and writes (scatter), assignment of scalars
// (fill), numpy arrays (set) and Arrays or expressions (copy_into, assign).

#include <plinth/array.hpp>
#include <plinth/array_creation.hpp>
#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/errors.hpp>
#include <plinth/indexing.hpp>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

namespace plinth::python {
namespace {

std::string repr_of(nb::handle object) { return nb::cast<std::string>(nb::repr(object)); }

/// An index term before the Ellipsis is expanded and the new axes inserted.
struct Term {
  enum Kind { none, ellipsis, basic, array } kind;
  std::optional<Index> index;   // basic
  std::optional<Array> values;  // array (integers or a bool mask)
};

/// A slice's bound: None or anything with __index__ (clamped to ptrdiff_t, as Python's).
std::optional<std::ptrdiff_t> slice_bound(nb::handle bound) {
  if (bound.is_none()) return std::nullopt;
  const Py_ssize_t value = PyNumber_AsSsize_t(bound.ptr(), nullptr);
  if (value == -1 && PyErr_Occurred()) throw nb::python_error();
  return static_cast<std::ptrdiff_t>(value);
}

/// An index array (integers or bools) from a Python object on `queue`'s device.
Array index_array(const PyArray& a, nb::handle object) {
  if (const auto given = array_or_expression(object)) return given->array;
  nb::object host = numpy().attr("asarray")(object);
  // numpy reads an empty list as float64; as an index it is an empty integer array.
  if (nb::cast<std::size_t>(host.attr("size")) == 0 &&
      nb::cast<std::string>(host.attr("dtype").attr("kind")) == "f") {
    host = host.attr("astype")("int64");
  }
  const std::string kind = nb::cast<std::string>(host.attr("dtype").attr("kind"));
  if (kind != "i" && kind != "u" && kind != "b") {
    throw LogicError(
        "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
        "and integer or boolean arrays are valid indices, not " +
        repr_of(object));
  }
  nb::object converted;
  const HostArray view = host_view(host, converted);
  nb::gil_scoped_release release;
  return Array::from_host(a.queue, view);
}

Term term_of(const PyArray& a, nb::handle item) {
  if (item.is_none()) return {Term::none, {}, {}};
  if (item.ptr() == Py_Ellipsis) return {Term::ellipsis, {}, {}};
  if (PySlice_Check(item.ptr())) {
    const std::optional<std::ptrdiff_t> step = slice_bound(item.attr("step"));
    return {Term::basic,
            Index(Slice(slice_bound(item.attr("start")), slice_bound(item.attr("stop")),
                        step.value_or(1))),
            {}};
  }
  const bool is_bool =
      PyBool_Check(item.ptr()) ||
      (is_numpy_scalar(item) && nb::cast<std::string>(item.attr("dtype").attr("kind")) == "b");
  if (!is_bool && !nb::isinstance(item, numpy().attr("ndarray")) &&
      !nb::isinstance<PyArray>(item) && PyIndex_Check(item.ptr())) {
    const Py_ssize_t position = PyNumber_AsSsize_t(item.ptr(), PyExc_IndexError);
    if (position == -1 && PyErr_Occurred()) throw nb::python_error();
    return {Term::basic, Index(static_cast<std::ptrdiff_t>(position)), {}};
  }
  return {Term::array, {}, index_array(a, item)};
}

/// What a key selects: the array to index (`a` with the new axes of None inserted) and the
/// terms (Ellipsis expanded), basic (a view) unless a term is an array.
struct Selection {
  Array base;
  std::vector<ArrayIndex> terms;
  std::vector<Index> basic_terms;
  bool advanced = false;
};

Selection select(const PyArray& a, nb::handle key) {
  std::vector<Term> terms;
  if (nb::isinstance<nb::tuple>(key)) {
    for (nb::handle item : key) terms.push_back(term_of(a, item));
  } else {
    terms.push_back(term_of(a, key));
  }
  // Dimensions each term consumes: a mask as many as it has.
  std::size_t consumed = 0, ellipses = 0;
  for (const Term& term : terms) {
    if (term.kind == Term::basic) ++consumed;
    if (term.kind == Term::array) {
      consumed += term.values->dtype() == DType::boolean() ? term.values->ndim() : 1;
    }
    if (term.kind == Term::ellipsis) ++ellipses;
  }
  if (ellipses > 1) throw LogicError("an index can only have a single ellipsis ('...')");
  const std::size_t ndim = a.array.ndim();
  if (consumed > ndim) {
    throw LogicError("too many indices for array: array is " + std::to_string(ndim) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }
  // New axes (None) go into the array first, where their `:` then takes them.
  Selection selection{a.array, {}, {}, false};
  std::vector<std::ptrdiff_t> new_axes;
  std::size_t position = 0;  // in the array with the new axes
  for (const Term& term : terms) {
    switch (term.kind) {
      case Term::none:
        new_axes.push_back(static_cast<std::ptrdiff_t>(position));
        ++position;
        selection.terms.emplace_back(Slice::all());
        selection.basic_terms.emplace_back(Slice::all());
        break;
      case Term::ellipsis:
        for (std::size_t i = consumed; i < ndim; ++i) {
          selection.terms.emplace_back(Slice::all());
          selection.basic_terms.emplace_back(Slice::all());
        }
        position += ndim - consumed;
        break;
      case Term::basic:
        selection.terms.emplace_back(term.index->is_slice() ? ArrayIndex(term.index->slice())
                                                            : ArrayIndex(term.index->position()));
        selection.basic_terms.push_back(*term.index);
        ++position;
        break;
      case Term::array:
        selection.terms.emplace_back(*term.values);
        selection.advanced = true;
        position += term.values->dtype() == DType::boolean() ? term.values->ndim() : 1;
        break;
    }
  }
  if (!new_axes.empty()) selection.base = expand_dims(a.array, new_axes);
  return selection;
}

PyArray getitem(const PyArray& a, nb::handle key) {
  const Selection selection = select(a, key);
  if (!selection.advanced) return PyArray{selection.base.view(selection.basic_terms), a.queue};
  nb::gil_scoped_release release;
  return PyArray{gather(a.queue, selection.base, selection.terms), a.queue};
}

/// `value` as an Array of `dtype` on the queue's device (for scatter), converted as numpy's
/// assignment converts (astype: unsafe).
Array values_array(const Queue& queue, nb::handle value, const DType& dtype) {
  if (nb::isinstance<PyArray>(value) || nb::isinstance<PyExpression>(value)) {
    if (nb::isinstance<PyExpression>(value) && !nb::cast<const PyExpression&>(value).value) {
      const ArrayExpression expression = nb::cast<const PyExpression&>(value).expression;
      nb::gil_scoped_release release;
      return evaluate(queue, astype(expression, dtype));
    }
    const Array src = nb::isinstance<PyArray>(value)
                          ? nb::cast<const PyArray&>(value).array
                          : PyArray(nb::cast<const PyExpression&>(value)).array;
    if (src.dtype() == dtype) return src;
    nb::gil_scoped_release release;
    return astype(queue, src, dtype);
  }
  if (const auto scalar = python_scalar(value)) {
    nb::gil_scoped_release release;
    return detail::full(queue, {}, *scalar, dtype, Order::C);
  }
  nb::object converted;
  const HostArray host = host_view(value, converted, false, dtype);
  nb::gil_scoped_release release;
  return Array::from_host(queue, host);
}

/// Writes `value` into `target` (a view) as numpy's `target[...] = value`.
void assign_into(const Queue& queue, const Array& target, nb::handle value) {
  const DType& dtype = target.dtype();
  const bool is_array = nb::isinstance<PyArray>(value);
  if (is_array ||
      (nb::isinstance<PyExpression>(value) && nb::cast<const PyExpression&>(value).value)) {
    const Array src = is_array ? nb::cast<const PyArray&>(value).array
                               : PyArray(nb::cast<const PyExpression&>(value)).array;
    nb::gil_scoped_release release;
    if (src.dtype() == dtype) {
      copy_into(queue, target,
                src.shape() == target.shape() ? src : broadcast_to(src, target.shape()));
    } else {
      assign(queue, target, astype(src, dtype));
    }
    return;
  }
  if (nb::isinstance<PyExpression>(value)) {
    const ArrayExpression expression = nb::cast<const PyExpression&>(value).expression;
    nb::gil_scoped_release release;
    assign(queue, target, expression.dtype() == dtype ? expression : astype(expression, dtype));
    return;
  }
  std::optional<detail::ScalarValue> scalar = python_scalar(value);
  // A numpy scalar is assigned as its Python value, as numpy's assignment does (so an int64
  // that does not fit an int8 array is an error, not wrapped around).
  if (!scalar && !dtype.is_struct() && is_numpy_scalar(value) &&
      nb::cast<std::string>(value.attr("dtype").attr("kind")) != "V") {
    scalar = numpy_scalar_value(value);
  }
  if (scalar) {
    nb::gil_scoped_release release;
    detail::fill(queue, target, *scalar);
    return;
  }
  // numpy arrays, lists: converted to the dtype as numpy converts.
  nb::object host = numpy().attr("asarray")(value, to_numpy_dtype(dtype));
  const auto shape = nb::cast<std::vector<std::size_t>>(host.attr("shape"));
  if (shape.empty() && !dtype.is_struct()) {
    const auto element = numpy_scalar_value(host);
    nb::gil_scoped_release release;
    detail::fill(queue, target, element);
    return;
  }
  nb::object converted;
  const HostArray view = host_view(host, converted);
  nb::gil_scoped_release release;
  if (shape == target.shape()) {
    target.set(queue, view, /*no_async=*/true);
  } else {
    // A smaller value broadcast on the device (numpy's rules: broadcast_to names both shapes).
    const Array small = Array::from_host(queue, view);
    copy_into(queue, target, broadcast_to(small, target.shape()));
  }
}

void setitem(const PyArray& a, nb::handle key, nb::handle value) {
  const Selection selection = select(a, key);
  if (!selection.advanced) {
    assign_into(a.queue, selection.base.view(selection.basic_terms), value);
    return;
  }
  const Array values = values_array(a.queue, value, a.array.dtype());
  nb::gil_scoped_release release;
  scatter(a.queue, selection.base, selection.terms, values);
}

IndexMode index_mode(const std::string& mode) {
  if (mode == "raise") return IndexMode::raise;
  if (mode == "wrap") return IndexMode::wrap;
  if (mode == "clip") return IndexMode::clip;
  throw LogicError("mode must be 'raise', 'wrap' or 'clip', not '" + mode + "'");
}

PyArray take_(const PyArray& a, nb::handle indices, std::optional<std::ptrdiff_t> axis,
              const std::string& mode, const std::optional<Queue>& queue) {
  const Queue& q = a.queue_or_default(queue);
  const Array index = index_array(PyArray{a.array, q}, indices);
  const IndexMode m = index_mode(mode);
  nb::gil_scoped_release release;
  return PyArray{take(q, a.array, index, axis, m), q};
}

void put_(const PyArray& a, nb::handle indices, nb::handle values, const std::string& mode,
          const std::optional<Queue>& queue) {
  const Queue& q = a.queue_or_default(queue);
  const Array index = index_array(PyArray{a.array, q}, indices);
  const Array source = values_array(q, values, a.array.dtype());
  const IndexMode m = index_mode(mode);
  nb::gil_scoped_release release;
  put(q, a.array, index, source, m);
}

constexpr const char* take_doc =
    "numpy.take: the elements of flattened `a` at `indices` (an integer array: numpy, list or "
    "plinth Array), or its slices along `axis`, as a new array made on `queue` (default "
    "a.queue). `mode`: 'raise' (waits for the queue to check the indices), 'wrap' or 'clip'. "
    "Raises LogicError for an index out of range (raise), an axis out of range, indices that "
    "are not integers.";
constexpr const char* put_doc =
    "numpy.put: a.flat[indices[k]] = values[k % len(values)], in place on `a` (any view), on "
    "`queue` (default a.queue); `values` (scalar, numpy or plinth) converted to a's dtype. "
    "Duplicate indices get one of their values. Raises as take().";

}  // namespace

void bind_array_indexing(nb::module_& m) {
  m.def("take", &take_, nb::arg("a"), nb::arg("indices"), nb::arg("axis") = nb::none(),
        nb::arg("mode") = "raise", nb::arg("queue") = nb::none(), take_doc);
  m.def("put", &put_, nb::arg("a"), nb::arg("indices"), nb::arg("values"),
        nb::arg("mode") = "raise", nb::arg("queue") = nb::none(), put_doc);
  nb::handle cls = m.attr("Array");
  cls.attr("__getitem__") = nb::cpp_function(
      &getitem, nb::is_method(), nb::scope(cls), nb::name("__getitem__"), nb::arg("key").none(),
      "numpy's indexing. Integers, slices (negative steps too), `...` and `None` give a view "
      "sharing the array's memory (it keeps the array alive); integer arrays and boolean "
      "masks (numpy, lists or plinth Arrays) give a new array (a copy, as numpy's), gathered "
      "on the array's queue. Raises LogicError for an index out of bounds, too many indices, "
      "a slice step of 0, an index that is not one of those.");
  cls.attr("take") = nb::cpp_function(&take_, nb::is_method(), nb::scope(cls), nb::name("take"),
                                      nb::arg("indices"), nb::arg("axis") = nb::none(),
                                      nb::arg("mode") = "raise", nb::arg("queue") = nb::none(),
                                      "numpy's ndarray.take: plinth.take(self, ...).");
  cls.attr("put") =
      nb::cpp_function(&put_, nb::is_method(), nb::scope(cls), nb::name("put"), nb::arg("indices"),
                       nb::arg("values"), nb::arg("mode") = "raise", nb::arg("queue") = nb::none(),
                       "numpy's ndarray.put: plinth.put(self, ...).");
  cls.attr("__setitem__") = nb::cpp_function(
      &setitem, nb::is_method(), nb::scope(cls), nb::name("__setitem__"), nb::arg("key").none(),
      nb::arg("value"),
      "numpy's `a[key] = value`, on the array's queue: `value` (a Python or numpy scalar, a "
      "numpy array or list, a plinth Array or expression) is converted to the array's dtype "
      "as numpy converts and broadcast to the selection's shape. A numpy value is copied "
      "before it returns. Duplicate positions of index arrays get one of their values. "
      "Raises LogicError as __getitem__, for shapes that do not broadcast, or an integer "
      "that does not fit the dtype.");
}

}  // namespace plinth::python
