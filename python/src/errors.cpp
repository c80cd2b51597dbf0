// plinth's exceptions as a Python hierarchy rooted at plinth.Error. Classes that also mean a
// Python built-in error derive from it too, so that `except ValueError` catches misuse and
// `except MemoryError` an exhausted device:
//
//   Error(Exception)
//   ├── PluginError
//   ├── BackendError                      .api .call .code .code_name
//   │   └── OutOfMemoryError (+MemoryError)
//   ├── CompileError                      .log .options .source
//   ├── RenderError
//   └── LogicError (+ValueError)
//       └── VirtualSizeError

#include <plinth/errors.hpp>

#include "bindings.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <exception>

namespace plinth::python {
namespace {

struct PythonErrors {
  nb::object error, plugin, backend, out_of_memory, compile, render, logic, virtual_size;
};

// Made once at import and kept for the life of the interpreter (the module holds them too).
PythonErrors* errors = nullptr;

nb::object make_class(nb::module_& m, const char* name, nb::tuple bases, const char* doc) {
  nb::dict namespace_;
  namespace_["__doc__"] = doc;
  namespace_["__module__"] = "plinth";
  nb::object type = nb::borrow(reinterpret_cast<PyObject*>(&PyType_Type));
  nb::object cls = type(name, bases, namespace_);
  m.attr(name) = cls;
  return cls;
}

void raise(const nb::object& cls, const std::exception& e, const nb::dict& attributes = {}) {
  nb::object instance = cls(e.what());
  for (auto [key, value] : attributes) nb::setattr(instance, key, value);
  PyErr_SetObject(cls.ptr(), instance.ptr());
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const OutOfMemoryError& e) {
    nb::dict attributes;
    attributes["api"] = e.api();
    attributes["call"] = e.call();
    attributes["code"] = e.code();
    attributes["code_name"] = e.code_name();
    raise(errors->out_of_memory, e, attributes);
  } catch (const BackendError& e) {
    nb::dict attributes;
    attributes["api"] = e.api();
    attributes["call"] = e.call();
    attributes["code"] = e.code();
    attributes["code_name"] = e.code_name();
    raise(errors->backend, e, attributes);
  } catch (const CompileError& e) {
    nb::dict attributes;
    attributes["log"] = e.log();
    attributes["options"] = e.options();
    attributes["source"] = e.source();
    raise(errors->compile, e, attributes);
  } catch (const VirtualSizeError& e) {
    raise(errors->virtual_size, e);
  } catch (const LogicError& e) {
    raise(errors->logic, e);
  } catch (const RenderError& e) {
    raise(errors->render, e);
  } catch (const PluginError& e) {
    raise(errors->plugin, e);
  } catch (const Error& e) {
    raise(errors->error, e);
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  errors = new PythonErrors;  // never freed: exception classes live as long as the interpreter
  const nb::object exception = nb::borrow(PyExc_Exception);
  errors->error = make_class(m, "Error", nb::make_tuple(exception),
                             "The root of every exception plinth raises.");
  errors->plugin = make_class(
      m, "PluginError", nb::make_tuple(errors->error),
      "Plugin discovery or loading failed: no usable API, an unknown or unavailable shortcut.");
  errors->backend =
      make_class(m, "BackendError", nb::make_tuple(errors->error),
                 "A vendor API call failed; .api, .call, .code and .code_name say which and how.");
  errors->out_of_memory = make_class(m, "OutOfMemoryError",
                                     nb::make_tuple(errors->backend, nb::borrow(PyExc_MemoryError)),
                                     "The device (or the host, for staging) ran out of memory.");
  errors->compile = make_class(
      m, "CompileError", nb::make_tuple(errors->error),
      "A program failed to compile; .log, .options and .source carry the compiler's account.");
  errors->render = make_class(m, "RenderError", nb::make_tuple(errors->error),
                              "A template could not be rendered.");
  errors->logic =
      make_class(m, "LogicError", nb::make_tuple(errors->error, nb::borrow(PyExc_ValueError)),
                 "Misuse caught by plinth: wrong device, argument count or size, shape mismatch.");
  errors->virtual_size = make_class(m, "VirtualSizeError", nb::make_tuple(errors->logic),
                                    "Virtual sizes that cannot be mapped onto a device's grid.");
  nb::register_exception_translator(translate);
}

}  // namespace plinth::python
