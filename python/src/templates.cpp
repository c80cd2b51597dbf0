// plinth.Template, plinth.DefTemplate, plinth.Snippet, plinth.Module, render_source, the
// functions library (plinth.functions) and dtypes in kernel source (ctype, c_constant...).

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>
#include <plinth/functions.hpp>
#include <plinth/module.hpp>
#include <plinth/render.hpp>
#include <plinth/template.hpp>

#include "bindings.hpp"
#include "dtypes.hpp"
#include "render_values.hpp"

#include <nanobind/stl/complex.h>
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <complex>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace plinth::python {
namespace {

struct NumpyTypes {
  nb::handle bool_, integer, floating, dtype;
};

const NumpyTypes& numpy_types() {
  // Kept for the life of the interpreter, as numpy() is.
  static const NumpyTypes types{
      nb::object(numpy().attr("bool_")).release(), nb::object(numpy().attr("integer")).release(),
      nb::object(numpy().attr("floating")).release(), nb::object(numpy().attr("dtype")).release()};
  return types;
}

bool is_instance(nb::handle object, nb::handle type) {
  return PyObject_TypeCheck(object.ptr(), reinterpret_cast<PyTypeObject*>(type.ptr()));
}

bool finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

// A Python callable held by a C++ body: called, copied and dropped with the GIL taken, since
// rendering runs where the GIL is released (Program's constructor compiles without it).
class PyCallable {
 public:
  explicit PyCallable(nb::object function) : function_(std::move(function)) {}
  PyCallable(const PyCallable&) = delete;
  PyCallable& operator=(const PyCallable&) = delete;
  ~PyCallable() {
    if (finalizing()) {
      function_.release();  // the interpreter is going: leave it its object
      return;
    }
    nb::gil_scoped_acquire gil;
    function_.reset();
  }

  std::string operator()(std::span<const RenderValue> args) const {
    nb::gil_scoped_acquire gil;
    try {
      nb::list py_args;
      for (const RenderValue& arg : args) py_args.append(render_value_to_python(arg));
      nb::object result = function_(*nb::tuple(py_args));
      if (!nb::isinstance<nb::str>(result)) {
        throw std::runtime_error(
            "the Python callable " + nb::cast<std::string>(nb::repr(function_)) + " returned " +
            nb::cast<std::string>(nb::type_name(result.type())) + ", not a str of source");
      }
      return nb::cast<std::string>(result);
    } catch (const nb::python_error& e) {
      // Rendering turns the exception into a RenderError with this message; the Python
      // error goes with `e`, here, where the GIL is held.
      throw std::runtime_error(e.what());
    }
  }

 private:
  nb::object function_;
};

DefTemplate::Body body_of(nb::object callable) {
  auto held = std::make_shared<PyCallable>(std::move(callable));
  return [held](std::span<const RenderValue> args) { return (*held)(args); };
}

// The parameter names of a Python callable (inspect.signature), where none are given.
std::vector<std::string> parameters_of(nb::handle callable,
                                       const std::optional<std::vector<std::string>>& given) {
  if (given) return *given;
  nb::object signature = nb::module_::import_("inspect").attr("signature")(callable);
  std::vector<std::string> names;
  for (nb::handle name : signature.attr("parameters")) names.push_back(nb::cast<std::string>(name));
  return names;
}

RenderValue ctype_of(nb::handle dtype) { return ctype(dtype_from_python(dtype)); }

}  // namespace

std::optional<RenderValue> try_render_value(nb::handle object) {
  PyObject* o = object.ptr();
  if (object.is_none()) return RenderValue();
  if (PyBool_Check(o)) return RenderValue(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return RenderValue(static_cast<std::int64_t>(value));
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!PyErr_Occurred()) return RenderValue(static_cast<std::uint64_t>(u));
      PyErr_Clear();
    }
    throw LogicError("the int " + nb::cast<std::string>(nb::repr(object)) +
                     " does not fit in 64 bits, as a render value must");
  }
  if (PyFloat_Check(o)) return RenderValue(PyFloat_AsDouble(o));
  if (PyUnicode_Check(o)) return RenderValue(nb::cast<std::string>(object));
  if (nb::isinstance<Snippet>(object)) return RenderValue(nb::cast<const Snippet&>(object));
  if (nb::isinstance<Module>(object)) return RenderValue(nb::cast<const Module&>(object));
  if (PyList_Check(o) || PyTuple_Check(o)) {
    RenderValue::List list;
    for (nb::handle item : object) {
      auto value = try_render_value(item);
      if (!value) return std::nullopt;
      list.push_back(std::move(*value));
    }
    return RenderValue(std::move(list));
  }
  if (PyDict_Check(o)) {
    RenderValue::Map map;
    for (auto [key, item] : nb::borrow<nb::dict>(object)) {
      if (!PyUnicode_Check(key.ptr())) {
        throw LogicError("a render value's dict keys are str, not " +
                         nb::cast<std::string>(nb::type_name(key.type())));
      }
      auto value = try_render_value(item);
      if (!value) return std::nullopt;
      map.emplace(nb::cast<std::string>(key), std::move(*value));
    }
    return RenderValue(std::move(map));
  }
  const NumpyTypes& np = numpy_types();
  if (is_instance(object, np.bool_)) return RenderValue(PyObject_IsTrue(o) == 1);
  if (is_instance(object, np.integer)) {
    nb::object index = nb::steal(PyNumber_Index(o));
    if (!index.is_valid()) throw nb::python_error();
    return try_render_value(index);
  }
  if (is_instance(object, np.floating)) {
    const double value = PyFloat_AsDouble(o);
    if (PyErr_Occurred()) throw nb::python_error();
    return RenderValue(value);
  }
  if (is_instance(object, np.dtype)) return ctype_of(object);
  return std::nullopt;
}

nb::object render_value_to_python(const RenderValue& value) {
  if (value.is_none()) return nb::none();
  if (value.is_bool()) return nb::bool_(value.as_bool());
  if (value.is_integer()) return nb::module_::import_("builtins").attr("int")(value.to_string());
  if (value.is_double()) return nb::float_(value.as_double());
  if (value.is_string()) return nb::str(value.as_string().c_str(), value.as_string().size());
  if (value.is_snippet()) return nb::cast(value.as_snippet());
  if (value.is_module()) return nb::cast(value.as_module());
  if (value.is_list()) {
    nb::list list;
    for (const RenderValue& item : value.as_list()) list.append(render_value_to_python(item));
    return list;
  }
  nb::dict dict;
  for (const auto& [key, item] : value.as_map()) dict[key.c_str()] = render_value_to_python(item);
  return dict;
}

void bind_templates(nb::module_& m) {
  using Args = std::vector<RenderValue>;

  nb::class_<DefTemplate>(m, "DefTemplate",
                          "A named, parametrised template body: text with ${...} placeholders, "
                          "or a Python callable returning such text.")
      .def_static("from_string", &DefTemplate::from_string, nb::arg("name"), nb::arg("text"),
                  nb::arg("parameters") = std::vector<std::string>{},
                  "A def `name(parameters...)` with body `text`. Raises LogicError for a bad "
                  "name or a repeated parameter.")
      .def_static(
          "from_callable",
          [](nb::object callable, const std::optional<std::vector<std::string>>& parameters,
             const std::string& name) {
            auto names = parameters_of(callable, parameters);
            return DefTemplate::from_body(name, std::move(names), body_of(std::move(callable)));
          },
          nb::arg("callable"), nb::arg("parameters") = nb::none(), nb::arg("name") = "_def",
          "A def whose body is `callable`: called with one value per parameter (the names "
          "default to the callable's own), it returns the source text.")
      .def_prop_ro("name", &DefTemplate::name)
      .def_prop_ro("parameters", &DefTemplate::parameters)
      .def_prop_ro("text", &DefTemplate::text, "The body text ('' for a callable body).")
      .def_prop_ro("signature", &DefTemplate::signature)
      .def(
          "render",
          [](const DefTemplate& def, const nb::args& args, const nb::kwargs& globals) {
            return render_source(def, nb::cast<Args>(args), nb::cast<RenderGlobals>(globals));
          },
          nb::arg("args"), nb::arg("globals"),
          "The source with `args` bound to the parameters and keyword arguments as globals. "
          "Raises RenderError.")
      .def("__repr__",
           [](const DefTemplate& d) { return "<plinth.DefTemplate " + d.signature() + ">"; });

  nb::class_<Template>(m, "Template",
                       "Source text with <%def name=\"f(a, b)\">...</%def> blocks and ${...} "
                       "placeholders.")
      .def_static("from_string", &Template::from_string, nb::arg("text"),
                  nb::arg("name") = "<string>",
                  "Parses `text`. Raises RenderError for a malformed <%def>.")
      .def_static("from_file", &Template::from_file, nb::arg("path"),
                  "Parses the file at `path`. Raises RenderError.")
      .def_prop_ro("name", &Template::name)
      .def("get_def", &Template::get_def, nb::arg("name"),
           "The def `name` (a DefTemplate). Raises RenderError if there is none.")
      .def_prop_ro("def_names", &Template::def_names, "The defs' names, in order.")
      .def_prop_ro("body", &Template::body, "The top-level text as a def with no parameters.")
      .def(
          "render",
          [](const Template& t, const nb::args& args, const nb::kwargs& globals) {
            return render_source(t, nb::cast<Args>(args), nb::cast<RenderGlobals>(globals));
          },
          nb::arg("args"), nb::arg("globals"),
          "The top-level text rendered with keyword arguments as globals. Raises RenderError.")
      .def("__repr__", [](const Template& t) { return "<plinth.Template " + t.name() + ">"; });

  nb::class_<Snippet>(m, "Snippet",
                      "A def rendered in place: `${snip}` or `${snip(x, y)}` in a template.")
      .def(nb::init<DefTemplate, RenderGlobals>(), nb::arg("def_"),
           nb::arg("globals") = RenderGlobals{})
      .def_static("from_string", &Snippet::from_string, nb::arg("source"),
                  nb::arg("name") = "_snippet", nb::arg("globals") = RenderGlobals{},
                  "A body with no parameters, or one <%def> block whose name and parameters "
                  "it takes. Raises RenderError, LogicError.")
      .def_static(
          "from_callable",
          [](nb::object callable, const std::optional<std::vector<std::string>>& parameters,
             const std::string& name, const RenderGlobals& globals) {
            auto names = parameters_of(callable, parameters);
            return Snippet(
                DefTemplate::from_body(name, std::move(names), body_of(std::move(callable))),
                globals);
          },
          nb::arg("callable"), nb::arg("parameters") = nb::none(), nb::arg("name") = "_snippet",
          nb::arg("globals") = RenderGlobals{},
          "A Snippet whose body is `callable` (grunnur's Snippet): it receives the "
          "arguments (parameter names default to the callable's own) and returns source.")
      .def_prop_ro("name", &Snippet::name)
      .def_prop_ro("def_", &Snippet::def)
      .def_prop_ro("globals", &Snippet::globals)
      .def(
          "render",
          [](const Snippet& s, const nb::args& args) {
            return render_source(s, nb::cast<Args>(args));
          },
          nb::arg("args"), "The snippet rendered with `args`.")
      .def(
          "__eq__", [](const Snippet& a, const Snippet& b) { return a == b; }, nb::is_operator())
      .def("__hash__", [](const Snippet& s) { return std::hash<Snippet>{}(s); })
      .def("__repr__", [](const Snippet& s) { return "<plinth.Snippet " + s.name() + ">"; });

  nb::class_<Module>(m, "Module",
                     "A def rendered once at the top of the source, its first parameter the "
                     "unique prefix its placeholder renders as.")
      .def(nb::init<DefTemplate, RenderGlobals>(), nb::arg("def_"),
           nb::arg("globals") = RenderGlobals{}, "Raises LogicError for a def with no parameters.")
      .def_static("from_string", &Module::from_string, nb::arg("source"),
                  nb::arg("name") = "_module", nb::arg("globals") = RenderGlobals{},
                  "A body whose one parameter, `prefix`, receives the prefix, or one <%def> "
                  "block. Raises RenderError, LogicError.")
      .def_static(
          "from_callable",
          [](nb::object callable, const std::optional<std::vector<std::string>>& parameters,
             const std::string& name, const RenderGlobals& globals) {
            auto names = parameters_of(callable, parameters);
            return Module(
                DefTemplate::from_body(name, std::move(names), body_of(std::move(callable))),
                globals);
          },
          nb::arg("callable"), nb::arg("parameters") = nb::none(), nb::arg("name") = "_module",
          nb::arg("globals") = RenderGlobals{},
          "A Module whose body is `callable`; its first parameter receives the prefix "
          "(parameter names default to the callable's own).")
      .def_prop_ro("name", &Module::name)
      .def_prop_ro("def_", &Module::def)
      .def_prop_ro("globals", &Module::globals)
      .def(
          "__eq__", [](const Module& a, const Module& b) { return a == b; }, nb::is_operator())
      .def("__hash__", [](const Module& s) { return std::hash<Module>{}(s); })
      .def("__repr__", [](const Module& s) { return "<plinth.Module " + s.name() + ">"; });

  m.def(
      "render_source",
      [](const std::variant<std::string, Template, DefTemplate, Snippet>& source, const Args& args,
         const RenderGlobals& globals) {
        return std::visit(
            [&](const auto& s) -> std::string {
              using S = std::decay_t<decltype(s)>;
              if constexpr (std::is_same_v<S, Snippet>) {
                if (!globals.empty()) {
                  throw LogicError("a Snippet renders with its own globals: pass none");
                }
                return render_source(s, args);
              } else {
                return render_source(s, args, globals);
              }
            },
            source);
      },
      nb::arg("source"), nb::arg("args") = Args{}, nb::arg("globals") = RenderGlobals{},
      "Renders `source` (str, Template, DefTemplate or Snippet) with `args` bound to its "
      "parameters and `globals` to other names; the Modules used come first. Raises "
      "RenderError.");
  m.attr("max_render_depth") = max_render_depth;
  m.attr("max_render_size") = max_render_size;

  // dtypes in kernel source.
  m.def("ctype", &ctype_of, nb::arg("dtype"),
        "The C type of `dtype` in the kernel dialect: a str for scalars ('float', 'unsigned "
        "int', 'plinth_complex64'...), a Module declaring the struct for structs. Raises "
        "LogicError for float16.");
  m.def("ctype_struct", &ctype_struct, nb::arg("dtype"), nb::arg("ignore_alignment") = false,
        "A Module declaring struct `dtype` with its exact layout. Raises LogicError.");
  m.def("align", &align, nb::arg("dtype"),
        "The struct `dtype` laid out as C lays it out without alignment attributes.");
  m.def("complex_ctr", &complex_ctr, nb::arg("dtype"),
        "A Module building a complex value of `dtype` from its two parts.");
  m.def(
      "c_constant",
      [](nb::handle value, const std::optional<DType>& dtype) -> std::string {
        PyObject* o = value.ptr();
        const NumpyTypes& np = numpy_types();
        if (!dtype && !PyBool_Check(o) && !PyLong_Check(o) && !PyFloat_Check(o) &&
            !PyComplex_Check(o)) {
          // A numpy scalar (or anything numpy takes) as its own dtype: its bytes.
          nb::object array = numpy().attr("asarray")(value);
          const DType own = dtype_from_python(array.attr("dtype"));
          nb::bytes bytes = nb::cast<nb::bytes>(array.attr("tobytes")());
          return c_constant(std::span(static_cast<const std::byte*>(bytes.data()), bytes.size()),
                            own);
        }
        nb::object item = is_instance(value, np.bool_) || is_instance(value, np.integer) ||
                                  is_instance(value, np.floating)
                              ? value.attr("item")()
                              : nb::borrow(value);
        o = item.ptr();
        if (PyBool_Check(o)) return c_constant(o == Py_True, dtype.value_or(DType::boolean()));
        if (PyLong_Check(o)) {
          const DType target = dtype.value_or(DType::int64());
          int overflow = 0;
          const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
          if (overflow == 0) return c_constant(static_cast<std::int64_t>(v), target);
          const unsigned long long u = overflow > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
          if (overflow < 0 || PyErr_Occurred()) {
            PyErr_Clear();
            throw LogicError("the int " + nb::cast<std::string>(nb::repr(item)) +
                             " does not fit in 64 bits");
          }
          return c_constant(static_cast<std::uint64_t>(u), target);
        }
        if (PyFloat_Check(o))
          return c_constant(PyFloat_AsDouble(o), dtype.value_or(DType::float64()));
        if (PyComplex_Check(o)) {
          const std::complex<double> z(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o));
          return c_constant(z, dtype.value_or(DType::complex128()));
        }
        throw nb::type_error("c_constant takes a bool, int, float, complex or numpy scalar");
      },
      nb::arg("value"), nb::arg("dtype") = nb::none(),
      "`value` as a C constant of `dtype` (converted as C converts; default: the value's own "
      "type, int64/float64/complex128 for Python numbers). Raises LogicError for a value "
      "that does not fit, float16, inf/NaN.");
  m.def(
      "c_path",
      [](const std::vector<std::variant<std::size_t, std::string>>& path) {
        FieldPath converted;
        for (const auto& step : path) {
          std::visit([&](const auto& s) { converted.emplace_back(s); }, step);
        }
        return c_path(converted);
      },
      nb::arg("path"), "The C expression reaching `path` (names and indices) in a struct.");
  m.def(
      "flatten_dtype",
      [](const DType& dtype) {
        nb::list out;
        for (const FlatField& field : flatten_dtype(dtype)) {
          nb::list path;
          for (const auto& step : field.path) {
            std::visit([&](const auto& s) { path.append(nb::cast(s)); }, step);
          }
          out.append(nb::make_tuple(path, to_numpy_dtype(field.dtype), field.offset));
        }
        return out;
      },
      nb::arg("dtype"), "Every scalar of `dtype` as (path, dtype, offset), in declaration order.");

  // The functions library.
  nb::module_ f =
      m.def_submodule("functions",
                      "Module factories for arithmetic the dialect cannot write with operators "
                      "(complex numbers, mixed types): each returns a Module `${prefix}(...)`.");
  f.def("cast", &functions::cast, nb::arg("in_"), nb::arg("out"), "out ${prefix}(in x).");
  // The dtypes of `in_` are converted one by one here, not by a list caster: a DType caster
  // inside a list caster cannot report a dtype plinth refuses (nanobind ends the process on
  // an exception there).
  const auto dtypes_of = [](nb::handle sequence) {
    std::vector<DType> dtypes;
    for (nb::handle item : sequence) dtypes.push_back(dtype_from_python(item));
    return dtypes;
  };
  f.def(
      "add",
      [dtypes_of](nb::handle in, const std::optional<DType>& out) {
        return functions::add(dtypes_of(in), out);
      },
      nb::sig("def add(in_: collections.abc.Sequence[numpy.typing.DTypeLike], out: "
              "numpy.typing.DTypeLike | None = None) -> Module"),
      nb::arg("in_"), nb::arg("out") = nb::none(),
      "The sum of arguments of dtypes `in_` (a list).");
  f.def(
      "mul",
      [dtypes_of](nb::handle in, const std::optional<DType>& out) {
        return functions::mul(dtypes_of(in), out);
      },
      nb::sig("def mul(in_: collections.abc.Sequence[numpy.typing.DTypeLike], out: "
              "numpy.typing.DTypeLike | None = None) -> Module"),
      nb::arg("in_"), nb::arg("out") = nb::none(),
      "The product of arguments of dtypes `in_` (a list).");
  f.def("div", &functions::div, nb::arg("dividend"), nb::arg("divisor"),
        nb::arg("out") = nb::none(), "a / b.");
  f.def("conj", &functions::conj, nb::arg("dtype"), "The complex conjugate.");
  f.def("norm", &functions::norm, nb::arg("dtype"), "|a|^2.");
  f.def("exp", &functions::exp, nb::arg("dtype"), "e^a (real or complex).");
  f.def("polar_unit", &functions::polar_unit, nb::arg("dtype"), "e^(i theta).");
  f.def("polar", &functions::polar, nb::arg("dtype"), "rho e^(i theta).");
  f.def("pow", &functions::pow, nb::arg("base"), nb::arg("exponent") = nb::none(),
        nb::arg("out") = nb::none(), "base to the power exponent.");
}

}  // namespace plinth::python
