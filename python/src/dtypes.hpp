#pragma once

// plinth::DType <-> numpy's dtype. Wherever the C++ API takes a DType, Python passes anything
// numpy.dtype() accepts ("float32", numpy.float32, float, numpy.dtype([...]) for structs);
// wherever it returns one, Python gets a numpy.dtype. Byte orders other than the machine's,
// and kinds a GPU has no type for (strings, objects, datetimes, long double), are a
// plinth.LogicError naming the dtype.

#include <plinth/dtype.hpp>

#include <nanobind/nanobind.h>

#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace plinth::python {

namespace nb = nanobind;

/// The DType of anything numpy.dtype() accepts. Throws LogicError for what plinth has no type
/// for; a Python exception (nb::python_error) if numpy refuses `object`.
DType dtype_from_python(nb::handle object);

/// As dtype_from_python(), but nothing (and no Python error set) where numpy.dtype() refuses
/// `object`; still throws LogicError for a numpy dtype plinth has no type for.
std::optional<DType> try_dtype_from_python(nb::handle object);

/// The numpy.dtype of `dtype` (cached for scalars; structs with their offsets and itemsize).
nb::object to_numpy_dtype(const DType& dtype);

/// The numpy module, imported once.
nb::module_& numpy();

}  // namespace plinth::python

namespace nanobind::detail {

// What NB_TYPE_CASTER declares, for the three casters below: the converted `value` and the
// conversions nanobind's calls use. DType has no default constructor, so its caster starts
// from a placeholder that from_python() replaces.
template <class V>
struct dtype_caster_base {
  using Value = V;
  template <typename T_>
  using Cast = movable_cast_t<T_>;
  template <typename T_>
  static constexpr bool can_cast() {
    return true;
  }
  Value value;

  dtype_caster_base()
    requires std::is_default_constructible_v<V>
  = default;
  explicit dtype_caster_base(V placeholder) : value(std::move(placeholder)) {}
  explicit operator Value*() { return &value; }
  explicit operator Value&() { return value; }
  explicit operator Value&&() { return std::move(value); }
};

template <>
struct type_caster<plinth::DType> : dtype_caster_base<plinth::DType> {
  type_caster() : dtype_caster_base(plinth::DType::boolean()) {}
  static constexpr auto Name = const_name("numpy.typing.DTypeLike");
  // False for what numpy.dtype() refuses (and None, which numpy would read as float64), so
  // that another overload may take it; a numpy dtype plinth has no type for raises
  // plinth.LogicError saying why (nanobind translates what a top-level caster throws).
  // nanobind's own container casters call element casters from noexcept functions, where a
  // throw would end the process: so std::optional<DType> and std::vector<DType> have their
  // own casters below, and no other container of DType may appear in a signature.
  bool from_python(handle src, uint8_t, cleanup_list*) {
    if (src.is_none()) return false;
    const auto converted = plinth::python::try_dtype_from_python(src);
    if (!converted) return false;
    value = *converted;
    return true;
  }
  static handle from_cpp(const plinth::DType& dtype, rv_policy, cleanup_list*) noexcept {
    try {
      return plinth::python::to_numpy_dtype(dtype).release();
    } catch (...) {
      return handle();
    }
  }
  template <typename T_, enable_if_t<std::is_same_v<std::remove_cv_t<T_>, Value>> = 0>
  static handle from_cpp(T_* p, rv_policy policy, cleanup_list* list) {
    if (!p) return none().release();
    return from_cpp(*p, policy, list);
  }
};

// `dtype=None` arguments: None is the empty optional; a dtype numpy knows and plinth cannot
// hold raises plinth.LogicError naming it, as for a plain DType.
template <>
struct type_caster<std::optional<plinth::DType>> : dtype_caster_base<std::optional<plinth::DType>> {
  static constexpr auto Name = const_name("numpy.typing.DTypeLike | None");
  bool from_python(handle src, uint8_t, cleanup_list*) {
    if (src.is_none()) {
      value.reset();
      return true;
    }
    value = plinth::python::try_dtype_from_python(src);
    return value.has_value();
  }
  static handle from_cpp(const Value& dtype, rv_policy policy, cleanup_list* cleanup) noexcept {
    if (!dtype) return none().release();
    return type_caster<plinth::DType>::from_cpp(*dtype, policy, cleanup);
  }
};

// Lists of dtypes: any sequence (not a str), each element as a DType argument.
template <>
struct type_caster<std::vector<plinth::DType>> : dtype_caster_base<std::vector<plinth::DType>> {
  static constexpr auto Name = const_name("collections.abc.Sequence[numpy.typing.DTypeLike]");
  bool from_python(handle src, uint8_t flags, cleanup_list* cleanup) {
    if (!PySequence_Check(src.ptr()) || PyUnicode_Check(src.ptr()) || PyBytes_Check(src.ptr())) {
      return false;
    }
    value.clear();
    for (handle item : borrow<sequence>(src)) {
      type_caster<plinth::DType> element;
      if (!element.from_python(item, flags, cleanup)) return false;
      value.push_back(element.value);
    }
    return true;
  }
  static handle from_cpp(const Value& dtypes, rv_policy policy, cleanup_list* cleanup) noexcept {
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(dtypes.size()));
    if (list == nullptr) return handle();
    for (std::size_t i = 0; i < dtypes.size(); ++i) {
      handle item = type_caster<plinth::DType>::from_cpp(dtypes[i], policy, cleanup);
      if (!item.is_valid()) {
        Py_DECREF(list);
        return handle();
      }
      PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item.ptr());
    }
    return list;
  }
};

}  // namespace nanobind::detail
