// plinth.ElementwiseKernel, plinth.ReductionKernel and plinth.ScanKernel, with PyCUDA's
// signatures (C argument strings such as "float a, float *x, const float *y").

#include <plinth/elementwise.hpp>
#include <plinth/elementwise_args.hpp>
#include <plinth/errors.hpp>
#include <plinth/reduction.hpp>
#include <plinth/scan.hpp>

#include "bindings.hpp"
#include "dtypes.hpp"
#include "kernel_args.hpp"
#include "py_array.hpp"
#include "py_expression.hpp"
#include "render_values.hpp"

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <complex>
#include <cstddef>
#include <new>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace plinth::python {
namespace {

// The values of a call's arguments: inline for up to 16 (no heap allocation per call).
class Values {
 public:
  static constexpr std::size_t inline_values = 16;

  explicit Values(std::size_t n) {
    if (n > inline_values) heap_.reserve(n);
  }
  Values(const Values&) = delete;
  Values& operator=(const Values&) = delete;
  ~Values() {
    if (heap_.capacity() == 0) {
      for (std::size_t i = 0; i < size_; ++i) slots_[i].value.~ElementwiseValue();
    }
  }

  template <class T>
  void push(const T& value) {
    if (heap_.capacity() != 0) {
      heap_.emplace_back(value);
    } else {
      new (&slots_[size_].value) ElementwiseValue(value);
    }
    ++size_;
  }
  std::span<const ElementwiseValue> span() const {
    return {heap_.capacity() != 0 ? heap_.data() : &slots_[0].value, size_};
  }

 private:
  union Slot {
    Slot() {}
    ~Slot() {}
    ElementwiseValue value;
  };
  std::array<Slot, inline_values> slots_;
  std::vector<ElementwiseValue> heap_;
  std::size_t size_ = 0;
};

// A Python number (or numpy scalar, through its Python value) as an ElementwiseValue: kept
// exactly, converted to the declared dtype by the C++ call (which refuses what does not fit).
void push_number(Values& values, std::size_t index, PyObject* object) {
  if (PyBool_Check(object)) return values.push(object == Py_True);
  if (PyLong_Check(object)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(object, &overflow);
    if (overflow == 0) return values.push(static_cast<std::int64_t>(v));
    const unsigned long long u = overflow > 0 ? PyLong_AsUnsignedLongLong(object) : 0;
    if (overflow < 0 || PyErr_Occurred()) {
      PyErr_Clear();
      throw LogicError("argument " + std::to_string(index) + ": the int " +
                       nb::cast<std::string>(nb::repr(object)) + " does not fit in 64 bits");
    }
    return values.push(static_cast<std::uint64_t>(u));
  }
  if (PyFloat_Check(object)) return values.push(PyFloat_AsDouble(object));
  if (PyComplex_Check(object)) {
    return values.push(
        std::complex<double>(PyComplex_RealAsDouble(object), PyComplex_ImagAsDouble(object)));
  }
  throw nb::type_error(("argument " + std::to_string(index) + " is a " +
                        nb::cast<std::string>(nb::type_name(nb::handle(Py_TYPE(object)))) +
                        ": a generated kernel takes plinth.Array, plinth.Expression, and "
                        "bool, int, float, complex and numpy scalars")
                           .c_str());
}

// The values of `args`, and the default queue of the first array among them.
const Queue* convert(const nb::args& args, Values& values) {
  const ArgumentTypes& types = argument_types();
  const Queue* queue = nullptr;
  const auto n = static_cast<std::size_t>(PyTuple_GET_SIZE(args.ptr()));
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* object = PyTuple_GET_ITEM(args.ptr(), static_cast<Py_ssize_t>(i));
    if (Py_TYPE(object) == types.array || is_instance(object, types.array)) {
      const PyArray& array = *nb::inst_ptr<PyArray>(object);
      values.push(array.array);
      if (queue == nullptr) queue = &array.queue;
    } else if (is_instance(object, types.expression)) {
      const PyArray& array = nb::inst_ptr<PyExpression>(object)->evaluated();
      values.push(array.array);
      if (queue == nullptr) queue = &array.queue;
    } else if (is_instance(object, types.numpy_generic)) {
      nb::object item = nb::handle(object).attr("item")();
      push_number(values, i, item.ptr());
    } else {
      push_number(values, i, object);
    }
  }
  return queue;
}

const Queue& call_queue(const std::optional<Queue>& given, const Queue* from_args,
                        const std::string& kernel) {
  if (given) return *given;
  if (from_args == nullptr) {
    throw LogicError("kernel '" + kernel +
                     "': no queue given and no array argument to take one from: pass queue=");
  }
  return *from_args;
}

std::vector<ElementwiseArg> arguments(
    const std::variant<std::string, std::vector<ElementwiseArg>>& given,
    ElementwiseArg::Kind pointer_kind) {
  if (const auto* text = std::get_if<std::string>(&given)) {
    return parse_elementwise_args(*text, pointer_kind);
  }
  return std::get<std::vector<ElementwiseArg>>(given);
}

std::optional<ElementwiseRange> range_of(nb::handle range) {
  if (range.is_none()) return std::nullopt;
  if (PySlice_Check(range.ptr())) {
    nb::object start = range.attr("start"), stop = range.attr("stop"), step = range.attr("step");
    if (!step.is_none() && nb::cast<long long>(step) != 1) {
      throw LogicError("range: a step other than 1 is not supported");
    }
    if (stop.is_none()) throw LogicError("range: give the end (slice(begin, end))");
    return ElementwiseRange{start.is_none() ? 0 : nb::cast<std::size_t>(start),
                            nb::cast<std::size_t>(stop)};
  }
  const auto pair = nb::cast<std::pair<std::size_t, std::size_t>>(range);
  return ElementwiseRange{pair.first, pair.second};
}

using ArgsSpec = std::variant<std::string, std::vector<ElementwiseArg>>;

// `kernel.program(queue, args)`: the Program a call with `args` runs (ElementwiseKernel's and
// ReductionKernel's `program`).
template <class Kernel>
Program program_for(const Kernel& kernel, const nb::args& args, const std::optional<Queue>& queue) {
  Values values(static_cast<std::size_t>(PyTuple_GET_SIZE(args.ptr())));
  const Queue& q = call_queue(queue, convert(args, values), kernel.name());
  nb::gil_scoped_release release;  // the first call on a device compiles
  return kernel.program(q, values.span());
}

const char* const kind_names[] = {"input", "output", "inout", "scalar"};

}  // namespace

void bind_custom_kernels(nb::module_& m) {
  nb::class_<ElementwiseArg>(m, "ElementwiseArg",
                             "A declared argument of a generated kernel: an array (input, "
                             "output, inout) or a scalar, with its name and dtype.")
      .def_static("input", &ElementwiseArg::input, nb::arg("name"), nb::arg("dtype"),
                  "An array that is only read.")
      .def_static("output", &ElementwiseArg::output, nb::arg("name"), nb::arg("dtype"),
                  "An array that is written.")
      .def_static("inout", &ElementwiseArg::inout, nb::arg("name"), nb::arg("dtype"),
                  "An array that is read and written.")
      .def_static("scalar", &ElementwiseArg::scalar, nb::arg("name"), nb::arg("dtype"), "A scalar.")
      .def_prop_ro("name", &ElementwiseArg::name)
      .def_prop_ro("dtype", &ElementwiseArg::dtype)
      .def_prop_ro(
          "kind", [](const ElementwiseArg& a) { return kind_names[static_cast<int>(a.kind())]; },
          "'input', 'output', 'inout' or 'scalar'.")
      .def("__repr__", [](const ElementwiseArg& a) {
        return std::string("<plinth.ElementwiseArg ") + kind_names[static_cast<int>(a.kind())] +
               " " + a.name() + ": " + a.dtype().name() + ">";
      });
  m.def(
      "parse_elementwise_args",
      [](const std::string& declarations, const std::string& pointer_kind) {
        ElementwiseArg::Kind kind = ElementwiseArg::Kind::inout;
        if (pointer_kind == "input") {
          kind = ElementwiseArg::Kind::input;
        } else if (pointer_kind == "output") {
          kind = ElementwiseArg::Kind::output;
        } else if (pointer_kind != "inout") {
          throw LogicError("pointer_kind is 'input', 'output' or 'inout', not '" + pointer_kind +
                           "'");
        }
        return parse_elementwise_args(declarations, kind);
      },
      nb::arg("declarations"), nb::arg("pointer_kind") = "inout",
      "The ElementwiseArgs a C parameter list declares ('float a, float *x, const float *y'): "
      "`const T *` is an input, `T *` of `pointer_kind`, anything else a scalar. Raises "
      "LogicError naming a declaration it cannot read.");

  nb::class_<ElementwiseKernel>(
      m, "ElementwiseKernel",
      "PyCUDA's ElementwiseKernel: `operation` runs for every index `i` of the first array "
      "argument. `k(*args, queue=None, range=None)`.")
      .def(
          "__init__",
          [](ElementwiseKernel* self, const ArgsSpec& args, std::string operation, std::string name,
             std::string preamble, const RenderGlobals& render_globals, bool fast_math,
             std::vector<std::string> compiler_options, bool writes_every_element) {
            ElementwiseOptions options;
            options.name = std::move(name);
            options.preamble = std::move(preamble);
            options.render_globals = render_globals;
            options.fast_math = fast_math;
            options.compiler_options = std::move(compiler_options);
            options.writes_every_element = writes_every_element;
            new (self) ElementwiseKernel(arguments(args, ElementwiseArg::Kind::inout),
                                         std::move(operation), std::move(options));
          },
          nb::arg("arguments"), nb::arg("operation"), nb::arg("name") = "elementwise",
          nb::arg("preamble") = "", nb::kw_only(), nb::arg("render_globals") = RenderGlobals{},
          nb::arg("fast_math") = false, nb::arg("compiler_options") = std::vector<std::string>{},
          nb::arg("writes_every_element") = false,
          "`arguments`: a C parameter list ('float a, float *x, const float *y': `const T *` "
          "is read only, `T *` read and written, others scalars), or a list of "
          "ElementwiseArg. `operation` and `preamble` are templates rendered with "
          "`render_globals`. Raises LogicError for bad names or dtypes; nothing is compiled "
          "before the first call.")
      .def(
          "__call__",
          [](const ElementwiseKernel& kernel, const nb::args& args,
             const std::optional<Queue>& queue, nb::handle range) {
            Values values(static_cast<std::size_t>(PyTuple_GET_SIZE(args.ptr())));
            const Queue& q = call_queue(queue, convert(args, values), kernel.name());
            const auto r = range_of(range);
            nb::gil_scoped_release release;  // the first call on a device compiles
            kernel.launch(q, values.span(), r);
          },
          nb::arg("args"), nb::kw_only(), nb::arg("queue") = nb::none(),
          nb::arg("range") = nb::none(),
          "Runs the kernel (asynchronously) with the declared arguments in order: Arrays "
          "(or Expressions) for arrays, numbers (converted exactly to the declared dtype: "
          "LogicError where it cannot be) for scalars. queue: default, the first array's. "
          "range: slice(begin, end) or (begin, end) of flat indices.")
      .def("program", &program_for<ElementwiseKernel>, nb::arg("args"), nb::kw_only(),
           nb::arg("queue") = nb::none(),
           "The Program a call with `args` runs (e.g. for its source).")
      .def_prop_ro("arguments", &ElementwiseKernel::arguments)
      .def_prop_ro("operation", &ElementwiseKernel::operation)
      .def_prop_ro("name", &ElementwiseKernel::name)
      .def_prop_ro("cached_programs", &ElementwiseKernel::cached_programs)
      .def("__repr__", [](const ElementwiseKernel& k) {
        return "<plinth.ElementwiseKernel " + k.name() + ">";
      });

  nb::class_<ReductionKernel>(
      m, "ReductionKernel",
      "PyCUDA's ReductionKernel: reduces `map_expr` over the arguments with `reduce_expr` "
      "(over `a` and `b`) from `neutral`. `k(*args, queue=None, axes=None, out=None)` "
      "returns a new Array (0-d for a whole reduction).")
      .def(
          "__init__",
          [](ReductionKernel* self, const DType& dtype_out, std::string neutral,
             std::string reduce_expr, std::optional<std::string> map_expr, const ArgsSpec& args,
             std::string name, std::string preamble, const RenderGlobals& render_globals,
             bool fast_math, std::vector<std::string> compiler_options) {
            ReductionOptions options;
            options.name = std::move(name);
            options.preamble = std::move(preamble);
            options.render_globals = render_globals;
            options.fast_math = fast_math;
            options.compiler_options = std::move(compiler_options);
            new (self) ReductionKernel(arguments(args, ElementwiseArg::Kind::input), dtype_out,
                                       std::move(neutral), std::move(reduce_expr),
                                       map_expr.value_or("in[i]"), std::move(options));
          },
          nb::arg("dtype_out"), nb::arg("neutral"), nb::arg("reduce_expr"),
          nb::arg("map_expr") = nb::none(), nb::arg("arguments") = "",
          nb::arg("name") = "reduction", nb::arg("preamble") = "", nb::kw_only(),
          nb::arg("render_globals") = RenderGlobals{}, nb::arg("fast_math") = false,
          nb::arg("compiler_options") = std::vector<std::string>{},
          "As PyCUDA's: map_expr defaults to 'in[i]'; `arguments` is a C parameter list (every "
          "pointer is read only) or a list of ElementwiseArg. Raises LogicError.")
      .def(
          "__call__",
          [](const ReductionKernel& kernel, const nb::args& args, const std::optional<Queue>& queue,
             std::optional<std::vector<std::size_t>> axes, const std::optional<PyArray>& out) {
            Values values(static_cast<std::size_t>(PyTuple_GET_SIZE(args.ptr())));
            const Queue& q = call_queue(queue, convert(args, values), kernel.name());
            ReductionTarget target;
            target.axes = std::move(axes);
            if (out) target.out = out->array;
            std::optional<PyArray> result;
            {
              nb::gil_scoped_release release;  // the first call on a device compiles
              result.emplace(kernel.launch(q, values.span(), target), q);
            }
            return *result;
          },
          nb::arg("args"), nb::kw_only(), nb::arg("queue") = nb::none(),
          nb::arg("axes") = nb::none(), nb::arg("out") = nb::none(),
          "Reduces (asynchronously) and returns the result, an Array whose default queue is "
          "the one it ran on (`out` where given). queue: default, the first array's. axes: "
          "the axes to reduce (default all).")
      .def("program", &program_for<ReductionKernel>, nb::arg("args"), nb::kw_only(),
           nb::arg("queue") = nb::none(),
           "The Program a whole-array call with `args` runs (e.g. for its source).")
      .def_prop_ro("arguments", &ReductionKernel::arguments)
      .def_prop_ro("dtype_out", &ReductionKernel::output_dtype)
      .def_prop_ro("name", &ReductionKernel::name)
      .def_prop_ro("cached_programs", &ReductionKernel::cached_programs)
      .def("__repr__",
           [](const ReductionKernel& k) { return "<plinth.ReductionKernel " + k.name() + ">"; });

  nb::class_<ScanKernel>(m, "ScanKernel",
                         "PyCUDA's InclusiveScanKernel / ExclusiveScanKernel: the running "
                         "combination of elements under `scan_expr` (over `a` and `b`). "
                         "`k(input, output=None, queue=None, axis=None)`.")
      .def(
          "__init__",
          [](ScanKernel* self, const DType& dtype, std::string scan_expr, std::string neutral,
             bool exclusive, std::string name, std::string preamble,
             const std::optional<DType>& input_dtype, const RenderGlobals& render_globals,
             bool fast_math, std::vector<std::string> compiler_options) {
            ScanOptions options;
            options.name = std::move(name);
            options.preamble = std::move(preamble);
            options.input_dtype = input_dtype;
            options.render_globals = render_globals;
            options.fast_math = fast_math;
            options.compiler_options = std::move(compiler_options);
            new (self) ScanKernel(dtype, std::move(scan_expr), std::move(neutral),
                                  exclusive ? ScanKind::exclusive : ScanKind::inclusive,
                                  std::move(options));
          },
          nb::arg("dtype"), nb::arg("scan_expr"), nb::arg("neutral"), nb::kw_only(),
          nb::arg("exclusive") = false, nb::arg("name") = "scan", nb::arg("preamble") = "",
          nb::arg("input_dtype") = nb::none(), nb::arg("render_globals") = RenderGlobals{},
          nb::arg("fast_math") = false, nb::arg("compiler_options") = std::vector<std::string>{},
          "An inclusive scan (exclusive=True: exclusive) of `dtype` values. Raises "
          "LogicError.")
      .def(
          "__call__",
          [](const ScanKernel& kernel, const PyArray& input, const std::optional<PyArray>& output,
             const std::optional<Queue>& queue, std::optional<int> axis) {
            const Queue& q = input.queue_or_default(queue);
            const Array& out = output ? output->array : input.array;
            nb::gil_scoped_release release;  // the first call on a device compiles
            if (axis) {
              kernel(q, input.array, out, *axis);
            } else {
              kernel(q, input.array, out);
            }
          },
          nb::arg("input"), nb::arg("output") = nb::none(), nb::kw_only(),
          nb::arg("queue") = nb::none(), nb::arg("axis") = nb::none(),
          "Scans `input` into `output` (default: in place, as PyCUDA's), asynchronously; "
          "along `axis` where given. queue: default, the input's.")
      .def("program", &ScanKernel::program, nb::arg("queue"),
           nb::call_guard<nb::gil_scoped_release>(),
           "The Program a call on `queue` runs (e.g. for its source).")
      .def_prop_ro("dtype", &ScanKernel::dtype)
      .def_prop_ro("input_dtype", &ScanKernel::input_dtype)
      .def_prop_ro("exclusive", [](const ScanKernel& k) { return k.kind() == ScanKind::exclusive; })
      .def_prop_ro("scan_expr", &ScanKernel::scan_expression)
      .def_prop_ro("neutral", &ScanKernel::neutral)
      .def_prop_ro("name", &ScanKernel::name)
      .def_prop_ro("cached_programs", &ScanKernel::cached_programs)
      .def("__repr__", [](const ScanKernel& k) { return "<plinth.ScanKernel " + k.name() + ">"; });
}

}  // namespace plinth::python
