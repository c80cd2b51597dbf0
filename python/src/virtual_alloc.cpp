#include "bindings.hpp"

namespace plinth::python {

void bind_virtual_alloc(nb::module_& /*m*/) {}

}  // namespace plinth::python
