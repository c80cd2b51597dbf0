#include "dtypes.hpp"

#include <plinth/errors.hpp>

#include "bindings.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <string>

namespace plinth::python {
namespace {

constexpr std::array scalar_names = {"bool",    "int8",    "uint8",     "int16",     "uint16",
                                     "int32",   "uint32",  "int64",     "uint64",    "float16",
                                     "float32", "float64", "complex64", "complex128"};

std::string repr_of(nb::handle object) { return nb::cast<std::string>(nb::repr(object)); }

DType from_numpy_dtype(const nb::object& dt) {
  const nb::object fields = dt.attr("fields");
  if (fields.is_none()) {
    if (nb::cast<bool>(dt.attr("hasobject")) || !nb::cast<bool>(dt.attr("isnative"))) {
      throw LogicError("plinth has no dtype for numpy's " + repr_of(dt) +
                       (nb::cast<bool>(dt.attr("isnative"))
                            ? std::string()
                            : std::string(": its byte order is not the machine's")));
    }
    const auto name = nb::cast<std::string>(dt.attr("name"));
    for (const char* scalar : scalar_names) {
      if (name == scalar) return DType::from_name(name);
    }
    throw LogicError("plinth has no dtype for numpy's " + repr_of(dt) +
                     " (it has bool, int8 ... uint64, float16, float32, float64, complex64, "
                     "complex128 and structs of them)");
  }
  std::vector<FieldSpec> specs;
  for (nb::handle name : dt.attr("names")) {
    const nb::object field = fields[name];
    const nb::object field_dtype = field[0];
    const auto offset = nb::cast<std::size_t>(field[1]);
    std::vector<std::size_t> shape;
    nb::object base = field_dtype;
    if (!field_dtype.attr("subdtype").is_none()) {
      base = field_dtype.attr("subdtype")[0];
      shape = nb::cast<std::vector<std::size_t>>(field_dtype.attr("subdtype")[1]);
    }
    specs.emplace_back(nb::cast<std::string>(name), from_numpy_dtype(base), shape, offset);
  }
  StructLayout layout;
  layout.itemsize = nb::cast<std::size_t>(dt.attr("itemsize"));
  return DType::make_struct(std::move(specs), layout);
}

}  // namespace

nb::module_& numpy() {
  static nb::module_* module = new nb::module_(nb::module_::import_("numpy"));
  return *module;
}

std::optional<DType> try_dtype_from_python(nb::handle object) {
  nb::object dt;
  try {
    dt = numpy().attr("dtype")(object);
  } catch (const nb::python_error&) {
    return std::nullopt;  // the python_error's destructor clears nothing: it owns the error
  }
  return from_numpy_dtype(dt);
}

DType dtype_from_python(nb::handle object) {
  if (object.is_none()) throw LogicError("None is not a dtype");
  nb::object dt;
  try {
    dt = numpy().attr("dtype")(object);
  } catch (const nb::python_error& e) {
    throw LogicError(repr_of(object) + " is not a dtype: " + e.what());
  }
  return from_numpy_dtype(dt);
}

nb::object to_numpy_dtype(const DType& dtype) {
  if (!dtype.is_struct()) {
    static auto* cache = new std::array<nb::object, scalar_names.size()>();
    for (std::size_t i = 0; i < scalar_names.size(); ++i) {
      if (dtype.name() == scalar_names[i]) {
        if (!(*cache)[i].is_valid()) (*cache)[i] = numpy().attr("dtype")(scalar_names[i]);
        return (*cache)[i];
      }
    }
  }
  nb::list names, formats, offsets;
  for (const Field& field : dtype.fields()) {
    names.append(field.name);
    nb::object format = to_numpy_dtype(field.dtype);
    if (!field.shape.empty()) format = nb::make_tuple(format, nb::tuple(nb::cast(field.shape)));
    formats.append(format);
    offsets.append(field.offset);
  }
  nb::dict spec;
  spec["names"] = names;
  spec["formats"] = formats;
  spec["offsets"] = offsets;
  spec["itemsize"] = dtype.itemsize();
  return numpy().attr("dtype")(spec);
}

void bind_dtypes(nb::module_& m) {
  m.def(
      "dtype", [](nb::handle object) { return dtype_from_python(object); }, nb::arg("object"),
      "plinth's reading of `object` as a dtype (anything numpy.dtype() takes), as a numpy "
      "dtype: raises LogicError, saying why, for what plinth has no type for.");
  m.def(
      "result_type", [](const std::vector<DType>& dtypes) { return result_type(dtypes); },
      nb::arg("dtypes"),
      "The type arrays of `dtypes` combine to (numpy's result_type on dtypes). Raises "
      "LogicError for an empty list or a struct dtype.");
}

}  // namespace plinth::python
