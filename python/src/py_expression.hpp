#pragma once

// plinth.Expression: the lazy ArrayExpression that Python's operators and math functions build
// (`x * 2 + 1` is one expression, one kernel), with the queue it will run on (the first
// array operand's default queue) and, once it has been used as an array, its value.

#include <plinth/array_expression.hpp>

#include "py_array.hpp"

#include <memory>
#include <mutex>
#include <optional>

namespace plinth::python {

struct PyExpression {
  ArrayExpression expression;
  /// Where it is evaluated: the default queue of its first array operand (none for an
  /// expression of scalars only, which cannot be evaluated on its own).
  std::optional<Queue> queue;
  /// The value, once evaluated (expressions.cpp: evaluated()). Later changes to the arrays
  /// it was built from do not change it: an expression is evaluated at most once.
  mutable std::optional<PyArray> value;
  /// Guards `value`: callers evaluate with the GIL released, so two Python threads may
  /// evaluate one expression at once (copies share it: a coarser lock, no harm).
  std::shared_ptr<std::mutex> mutex = std::make_shared<std::mutex>();

  /// The value, evaluating the expression into a new Array the first time (thread-safe;
  /// needs no GIL). Throws LogicError for an expression without a queue.
  const PyArray& evaluated() const;
};

}  // namespace plinth::python
