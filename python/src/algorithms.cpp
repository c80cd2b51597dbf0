// numpy's algorithms over plinth.Array: reductions (array_reductions.hpp), scans (scan.hpp),
// sorting (sorting.hpp), compaction (compaction.hpp), histograms (histogram.hpp), shape
// operations (array_shape.hpp); as module functions, and as methods
// of Array and Expression where numpy's ndarray has them.

#include <plinth/array_reductions.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/compaction.hpp>
#include <plinth/errors.hpp>
#include <plinth/histogram.hpp>
#include <plinth/scan.hpp>
#include <plinth/sorting.hpp>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "dtypes.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plinth::python {

namespace {

using Axes = std::optional<std::vector<std::ptrdiff_t>>;

/// numpy's `axis`: None (nothing), an int, or a sequence of ints.
Axes axes_from(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  if (PyLong_Check(axis.ptr())) return std::vector<std::ptrdiff_t>{nb::cast<std::ptrdiff_t>(axis)};
  return nb::cast<std::vector<std::ptrdiff_t>>(axis);
}

/// A shape given as an int or a sequence of ints.
std::vector<std::ptrdiff_t> shape_from(nb::handle shape) {
  if (PyLong_Check(shape.ptr())) return {nb::cast<std::ptrdiff_t>(shape)};
  return nb::cast<std::vector<std::ptrdiff_t>>(shape);
}

Order order_from(const std::string& order) {
  if (order == "C") return Order::C;
  if (order == "F") return Order::F;
  throw LogicError("order must be 'C' or 'F', not '" + order + "'");
}

nb::list results(std::vector<Array> arrays, const Queue& queue) {
  nb::list list;
  for (auto& array : arrays) list.append(nb::cast(PyArray{std::move(array), queue}));
  return list;
}

/// A view of `x`: the same default queue.
PyArray view(Array array, const PyArray& x) { return PyArray{std::move(array), x.queue}; }

using Q = std::optional<Queue>;

// --- Reductions ---

nb::object sum_(const PyArray& x, nb::handle axis, const std::optional<DType>& dtype,
                nb::handle out, bool keepdims, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  const ReductionAxes axes{axes_from(axis), keepdims, out_array(out)};
  Array r = [&] {
    nb::gil_scoped_release release;
    return sum(q, x.array, axes, dtype);
  }();
  return result(std::move(r), q, out);
}

nb::object prod_(const PyArray& x, nb::handle axis, const std::optional<DType>& dtype,
                 nb::handle out, bool keepdims, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  const ReductionAxes axes{axes_from(axis), keepdims, out_array(out)};
  Array r = [&] {
    nb::gil_scoped_release release;
    return prod(q, x.array, axes, dtype);
  }();
  return result(std::move(r), q, out);
}

nb::object nansum_(const PyArray& x, nb::handle axis, const std::optional<DType>& dtype,
                   nb::handle out, bool keepdims, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  const ReductionAxes axes{axes_from(axis), keepdims, out_array(out)};
  Array r = [&] {
    nb::gil_scoped_release release;
    return nansum(q, x.array, axes, dtype);
  }();
  return result(std::move(r), q, out);
}

using Reduction = Array (*)(const Queue&, const Array&, const ReductionAxes&);

template <Reduction F>
nb::object reduce(const PyArray& x, nb::handle axis, nb::handle out, bool keepdims,
                  const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  const ReductionAxes axes{axes_from(axis), keepdims, out_array(out)};
  Array r = [&] {
    nb::gil_scoped_release release;
    return F(q, x.array, axes);
  }();
  return result(std::move(r), q, out);
}

Array min_(const Queue& q, const Array& x, const ReductionAxes& a) { return min(q, x, a); }
Array max_(const Queue& q, const Array& x, const ReductionAxes& a) { return max(q, x, a); }
Array any_(const Queue& q, const Array& x, const ReductionAxes& a) { return any(q, x, a); }
Array all_(const Queue& q, const Array& x, const ReductionAxes& a) { return all(q, x, a); }
Array mean_(const Queue& q, const Array& x, const ReductionAxes& a) { return mean(q, x, a); }
Array nanmin_(const Queue& q, const Array& x, const ReductionAxes& a) { return nanmin(q, x, a); }
Array nanmax_(const Queue& q, const Array& x, const ReductionAxes& a) { return nanmax(q, x, a); }

template <bool Std>
nb::object spread(const PyArray& x, nb::handle axis, nb::handle out, double ddof, bool keepdims,
                  const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  const ReductionAxes axes{axes_from(axis), keepdims, out_array(out)};
  Array r = [&] {
    nb::gil_scoped_release release;
    return Std ? plinth::std(q, x.array, axes, ddof) : var(q, x.array, axes, ddof);
  }();
  return result(std::move(r), q, out);
}

template <bool Max>
PyArray arg_extreme(const PyArray& x, std::optional<std::ptrdiff_t> axis, bool keepdims,
                    const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  nb::gil_scoped_release release;
  return PyArray{Max ? argmax(q, x.array, axis, keepdims) : argmin(q, x.array, axis, keepdims), q};
}

nb::object dot_(const PyArray& a, const PyArray& b, nb::handle out, const Q& queue) {
  const Queue& q = a.queue_or_default(queue);
  const auto o = out_array(out);
  Array r = [&] {
    nb::gil_scoped_release release;
    return dot(q, a.array, b.array, o);
  }();
  return result(std::move(r), q, out);
}

// --- Scans ---

template <bool Prod>
PyArray scan(const PyArray& x, std::optional<int> axis, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  nb::gil_scoped_release release;
  if (axis) {
    return PyArray{Prod ? cumprod(q, x.array, *axis) : cumsum(q, x.array, *axis), q};
  }
  return PyArray{Prod ? cumprod(q, x.array) : cumsum(q, x.array), q};
}

// --- Sorting ---

template <bool Arg>
PyArray sort_(const PyArray& x, std::ptrdiff_t axis, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  nb::gil_scoped_release release;
  return PyArray{Arg ? argsort(q, x.array, axis) : sort(q, x.array, axis), q};
}

PyArray partition_(const PyArray& x, std::ptrdiff_t kth, std::ptrdiff_t axis, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  nb::gil_scoped_release release;
  return PyArray{partition(q, x.array, kth, axis), q};
}

// --- Compaction ---

nb::tuple nonzero_(const PyArray& x, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  std::vector<Array> r = [&] {
    nb::gil_scoped_release release;
    return nonzero(q, x.array);
  }();
  return nb::tuple(results(std::move(r), q));
}

PyArray compress_(const PyArray& x, const PyArray& condition, std::optional<std::ptrdiff_t> axis,
                  const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  nb::gil_scoped_release release;
  return PyArray{compress(q, condition.array, x.array, axis), q};
}

// --- Shape operations ---

PyArray reshape_(const PyArray& x, nb::handle shape, const std::string& order, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  const auto s = shape_from(shape);
  const auto o = order_from(order);
  nb::gil_scoped_release release;
  return PyArray{reshape(q, x.array, s, o), x.queue};
}

PyArray transpose_(const PyArray& x, const Axes& axes) {
  return view(transposed_view(x.array, axes), x);
}

PyArray ravel_(const PyArray& x, const std::string& order, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  const auto o = order_from(order);
  nb::gil_scoped_release release;
  return PyArray{ravel(q, x.array, o), x.queue};
}

PyArray flatten_(const PyArray& x, const std::string& order, const Q& queue) {
  const Queue& q = x.queue_or_default(queue);
  const auto o = order_from(order);
  nb::gil_scoped_release release;
  return PyArray{flatten(q, x.array, o), x.queue};
}

PyArray squeeze_(const PyArray& x, nb::handle axis) {
  return view(squeeze(x.array, axes_from(axis)), x);
}

PyArray swapaxes_(const PyArray& x, std::ptrdiff_t a1, std::ptrdiff_t a2) {
  return view(swapaxes(x.array, a1, a2), x);
}

/// The arrays of a join, and the queue it runs on (`queue`, else the first array's).
std::vector<Array> arrays_of(const std::vector<PyArray>& arrays, const Q& queue, Q& q) {
  if (arrays.empty()) throw LogicError("no arrays to join");
  q = queue ? queue : arrays.front().queue;
  std::vector<Array> result;
  result.reserve(arrays.size());
  for (const auto& a : arrays) result.push_back(a.array);
  return result;
}

using Join = Array (*)(const Queue&, std::span<const Array>);

template <Join F>
PyArray join(const std::vector<PyArray>& arrays, const Q& queue) {
  Q q;
  const auto a = arrays_of(arrays, queue, q);
  nb::gil_scoped_release release;
  return PyArray{F(*q, a), *q};
}

Array hstack_(const Queue& q, std::span<const Array> a) { return hstack(q, a); }
Array vstack_(const Queue& q, std::span<const Array> a) { return vstack(q, a); }
Array dstack_(const Queue& q, std::span<const Array> a) { return dstack(q, a); }

/// numpy's indices_or_sections: an int (sections) or a sequence of indices.
template <class Sections, class Indices>
nb::list split_by(const PyArray& x, nb::handle how, Sections sections, Indices indices) {
  std::vector<Array> parts;
  if (PyLong_Check(how.ptr())) {
    parts = sections(x.array, nb::cast<std::size_t>(how));
  } else {
    const auto at = nb::cast<std::vector<std::ptrdiff_t>>(how);
    parts = indices(x.array, std::span<const std::ptrdiff_t>(at));
  }
  return results(std::move(parts), x.queue);
}

nb::list split_(const PyArray& x, nb::handle how, std::ptrdiff_t axis) {
  return split_by(
      x, how, [&](const Array& a, std::size_t n) { return split(a, n, axis); },
      [&](const Array& a, std::span<const std::ptrdiff_t> at) { return split(a, at, axis); });
}

// --- Methods on Array and Expression ---

/// F as a method of Expression: on its value (evaluated first).
template <auto F>
struct OnValue;
template <class R, class... A, R (*F)(const PyArray&, A...)>
struct OnValue<F> {
  static R call(const PyExpression& e, A... args) {
    {
      nb::gil_scoped_release release;
      e.evaluated();
    }
    return F(e.evaluated(), std::forward<A>(args)...);
  }
};

struct Classes {
  nb::handle array, expression;
};

/// Defines the method `name` (F, with `self` its array) on Array and Expression, unless the
/// class has it already (another file's binding wins).
template <auto F, class... Extra>
void def_method(const Classes& classes, const char* name, const Extra&... extra) {
  if (!nb::hasattr(classes.array, name)) {
    nb::cpp_function_def(F, nb::scope(classes.array), nb::name(name), nb::is_method(), extra...);
  }
  if (!nb::hasattr(classes.expression, name)) {
    nb::cpp_function_def(&OnValue<F>::call, nb::scope(classes.expression), nb::name(name),
                         nb::is_method(), extra...);
  }
}

const PyArray& value_of(nb::handle self) {
  if (nb::isinstance<PyExpression>(self)) {
    const auto& e = *nb::inst_ptr<PyExpression>(self);
    {
      nb::gil_scoped_release release;
      e.evaluated();
    }
    return e.evaluated();
  }
  return nb::cast<const PyArray&>(self);
}

}  // namespace

void bind_algorithms(nb::module_& m) {
  const Classes classes{nb::type<PyArray>(), nb::type<PyExpression>()};
  const auto q = nb::arg("queue") = nb::none();

  // --- Reductions ---
  const char* const reduction_note =
      " `axis`: None (all), an int or a tuple of ints (negative ones count from the end); "
      "`keepdims` keeps the reduced axes with extent 1; `out`: an Array of the result's "
      "dtype and shape to write into (returned). Runs on `queue` (default: x's). Raises "
      "LogicError for a bad axis or out, and as the C++ function (array_reductions.hpp).";
  const auto doc = [&](const char* what) {
    static std::list<std::string> docs;  // the docstrings live as long as the module
    docs.push_back(std::string(what) + reduction_note);
    return docs.back().c_str();
  };
  m.def("sum", &sum_, nb::arg("x"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(),
        nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
        doc("numpy.sum: the sum, accumulated in `dtype` (default: numpy's: int64 for narrower "
            "signed integers and bool, uint64 for unsigned ones)."));
  def_method<&sum_>(classes, "sum", nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(),
                    nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
                    "numpy's ndarray.sum (see plinth.sum).");
  m.def("prod", &prod_, nb::arg("x"), nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(),
        nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
        doc("numpy.prod: the product, accumulated as sum."));
  def_method<&prod_>(classes, "prod", nb::arg("axis") = nb::none(), nb::arg("dtype") = nb::none(),
                     nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
                     "numpy's ndarray.prod (see plinth.prod).");
  m.def("nansum", &nansum_, nb::arg("x"), nb::arg("axis") = nb::none(),
        nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
        doc("numpy.nansum: the sum, NaNs counted as 0."));
  const auto plain = [&](const char* name, auto f, const char* what, const char* alias = nullptr) {
    const char* d = doc(what);
    m.def(name, f, nb::arg("x"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(),
          nb::arg("keepdims") = false, nb::arg("queue") = nb::none(), d);
    if (alias != nullptr) {
      m.def(alias, f, nb::arg("x"), nb::arg("axis") = nb::none(), nb::arg("out") = nb::none(),
            nb::arg("keepdims") = false, nb::arg("queue") = nb::none(), d);
    }
  };
  plain("min", &reduce<min_>, "numpy.min: the smallest element (NaN if any is NaN).", "amin");
  def_method<&reduce<min_>>(classes, "min", nb::arg("axis") = nb::none(),
                            nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
                            "numpy's ndarray.min (see plinth.min).");
  plain("max", &reduce<max_>, "numpy.max: the largest element (NaN if any is NaN).", "amax");
  def_method<&reduce<max_>>(classes, "max", nb::arg("axis") = nb::none(),
                            nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
                            "numpy's ndarray.max (see plinth.max).");
  plain("any", &reduce<any_>, "numpy.any: whether any element is nonzero (bool).");
  def_method<&reduce<any_>>(classes, "any", nb::arg("axis") = nb::none(),
                            nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
                            "numpy's ndarray.any (see plinth.any).");
  plain("all", &reduce<all_>, "numpy.all: whether every element is nonzero (bool).");
  def_method<&reduce<all_>>(classes, "all", nb::arg("axis") = nb::none(),
                            nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
                            "numpy's ndarray.all (see plinth.all).");
  plain("mean", &reduce<mean_>,
        "numpy.mean: the arithmetic mean (float64 for integers and bools).");
  def_method<&reduce<mean_>>(classes, "mean", nb::arg("axis") = nb::none(),
                             nb::arg("out") = nb::none(), nb::arg("keepdims") = false, q,
                             "numpy's ndarray.mean (see plinth.mean).");
  plain("nanmin", &reduce<nanmin_>, "numpy.nanmin: the smallest element, ignoring NaNs.");
  plain("nanmax", &reduce<nanmax_>, "numpy.nanmax: the largest element, ignoring NaNs.");
  m.def("var", &spread<false>, nb::arg("x"), nb::arg("axis") = nb::none(),
        nb::arg("out") = nb::none(), nb::arg("ddof") = 0.0, nb::arg("keepdims") = false, q,
        doc("numpy.var: the variance, divided by count - ddof."));
  def_method<&spread<false>>(classes, "var", nb::arg("axis") = nb::none(),
                             nb::arg("out") = nb::none(), nb::arg("ddof") = 0.0,
                             nb::arg("keepdims") = false, q, "numpy's ndarray.var.");
  m.def("std", &spread<true>, nb::arg("x"), nb::arg("axis") = nb::none(),
        nb::arg("out") = nb::none(), nb::arg("ddof") = 0.0, nb::arg("keepdims") = false, q,
        doc("numpy.std: the standard deviation, sqrt(var)."));
  def_method<&spread<true>>(classes, "std", nb::arg("axis") = nb::none(),
                            nb::arg("out") = nb::none(), nb::arg("ddof") = 0.0,
                            nb::arg("keepdims") = false, q, "numpy's ndarray.std.");
  const char* const arg_doc =
      "The int64 index of the first smallest (argmin) or largest (argmax) element: flat "
      "without `axis`, along `axis` otherwise (numpy's; NaN wins). Raises LogicError for "
      "complex, float16, empty arrays and a bad axis.";
  m.def("argmin", &arg_extreme<false>, nb::arg("x"), nb::arg("axis") = nb::none(),
        nb::arg("keepdims") = false, q, arg_doc);
  m.def("argmax", &arg_extreme<true>, nb::arg("x"), nb::arg("axis") = nb::none(),
        nb::arg("keepdims") = false, q, arg_doc);
  def_method<&arg_extreme<false>>(classes, "argmin", nb::arg("axis") = nb::none(),
                                  nb::arg("keepdims") = false, q, arg_doc);
  def_method<&arg_extreme<true>>(classes, "argmax", nb::arg("axis") = nb::none(),
                                 nb::arg("keepdims") = false, q, arg_doc);
  m.def("dot", &dot_, nb::arg("a"), nb::arg("b"), nb::arg("out") = nb::none(), q,
        "numpy.dot of two 1-D arrays of one length: sum(a * b) without conjugation, in their "
        "result_type, shape (). Raises LogicError for other shapes.");
  def_method<&dot_>(classes, "dot", nb::arg("b"), nb::arg("out") = nb::none(), q,
                    "numpy's ndarray.dot (1-D only; see plinth.dot).");

  // --- Scans ---
  const char* const cumsum_doc =
      "numpy.cumsum: the running sums, of the flattened array (C order) without `axis`, "
      "along `axis` otherwise; int64/uint64 for narrower integers. Raises LogicError for bool, "
      "float16 and a bad axis.";
  const char* const cumprod_doc = "numpy.cumprod: the running products (as cumsum).";
  m.def("cumsum", &scan<false>, nb::arg("x"), nb::arg("axis") = nb::none(), q, cumsum_doc);
  m.def("cumprod", &scan<true>, nb::arg("x"), nb::arg("axis") = nb::none(), q, cumprod_doc);
  def_method<&scan<false>>(classes, "cumsum", nb::arg("axis") = nb::none(), q, cumsum_doc);
  def_method<&scan<true>>(classes, "cumprod", nb::arg("axis") = nb::none(), q, cumprod_doc);

  // --- Sorting and searching ---
  const char* const sort_doc =
      "numpy.sort (stable): a sorted copy along `axis` (integers, bool, float32, float64; NaNs "
      "last). Raises LogicError for other dtypes, 0-d arrays and a bad axis.";
  const char* const argsort_doc =
      "numpy.argsort (kind='stable'): the int64 indices that sort `x` along `axis`.";
  m.def("sort", &sort_<false>, nb::arg("x"), nb::arg("axis") = -1, q, sort_doc);
  m.def("argsort", &sort_<true>, nb::arg("x"), nb::arg("axis") = -1, q, argsort_doc);
  // ndarray.sort sorts in place, which C++ does not offer: not bound as a method.
  def_method<&sort_<true>>(classes, "argsort", nb::arg("axis") = -1, q, argsort_doc);
  m.def("partition", &partition_, nb::arg("x"), nb::arg("kth"), nb::arg("axis") = -1, q,
        "numpy.partition: the kth element in its sorted place (here: the axis fully sorted).");
  m.def(
      "unique",
      [](const PyArray& x, bool return_index, bool return_inverse, bool return_counts,
         const Q& queue) -> nb::object {
        const Queue& qu = x.queue_or_default(queue);
        UniqueResult r = [&] {
          nb::gil_scoped_release release;
          return unique(qu, x.array, {return_index, return_inverse, return_counts});
        }();
        if (!return_index && !return_inverse && !return_counts) {
          return nb::cast(PyArray{r.values, qu});
        }
        nb::list list;
        list.append(nb::cast(PyArray{r.values, qu}));
        if (r.index) list.append(nb::cast(PyArray{*r.index, qu}));
        if (r.inverse) list.append(nb::cast(PyArray{*r.inverse, qu}));
        if (r.counts) list.append(nb::cast(PyArray{*r.counts, qu}));
        return nb::tuple(list);
      },
      nb::arg("x"), nb::arg("return_index") = false, nb::arg("return_inverse") = false,
      nb::arg("return_counts") = false, q,
      "numpy.unique (equal_nan=True) of the flattened array: the sorted unique values, and "
      "the int64 arrays asked for, as a tuple in numpy's order. Waits for the count.");
  m.def(
      "searchsorted",
      [](const PyArray& a, const PyArray& v, const std::string& side, const Q& queue) {
        if (side != "left" && side != "right") {
          throw LogicError("searchsorted: side must be 'left' or 'right', not '" + side + "'");
        }
        const Queue& qu = a.queue_or_default(queue);
        nb::gil_scoped_release release;
        return PyArray{
            searchsorted(qu, a.array, v.array, side == "left" ? Side::left : Side::right), qu};
      },
      nb::arg("a"), nb::arg("v"), nb::arg("side") = "left", q,
      "numpy.searchsorted: int64 insertion points of `v` into the ascending 1-D `a`.");
  m.def(
      "sort_by_key",
      [](const PyArray& keys, const PyArray& values, const Q& queue) {
        const Queue& qu = keys.queue_or_default(queue);
        SortedPairs r = [&] {
          nb::gil_scoped_release release;
          return sort_by_key(qu, keys.array, values.array);
        }();
        return nb::make_tuple(PyArray{r.keys, qu}, PyArray{r.values, qu});
      },
      nb::arg("keys"), nb::arg("values"), q,
      "(keys sorted along the last axis (stable), values moved with them).");
  m.def(
      "topk",
      [](const PyArray& x, std::size_t k, bool largest, const Q& queue) {
        const Queue& qu = x.queue_or_default(queue);
        TopK r = [&] {
          nb::gil_scoped_release release;
          return topk(qu, x.array, k, largest);
        }();
        return nb::make_tuple(PyArray{r.values, qu}, PyArray{r.indices, qu});
      },
      nb::arg("x"), nb::arg("k"), nb::arg("largest") = true, q,
      "(the k largest (smallest) elements of each row, sorted; their int64 indices).");

  // --- Compaction ---
  m.def(
      "count_nonzero",
      [](const PyArray& x, nb::handle axis, const Q& queue) {
        const Queue& qu = x.queue_or_default(queue);
        std::optional<std::vector<std::size_t>> axes;
        if (auto a = axes_from(axis)) {
          axes.emplace();
          const auto ndim = static_cast<std::ptrdiff_t>(x.array.ndim());
          for (auto k : *a) {
            if (k < -ndim || k >= ndim) {
              throw LogicError("axis " + std::to_string(k) +
                               " is out of bounds for array of dimension " + std::to_string(ndim));
            }
            axes->push_back(static_cast<std::size_t>(k < 0 ? k + ndim : k));
          }
        }
        nb::gil_scoped_release release;
        return PyArray{count_nonzero(qu, x.array, axes), qu};
      },
      nb::arg("x"), nb::arg("axis") = nb::none(), q,
      "numpy.count_nonzero: int64, over `axis` (all by default). Does not wait.");
  m.def("nonzero", &nonzero_, nb::arg("x"), q,
        "numpy.nonzero: a tuple of int64 index arrays, one per dimension. Waits for the count.");
  def_method<&nonzero_>(classes, "nonzero", q, "numpy's ndarray.nonzero (see plinth.nonzero).");
  m.def(
      "flatnonzero",
      [](const PyArray& x, const Q& queue) {
        const Queue& qu = x.queue_or_default(queue);
        nb::gil_scoped_release release;
        return PyArray{flatnonzero(qu, x.array), qu};
      },
      nb::arg("x"), q, "numpy.flatnonzero: the flat int64 indices of the nonzero elements.");
  m.def(
      "compress",
      [](const PyArray& condition, const PyArray& x, std::optional<std::ptrdiff_t> axis,
         const Q& queue) { return compress_(x, condition, axis, queue); },
      nb::arg("condition"), nb::arg("x"), nb::arg("axis") = nb::none(), q,
      "numpy.compress: the slices along `axis` (flattened without) where the 1-D condition "
      "is nonzero. Waits for the count.");
  def_method<&compress_>(classes, "compress", nb::arg("condition"), nb::arg("axis") = nb::none(), q,
                         "numpy's ndarray.compress (see plinth.compress).");
  m.def(
      "extract",
      [](const PyArray& condition, const PyArray& x, const Q& queue) {
        const Queue& qu = x.queue_or_default(queue);
        nb::gil_scoped_release release;
        return PyArray{extract(qu, condition.array, x.array), qu};
      },
      nb::arg("condition"), nb::arg("x"), q,
      "numpy.extract (x[condition] for a mask of x's shape): 1-D. Waits for the count.");

  // --- Histograms ---
  m.def(
      "histogram",
      [](const PyArray& x, nb::handle bins, std::optional<std::pair<double, double>> range,
         const Q& queue) {
        const Queue& qu = x.queue_or_default(queue);
        HistogramResult r = [&] {
          if (PyLong_Check(bins.ptr())) {
            const auto n = nb::cast<std::size_t>(bins);
            nb::gil_scoped_release release;
            return histogram(qu, x.array, n, range);
          }
          if (range) throw LogicError("histogram: `range` goes with a number of bins, not edges");
          const auto edges = nb::cast<std::vector<double>>(bins);
          nb::gil_scoped_release release;
          return histogram(qu, x.array, std::span<const double>(edges));
        }();
        return nb::make_tuple(PyArray{r.counts, qu}, PyArray{r.edges, qu});
      },
      nb::arg("x"), nb::arg("bins") = 10, nb::arg("range") = nb::none(), q,
      "numpy.histogram: (int64 counts, bin edges) for `bins` equal bins over `range` (default: "
      "x's min and max), or for `bins` given as a sequence of edges (floats).");
  m.def(
      "bincount",
      [](const PyArray& x, std::optional<PyArray> weights, std::size_t minlength, const Q& queue) {
        const Queue& qu = x.queue_or_default(queue);
        std::optional<Array> w;
        if (weights) w = weights->array;
        nb::gil_scoped_release release;
        return PyArray{bincount(qu, x.array, w, minlength), qu};
      },
      nb::arg("x"), nb::arg("weights") = nb::none(), nb::arg("minlength") = 0, q,
      "numpy.bincount: occurrences of each value of the 1-D non-negative integer `x` (int64), "
      "or the sums of its weights (float64). Reads x's range back (waits).");

  // --- Shape operations ---
  m.def("reshape", &reshape_, nb::arg("x"), nb::arg("shape"), nb::arg("order") = "C", q,
        "numpy.reshape: a view where the layout allows, else a copy (in `order`); one extent "
        "may be -1.");
  {
    const auto reshape_method = [](nb::handle self, nb::args shape, const std::string& order) {
      const PyArray& x = value_of(self);
      if (shape.size() == 1) return reshape_(x, shape[0], order, std::nullopt);
      return reshape_(x, shape, order, std::nullopt);
    };
    for (nb::handle cls : {classes.array, classes.expression}) {
      if (nb::hasattr(cls, "reshape")) continue;
      nb::cpp_function_def(reshape_method, nb::scope(cls), nb::name("reshape"), nb::is_method(),
                           nb::arg("shape"), nb::arg("order") = "C",
                           "numpy's ndarray.reshape: x.reshape(2, 3) or x.reshape((2, 3)).");
    }
  }
  m.def("transpose", &transpose_, nb::arg("x"), nb::arg("axes") = nb::none(),
        "numpy.transpose: a view with the axes permuted (reversed by default). For a C-order "
        "copy, plinth.ascontiguousarray(plinth.transpose(x)).");
  {
    const auto transpose_method = [](nb::handle self, nb::args axes) {
      const PyArray& x = value_of(self);
      if (axes.size() == 0) return transpose_(x, std::nullopt);
      if (axes.size() == 1 && !axes[0].is_none() && !PyLong_Check(axes[0].ptr())) {
        return transpose_(x, nb::cast<std::vector<std::ptrdiff_t>>(axes[0]));
      }
      if (axes.size() == 1 && axes[0].is_none()) return transpose_(x, std::nullopt);
      return transpose_(x, nb::cast<std::vector<std::ptrdiff_t>>(axes));
    };
    for (nb::handle cls : {classes.array, classes.expression}) {
      if (nb::hasattr(cls, "transpose")) continue;
      nb::cpp_function_def(transpose_method, nb::scope(cls), nb::name("transpose"), nb::is_method(),
                           nb::arg("axes"),
                           "numpy's ndarray.transpose (a view): x.transpose(1, 0, 2) or "
                           "x.transpose((1, 0, 2)).");
    }
  }
  {
    for (nb::handle cls : {classes.array, classes.expression}) {
      if (nb::hasattr(cls, "T")) continue;
      nb::setattr(cls, "T",
                  nb::steal(PyObject_CallOneArg(
                      reinterpret_cast<PyObject*>(&PyProperty_Type),
                      nb::cpp_function(
                          [](nb::handle self) { return transpose_(value_of(self), std::nullopt); },
                          nb::is_method())
                          .ptr())));
    }
  }
  m.def("ravel", &ravel_, nb::arg("x"), nb::arg("order") = "C", q,
        "numpy.ravel: 1-D, a view where x is contiguous in `order`, else a copy.");
  def_method<&ravel_>(classes, "ravel", nb::arg("order") = "C", q, "numpy's ndarray.ravel.");
  m.def("flatten", &flatten_, nb::arg("x"), nb::arg("order") = "C", q,
        "numpy's ndarray.flatten: a 1-D copy.");
  def_method<&flatten_>(classes, "flatten", nb::arg("order") = "C", q,
                        "numpy's ndarray.flatten: a 1-D copy.");
  m.def("squeeze", &squeeze_, nb::arg("x"), nb::arg("axis") = nb::none(),
        "numpy.squeeze: the view without axes of extent 1 (those of `axis`, or all).");
  def_method<&squeeze_>(classes, "squeeze", nb::arg("axis") = nb::none(),
                        "numpy's ndarray.squeeze (a view).");
  m.def(
      "expand_dims",
      [](const PyArray& x, nb::handle axis) {
        return view(expand_dims(x.array, *axes_from(axis)), x);
      },
      nb::arg("x"), nb::arg("axis"), "numpy.expand_dims: a view with new axes of extent 1.");
  m.def("swapaxes", &swapaxes_, nb::arg("x"), nb::arg("axis1"), nb::arg("axis2"),
        "numpy.swapaxes: a view with two axes exchanged.");
  def_method<&swapaxes_>(classes, "swapaxes", nb::arg("axis1"), nb::arg("axis2"),
                         "numpy's ndarray.swapaxes (a view).");
  m.def(
      "moveaxis",
      [](const PyArray& x, nb::handle source, nb::handle destination) {
        return view(moveaxis(x.array, shape_from(source), shape_from(destination)), x);
      },
      nb::arg("x"), nb::arg("source"), nb::arg("destination"),
      "numpy.moveaxis: a view with axes moved.");
  m.def(
      "broadcast_to",
      [](const PyArray& x, nb::handle shape) {
        std::vector<std::size_t> s;
        if (PyLong_Check(shape.ptr())) {
          s.push_back(nb::cast<std::size_t>(shape));
        } else {
          s = nb::cast<std::vector<std::size_t>>(shape);
        }
        return view(broadcast_to(x.array, s), x);
      },
      nb::arg("x"), nb::arg("shape"),
      "numpy.broadcast_to: a view (stride 0 along broadcast axes; do not write to it).");
  m.def(
      "concatenate",
      [](const std::vector<PyArray>& arrays, std::ptrdiff_t axis, const Q& queue) {
        Q qu;
        const auto a = arrays_of(arrays, queue, qu);
        nb::gil_scoped_release release;
        return PyArray{concatenate(*qu, std::span<const Array>(a), axis), *qu};
      },
      nb::arg("arrays"), nb::arg("axis") = 0, q,
      "numpy.concatenate along an existing axis (a new array, in result_type); runs on "
      "`queue` (default: the first array's).");
  m.def(
      "stack",
      [](const std::vector<PyArray>& arrays, std::ptrdiff_t axis, const Q& queue) {
        Q qu;
        const auto a = arrays_of(arrays, queue, qu);
        nb::gil_scoped_release release;
        return PyArray{stack(*qu, std::span<const Array>(a), axis), *qu};
      },
      nb::arg("arrays"), nb::arg("axis") = 0, q, "numpy.stack along a new axis (a new array).");
  m.def("hstack", &join<hstack_>, nb::arg("arrays"), q, "numpy.hstack (a new array).");
  m.def("vstack", &join<vstack_>, nb::arg("arrays"), q, "numpy.vstack (a new array).");
  m.def("dstack", &join<dstack_>, nb::arg("arrays"), q, "numpy.dstack (a new array).");
  m.def("split", &split_, nb::arg("x"), nb::arg("indices_or_sections"), nb::arg("axis") = 0,
        "numpy.split: a list of views (equal sections, or between indices).");
  m.def(
      "array_split",
      [](const PyArray& x, std::size_t sections, std::ptrdiff_t axis) {
        return results(array_split(x.array, sections, axis), x.queue);
      },
      nb::arg("x"), nb::arg("sections"), nb::arg("axis") = 0,
      "numpy.array_split: a list of `sections` views whose extents differ by one at most.");
  m.def(
      "hsplit",
      [](const PyArray& x, nb::handle how) {
        return split_by(
            x, how, [](const Array& a, std::size_t n) { return hsplit(a, n); },
            [](const Array& a, std::span<const std::ptrdiff_t> at) { return hsplit(a, at); });
      },
      nb::arg("x"), nb::arg("indices_or_sections"), "numpy.hsplit: a list of views.");
  m.def(
      "vsplit",
      [](const PyArray& x, nb::handle how) {
        return split_by(
            x, how, [](const Array& a, std::size_t n) { return vsplit(a, n); },
            [](const Array& a, std::span<const std::ptrdiff_t> at) { return vsplit(a, at); });
      },
      nb::arg("x"), nb::arg("indices_or_sections"), "numpy.vsplit: a list of views.");
  m.def(
      "dsplit",
      [](const PyArray& x, nb::handle how) {
        return split_by(
            x, how, [](const Array& a, std::size_t n) { return dsplit(a, n); },
            [](const Array& a, std::span<const std::ptrdiff_t> at) { return dsplit(a, at); });
      },
      nb::arg("x"), nb::arg("indices_or_sections"), "numpy.dsplit: a list of views.");
  m.def(
      "asfortranarray",
      [](const PyArray& x, const Q& queue) {
        const Queue& qu = x.queue_or_default(queue);
        nb::gil_scoped_release release;
        return PyArray{asfortranarray(qu, x.array), x.queue};
      },
      nb::arg("x"), q, "numpy.asfortranarray: x itself if F-contiguous, else an F-order copy.");
  m.def(
      "ascontiguousarray",
      [](const PyArray& x, const Q& queue) {
        const Queue& qu = x.queue_or_default(queue);
        nb::gil_scoped_release release;
        return PyArray{ascontiguousarray(qu, x.array), x.queue};
      },
      nb::arg("x"), q, "numpy.ascontiguousarray: x itself if C-contiguous, else a C-order copy.");
  m.def(
      "may_share_memory",
      [](const PyArray& a, const PyArray& b) { return may_share_memory(a.array, b.array); },
      nb::arg("a"), nb::arg("b"), "numpy.may_share_memory (its default bounds check).");
}

}  // namespace plinth::python
