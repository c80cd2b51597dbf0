#include "bindings.hpp"

namespace plinth::python {

void bind_static_kernels(nb::module_& /*m*/) {}

}  // namespace plinth::python
