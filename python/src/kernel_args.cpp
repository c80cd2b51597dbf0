#include "kernel_args.hpp"

#include <plinth/array.hpp>
#include <plinth/buffer.hpp>
#include <plinth/errors.hpp>
#include <plinth/image.hpp>

#include "dtypes.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <cstring>
#include <string>

namespace plinth::python {
namespace {

std::string type_name(PyObject* object) {
  return nb::cast<std::string>(nb::type_name(nb::handle(Py_TYPE(object))));
}

}  // namespace

const ArgumentTypes& argument_types() {
  static const ArgumentTypes types = [] {
    ArgumentTypes t;
    t.array = reinterpret_cast<PyTypeObject*>(nb::type<PyArray>().ptr());
    t.expression = reinterpret_cast<PyTypeObject*>(nb::type<PyExpression>().ptr());
    t.buffer = reinterpret_cast<PyTypeObject*>(nb::type<Buffer>().ptr());
    t.image = reinterpret_cast<PyTypeObject*>(nb::type<Image>().ptr());
    t.sampler = reinterpret_cast<PyTypeObject*>(nb::type<Sampler>().ptr());
    // Kept for the life of the interpreter, as numpy() is.
    t.numpy_generic =
        reinterpret_cast<PyTypeObject*>(nb::object(numpy().attr("generic")).release().ptr());
    return t;
  }();
  return types;
}

bool is_instance(PyObject* object, PyTypeObject* type) {
  return type != nullptr && PyObject_TypeCheck(object, type);
}

KernelArgs::KernelArgs(std::span<PyObject* const> objects) {
  if (objects.size() > inline_args) {
    heap_.reserve(objects.size());
    large_scalars_.reserve(objects.size());
    data_ = heap_.data();
  } else {
    data_ = &inline_[0].arg;
  }
  for (std::size_t i = 0; i < objects.size(); ++i) add(i, objects[i]);
}

void KernelArgs::push(const KernelArg& arg) {
  if (!heap_.empty() || heap_.capacity() != 0) {
    heap_.push_back(arg);  // reserved: data_ stays valid
  } else {
    new (&inline_[size_].arg) KernelArg(arg);
  }
  ++size_;
}

void KernelArgs::add(std::size_t index, PyObject* object) {
  const ArgumentTypes& types = argument_types();
  PyTypeObject* const type = Py_TYPE(object);
  // The common kinds first, by exact type (one comparison each).
  if (type == types.array) {
    push(KernelArg(nb::inst_ptr<PyArray>(object)->array));
    return;
  }
  if (type == types.buffer) {
    push(KernelArg(*nb::inst_ptr<Buffer>(object)));
    return;
  }
  // numpy scalars before Python's numbers: numpy.float64 is a float, numpy.bool_ is not a bool.
  if (is_instance(object, types.numpy_generic)) {
    Py_buffer view;
    if (PyObject_GetBuffer(object, &view, PyBUF_SIMPLE) != 0) throw nb::python_error();
    const auto size = static_cast<std::size_t>(view.len);
    std::byte* bytes = nullptr;
    if (size <= inline_scalar_bytes && heap_.capacity() == 0) {
      bytes = scalars_[index].data();
    } else {
      large_scalars_.emplace_back(new std::byte[size == 0 ? 1 : size]);
      bytes = large_scalars_.back().get();
    }
    std::memcpy(bytes, view.buf, size);
    PyBuffer_Release(&view);
    push(KernelArg::from_bytes(std::span<const std::byte>(bytes, size)));
    return;
  }
  if (type == types.expression) {
    push(KernelArg(nb::inst_ptr<PyExpression>(object)->evaluated().array));
    return;
  }
  if (type == types.image) {
    push(KernelArg(*nb::inst_ptr<Image>(object)));
    return;
  }
  if (type == types.sampler) {
    push(KernelArg(*nb::inst_ptr<Sampler>(object)));
    return;
  }
  // Subclasses (rare): through nanobind's own checks.
  if (is_instance(object, types.array)) {
    push(KernelArg(nb::inst_ptr<PyArray>(object)->array));
    return;
  }
  if (is_instance(object, types.buffer)) {
    push(KernelArg(*nb::inst_ptr<Buffer>(object)));
    return;
  }
  if (is_instance(object, types.expression)) {
    push(KernelArg(nb::inst_ptr<PyExpression>(object)->evaluated().array));
    return;
  }
  if (is_instance(object, types.image)) {
    push(KernelArg(*nb::inst_ptr<Image>(object)));
    return;
  }
  if (is_instance(object, types.sampler)) {
    push(KernelArg(*nb::inst_ptr<Sampler>(object)));
    return;
  }
  if (PyBool_Check(object) || PyLong_Check(object) || PyFloat_Check(object) ||
      PyComplex_Check(object)) {
    const std::string name = type_name(object);
    throw LogicError("kernel argument " + std::to_string(index) + " is a Python " + name +
                     ", whose C type a kernel parameter cannot be matched with: pass a numpy "
                     "scalar of the parameter's type (numpy.int32(...), numpy.float32(...), "
                     "numpy.uint64(...) ...)");
  }
  throw nb::type_error(("kernel argument " + std::to_string(index) + " is a " + type_name(object) +
                        ": a kernel takes plinth.Array, plinth.Expression, plinth.Buffer, "
                        "plinth.Image, plinth.Sampler and numpy scalars")
                           .c_str());
}

LaunchSize::LaunchSize(nb::handle object, const char* what, bool none_is_empty) {
  const auto extent = [&](PyObject* item) {
    if (!PyLong_Check(item) && !PyIndex_Check(item)) {
      throw nb::type_error(
          (std::string(what) + " must be an int or a tuple of ints, not " + type_name(item))
              .c_str());
    }
    nb::object index = nb::steal(PyNumber_Index(item));
    if (!index.is_valid()) throw nb::python_error();
    const std::size_t value = PyLong_AsSize_t(index.ptr());
    if (value == static_cast<std::size_t>(-1) && PyErr_Occurred()) {
      PyErr_Clear();
      throw LogicError(std::string(what) + " has an extent that is negative or too large: " +
                       nb::cast<std::string>(nb::repr(index)));
    }
    return value;
  };
  if (object.is_none()) {
    if (!none_is_empty) throw nb::type_error((std::string(what) + " cannot be None").c_str());
    return;
  }
  if (PyTuple_Check(object.ptr()) || PyList_Check(object.ptr())) {
    nb::object sequence = nb::borrow(object);
    const auto n = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(sequence.ptr()));
    if (n > values_.size()) {
      throw LogicError(std::string(what) + " has " + std::to_string(n) +
                       " dimensions: a launch has 1 to 3");
    }
    PyObject** items = PySequence_Fast_ITEMS(sequence.ptr());
    for (std::size_t i = 0; i < n; ++i) values_[i] = extent(items[i]);
    size_ = n;
    return;
  }
  values_[0] = extent(object.ptr());
  size_ = 1;
}

}  // namespace plinth::python
