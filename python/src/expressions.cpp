#include "bindings.hpp"

namespace plinth::python {

void bind_expressions(nb::module_& /*m*/) {}

}  // namespace plinth::python
