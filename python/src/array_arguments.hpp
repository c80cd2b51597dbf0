#pragma once

// Python arguments of the array functions (arrays.cpp, array_creation.cpp,
// array_indexing.cpp, algorithms.cpp, blas.cpp): scalars as the C++ ScalarValue, shapes,
// orders, numpy's `out` and the result that is `out` where one was given.

#include <plinth/array_expression.hpp>
#include <plinth/array_metadata.hpp>
#include <plinth/errors.hpp>

#include "dtypes.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <nanobind/nanobind.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plinth::python {

namespace nb = nanobind;

/// `out` (None or an Array) as an Array.
inline std::optional<Array> out_array(nb::handle out) {
  if (out.is_none()) return std::nullopt;
  return nb::cast<const PyArray&>(out).array;
}

/// The result of an operation that ran on `queue` (or `out` itself where one was given).
inline nb::object result(Array array, const Queue& queue, nb::handle out = nb::handle()) {
  if (out.is_valid() && !out.is_none()) return nb::borrow(out);
  return nb::cast(PyArray{std::move(array), queue});
}

/// A Python bool, int, float or complex as the C++ scalar it is (weak, as the C++ API takes
/// scalars); nothing for other objects (numpy scalars included: they are not weak).
/// Throws LogicError for an int beyond uint64's range or below int64's.
inline std::optional<detail::ScalarValue> python_scalar(nb::handle object) {
  PyObject* o = object.ptr();
  if (PyBool_Check(o)) return detail::ScalarValue(o == Py_True);
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return detail::ScalarValue(static_cast<std::int64_t>(value));
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) {
        return detail::ScalarValue(static_cast<std::uint64_t>(u));
      }
      PyErr_Clear();
    }
    throw LogicError("the integer " + nb::cast<std::string>(nb::repr(object)) +
                     " fits no plinth dtype (int64 or uint64)");
  }
  if (PyFloat_CheckExact(o)) return detail::ScalarValue(PyFloat_AsDouble(o));
  if (PyComplex_CheckExact(o)) {
    return detail::ScalarValue(
        std::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)));
  }
  return std::nullopt;
}

/// True for a numpy scalar (numpy.generic).
inline bool is_numpy_scalar(nb::handle object) {
  static const nb::handle generic =
      nb::object(numpy().attr("generic")).release();  // kept to the end
  const int result = PyObject_IsInstance(object.ptr(), generic.ptr());
  if (result < 0) throw nb::python_error();
  return result == 1;
}

/// A numpy scalar as the Python scalar of the same value (its item()).
inline detail::ScalarValue numpy_scalar_value(nb::handle object) {
  const nb::object item = object.attr("item")();
  if (auto value = python_scalar(item)) return *value;
  throw LogicError("plinth cannot use " + nb::cast<std::string>(nb::repr(object)) + " as a scalar");
}

/// A plinth.Array, or the value of a plinth.Expression (evaluated without the GIL the first
/// time); nothing for other objects.
inline std::optional<PyArray> array_or_expression(nb::handle object) {
  if (nb::isinstance<PyArray>(object)) return nb::cast<const PyArray&>(object);
  if (!nb::isinstance<PyExpression>(object)) return std::nullopt;
  const PyExpression& expression = nb::cast<const PyExpression&>(object);
  if (!expression.value) {
    nb::gil_scoped_release release;
    expression.evaluated();
  }
  return expression.evaluated();
}

/// A shape argument as numpy takes it: an int or a sequence of ints (the caster below reads
/// it; shape() checks the extents).
struct ShapeArg {
  std::vector<std::ptrdiff_t> extents;
  bool scalar = false;

  /// The extents. Throws LogicError for a negative one.
  std::vector<std::size_t> shape() const {
    std::vector<std::size_t> result;
    for (const auto extent : extents) {
      if (extent < 0) {
        std::string text;
        for (const auto e : extents) text += (text.empty() ? "" : ", ") + std::to_string(e);
        throw LogicError("negative dimensions are not allowed (shape (" + text +
                         (extents.size() == 1 && !scalar ? ",))" : "))"));
      }
      result.push_back(static_cast<std::size_t>(extent));
    }
    return result;
  }
};

/// numpy's order 'C' or 'F'. Throws LogicError for anything else.
inline Order order_from_python(const std::string& order) {
  if (order == "C" || order == "c") return Order::C;
  if (order == "F" || order == "f") return Order::F;
  throw LogicError("order must be 'C' or 'F', not '" + order + "'");
}

/// numpy's order of the *_like functions: 'C', 'F', or 'K'/'A'/None (keep `like`'s).
inline std::optional<Order> like_order_from_python(const std::optional<std::string>& order) {
  if (!order || *order == "K" || *order == "k" || *order == "A" || *order == "a") {
    return std::nullopt;
  }
  if (*order == "C" || *order == "c") return Order::C;
  if (*order == "F" || *order == "f") return Order::F;
  throw LogicError("order must be 'C', 'F', 'A', 'K' or None, not '" + *order + "'");
}

}  // namespace plinth::python

namespace nanobind::detail {

template <>
struct type_caster<plinth::python::ShapeArg> {
  NB_TYPE_CASTER(plinth::python::ShapeArg, const_name("int | collections.abc.Sequence[int]"))

  static bool extent(handle item, std::ptrdiff_t& out) noexcept {
    if (PyBool_Check(item.ptr()) || !PyIndex_Check(item.ptr())) return false;
    const Py_ssize_t v = PyNumber_AsSsize_t(item.ptr(), PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    out = static_cast<std::ptrdiff_t>(v);
    return true;
  }

  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    value.extents.clear();
    std::ptrdiff_t e = 0;
    if (extent(src, e)) {
      value.extents.push_back(e);
      value.scalar = true;
      return true;
    }
    value.scalar = false;
    if (!PySequence_Check(src.ptr()) || PyUnicode_Check(src.ptr())) return false;
    PyObject* sequence = PySequence_Fast(src.ptr(), "");
    if (!sequence) {
      PyErr_Clear();
      return false;
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(sequence);
    bool ok = true;
    for (Py_ssize_t i = 0; ok && i < n; ++i) {
      ok = extent(handle(PySequence_Fast_GET_ITEM(sequence, i)), e);
      if (ok) value.extents.push_back(e);
    }
    Py_DECREF(sequence);
    return ok;
  }

  static handle from_cpp(const plinth::python::ShapeArg& shape, rv_policy, cleanup_list*) noexcept {
    PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(shape.extents.size()));
    if (!tuple) return handle();
    for (std::size_t i = 0; i < shape.extents.size(); ++i) {
      PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), PyLong_FromSsize_t(shape.extents[i]));
    }
    return tuple;
  }
};

}  // namespace nanobind::detail
