#include "bindings.hpp"

namespace plinth::python {

void bind_custom_kernels(nb::module_& /*m*/) {}

}  // namespace plinth::python
