#include "bindings.hpp"

namespace plinth::python {

void bind_templates(nb::module_& /*m*/) {}

}  // namespace plinth::python
