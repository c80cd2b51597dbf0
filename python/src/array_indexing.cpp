#include "bindings.hpp"

namespace plinth::python {

void bind_array_indexing(nb::module_& /*m*/) {}

}  // namespace plinth::python
