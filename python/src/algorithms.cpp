#include "bindings.hpp"

namespace plinth::python {

void bind_algorithms(nb::module_& /*m*/) {}

}  // namespace plinth::python
