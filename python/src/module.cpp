#include "bindings.hpp"

#include <plinth/version.hpp>

namespace nb = nanobind;

NB_MODULE(_plinth, m) {
  m.doc() = "plinth's C++ API (the package `plinth` re-exports it; import that)";
  m.attr("__version__") = NB_TOSTRING(PLINTH_VERSION_MAJOR) "." NB_TOSTRING(
      PLINTH_VERSION_MINOR) "." NB_TOSTRING(PLINTH_VERSION_PATCH);
  using namespace plinth::python;
  bind_errors(m);
  bind_dtypes(m);
  bind_platforms(m);
  bind_contexts(m);
  bind_queues(m);
  bind_buffers(m);
  bind_programs(m);
  bind_arrays(m);
  bind_images(m);
  bind_array_creation(m);
  bind_array_indexing(m);
  bind_expressions(m);
  bind_algorithms(m);
  bind_blas(m);
  bind_random(m);
  bind_custom_kernels(m);
  bind_templates(m);
  bind_static_kernels(m);
  bind_virtual_alloc(m);
  bind_collectives(m);
  bind_interop(m);
  bind_gl_interop(m);
  bind_multi_arrays(m);
}
