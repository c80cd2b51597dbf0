#include "bindings.hpp"

namespace plinth::python {

void bind_array_creation(nb::module_& /*m*/) {}

}  // namespace plinth::python
