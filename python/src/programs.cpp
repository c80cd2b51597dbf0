#include "bindings.hpp"

namespace plinth::python {

void bind_programs(nb::module_& /*m*/) {}

}  // namespace plinth::python
