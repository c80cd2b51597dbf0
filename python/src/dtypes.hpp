#pragma once

// plinth::DType <-> numpy's dtype. Wherever the C++ API takes a DType, Python passes anything
// numpy.dtype() accepts ("float32", numpy.float32, float, numpy.dtype([...]) for structs);
// wherever it returns one, Python gets a numpy.dtype. Byte orders other than the machine's,
// and kinds a GPU has no type for (strings, objects, datetimes, long double), are a
// plinth.LogicError naming the dtype.

#include <plinth/dtype.hpp>

#include <nanobind/nanobind.h>

#include <optional>

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

template <>
struct type_caster<plinth::DType> {
  // NB_TYPE_CASTER's members, but DType has no default constructor: the value starts as a
  // placeholder that from_python() replaces.
  using Value = plinth::DType;
  static constexpr auto Name = const_name("numpy.typing.DTypeLike");
  template <typename T_>
  using Cast = movable_cast_t<T_>;
  template <typename T_>
  static constexpr bool can_cast() {
    return true;
  }
  Value value = plinth::DType::boolean();

  // False for what numpy.dtype() refuses (and None, which numpy would read as float64), so
  // that another overload may take it; a dtype that numpy knows and plinth cannot hold
  // raises plinth.LogicError saying why (nanobind translates what a caster throws).
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
  explicit operator Value*() { return &value; }
  explicit operator Value&() { return value; }
  explicit operator Value&&() { return std::move(value); }
};

}  // namespace nanobind::detail
