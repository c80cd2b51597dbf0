#include "bindings.hpp"

namespace plinth::python {

void bind_random(nb::module_& /*m*/) {}

}  // namespace plinth::python
