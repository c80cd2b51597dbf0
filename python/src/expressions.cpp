#include "bindings.hpp"
#include "py_expression.hpp"

#include <plinth/errors.hpp>

namespace plinth::python {

const PyArray& PyExpression::evaluated() const {
  if (!value) {
    if (!queue) throw LogicError("an expression of scalars only has no queue to run on");
    value.emplace(evaluate(*queue, expression), *queue);
  }
  return *value;
}

PyArray::PyArray(const PyExpression& expression) : PyArray(expression.evaluated()) {}

void bind_expressions(nb::module_& /*m*/) {}

}  // namespace plinth::python
