// plinth.Expression and the arithmetic of plinth.Array (include/plinth/array_expression.hpp):
// Python's operators and plinth's math functions over Arrays, Expressions and scalars build a
// lazy ArrayExpression, evaluated as one kernel when it is first used as an array.

#include <plinth/array_expression.hpp>
#include <plinth/errors.hpp>

#include "bindings.hpp"
#include "dtypes.hpp"
#include "host_arrays.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace plinth::python {

const PyArray& PyExpression::evaluated() const {
  const std::lock_guard<std::mutex> lock(*mutex);
  if (!value) {
    if (!queue) throw LogicError("an expression of scalars only has no queue to run on");
    value.emplace(evaluate(*queue, expression), *queue);
  }
  return *value;
}

PyArray::PyArray(const PyExpression& expression) : PyArray(expression.evaluated()) {}

namespace {

using Binary = ArrayExpression (*)(const ArrayExpression&, const ArrayExpression&);
using Unary = ArrayExpression (*)(const ArrayExpression&);
using Ternary = ArrayExpression (*)(const ArrayExpression&, const ArrayExpression&,
                                    const ArrayExpression&);

/// numpy.generic and numpy.ndarray, looked up once.
nb::handle numpy_generic() {
  static nb::handle type = nb::object(numpy().attr("generic")).release();
  return type;
}
nb::handle numpy_ndarray() {
  static nb::handle type = nb::object(numpy().attr("ndarray")).release();
  return type;
}

/// A Python int as a weak scalar (int64, else uint64). Throws LogicError beyond both.
detail::ScalarValue integer_value(PyObject* object) {
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(object, &overflow);
  if (overflow == 0) {
    if (value == -1 && PyErr_Occurred() != nullptr) throw nb::python_error();
    return static_cast<std::int64_t>(value);
  }
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(object);
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred() != nullptr)) {
      return static_cast<std::uint64_t>(u);
    }
    PyErr_Clear();
  }
  throw LogicError("array arithmetic: the Python int " +
                   std::string(nb::repr(nb::handle(object)).c_str()) +
                   " is out of the range of every integer dtype (int64, uint64)");
}

/// A Python bool, int, float or complex (subclasses included) as a weak scalar; nothing for
/// other objects.
std::optional<detail::ScalarValue> python_scalar(PyObject* object) {
  if (PyBool_Check(object)) return detail::ScalarValue(object == Py_True);
  if (PyLong_Check(object)) return integer_value(object);
  if (PyFloat_Check(object)) {
    const double value = PyFloat_AsDouble(object);
    if (value == -1.0 && PyErr_Occurred() != nullptr) throw nb::python_error();
    return detail::ScalarValue(value);
  }
  if (PyComplex_Check(object)) {
    const Py_complex value = PyComplex_AsCComplex(object);
    if (PyErr_Occurred() != nullptr) throw nb::python_error();
    return detail::ScalarValue(std::complex<double>(value.real, value.imag));
  }
  return std::nullopt;
}

/// The operand `object` as an expression: an Array (whose default queue becomes `queue` if
/// that is still empty), an Expression (likewise), a weak Python scalar, or a strong numpy
/// scalar or 0-d numpy array (typed_scalar). Nothing for anything else.
std::optional<ArrayExpression> as_expression(nb::handle object, std::optional<Queue>& queue) {
  if (nb::isinstance<PyArray>(object)) {
    const auto& array = *nb::inst_ptr<PyArray>(object);
    if (!queue) queue = array.queue;
    return ArrayExpression(array.array);
  }
  if (nb::isinstance<PyExpression>(object)) {
    const auto& expression = *nb::inst_ptr<PyExpression>(object);
    if (!queue) queue = expression.queue;
    return expression.expression;
  }
  PyObject* o = object.ptr();
  // Exact builtins first (the common case): numpy.float64 and numpy.bool_ subclass nothing
  // here but float, which the numpy check below must see first.
  if (PyLong_CheckExact(o) || PyFloat_CheckExact(o) || PyBool_Check(o) || PyComplex_CheckExact(o)) {
    return detail::Access::make<ArrayExpression>(detail::scalar_leaf(*python_scalar(o)));
  }
  const bool numpy_scalar = PyObject_IsInstance(o, numpy_generic().ptr()) == 1;
  if (numpy_scalar || (PyObject_IsInstance(o, numpy_ndarray().ptr()) == 1 &&
                       nb::cast<std::size_t>(object.attr("ndim")) == 0)) {
    const DType dtype = dtype_from_python(object.attr("dtype"));
    const auto value = python_scalar(object.attr("item")().ptr());
    if (!value) {
      throw LogicError("array arithmetic: numpy's " + std::string(nb::repr(object).c_str()) +
                       " is not a number");
    }
    return std::visit([&](const auto& v) { return typed_scalar(v, dtype); }, *value);
  }
  PyErr_Clear();
  if (auto value = python_scalar(o))
    return detail::Access::make<ArrayExpression>(detail::scalar_leaf(*value));
  return std::nullopt;
}

nb::object not_implemented() { return nb::borrow(Py_NotImplemented); }

nb::object wrap(ArrayExpression expression, std::optional<Queue> queue) {
  return nb::cast(PyExpression{std::move(expression), std::move(queue), std::nullopt});
}

[[noreturn]] void operand_error(nb::handle object) {
  throw nb::type_error(("expected a plinth.Array, a plinth.Expression or a number, not " +
                        std::string(nb::inst_name(object).c_str()))
                           .c_str());
}

/// An operand of a module function: as as_expression(), a TypeError for anything else.
ArrayExpression operand(nb::handle object, std::optional<Queue>& queue) {
  auto expression = as_expression(object, queue);
  if (!expression) operand_error(object);
  return std::move(*expression);
}

template <Binary F>
nb::object binary_operator(nb::handle a, nb::handle b) {
  std::optional<Queue> queue;
  auto x = as_expression(a, queue);
  if (!x) return not_implemented();
  auto y = as_expression(b, queue);
  if (!y) return not_implemented();
  return wrap(F(*x, *y), std::move(queue));
}

template <Binary F>
nb::object reflected_operator(nb::handle self, nb::handle other) {
  return binary_operator<F>(other, self);
}

/// `self op= other` on an Array: assigns `self op other` into self (same_kind casting).
template <Binary F>
nb::object inplace_operator(nb::handle self, nb::handle other) {
  const auto& array = *nb::inst_ptr<PyArray>(self);
  std::optional<Queue> queue = array.queue;
  auto y = as_expression(other, queue);
  if (!y) return not_implemented();
  const auto expression = F(ArrayExpression(array.array), *y);
  {
    nb::gil_scoped_release release;
    assign(array.queue, array.array, expression);
  }
  return nb::borrow(self);
}

template <Unary F>
nb::object unary_function(nb::handle a) {
  std::optional<Queue> queue;
  auto x = operand(a, queue);
  return wrap(F(x), std::move(queue));
}

template <Binary F>
nb::object binary_function(nb::handle a, nb::handle b) {
  std::optional<Queue> queue;
  auto x = operand(a, queue);
  auto y = operand(b, queue);
  return wrap(F(x, y), std::move(queue));
}

template <Ternary F>
nb::object ternary_function(nb::handle a, nb::handle b, nb::handle c) {
  std::optional<Queue> queue;
  auto x = operand(a, queue);
  auto y = operand(b, queue);
  auto z = operand(c, queue);
  return wrap(F(x, y, z), std::move(queue));
}

ArrayExpression add(const ArrayExpression& a, const ArrayExpression& b) { return a + b; }
ArrayExpression subtract(const ArrayExpression& a, const ArrayExpression& b) { return a - b; }
ArrayExpression multiply(const ArrayExpression& a, const ArrayExpression& b) { return a * b; }
ArrayExpression divide(const ArrayExpression& a, const ArrayExpression& b) { return a / b; }
ArrayExpression mod(const ArrayExpression& a, const ArrayExpression& b) { return a % b; }
ArrayExpression power(const ArrayExpression& a, const ArrayExpression& b) { return pow(a, b); }
ArrayExpression floordiv(const ArrayExpression& a, const ArrayExpression& b) {
  return floor_divide(a, b);
}
ArrayExpression bit_and(const ArrayExpression& a, const ArrayExpression& b) { return a & b; }
ArrayExpression bit_or(const ArrayExpression& a, const ArrayExpression& b) { return a | b; }
ArrayExpression bit_xor(const ArrayExpression& a, const ArrayExpression& b) { return a ^ b; }
ArrayExpression lshift(const ArrayExpression& a, const ArrayExpression& b) { return a << b; }
ArrayExpression rshift(const ArrayExpression& a, const ArrayExpression& b) { return a >> b; }
ArrayExpression eq(const ArrayExpression& a, const ArrayExpression& b) { return a == b; }
ArrayExpression ne(const ArrayExpression& a, const ArrayExpression& b) { return a != b; }
ArrayExpression lt(const ArrayExpression& a, const ArrayExpression& b) { return a < b; }
ArrayExpression le(const ArrayExpression& a, const ArrayExpression& b) { return a <= b; }
ArrayExpression gt(const ArrayExpression& a, const ArrayExpression& b) { return a > b; }
ArrayExpression ge(const ArrayExpression& a, const ArrayExpression& b) { return a >= b; }
ArrayExpression negative(const ArrayExpression& a) { return -a; }
ArrayExpression positive(const ArrayExpression& a) { return a; }
ArrayExpression invert(const ArrayExpression& a) { return ~a; }

/// Defines `name` on `cls` (a method: self first).
template <class F, class... Extra>
void def_method(nb::handle cls, const char* name, F&& f, const Extra&... extra) {
  nb::cpp_function_def(std::forward<F>(f), nb::scope(cls), nb::name(name), nb::is_method(),
                       extra...);
}

/// The binary operator `name`, its reflection `rname` (if not null), on `cls`.
template <Binary F>
void def_binary(nb::handle cls, const char* name, const char* rname) {
  def_method(cls, name, &binary_operator<F>);
  if (rname != nullptr) def_method(cls, rname, &reflected_operator<F>);
}

/// Everything Array and Expression share: operators, comparisons, elementwise methods.
void def_arithmetic(nb::handle cls, bool is_array) {
  def_binary<add>(cls, "__add__", "__radd__");
  def_binary<subtract>(cls, "__sub__", "__rsub__");
  def_binary<multiply>(cls, "__mul__", "__rmul__");
  def_binary<divide>(cls, "__truediv__", "__rtruediv__");
  def_binary<floordiv>(cls, "__floordiv__", "__rfloordiv__");
  def_binary<mod>(cls, "__mod__", "__rmod__");
  def_binary<power>(cls, "__pow__", "__rpow__");
  def_binary<bit_and>(cls, "__and__", "__rand__");
  def_binary<bit_or>(cls, "__or__", "__ror__");
  def_binary<bit_xor>(cls, "__xor__", "__rxor__");
  def_binary<lshift>(cls, "__lshift__", "__rlshift__");
  def_binary<rshift>(cls, "__rshift__", "__rrshift__");
  def_binary<eq>(cls, "__eq__", nullptr);
  def_binary<ne>(cls, "__ne__", nullptr);
  def_binary<lt>(cls, "__lt__", nullptr);
  def_binary<le>(cls, "__le__", nullptr);
  def_binary<gt>(cls, "__gt__", nullptr);
  def_binary<ge>(cls, "__ge__", nullptr);
  def_method(cls, "__divmod__", [](nb::handle a, nb::handle b) -> nb::object {
    std::optional<Queue> queue;
    auto x = as_expression(a, queue), y = as_expression(b, queue);
    if (!x || !y) return not_implemented();
    auto [q, r] = divmod(*x, *y);
    return nb::make_tuple(wrap(std::move(q), queue), wrap(std::move(r), queue));
  });
  def_method(cls, "__rdivmod__", [](nb::handle b, nb::handle a) -> nb::object {
    std::optional<Queue> queue;
    auto x = as_expression(a, queue), y = as_expression(b, queue);
    if (!x || !y) return not_implemented();
    auto [q, r] = divmod(*x, *y);
    return nb::make_tuple(wrap(std::move(q), queue), wrap(std::move(r), queue));
  });
  def_method(cls, "__neg__", &unary_function<negative>);
  def_method(cls, "__pos__", &unary_function<positive>);
  def_method(cls, "__abs__", &unary_function<plinth::abs>);
  def_method(cls, "__invert__", &unary_function<invert>);
  if (is_array) {
    def_method(cls, "__iadd__", &inplace_operator<add>);
    def_method(cls, "__isub__", &inplace_operator<subtract>);
    def_method(cls, "__imul__", &inplace_operator<multiply>);
    def_method(cls, "__itruediv__", &inplace_operator<divide>);
    def_method(cls, "__ifloordiv__", &inplace_operator<floordiv>);
    def_method(cls, "__imod__", &inplace_operator<mod>);
    def_method(cls, "__ipow__", &inplace_operator<power>);
    def_method(cls, "__iand__", &inplace_operator<bit_and>);
    def_method(cls, "__ior__", &inplace_operator<bit_or>);
    def_method(cls, "__ixor__", &inplace_operator<bit_xor>);
    def_method(cls, "__ilshift__", &inplace_operator<lshift>);
    def_method(cls, "__irshift__", &inplace_operator<rshift>);
  }
  // numpy's: unhashable, since == is elementwise; numpy arrays and scalars leave the
  // operators to us (np.float32(2) * x is x.__rmul__) instead of converting x through
  // __array__.
  nb::setattr(cls, "__hash__", nb::none());
  nb::setattr(cls, "__array_ufunc__", nb::none());

  // Elementwise methods (lazy, as the functions), unless the class has them already.
  const auto method = [&](const char* name, auto&& f, auto&&... extra) {
    if (!nb::hasattr(cls, name)) def_method(cls, name, f, extra...);
  };
  method(
      "astype",
      [](nb::handle self, const DType& dtype) {
        std::optional<Queue> queue;
        auto x = operand(self, queue);
        return wrap(astype(x, dtype), std::move(queue));
      },
      nb::arg("dtype"),
      "The elements converted to `dtype` (as numpy's astype; lazy: an Expression). Raises "
      "LogicError for complex to real (take .real) and struct dtypes.");
  method("conj", &unary_function<conj>, "The complex conjugate (lazy).");
  method("conjugate", &unary_function<conj>, "The complex conjugate (lazy).");
  method(
      "round",
      [](nb::handle self, int decimals) {
        std::optional<Queue> queue;
        auto x = operand(self, queue);
        return wrap(plinth::round(x, decimals), std::move(queue));
      },
      nb::arg("decimals") = 0, "numpy's round (lazy; see plinth.round).");
  method(
      "clip",
      [](nb::handle self, nb::handle lo, nb::handle hi) {
        std::optional<Queue> queue;
        auto x = operand(self, queue);
        auto l = operand(lo, queue);
        auto h = operand(hi, queue);
        return wrap(clip(x, l, h), std::move(queue));
      },
      nb::arg("min"), nb::arg("max"), "numpy's clip (lazy; see plinth.clip).");
  if (!nb::hasattr(cls, "real")) {
    nb::setattr(cls, "real",
                nb::steal(PyObject_CallOneArg(
                    reinterpret_cast<PyObject*>(&PyProperty_Type),
                    nb::cpp_function(&unary_function<real>, nb::is_method()).ptr())));
  }
  if (!nb::hasattr(cls, "imag")) {
    nb::setattr(cls, "imag",
                nb::steal(PyObject_CallOneArg(
                    reinterpret_cast<PyObject*>(&PyProperty_Type),
                    nb::cpp_function(&unary_function<imag>, nb::is_method()).ptr())));
  }
}

const char* const expression_doc =
    "A lazy elementwise expression over Arrays and scalars: what Python's operators (+ - * / "
    "// % ** & | ^ << >> ~, unary - + abs, == != < <= > >=) and plinth's math functions "
    "(plinth.sin, exp, where, astype, ...) return for plinth.Arrays and Expressions. Nothing "
    "runs when it is built: `x * 2 + 1` is one Expression, one kernel (include/plinth/"
    "array_expression.hpp). It runs on the default queue of its first Array operand "
    "(`queue`).\n\n"
    "It is evaluated into a new Array, once (the value is kept: later changes to the arrays "
    "it was built from do not change it), the first time it is used as an array: passed to "
    "any function or method taking an Array (it converts implicitly), get(), numpy.asarray(), "
    "indexing, bool(), printing, a kernel argument. plinth.evaluate(expression, "
    "out=None, queue=None) evaluates it explicitly, into `out` if given. `shape`, `dtype`, "
    "`ndim` and `size` do not evaluate it; the other attributes of Array (strides, "
    "copy(), ...) are its value's.\n\n"
    "Dtypes follow numpy 2: Python's bool, int, float and complex are weak scalars (only "
    "their kind counts: float32_array * 2.5 is float32), numpy scalars and 0-d numpy arrays "
    "are strong (float32_array * np.float64(2) is float64). Comparisons are elementwise, so "
    "Arrays and Expressions are unhashable, as numpy's arrays. An error of the evaluation "
    "raised during an implicit conversion reaches Python as a TypeError (nanobind's); "
    "plinth.evaluate() raises the error itself.";

}  // namespace

void bind_expressions(nb::module_& m) {
  nb::class_<PyExpression> expression_class(m, "Expression", expression_doc);
  expression_class
      .def_prop_ro(
          "shape", [](const PyExpression& e) { return nb::tuple(nb::cast(e.expression.shape())); },
          "The broadcast shape, as a tuple (does not evaluate).")
      .def_prop_ro(
          "dtype", [](const PyExpression& e) { return e.expression.dtype(); },
          "The numpy dtype of its value (does not evaluate).")
      .def_prop_ro("ndim", [](const PyExpression& e) { return e.expression.shape().size(); })
      .def_prop_ro("size",
                   [](const PyExpression& e) {
                     std::size_t size = 1;
                     for (auto extent : e.expression.shape()) size *= extent;
                     return size;
                   })
      .def_prop_ro(
          "queue", [](const PyExpression& e) { return e.queue; },
          "The queue it runs on (its first Array operand's default queue; None for scalars "
          "only).")
      .def_prop_ro(
          "evaluated", [](const PyExpression& e) { return e.value.has_value(); },
          "True once it has been evaluated (its value is kept).")
      .def_prop_ro(
          "value",
          [](const PyExpression& e) -> PyArray {
            nb::gil_scoped_release release;
            return e.evaluated();
          },
          "Its value: a new Array, evaluated the first time (then kept). Raises LogicError "
          "for an expression of scalars only, and as plinth.evaluate().")
      .def(
          "get",
          [](const PyExpression& e, const std::optional<Queue>& queue) {
            HostArray host = [&] {
              nb::gil_scoped_release release;
              const auto& value = e.evaluated();
              return value.array.get(value.queue_or_default(queue));
            }();
            return to_numpy(host);
          },
          nb::arg("queue") = nb::none(),
          "Its value as a new numpy array (evaluates it first; blocks until the copy is done).")
      .def(
          "__array__",
          [](const PyExpression& e, nb::handle dtype, nb::handle copy) {
            nb::object value = nb::cast(e.evaluated());
            return value.attr("__array__")(dtype, copy);
          },
          nb::arg("dtype") = nb::none(), nb::arg("copy") = nb::none(),
          "numpy's conversion: its value's __array__ (evaluates it).")
      .def(
          "__str__", [](const PyExpression& e) { return nb::str(nb::cast(e.evaluated())); },
          "Its value's str (evaluates it).")
      .def(
          "__getattr__",
          [](const PyExpression& e, const std::string& name) -> nb::object {
            const nb::handle array_type = nb::type<PyArray>();
            if (!nb::hasattr(array_type, name.c_str())) {
              throw nb::attribute_error(
                  ("'Expression' object has no attribute '" + name + "'").c_str());
            }
            return nb::cast(e.evaluated()).attr(name.c_str());
          },
          "Any other attribute of plinth.Array: its value's (evaluates it), as `strides`, "
          "`copy()` or `is_c_contiguous`.")
      .def(
          "__repr__",
          [](const PyExpression& e) {
            if (!e.queue) {
              return "Expression(shape=(), dtype=" +
                     std::string(nb::str(nb::cast(e.expression.dtype())).c_str()) +
                     ") of scalars only";
            }
            return "Expression(" + std::string(nb::repr(nb::cast(e.evaluated())).c_str()) + ")";
          },
          "Evaluates it and shows its value.")
      .def(
          "__len__",
          [](const PyExpression& e) {
            if (e.expression.shape().empty()) throw nb::type_error("len() of a 0-d expression");
            return e.expression.shape()[0];
          },
          "The first extent (does not evaluate).")
      .def(
          "__bool__",
          [](const PyExpression& e) {
            std::size_t size = 1;
            for (auto extent : e.expression.shape()) size *= extent;
            if (size != 1) {
              throw nb::value_error(
                  "the truth value of an expression with more than one element is ambiguous "
                  "(use plinth.any() or plinth.all())");
            }
            return nb::cast<bool>(
                to_numpy(e.evaluated().array.get(e.evaluated().queue)).attr("item")());
          },
          "The truth of its one element (evaluates it); ValueError for more elements.")
      .def(
          "__getitem__",
          [](const PyExpression& e, nb::handle key) {
            return nb::cast(e.evaluated()).attr("__getitem__")(key);
          },
          "Indexes its value (evaluates it).");
  def_arithmetic(expression_class, false);

  // plinth.Array: the same operators, the in-place ones, and the conversion from an
  // Expression that lets every function taking an Array take an Expression.
  const nb::handle array = nb::type<PyArray>();
  def_arithmetic(array, true);
  nb::cpp_function_def(
      [](nb::pointer_and_handle<PyArray> self, const PyExpression& e) { new (self.p) PyArray(e); },
      nb::scope(array), nb::name("__init__"), nb::is_method(), nb::is_implicit(),
      nb::arg("expression"),
      "The value of `expression` (evaluated on its queue the first time, then kept).");

  m.def(
      "evaluate",
      [](nb::handle object, std::optional<PyArray> out,
         const std::optional<Queue>& queue) -> nb::object {
        if (nb::isinstance<PyExpression>(object) && !out && !queue) {
          const auto& e = *nb::inst_ptr<PyExpression>(object);
          {
            nb::gil_scoped_release release;
            e.evaluated();
          }
          return nb::cast(e.evaluated());
        }
        std::optional<Queue> operand_queue;
        const auto expression = operand(object, operand_queue);
        if (out) {
          const Queue q = queue ? *queue : out->queue;
          {
            nb::gil_scoped_release release;
            assign(q, out->array, expression);
          }
          return nb::cast(*out);
        }
        const std::optional<Queue> q = queue ? queue : operand_queue;
        if (!q) throw LogicError("evaluate: an expression of scalars only needs a queue");
        Array result = [&] {
          nb::gil_scoped_release release;
          return plinth::evaluate(*q, expression);
        }();
        return nb::cast(PyArray{std::move(result), *q});
      },
      nb::arg("expression"), nb::arg("out") = nb::none(), nb::arg("queue") = nb::none(),
      "Evaluates `expression` (an Expression, Array or scalar) as one kernel. Without `out`: "
      "its value as a new Array on `queue` (default: the expression's queue; an Expression's "
      "value is kept, so evaluating it again costs nothing). With `out` (an Array or view): "
      "into `out`, converted to out's dtype with numpy's same_kind casting, on `queue` "
      "(default: out's queue), and returns `out`. Asynchronous. Raises LogicError for shapes "
      "that do not broadcast, a cast same_kind forbids, an integer scalar out of the range of "
      "the dtype it is used in, arrays on another device, and an expression of scalars only "
      "without a queue.");

  // --- Math functions (numpy's names; C's where numpy 2 has them too) ---
  const auto unary = [&](const char* name, nb::object (*f)(nb::handle), const char* doc) {
    m.def(name, f, nb::arg("x"), doc);
  };
  const auto binary = [&](const char* name, nb::object (*f)(nb::handle, nb::handle),
                          const char* doc) { m.def(name, f, nb::arg("x1"), nb::arg("x2"), doc); };
  unary("sin", &unary_function<sin>, "Elementwise sine (lazy: an Expression).");
  unary("cos", &unary_function<cos>, "Elementwise cosine (lazy).");
  unary("tan", &unary_function<tan>, "Elementwise tangent (lazy).");
  unary("arcsin", &unary_function<asin>, "Elementwise inverse sine (lazy).");
  unary("asin", &unary_function<asin>, "Elementwise inverse sine (lazy).");
  unary("arccos", &unary_function<acos>, "Elementwise inverse cosine (lazy).");
  unary("acos", &unary_function<acos>, "Elementwise inverse cosine (lazy).");
  unary("arctan", &unary_function<atan>, "Elementwise inverse tangent (lazy).");
  unary("atan", &unary_function<atan>, "Elementwise inverse tangent (lazy).");
  unary("sinh", &unary_function<sinh>, "Elementwise hyperbolic sine (lazy).");
  unary("cosh", &unary_function<cosh>, "Elementwise hyperbolic cosine (lazy).");
  unary("tanh", &unary_function<tanh>, "Elementwise hyperbolic tangent (lazy).");
  unary("exp", &unary_function<exp>, "Elementwise e**x (lazy).");
  unary("exp2", &unary_function<exp2>, "Elementwise 2**x (lazy).");
  unary("expm1", &unary_function<expm1>, "Elementwise e**x - 1 (lazy).");
  unary("log", &unary_function<log>, "Elementwise natural logarithm (lazy).");
  unary("log2", &unary_function<log2>, "Elementwise base-2 logarithm (lazy).");
  unary("log10", &unary_function<log10>, "Elementwise base-10 logarithm (lazy).");
  unary("log1p", &unary_function<log1p>, "Elementwise log(1 + x) (lazy).");
  unary("sqrt", &unary_function<sqrt>, "Elementwise square root (lazy; NaN for negative reals).");
  unary("cbrt", &unary_function<cbrt>, "Elementwise real cube root (lazy).");
  unary("square", &unary_function<square>, "Elementwise x * x (lazy).");
  unary("reciprocal", &unary_function<reciprocal>, "Elementwise 1 / x in x's dtype (lazy).");
  unary("floor", &unary_function<floor>, "Elementwise floor (lazy; integers kept).");
  unary("ceil", &unary_function<ceil>, "Elementwise ceiling (lazy; integers kept).");
  unary("trunc", &unary_function<trunc>, "Elementwise rounding toward zero (lazy).");
  unary("rint", &unary_function<rint>, "Elementwise rounding to nearest even (lazy).");
  unary("abs", &unary_function<plinth::abs>,
        "Elementwise absolute value (lazy; the modulus for complex).");
  unary("absolute", &unary_function<plinth::abs>, "The same as plinth.abs.");
  unary("fabs", &unary_function<fabs>, "Elementwise absolute value as a float (lazy).");
  unary("sign", &unary_function<sign>, "Elementwise sign (lazy; numpy 2's for complex).");
  unary("negative", &unary_function<negative>, "Elementwise -x (lazy).");
  unary("positive", &unary_function<positive>, "Elementwise +x (lazy; a copy when evaluated).");
  unary("real", &unary_function<real>, "The real part (lazy).");
  unary("imag", &unary_function<imag>, "The imaginary part (lazy; 0 for reals).");
  unary("conj", &unary_function<conj>, "The complex conjugate (lazy).");
  unary("conjugate", &unary_function<conj>, "The complex conjugate (lazy).");
  unary("angle", &unary_function<angle>, "The argument of a complex (lazy).");
  unary("isnan", &unary_function<isnan>, "Elementwise NaN test (lazy, bool).");
  unary("isinf", &unary_function<isinf>, "Elementwise infinity test (lazy, bool).");
  unary("isfinite", &unary_function<isfinite>, "Elementwise finiteness test (lazy, bool).");
  unary("signbit", &unary_function<signbit>, "Elementwise sign bit test (lazy, bool).");
  unary("invert", &unary_function<invert>,
        "Elementwise bitwise not of integers, logical not of bools (lazy).");
  unary("bitwise_not", &unary_function<invert>, "The same as plinth.invert.");
  unary("bitwise_invert", &unary_function<invert>, "The same as plinth.invert.");
  unary("logical_not", &unary_function<logical_not>, "Elementwise logical not (lazy, bool).");

  binary("add", &binary_function<add>, "x1 + x2 (lazy).");
  binary("subtract", &binary_function<subtract>, "x1 - x2 (lazy).");
  binary("multiply", &binary_function<multiply>, "x1 * x2 (lazy).");
  binary("divide", &binary_function<divide>, "x1 / x2, true division (lazy).");
  binary("true_divide", &binary_function<divide>, "x1 / x2, true division (lazy).");
  binary("floor_divide", &binary_function<floordiv>, "x1 // x2 (lazy).");
  binary("remainder", &binary_function<mod>, "x1 % x2, with the divisor's sign (lazy).");
  binary("mod", &binary_function<mod>, "x1 % x2, with the divisor's sign (lazy).");
  binary("fmod", &binary_function<fmod>, "C's fmod: the dividend's sign (lazy).");
  binary("power", &binary_function<power>, "x1 ** x2 (lazy).");
  binary("pow", &binary_function<power>, "x1 ** x2 (lazy).");
  binary("equal", &binary_function<eq>, "x1 == x2 (lazy, bool).");
  binary("not_equal", &binary_function<ne>, "x1 != x2 (lazy, bool).");
  binary("less", &binary_function<lt>, "x1 < x2 (lazy, bool).");
  binary("less_equal", &binary_function<le>, "x1 <= x2 (lazy, bool).");
  binary("greater", &binary_function<gt>, "x1 > x2 (lazy, bool).");
  binary("greater_equal", &binary_function<ge>, "x1 >= x2 (lazy, bool).");
  binary("bitwise_and", &binary_function<bit_and>, "x1 & x2 (lazy).");
  binary("bitwise_or", &binary_function<bit_or>, "x1 | x2 (lazy).");
  binary("bitwise_xor", &binary_function<bit_xor>, "x1 ^ x2 (lazy).");
  binary("left_shift", &binary_function<lshift>, "x1 << x2 (lazy).");
  binary("right_shift", &binary_function<rshift>, "x1 >> x2 (lazy).");
  binary("logical_and", &binary_function<logical_and>, "Elementwise logical and (lazy, bool).");
  binary("logical_or", &binary_function<logical_or>, "Elementwise logical or (lazy, bool).");
  binary("logical_xor", &binary_function<logical_xor>, "Elementwise logical xor (lazy, bool).");
  binary("maximum", &binary_function<maximum>, "Elementwise maximum, NaN propagating (lazy).");
  binary("minimum", &binary_function<minimum>, "Elementwise minimum, NaN propagating (lazy).");
  binary("fmax", &binary_function<fmax>, "Elementwise maximum, NaN losing (lazy).");
  binary("fmin", &binary_function<fmin>, "Elementwise minimum, NaN losing (lazy).");
  binary("arctan2", &binary_function<arctan2>, "Elementwise atan2(x1, x2) (lazy).");
  binary("atan2", &binary_function<arctan2>, "Elementwise atan2(x1, x2) (lazy).");
  binary("hypot", &binary_function<hypot>, "Elementwise sqrt(x1**2 + x2**2) (lazy).");
  binary("copysign", &binary_function<copysign>, "x1 with the sign of x2 (lazy).");
  m.def(
      "divmod",
      [](nb::handle a, nb::handle b) {
        std::optional<Queue> queue;
        auto x = operand(a, queue);
        auto y = operand(b, queue);
        auto [q, r] = divmod(x, y);
        return nb::make_tuple(wrap(std::move(q), queue), wrap(std::move(r), queue));
      },
      nb::arg("x1"), nb::arg("x2"), "(x1 // x2, x1 % x2) (lazy).");
  m.def("clip", &ternary_function<clip>, nb::arg("x"), nb::arg("min"), nb::arg("max"),
        "numpy's clip: minimum(maximum(x, min), max) (lazy).");
  m.def("where", &ternary_function<where>, nb::arg("condition"), nb::arg("x"), nb::arg("y"),
        "numpy's where: x where condition is true, y elsewhere, in their promoted dtype (lazy).");
  const auto rounding = [](nb::handle a, int decimals) {
    std::optional<Queue> queue;
    auto x = operand(a, queue);
    return wrap(plinth::round(x, decimals), std::move(queue));
  };
  m.def("round", rounding, nb::arg("x"), nb::arg("decimals") = 0,
        "numpy's round: to `decimals` places, halves to even (lazy).");
  m.def("around", rounding, nb::arg("x"), nb::arg("decimals") = 0, "The same as plinth.round.");
  m.def(
      "astype",
      [](nb::handle a, const DType& dtype) {
        std::optional<Queue> queue;
        auto x = operand(a, queue);
        return wrap(astype(x, dtype), std::move(queue));
      },
      nb::arg("x"), nb::arg("dtype"),
      "x converted to `dtype` as numpy's astype (lazy). Raises LogicError for complex to "
      "real and struct dtypes.");
  m.def(
      "isclose",
      [](nb::handle a, nb::handle b, double rtol, double atol, bool equal_nan) {
        std::optional<Queue> queue;
        auto x = operand(a, queue);
        auto y = operand(b, queue);
        return wrap(isclose(x, y, rtol, atol, equal_nan), std::move(queue));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-5, nb::arg("atol") = 1e-8,
      nb::arg("equal_nan") = false, "numpy 2's isclose (lazy, bool).");
  m.def(
      "allclose",
      [](nb::handle a, nb::handle b, double rtol, double atol, bool equal_nan,
         std::optional<Queue> queue) {
        std::optional<Queue> operand_queue;
        auto x = operand(a, operand_queue);
        auto y = operand(b, operand_queue);
        if (!queue) queue = operand_queue;
        if (!queue) throw LogicError("allclose: scalars only need a queue");
        nb::gil_scoped_release release;
        return allclose(*queue, x, y, rtol, atol, equal_nan);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("rtol") = 1e-5, nb::arg("atol") = 1e-8,
      nb::arg("equal_nan") = false, nb::arg("queue") = nb::none(),
      "numpy's allclose: evaluates on `queue` (default: the first array's) and waits.");
  m.def(
      "array_equal",
      [](nb::handle a, nb::handle b, bool equal_nan, std::optional<Queue> queue) {
        std::optional<Queue> operand_queue;
        auto x = operand(a, operand_queue);
        auto y = operand(b, operand_queue);
        if (!queue) queue = operand_queue;
        if (!queue) throw LogicError("array_equal: scalars only need a queue");
        nb::gil_scoped_release release;
        return array_equal(*queue, x, y, equal_nan);
      },
      nb::arg("a1"), nb::arg("a2"), nb::arg("equal_nan") = false, nb::arg("queue") = nb::none(),
      "numpy's array_equal: same shape and elements; evaluates on `queue` (default: the first "
      "array's) and waits.");
  m.def(
      "expression_cache_info",
      []() {
        const auto info = expression_cache_info();
        nb::dict d;
        d["kernels"] = info.kernels;
        d["capacity"] = info.capacity;
        d["hits"] = info.hits;
        d["misses"] = info.misses;
        return d;
      },
      "The process-wide kernel recipe cache as a dict: kernels (held now, of every kind), "
      "capacity, and the expression evaluations that found their kernel (hits) or made one "
      "(misses).");
}

}  // namespace plinth::python
