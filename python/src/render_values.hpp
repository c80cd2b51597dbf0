#pragma once

// plinth::RenderValue <-> Python values (templates.cpp), for render globals and arguments:
//   None, bool, int (int64 or uint64 range), float, str, plinth.Snippet, plinth.Module,
//   lists and tuples (RenderValue lists), dicts with str keys (maps), and numpy integer and
//   floating scalars as their value; a numpy.dtype object stands for its C type (ctype()).
// Values going back to Python come as the same kinds (lists as lists, maps as dicts).

#include <plinth/template.hpp>

#include <nanobind/nanobind.h>

#include <optional>

namespace plinth::python {

namespace nb = nanobind;

/// The RenderValue of `object`, or nothing (no Python error set) for an object of another
/// kind. Throws LogicError for an int beyond 64 bits and dict keys that are not str.
std::optional<RenderValue> try_render_value(nb::handle object);

/// `value` as a Python object.
nb::object render_value_to_python(const RenderValue& value);

}  // namespace plinth::python

namespace nanobind::detail {

template <>
struct type_caster<plinth::RenderValue> {
  NB_TYPE_CASTER(plinth::RenderValue,
                 const_name("None | bool | int | float | str | Snippet | Module | "
                            "numpy.dtype | list | dict"))

  // Never throws (nanobind calls casters of nested values, in lists and dicts, where an
  // exception would end the process): what cannot be converted, an int beyond 64 bits too,
  // is a TypeError from nanobind.
  bool from_python(handle src, uint8_t, cleanup_list*) noexcept {
    try {
      auto converted = plinth::python::try_render_value(src);
      if (!converted) return false;
      value = std::move(*converted);
      return true;
    } catch (...) {
      PyErr_Clear();
      return false;
    }
  }
  static handle from_cpp(const plinth::RenderValue& v, rv_policy, cleanup_list*) noexcept {
    try {
      return plinth::python::render_value_to_python(v).release();
    } catch (...) {
      return handle();
    }
  }
};

}  // namespace nanobind::detail
