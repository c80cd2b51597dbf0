// plinth.RandomGenerator (random.hpp): a seeded Philox stream filling new Arrays or `out`.

#include <plinth/array.hpp>
#include <plinth/errors.hpp>
#include <plinth/random.hpp>

#include "bindings.hpp"
#include "dtypes.hpp"
#include "py_array.hpp"

#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plinth::python {

namespace {

using Q = std::optional<Queue>;

/// numpy's `size`: an int or a sequence of ints (None: a 0-d array).
std::vector<std::size_t> shape_from(nb::handle shape) {
  if (shape.is_none()) return {};
  if (PyLong_Check(shape.ptr())) return {nb::cast<std::size_t>(shape)};
  return nb::cast<std::vector<std::size_t>>(shape);
}

/// The array to fill: `out`, or a new one of `shape` and `dtype` on `queue`; and the queue
/// (`queue`, else out's).
PyArray target(nb::handle shape, const DType& dtype, const std::optional<PyArray>& out,
               const Q& queue, const char* what) {
  if (out) {
    if (!shape.is_none()) {
      throw LogicError(std::string("RandomGenerator.") + what + ": give `size` or `out`, not both");
    }
    return PyArray{out->array, out->queue_or_default(queue)};
  }
  if (!queue) {
    throw LogicError(std::string("RandomGenerator.") + what +
                     ": a new array needs a queue (queue=...), or give out=");
  }
  return PyArray{Array::empty(*queue, shape_from(shape), dtype), *queue};
}

/// The result: `out` itself (the Python object) or the new array.
nb::object result(const PyArray& filled, nb::handle out) {
  if (!out.is_none()) return nb::borrow(out);
  return nb::cast(filled);
}

/// A Python int as an IntegerBound (int64, else uint64). Throws LogicError beyond both.
IntegerBound bound_from(nb::handle value, const char* name) {
  if (!PyLong_Check(value.ptr())) {
    throw nb::type_error((std::string(name) + " must be an int").c_str());
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow == 0) return IntegerBound(static_cast<std::int64_t>(v));
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred() != nullptr)) {
      return IntegerBound(static_cast<std::uint64_t>(u));
    }
    PyErr_Clear();
  }
  throw LogicError(std::string("RandomGenerator.integers: ") + name +
                   " is out of the range of every integer dtype");
}

}  // namespace

void bind_random(nb::module_& m) {
  nb::class_<RandomGenerator>(
      m, "RandomGenerator",
      "A seeded counter-based Philox-4x32-10 stream (random.hpp): the same seed, offset and "
      "shape give bit-identical arrays on every device and backend. Each call uses the "
      "current `offset`, then advances it by one. The methods fill `out` (any Array or view, "
      "on `queue`, default: out's) or a new C-order Array of `size` and `dtype` on `queue` "
      "(required then); they are asynchronous and return the array. A generator is used by "
      "one thread at a time.")
      .def(nb::init<std::uint64_t, std::uint64_t>(), nb::arg("seed"), nb::arg("offset") = 0,
           "A generator with key `seed` whose next call uses `offset`.")
      .def_prop_ro("seed", &RandomGenerator::seed, "The key.")
      .def_prop_rw("offset", &RandomGenerator::offset, &RandomGenerator::set_offset,
                   "The offset the next call uses; set it to repeat or skip calls.")
      .def("__repr__",
           [](const RandomGenerator& g) {
             return "RandomGenerator(seed=" + std::to_string(g.seed()) +
                    ", offset=" + std::to_string(g.offset()) + ")";
           })
      .def(
          "uniform",
          [](RandomGenerator& g, double low, double high, nb::handle size, const DType& dtype,
             const Q& queue, nb::handle out) {
            const auto o =
                out.is_none() ? std::nullopt : std::optional<PyArray>(nb::cast<PyArray>(out));
            const PyArray a = target(size, dtype, o, queue, "uniform");
            {
              nb::gil_scoped_release release;
              g.uniform(a.queue, a.array, low, high);
            }
            return result(a, out);
          },
          nb::arg("low") = 0.0, nb::arg("high") = 1.0, nb::arg("size") = nb::none(),
          nb::arg("dtype") = "float64", nb::kw_only(), nb::arg("queue") = nb::none(),
          nb::arg("out") = nb::none(),
          "Numbers uniform in [low, high) (numpy's Generator.uniform), of dtype float32 or "
          "float64. Raises LogicError for other dtypes, bounds not finite or not low < high, "
          "float64 on a device without doubles.")
      .def(
          "random",
          [](RandomGenerator& g, nb::handle size, const DType& dtype, const Q& queue,
             nb::handle out) {
            const auto o =
                out.is_none() ? std::nullopt : std::optional<PyArray>(nb::cast<PyArray>(out));
            const PyArray a = target(size, dtype, o, queue, "random");
            {
              nb::gil_scoped_release release;
              g.uniform(a.queue, a.array);
            }
            return result(a, out);
          },
          nb::arg("size") = nb::none(), nb::arg("dtype") = "float64", nb::kw_only(),
          nb::arg("queue") = nb::none(), nb::arg("out") = nb::none(),
          "Numbers uniform in [0, 1) (numpy's Generator.random): uniform(0, 1, ...).")
      .def(
          "normal",
          [](RandomGenerator& g, nb::handle loc, double scale, nb::handle size, const DType& dtype,
             const Q& queue, nb::handle out) {
            const auto o =
                out.is_none() ? std::nullopt : std::optional<PyArray>(nb::cast<PyArray>(out));
            const PyArray a = target(size, dtype, o, queue, "normal");
            if (PyComplex_Check(loc.ptr())) {
              const auto mean = nb::cast<std::complex<double>>(loc);
              nb::gil_scoped_release release;
              g.normal(a.queue, a.array, mean, scale);
            } else {
              const auto mean = nb::cast<double>(loc);
              nb::gil_scoped_release release;
              g.normal(a.queue, a.array, mean, scale);
            }
            return result(a, out);
          },
          nb::arg("loc") = 0.0, nb::arg("scale") = 1.0, nb::arg("size") = nb::none(),
          nb::arg("dtype") = "float64", nb::kw_only(), nb::arg("queue") = nb::none(),
          nb::arg("out") = nb::none(),
          "Normal numbers of mean `loc` (complex for complex dtypes) and standard deviation "
          "`scale` (numpy's Generator.normal), of dtype float32, float64, complex64 or "
          "complex128 (a complex one has E|x - loc|^2 = scale^2). Raises LogicError for other "
          "dtypes, a loc or scale not finite, a negative scale.")
      .def(
          "bits",
          [](RandomGenerator& g, nb::handle size, const DType& dtype, const Q& queue,
             nb::handle out) {
            const auto o =
                out.is_none() ? std::nullopt : std::optional<PyArray>(nb::cast<PyArray>(out));
            const PyArray a = target(size, dtype, o, queue, "bits");
            {
              nb::gil_scoped_release release;
              g.bits(a.queue, a.array);
            }
            return result(a, out);
          },
          nb::arg("size") = nb::none(), nb::arg("dtype") = "uint64", nb::kw_only(),
          nb::arg("queue") = nb::none(), nb::arg("out") = nb::none(),
          "Integers (int8 ... uint64) with every bit random. Raises LogicError for other "
          "dtypes.")
      .def(
          "integers",
          [](RandomGenerator& g, nb::handle low, nb::handle high, nb::handle size,
             const DType& dtype, bool endpoint, const Q& queue, nb::handle out) {
            const auto o =
                out.is_none() ? std::nullopt : std::optional<PyArray>(nb::cast<PyArray>(out));
            IntegerBound lo(0), hi(0);
            if (high.is_none()) {
              hi = bound_from(low, "low");
            } else {
              lo = bound_from(low, "low");
              hi = bound_from(high, "high");
            }
            const PyArray a = target(size, dtype, o, queue, "integers");
            {
              nb::gil_scoped_release release;
              g.integers(a.queue, a.array, lo, hi, endpoint);
            }
            return result(a, out);
          },
          nb::arg("low"), nb::arg("high") = nb::none(), nb::arg("size") = nb::none(),
          nb::arg("dtype") = "int64", nb::arg("endpoint") = false, nb::kw_only(),
          nb::arg("queue") = nb::none(), nb::arg("out") = nb::none(),
          "Integers uniform in [low, high), or [low, high] with `endpoint` ([0, low) with one "
          "bound), without modulo bias (numpy's Generator.integers), of an integer dtype. "
          "Raises LogicError as numpy refuses: low >= high, bounds out of the dtype's range, "
          "another dtype.");
}

}  // namespace plinth::python
