// Matrix products (blas.hpp): gemm, gemm_batched, gemv, ger and matmul as module functions,
// and `a @ b` on Array and Expression.

#include <plinth/blas.hpp>
#include <plinth/errors.hpp>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <complex>
#include <optional>
#include <string>

namespace plinth::python {

namespace {

using Q = std::optional<Queue>;

/// A transpose given as pygpu's bool (True: transpose) or BLAS's letter ('N', 'T', 'C').
Transpose transpose_from(nb::handle value, const char* name) {
  if (PyBool_Check(value.ptr())) {
    return value.ptr() == Py_True ? Transpose::transpose : Transpose::none;
  }
  if (nb::isinstance<nb::str>(value)) {
    const auto letter = nb::cast<std::string>(value);
    if (letter == "N" || letter == "n") return Transpose::none;
    if (letter == "T" || letter == "t") return Transpose::transpose;
    if (letter == "C" || letter == "c") return Transpose::conjugate_transpose;
  }
  throw LogicError(std::string(name) + " must be a bool or one of 'N', 'T', 'C', not " +
                   nb::cast<std::string>(nb::repr(value)));
}

/// gemm, or gemm_batched where `Batched`.
template <bool Batched>
nb::object gemm_(const PyArray& a, const PyArray& b, nb::handle c, std::complex<double> alpha,
                 std::complex<double> beta, nb::handle trans_a, nb::handle trans_b,
                 bool tensor_float32, const Q& queue) {
  const Queue& q = a.queue_or_default(queue);
  const GemmOptions options{alpha, beta, transpose_from(trans_a, "trans_a"),
                            transpose_from(trans_b, "trans_b"), tensor_float32};
  Array r = [&] {
    nb::gil_scoped_release release;
    return Batched ? gemm_batched(q, a.array, b.array, out_array(c), options)
                   : gemm(q, a.array, b.array, out_array(c), options);
  }();
  return result(std::move(r), q, c);
}

nb::object gemv_(const PyArray& a, const PyArray& x, nb::handle y, std::complex<double> alpha,
                 std::complex<double> beta, nb::handle trans, const Q& queue) {
  const Queue& q = a.queue_or_default(queue);
  const GemvOptions options{alpha, beta, transpose_from(trans, "trans")};
  Array r = [&] {
    nb::gil_scoped_release release;
    return gemv(q, a.array, x.array, out_array(y), options);
  }();
  return result(std::move(r), q, y);
}

nb::object ger_(const PyArray& x, const PyArray& y, nb::handle a, std::complex<double> alpha,
                bool conjugate_y, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  Array r = [&] {
    nb::gil_scoped_release release;
    return ger(q, x.array, y.array, out_array(a), {alpha, conjugate_y});
  }();
  return result(std::move(r), q, a);
}

nb::object matmul_(const PyArray& a, const PyArray& b, nb::handle out, const Q& queue) {
  const Queue& q = a.queue_or_default(queue);
  Array r = [&] {
    nb::gil_scoped_release release;
    return matmul(q, a.array, b.array, out_array(out));
  }();
  return result(std::move(r), q, out);
}

/// An operand of `@`: an Array, or an Expression's value; nothing for anything else.
std::optional<PyArray> operand_of(nb::handle h) {
  if (nb::isinstance<PyArray>(h)) return nb::cast<const PyArray&>(h);
  if (nb::isinstance<PyExpression>(h)) {
    const auto& e = *nb::inst_ptr<PyExpression>(h);
    nb::gil_scoped_release release;
    return e.evaluated();
  }
  return std::nullopt;
}

/// `left @ right` on the left operand's queue, or NotImplemented for other operands.
nb::object matmul_operator(nb::handle left, nb::handle right) {
  const auto a = operand_of(left);
  const auto b = operand_of(right);
  if (!a || !b) return nb::borrow(Py_NotImplemented);
  return matmul_(*a, *b, nb::none(), std::nullopt);
}

nb::object reflected_matmul_operator(nb::handle self, nb::handle other) {
  return matmul_operator(other, self);
}

}  // namespace

void bind_blas(nb::module_& m) {
  const auto q = nb::arg("queue") = nb::none();
  const auto none = nb::none();
  m.def("gemm", &gemm_<false>, nb::arg("a"), nb::arg("b"), nb::arg("c") = none,
        nb::arg("alpha") = 1.0, nb::arg("beta") = 0.0, nb::arg("trans_a") = false,
        nb::arg("trans_b") = false, nb::arg("tensor_float32") = false, q,
        "c = alpha op(a) op(b) + beta c for 2-D arrays, into `c` (returned) or a new array "
        "(beta must then be 0). `trans_a`, `trans_b`: False/'N', True/'T', or 'C' (conjugate "
        "transpose). float32, float64, complex64, complex128, one dtype for all. "
        "`tensor_float32`: a library with tensor cores (cuBLAS) may round float32 inputs to "
        "TF32. Runs through the vendor's BLAS library where blas_support() finds one "
        "(PLINTH_BLAS=plinth: plinth's kernels). Raises LogicError for shapes, dtypes or "
        "scalars that do not fit (blas.hpp).");
  m.def("gemm_batched", &gemm_<true>, nb::arg("a"), nb::arg("b"), nb::arg("c") = none,
        nb::arg("alpha") = 1.0, nb::arg("beta") = 0.0, nb::arg("trans_a") = false,
        nb::arg("trans_b") = false, nb::arg("tensor_float32") = false, q,
        "gemm for every matrix of 3-D stacks (pygpu's gemmBatch_3d): c[i] = alpha op(a[i]) "
        "op(b[i]) + beta c[i].");
  m.def("gemv", &gemv_, nb::arg("a"), nb::arg("x"), nb::arg("y") = none, nb::arg("alpha") = 1.0,
        nb::arg("beta") = 0.0, nb::arg("trans") = false, q,
        "y = alpha op(a) x + beta y for a 2-D `a` and 1-D `x`, `y`, into `y` (returned) or a "
        "new array.");
  m.def("ger", &ger_, nb::arg("x"), nb::arg("y"), nb::arg("a") = none, nb::arg("alpha") = 1.0,
        nb::arg("conjugate_y") = false, q,
        "a += alpha x y^T (y^H with conjugate_y) in place, returning `a`; without `a`, the new "
        "matrix alpha x y^T.");
  m.def("matmul", &matmul_, nb::arg("a"), nb::arg("b"), nb::arg("out") = none, q,
        "numpy.matmul (a @ b): 1-D operands as a row or a column, stacks broadcast, the "
        "operands converted to their result_type (float32, float64, complex64 or complex128). "
        "Into `out` (returned) or a new array.");
  nb::class_<BlasSupport>(m, "BlasSupport",
                          "Whether an API's products run through a vendor BLAS library, and "
                          "which, or why not.")
      .def_ro("library", &BlasSupport::library,
              "The library is found: products use it unless PLINTH_BLAS=plinth.")
      .def_ro("description", &BlasSupport::description,
              "The library and its version ('cuBLAS 13.1.0 (libcublas.so.13)'), or why there is "
              "none.")
      .def("__repr__", [](const BlasSupport& s) {
        return std::string("plinth.BlasSupport(library=") + (s.library ? "True" : "False") +
               ", description='" + s.description + "')";
      });
  m.def("blas_support", &blas_support, nb::arg("api"),
        "A BlasSupport for `api` (the backend opens its library on the first call). Never "
        "raises.");
  for (const auto cls : {nb::type<PyArray>(), nb::type<PyExpression>()}) {
    nb::cpp_function_def(&matmul_operator, nb::scope(cls), nb::name("__matmul__"), nb::is_method());
    nb::cpp_function_def(&reflected_matmul_operator, nb::scope(cls), nb::name("__rmatmul__"),
                         nb::is_method());
  }
}

}  // namespace plinth::python
