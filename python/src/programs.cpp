// plinth.Program, plinth.Kernel, plinth.PreparedKernel, compiling for targets and the
// program cache.

#include <plinth/compile.hpp>
#include <plinth/errors.hpp>
#include <plinth/kernel_caches.hpp>
#include <plinth/multi_array.hpp>
#include <plinth/per_device.hpp>
#include <plinth/program.hpp>
#include <plinth/program_cache.hpp>

#include "bindings.hpp"
#include "kernel_args.hpp"
#include "program_options.hpp"
#include "py_array.hpp"
#include "render_values.hpp"

#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

namespace plinth::python {

ProgramSource program_source(const PySource& source) {
  return std::visit([](const auto& s) { return ProgramSource(s); }, source);
}

BoundMultiDevice multi_device(const PyDevices& devices) {
  if (const auto* context = std::get_if<Context>(&devices)) return context->devices();
  const auto& list = std::get<std::vector<BoundDevice>>(devices);
  if (list.empty()) throw LogicError("the list of devices is empty");
  std::vector<std::size_t> indices;
  for (const BoundDevice& device : list) {
    if (!(device.context() == list.front().context())) {
      throw LogicError("the devices belong to different contexts: give devices of one context");
    }
    indices.push_back(device.index());
  }
  return list.front().context().devices()[std::span<const std::size_t>(indices)];
}

ProgramOptions program_options(bool no_prelude, bool fast_math,
                               const std::vector<std::string>& compiler_options, bool keep,
                               const std::vector<RenderValue>& render_args,
                               const RenderGlobals& render_globals,
                               const std::vector<ConstantArray>& constant_arrays) {
  ProgramOptions options;
  options.no_prelude = no_prelude;
  options.fast_math = fast_math;
  options.compiler_options = compiler_options;
  options.keep = keep;
  options.render_args = render_args;
  options.render_globals = render_globals;
  options.constant_arrays = constant_arrays;
  return options;
}

namespace {

// The queue argument of a launch, checked by exact type first (the hot path).
const Queue& queue_argument(nb::handle object) {
  static PyTypeObject* const queue_type = reinterpret_cast<PyTypeObject*>(nb::type<Queue>().ptr());
  if (Py_TYPE(object.ptr()) == queue_type || nb::isinstance<Queue>(object)) {
    return *nb::inst_ptr<Queue>(object);
  }
  throw nb::type_error(
      ("the first argument of a kernel call is a plinth.Queue or MultiQueue, not " +
       nb::cast<std::string>(nb::type_name(object.type())))
          .c_str());
}

std::vector<std::byte> to_bytes(nb::bytes data) {
  const auto* first = static_cast<const std::byte*>(data.data());
  return {first, first + data.size()};
}

// The options of a program loaded from binaries or SPIR-V: nothing to render or compile.
ProgramOptions prebuilt_options(bool keep, const std::vector<ConstantArray>& constant_arrays) {
  ProgramOptions options;
  options.keep = keep;
  options.constant_arrays = constant_arrays;
  return options;
}

nb::bytes to_python_bytes(const std::vector<std::byte>& data) {
  return nb::bytes(reinterpret_cast<const char*>(data.data()), data.size());
}

nb::object kernel_of(nb::handle self, const std::string& name) {
  // Kept in the Program object's __dict__, so that `program.name` finds it by ordinary
  // attribute lookup from the second time on (Program::kernel makes a new backend kernel
  // each time, and a Kernel remembers its launch shapes).
  nb::dict dict = nb::inst_dict(self);
  if (PyObject* cached = PyDict_GetItemString(dict.ptr(), name.c_str())) {
    return nb::borrow(cached);
  }
  const Program& program = nb::cast<const Program&>(self);
  nb::object kernel = nb::cast(program.kernel(name));
  dict[name.c_str()] = kernel;
  return kernel;
}

// Kernel calls on a MultiQueue (the C++ MultiQueue calls, program.hpp): each argument is, on
// each device, a MultiArray's part there, a dict's value for that device (keys: BoundDevices),
// or the argument itself.

// A MultiQueue first argument, or null (an exact type check: a pointer comparison on the
// single-queue hot path).
const MultiQueue* multi_queue_argument(nb::handle object) {
  static PyTypeObject* const type = reinterpret_cast<PyTypeObject*>(nb::type<MultiQueue>().ptr());
  return Py_TYPE(object.ptr()) == type ? nb::inst_ptr<MultiQueue>(object) : nullptr;
}

// The value of `dict` for `device`. Throws LogicError naming the argument if it has none.
nb::object dict_value(nb::handle dict, const BoundDevice& device, std::size_t index) {
  nb::object key = nb::cast(device);
  PyObject* value = PyDict_GetItemWithError(dict.ptr(), key.ptr());
  if (value == nullptr) {
    if (PyErr_Occurred()) throw nb::python_error();
    throw LogicError("argument " + std::to_string(index) + ": the dict has no value for device " +
                     std::to_string(device.index()) + " ('" + device.name() + "')");
  }
  return nb::borrow(value);
}

// `args` on each queue's device, every one found before anything is launched.
std::vector<nb::tuple> arguments_per_queue(const MultiQueue& queues, const nb::args& args) {
  std::vector<nb::tuple> result;
  for (const auto& queue : queues.queues()) {
    nb::list on_device;
    std::size_t index = 0;
    for (nb::handle arg : args) {
      if (nb::isinstance<MultiArray>(arg)) {
        on_device.append(
            nb::cast(PyArray(nb::cast<const MultiArray&>(arg)[queue.device()], queue)));
      } else if (PyDict_Check(arg.ptr())) {
        on_device.append(dict_value(arg, queue.device(), index));
      } else {
        on_device.append(arg);
      }
      ++index;
    }
    result.push_back(nb::tuple(on_device));
  }
  return result;
}

// A dict of global sizes (BoundDevice: int or tuple) as a PerDevice.
PerDevice<std::vector<std::size_t>> sizes_per_device(nb::handle dict) {
  if (!PyDict_Check(dict.ptr())) {
    throw nb::type_error("global_sizes: a dict of BoundDevice to int or tuple of ints");
  }
  PerDevice<std::vector<std::size_t>> sizes;
  for (auto [device, size] : nb::borrow<nb::dict>(dict)) {
    if (!nb::isinstance<BoundDevice>(device)) {
      throw nb::type_error("global_sizes: the keys are plinth.BoundDevice objects");
    }
    sizes.insert(nb::cast<const BoundDevice&>(device),
                 LaunchSize(size, "global_size", false).vector());
  }
  return sizes;
}

// `launch(queue, kernel_args)` on every queue of `queues`, with `args` on its device.
template <class Launch>
void launch_on_queues(const MultiQueue& queues, const nb::args& args, const Launch& launch) {
  const auto per_queue = arguments_per_queue(queues, args);
  for (std::size_t i = 0; i < per_queue.size(); ++i) {
    const KernelArgs packed(tuple_items(nb::borrow<nb::args>(per_queue[i])));
    launch(queues.queues()[i], packed.args());
  }
}

}  // namespace

void bind_programs(nb::module_& m) {
  nb::class_<ConstantArray>(m, "ConstantArray",
                            "A constant-memory array a program declares (ProgramOptions' "
                            "constant_arrays); fill it with Program.set_constant_array.")
      .def(
          "__init__",
          [](ConstantArray* self, std::string name, std::string ctype, std::size_t length,
             std::size_t itemsize) {
            new (self) ConstantArray{std::move(name), std::move(ctype), length, itemsize};
          },
          nb::arg("name"), nb::arg("ctype"), nb::arg("length"), nb::arg("itemsize"))
      .def_rw("name", &ConstantArray::name)
      .def_rw("ctype", &ConstantArray::ctype, "The element's C type, e.g. 'float'.")
      .def_rw("length", &ConstantArray::length, "Elements.")
      .def_rw("itemsize", &ConstantArray::itemsize)
      .def("__repr__", [](const ConstantArray& c) {
        return "<plinth.ConstantArray " + c.ctype + " " + c.name + "[" + std::to_string(c.length) +
               "]>";
      });

  nb::class_<Program>(m, "Program", nb::dynamic_attr(),
                      "Source code built for devices of a context. `program.name` (or "
                      "`program.kernel('name')`) is its kernel `name`, a plinth.Kernel.")
      .def(
          "__init__",
          [](Program* self, const PyDevices& devices, const PySource& source, bool no_prelude,
             bool fast_math, const std::vector<std::string>& compiler_options, bool keep,
             const std::vector<RenderValue>& render_args, const RenderGlobals& render_globals,
             const std::vector<ConstantArray>& constant_arrays) {
            const ProgramOptions options =
                program_options(no_prelude, fast_math, compiler_options, keep, render_args,
                                render_globals, constant_arrays);
            const ProgramSource program_source_ = program_source(source);
            const BoundMultiDevice bound = multi_device(devices);
            nb::gil_scoped_release release;
            new (self) Program(bound, program_source_, options);
          },
          nb::arg("devices"), nb::arg("source"), nb::kw_only(), PLINTH_PROGRAM_OPTION_ARGS,
          "Renders `source` (str, Template or DefTemplate) and builds it for `devices` (a "
          "Context: all its devices, or a list of its BoundDevices); compiled programs are "
          "cached (PLINTH_CACHE_DIR). " PLINTH_PROGRAM_OPTION_DOC
          " Raises RenderError, CompileError (with .log, .options, .source), LogicError.")
      .def_static(
          "from_binaries",
          [](const PyDevices& devices, const std::vector<nb::bytes>& binaries, bool keep,
             const std::vector<ConstantArray>& constant_arrays) {
            std::vector<std::vector<std::byte>> copies;
            for (const auto& binary : binaries) copies.push_back(to_bytes(binary));
            const ProgramOptions options = prebuilt_options(keep, constant_arrays);
            const BoundMultiDevice bound = multi_device(devices);
            nb::gil_scoped_release release;
            return Program::from_binaries(bound, copies, options);
          },
          nb::arg("devices"), nb::arg("binaries"), nb::kw_only(), nb::arg("keep") = false,
          nb::arg("constant_arrays") = std::vector<ConstantArray>{},
          "A program from binaries that Program.binary() returned (bytes), one per device, "
          "without compiling. Raises LogicError, CompileError.")
      .def_static(
          "from_spirv",
          [](const PyDevices& devices, nb::bytes spirv, bool keep,
             const std::vector<ConstantArray>& constant_arrays) {
            const std::vector<std::byte> copy = to_bytes(spirv);
            const ProgramOptions options = prebuilt_options(keep, constant_arrays);
            const BoundMultiDevice bound = multi_device(devices);
            nb::gil_scoped_release release;
            return Program::from_spirv(bound, copy, options);
          },
          nb::arg("devices"), nb::arg("spirv"), nb::kw_only(), nb::arg("keep") = false,
          nb::arg("constant_arrays") = std::vector<ConstantArray>{},
          "A program from one SPIR-V module (bytes). Raises LogicError where the backend "
          "takes no SPIR-V, CompileError.")
      .def("kernel", &kernel_of, nb::arg("name"),
           "The kernel `name` (the same Kernel object on every call). Raises LogicError if "
           "the program has none.")
      .def(
          "__getattr__",
          [](nb::handle self, const std::string& name) -> nb::object {
            if (name.starts_with("__")) throw nb::attribute_error(name.c_str());
            try {
              return kernel_of(self, name);
            } catch (const LogicError& e) {
              // An AttributeError, so that hasattr() and the tools that probe attributes
              // (IPython's display, copy, pickle) see a missing attribute.
              throw nb::attribute_error(e.what());
            }
          },
          nb::arg("name"),
          "`program.name` is `program.kernel('name')`; AttributeError where the program has "
          "no such kernel.")
      .def_prop_ro(
          "source", [](const Program& p) { return p.source(); },
          "The full source as compiled for the first device (empty for binaries).")
      .def(
          "source_for", [](const Program& p, const BoundDevice& d) { return p.source(d); },
          nb::arg("device"), "The source as compiled for `device`.")
      .def_prop_ro(
          "devices",
          [](const Program& p) {
            return std::vector<BoundDevice>(p.devices().begin(), p.devices().end());
          },
          "The devices the program was built for.")
      .def_prop_ro("kept_directory", &Program::kept_directory,
                   "Where keep=True left the compiler's files ('' otherwise).")
      .def("set_constant_array", &Program::set_constant_array, nb::arg("queue"), nb::arg("name"),
           nb::arg("src"),
           "Copies Buffer `src` (exactly the array's size) into constant array `name`.")
      .def("native_handle", &Program::native_handle, nb::arg("device"),
           "The backend's program handle (cl_program, CUmodule...) on `device`, as an int.")
      .def(
          "binary",
          [](const Program& p, const BoundDevice& d) {
            std::vector<std::byte> binary;
            {
              nb::gil_scoped_release release;
              binary = p.binary(d);
            }
            return to_python_bytes(binary);
          },
          nb::arg("device"), "The program's binary for `device`, as bytes.")
      .def("__repr__", [](const Program& p) {
        return "<plinth.Program on " + std::to_string(p.devices().size()) + " device(s)>";
      });

  nb::class_<Kernel>(m, "Kernel",
                     "A kernel of a Program: `kernel(queue, global_size, local_size, *args)` "
                     "launches it (sizes: an int or a tuple of 1 to 3 ints; local_size None: "
                     "chosen automatically).")
      .def(
          "__call__",
          [](const Kernel& kernel, nb::handle queue, nb::handle global_size, nb::handle local_size,
             const nb::args& args) {
            if (const MultiQueue* queues = multi_queue_argument(queue)) {
              const LaunchSize local(local_size, "local_size", true);
              if (PyDict_Check(global_size.ptr())) {
                const PreparedKernel prepared =
                    kernel.prepare_per_device(sizes_per_device(global_size), local.vector());
                return launch_on_queues(*queues, args, [&](const Queue& q, auto packed) {
                  prepared.launch(q, packed);
                });
              }
              const LaunchSize global(global_size, "global_size", false);
              return launch_on_queues(*queues, args, [&](const Queue& q, auto packed) {
                kernel.launch(q, global.extents(), local.extents(), packed);
              });
            }
            const Queue& q = queue_argument(queue);
            const LaunchSize global(global_size, "global_size", false);
            const LaunchSize local(local_size, "local_size", true);
            const KernelArgs packed(tuple_items(args));
            kernel.launch(q, global.extents(), local.extents(), packed.args());
          },
          nb::sig("def __call__(self, queue: Queue | MultiQueue, global_size: int | tuple[int, "
                  "...] | dict[BoundDevice, int | tuple[int, ...]], local_size: int | tuple[int, "
                  "...] | None, *args: object) -> None"),
          nb::arg("queue"), nb::arg("global_size"), nb::arg("local_size").none(), nb::arg("args"),
          "Launches the kernel on `queue` (asynchronously) with `args`: plinth.Array, "
          "plinth.Expression (its value), plinth.Buffer, plinth.Image and plinth.Sampler (for "
          "image and sampler parameters), and numpy scalars of the parameters' "
          "types (numpy.int32(1), numpy.float32(0.5)...). Python ints and floats are a "
          "LogicError (a parameter's C type is not known from Python). Raises LogicError "
          "naming the argument for a wrong count, scalar size or device, or a bad shape. "
          "On a MultiQueue it runs on every queue's device: a MultiArray argument is its part "
          "there, a dict (BoundDevice: value) that device's value; global_size may be such a "
          "dict too. Every device's arguments are found before anything is launched.")
      .def(
          "prepare",
          [](const Kernel& kernel, nb::handle global_size, nb::handle local_size,
             std::size_t local_mem) {
            return kernel.prepare(LaunchSize(global_size, "global_size", false).vector(),
                                  LaunchSize(local_size, "local_size", true).vector(), local_mem);
          },
          nb::sig("def prepare(self, global_size: int | tuple[int, ...], local_size: int | "
                  "tuple[int, ...] | None = None, local_mem: int = 0) -> PreparedKernel"),
          nb::arg("global_size"), nb::arg("local_size").none() = nb::none(),
          nb::arg("local_mem") = 0,
          "The kernel with a fixed launch shape, a PreparedKernel (the fast path). "
          "local_mem: bytes of dynamic local memory. Raises LogicError for a local size that "
          "does not divide the global size or exceeds a limit.")
      .def(
          "prepare_per_device",
          [](const Kernel& kernel, nb::handle global_sizes, nb::handle local_size,
             std::size_t local_mem) {
            return kernel.prepare_per_device(sizes_per_device(global_sizes),
                                             LaunchSize(local_size, "local_size", true).vector(),
                                             local_mem);
          },
          nb::sig("def prepare_per_device(self, global_sizes: dict[BoundDevice, int | tuple[int, "
                  "...]], local_size: int | tuple[int, ...] | None = None, local_mem: int = 0) "
                  "-> PreparedKernel"),
          nb::arg("global_sizes"), nb::arg("local_size").none() = nb::none(),
          nb::arg("local_mem") = 0,
          "As prepare(), with a global size per device (a dict keyed by BoundDevice): the "
          "PreparedKernel runs only on those devices. Raises LogicError for a bad shape or a "
          "device the program was not built for.")
      .def_prop_ro("name", &Kernel::name)
      .def_prop_ro("max_total_local_sizes", &Kernel::max_total_local_sizes,
                   "The largest work-group size the kernel runs with, per program device.")
      .def_prop_ro("program", &Kernel::program)
      .def("__repr__", [](const Kernel& k) { return "<plinth.Kernel " + k.name() + ">"; });

  nb::class_<PreparedKernel>(m, "PreparedKernel",
                             "A kernel with a fixed launch shape: `prepared(queue, *args)` "
                             "launches it.")
      .def(
          "__call__",
          [](const PreparedKernel& kernel, nb::handle queue, const nb::args& args) {
            if (const MultiQueue* queues = multi_queue_argument(queue)) {
              return launch_on_queues(
                  *queues, args, [&](const Queue& q, auto packed) { kernel.launch(q, packed); });
            }
            const Queue& q = queue_argument(queue);
            const KernelArgs packed(tuple_items(args));
            kernel.launch(q, packed.args());
          },
          nb::sig("def __call__(self, queue: Queue | MultiQueue, *args: object) -> None"),
          nb::arg("queue"), nb::arg("args"),
          "Launches the kernel on `queue` (asynchronously) with `args`, as Kernel's call (on a "
          "MultiQueue too).")
      .def("global_size", &PreparedKernel::global_size, nb::arg("device"),
           "The global size on `device`.")
      .def("local_size", &PreparedKernel::local_size, nb::arg("device"),
           "The local size on `device` (as chosen, where it was automatic).")
      .def("__repr__",
           [](const PreparedKernel&) { return std::string("<plinth.PreparedKernel>"); });

  // Compiling for a named target with no device.
  nb::class_<CompileTarget>(m, "CompileTarget", "A target an API compiles for with no device.")
      .def_ro("name", &CompileTarget::name, "What compile_for_target takes, e.g. 'sm_90'.")
      .def_ro("description", &CompileTarget::description)
      .def_ro("extension", &CompileTarget::extension, "The binary's usual file extension.")
      .def("__repr__",
           [](const CompileTarget& t) { return "<plinth.CompileTarget " + t.name + ">"; });
  nb::class_<TargetBinary>(m, "TargetBinary", "A program compiled for a named target.")
      .def_prop_ro("api", [](const TargetBinary& b) { return b.api.shortcut; })
      .def_ro("target", &TargetBinary::target)
      .def_ro("extension", &TargetBinary::extension)
      .def_prop_ro(
          "binary", [](const TargetBinary& b) { return to_python_bytes(b.binary); },
          "The binary, as bytes (load it with Program.from_binaries).")
      .def_ro("log", &TargetBinary::log)
      .def_ro("source", &TargetBinary::source)
      .def_ro("kept_directory", &TargetBinary::kept_directory)
      .def("__repr__", [](const TargetBinary& b) {
        return "<plinth.TargetBinary " + b.api.shortcut + " " + b.target + ", " +
               std::to_string(b.binary.size()) + " bytes>";
      });
  m.def(
      "compile_targets",
      [](const std::string& api) {
        nb::gil_scoped_release release;
        return compile_targets(APIID{api});
      },
      nb::arg("api"),
      "The targets API `api` (a shortcut such as 'cuda') compiles for without a device. "
      "Raises PluginError if its plugin is not loaded, LogicError if it offers none.");
  m.def(
      "compile_for_target",
      [](const std::string& api, const std::string& target, const PySource& source, bool no_prelude,
         bool fast_math, const std::vector<std::string>& compiler_options, bool keep,
         const std::vector<RenderValue>& render_args, const RenderGlobals& render_globals,
         const std::vector<ConstantArray>& constant_arrays) {
        const ProgramOptions options =
            program_options(no_prelude, fast_math, compiler_options, keep, render_args,
                            render_globals, constant_arrays);
        const ProgramSource program_source_ = program_source(source);
        nb::gil_scoped_release release;
        return compile_for_target(APIID{api}, target, program_source_, options);
      },
      nb::arg("api"), nb::arg("target"), nb::arg("source"), nb::kw_only(),
      PLINTH_PROGRAM_OPTION_ARGS,
      "Renders and compiles `source` for `target` (one of compile_targets(api)'s names) with "
      "no device. " PLINTH_PROGRAM_OPTION_DOC
      " Raises PluginError, LogicError, RenderError, CompileError.");

  nb::class_<ProgramCacheInfo>(m, "ProgramCacheInfo",
                               "The compiled-program cache's state and this process's use of it.")
      .def_ro("state", &ProgramCacheInfo::state)
      .def_ro("on_disk", &ProgramCacheInfo::on_disk)
      .def_ro("directory", &ProgramCacheInfo::directory)
      .def_ro("size_limit", &ProgramCacheInfo::size_limit)
      .def_ro("size", &ProgramCacheInfo::size)
      .def_ro("entries", &ProgramCacheInfo::entries)
      .def_ro("compiled", &ProgramCacheInfo::compiled)
      .def_ro("loaded", &ProgramCacheInfo::loaded)
      .def_ro("stored", &ProgramCacheInfo::stored)
      .def_ro("rejected", &ProgramCacheInfo::rejected)
      .def("__repr__", [](const ProgramCacheInfo& i) {
        return "<plinth.ProgramCacheInfo " + i.state + ", " + std::to_string(i.entries) +
               " entries>";
      });
  m.def("program_cache_info", &program_cache_info, nb::call_guard<nb::gil_scoped_release>(),
        "The compiled-program cache's state (PLINTH_CACHE_DIR) and what it did so far.");
  m.def("clear_kernel_caches", &clear_kernel_caches,
        "Drops plinth's cached generated kernels (recipes and every Context's compiled "
        "programs); kernel objects stay valid.");
}

}  // namespace plinth::python
