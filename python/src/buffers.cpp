#include "bindings.hpp"

namespace plinth::python {

void bind_buffers(nb::module_& /*m*/) {}

}  // namespace plinth::python
