// plinth.StaticKernel (grunnur's): a kernel built for one virtual launch shape.

#include <plinth/static_kernel.hpp>

#include "bindings.hpp"
#include "kernel_args.hpp"
#include "program_options.hpp"
#include "render_values.hpp"

#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

namespace plinth::python {

void bind_static_kernels(nb::module_& m) {
  nb::class_<StaticKernel>(m, "StaticKernel",
                           "A kernel rendered and built for one virtual launch shape (grunnur's "
                           "StaticKernel): it finds its place through the `static` render "
                           "global (${static.global_id}(0), ${static.skip}()...). "
                           "`kernel(queue, *args)` launches it.")
      .def(
          "__init__",
          [](StaticKernel* self, const PyDevices& devices, const PySource& source,
             const std::string& name, nb::handle global_size, nb::handle local_size,
             bool no_prelude, bool fast_math, const std::vector<std::string>& compiler_options,
             bool keep, const std::vector<RenderValue>& render_args,
             const RenderGlobals& render_globals,
             const std::vector<ConstantArray>& constant_arrays) {
            const ProgramOptions options =
                program_options(no_prelude, fast_math, compiler_options, keep, render_args,
                                render_globals, constant_arrays);
            const ProgramSource program_source_ = program_source(source);
            const BoundMultiDevice bound = multi_device(devices);
            // Virtual sizes have any number of dimensions.
            const auto sizes = [](nb::handle object) {
              if (object.is_none()) return std::vector<std::size_t>{};
              if (PyLong_Check(object.ptr())) return std::vector{nb::cast<std::size_t>(object)};
              return nb::cast<std::vector<std::size_t>>(object);
            };
            const auto global = sizes(global_size);
            const auto local = sizes(local_size);
            nb::gil_scoped_release release;
            new (self) StaticKernel(bound, program_source_, name, global, local, options);
          },
          nb::arg("devices"), nb::arg("source"), nb::arg("name"), nb::arg("global_size"),
          nb::arg("local_size").none() = nb::none(), nb::kw_only(), PLINTH_PROGRAM_OPTION_ARGS,
          "Renders `source` (str, Template or DefTemplate) for each of `devices` (a Context or "
          "a list of its BoundDevices) with `static` and `device_params` among the globals, "
          "builds it and prepares kernel `name` for the virtual `global_size` (an int or a "
          "tuple of any length, dimension 0 fastest) and `local_size` (None: chosen per "
          "device). " PLINTH_PROGRAM_OPTION_DOC
          " Raises LogicError (e.g. a render global named 'static'), VirtualSizeError, "
          "RenderError, CompileError.")
      .def(
          "__call__",
          [](const StaticKernel& kernel, const Queue& queue, const nb::args& args) {
            const KernelArgs packed(tuple_items(args));
            kernel.launch(queue, packed.args());
          },
          nb::arg("queue"), nb::arg("args"),
          "Launches the kernel on `queue` (asynchronously) with `args`, as Kernel's call "
          "takes them (Arrays, Expressions, Buffers, numpy scalars). Raises LogicError naming "
          "the argument.")
      .def_prop_ro(
          "devices",
          [](const StaticKernel& k) {
            return std::vector<BoundDevice>(k.devices().begin(), k.devices().end());
          },
          "The devices the kernel was built for.")
      .def_prop_ro(
          "sources",
          [](const StaticKernel& k) {
            std::vector<std::string> sources;
            const PerDevice<std::string> all = k.sources();
            for (const BoundDevice& device : k.devices()) sources.push_back(all[device]);
            return sources;
          },
          "Each device's source as compiled, in the order of `devices`.")
      .def_prop_ro("program", &StaticKernel::program)
      .def("set_constant_array", &StaticKernel::set_constant_array, nb::arg("queue"),
           nb::arg("name"), nb::arg("src"),
           "Copies Buffer `src` into constant array `name` on `queue`'s device.")
      .def("real_global_size", &StaticKernel::real_global_size, nb::arg("device"),
           "The real global size the kernel is launched with on `device`.")
      .def("real_local_size", &StaticKernel::real_local_size, nb::arg("device"),
           "The real local size the kernel is launched with on `device`.")
      .def("__repr__", [](const StaticKernel& k) {
        return "<plinth.StaticKernel on " + std::to_string(k.devices().size()) + " device(s)>";
      });
}

}  // namespace plinth::python
