#include "bindings.hpp"

namespace plinth::python {

void bind_collectives(nb::module_& /*m*/) {}

}  // namespace plinth::python
