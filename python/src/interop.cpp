#include "bindings.hpp"

namespace plinth::python {

void bind_interop(nb::module_& /*m*/) {}

}  // namespace plinth::python
